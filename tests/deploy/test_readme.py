"""deploy/README.md documents every setting the ConfigMap and compose carry, with the ConfigMap's default."""
from __future__ import annotations

import re

from .manifests import DEPLOY, K8S, ROOT, compose, compose_environment, find, kustomize


def settings_table() -> dict[str, str]:
    text = (DEPLOY / "README.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\| `([A-Z_]+)` \| ([^|]*) \|", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def test_every_setting_is_documented_with_its_default():
    rows = settings_table()
    config = find(kustomize(K8S), "ConfigMap")["data"]
    names = set(config) | set(compose_environment(compose()["services"]["referee"]))
    assert names <= set(rows), f"undocumented in deploy/README.md: {sorted(names - set(rows))}"
    for name, value in config.items():
        shown = f"`{value}`" if value else "unset"
        assert shown in rows[name], f"deploy/README.md gives {name} the default {rows[name]!r}, the ConfigMap {value!r}"


def test_the_readme_names_files_that_exist():
    text = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for path in re.findall(r"`((?:\.\./)?(?:k8s/[\w./-]*|[\w.-]+\.(?:yaml|py)|Dockerfile|\.dockerignore))`", text):
        if path.endswith((".yaml", ".py", "Dockerfile", ".dockerignore")) or path.endswith("/"):
            assert (DEPLOY / path).exists() or (ROOT / path).exists(), \
                f"deploy/README.md names {path}, which does not exist"


def test_the_table_documents_no_setting_that_is_gone():
    rows = settings_table()
    config = find(kustomize(K8S), "ConfigMap")["data"]
    names = set(config) | set(compose_environment(compose()["services"]["referee"]))
    assert set(rows) <= names, f"deploy/README.md documents settings nothing reads: {sorted(set(rows) - names)}"
