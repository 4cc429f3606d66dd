"""openapi.yaml passes Spectral's `spectral:oas` ruleset with nothing to report, warnings included (operationIds,
descriptions, unused components, examples that fit their schemas, …).

Spectral comes from the npm registry: `scripts/test` installs @stoplight/spectral-cli into build/npm. The test
fails, never skips, when it is missing; it downloads nothing itself."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPECTRAL = Path(os.environ.get("SPECTRAL", ROOT / "build" / "npm" / "node_modules" / ".bin" / "spectral"))
INSTALL = "npm install --prefix build/npm '@stoplight/spectral-cli@6' (scripts/test does)"


def _lint(tmp_path: Path, spec: Path) -> list[dict]:
    if not SPECTRAL.exists():
        pytest.fail(f"Spectral is missing at {SPECTRAL}: {INSTALL}", pytrace=False)
    ruleset = tmp_path / ".spectral.yaml"
    ruleset.write_text('extends: ["spectral:oas"]\n', encoding="utf-8")
    done = subprocess.run([str(SPECTRAL), "lint", "--ruleset", str(ruleset), "--format", "json", "--quiet",
                           "--fail-severity", "hint", str(spec)], capture_output=True, text=True, timeout=300,
                          check=False, cwd=tmp_path)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"Spectral did not run ({done.returncode}):\n{done.stdout[-2000:]}\n"
                             f"{done.stderr[-2000:]}") from None


def test_spectral_oas_ruleset_reports_nothing(tmp_path):
    findings = _lint(tmp_path, ROOT / "openapi.yaml")
    assert [f"{'.'.join(map(str, f['path']))}: {f['code']}: {f['message']}" for f in findings] == []


def test_spectral_does_report_a_warning(tmp_path):
    """Guard against a vacuous pass: an operation without operationId and description is reported."""
    spec = tmp_path / "bare.yaml"
    spec.write_text("openapi: 3.1.0\ninfo: {title: t, version: '1', description: d, contact: {name: c}}\n"
                    "servers: [{url: /}]\ntags: [{name: a, description: a}]\n"
                    "paths:\n  /a:\n    get:\n      tags: [a]\n      responses:\n"
                    "        '200': {description: ok}\n", encoding="utf-8")
    codes = {finding["code"] for finding in _lint(tmp_path, spec)}
    assert {"operation-operationId", "operation-description"} <= codes
