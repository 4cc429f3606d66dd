"""Readers for the deployment files, small and strict enough to test them without Docker or kubectl: a Dockerfile
parser, the .dockerignore matcher, compose's variable interpolation, a minimal `kustomize build` (resources and
strategic-merge patches of maps, nothing else) and gunicorn's effective settings for a given environment."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "compose.yaml"
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"


# --------------------------------------------------------------------------------------------------- Dockerfile

@dataclass
class Instruction:
    keyword: str  # upper case
    args: str
    line: int

    def flags_and_rest(self) -> tuple[dict[str, str], str]:
        """`COPY --from=build a b` -> ({"from": "build"}, "a b")."""
        flags: dict[str, str] = {}
        rest = self.args
        while rest.startswith("--"):
            token, _, rest = rest.partition(" ")
            name, _, value = token[2:].partition("=")
            flags[name] = value
            rest = rest.lstrip()
        return flags, rest


@dataclass
class Stage:
    base: str
    name: str | None
    index: int
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction | None:
        found = self.all(keyword)
        return found[-1] if found else None


def dockerfile_instructions(text: str) -> list[Instruction]:
    """Logical instructions: comments dropped (also inside continuations), `\\` continuations joined."""
    instructions: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # a comment or blank line inside a continuation is skipped, as Docker does
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1].strip())
            continue
        pending.append(line)
        logical = " ".join(part for part in pending if part)
        pending = []
        keyword, _, args = logical.partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip(), start))
    assert not pending, "the Dockerfile ends inside a line continuation"
    return instructions


def expand(value: str, env: dict[str, str]) -> str:
    """Docker's `$VAR`, `${VAR}` and `${VAR:-default}` substitution."""
    def replace(match: re.Match) -> str:
        name = match.group(1) or match.group(3)
        default = match.group(2)
        found = env.get(name, "")
        return found if found or default is None else default

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)", replace, value)


@dataclass
class Dockerfile:
    global_args: dict[str, str]
    stages: list[Stage]

    @property
    def final(self) -> Stage:
        return self.stages[-1]

    def stage(self, name_or_index: str) -> Stage:
        for stage in self.stages:
            if stage.name == name_or_index or str(stage.index) == name_or_index:
                return stage
        raise KeyError(name_or_index)


def parse_dockerfile(path: Path = DOCKERFILE) -> Dockerfile:
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for instruction in dockerfile_instructions(path.read_text(encoding="utf-8")):
        if instruction.keyword == "FROM":
            flags, rest = instruction.flags_and_rest()
            parts = rest.split()
            base = expand(parts[0], global_args)
            name = parts[2] if len(parts) == 3 and parts[1].upper() == "AS" else None
            assert len(parts) in (1, 3), f"line {instruction.line}: cannot read FROM {rest!r}"
            stages.append(Stage(base, name, len(stages)))
        elif not stages:
            assert instruction.keyword == "ARG", f"line {instruction.line}: only ARG may precede the first FROM"
            name, _, default = instruction.args.partition("=")
            global_args[name.strip()] = default.strip().strip('"')
        else:
            stages[-1].instructions.append(instruction)
    return Dockerfile(global_args, stages)


def exec_form(args: str) -> list[str] | None:
    """The argument list of an exec-form (JSON array) instruction, or None for the shell form."""
    if not args.lstrip().startswith("["):
        return None
    try:
        value = json.loads(args)
    except json.JSONDecodeError:
        return None  # Docker treats an invalid JSON array as the shell form
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return value


def healthcheck(instruction: Instruction) -> tuple[dict[str, str], list[str] | None]:
    """(options such as {"interval": "15s"}, exec-form command or None)."""
    flags, rest = instruction.flags_and_rest()
    keyword, _, command = rest.partition(" ")
    assert keyword.upper() == "CMD", f"line {instruction.line}: HEALTHCHECK must be followed by CMD"
    return flags, exec_form(command)


def env_pairs(instruction: Instruction) -> list[tuple[str, str]]:
    """`ENV A=1 B="x y"` (or the legacy `ENV A 1`) as pairs."""
    tokens = shlex.split(instruction.args)
    if tokens and "=" not in tokens[0]:
        return [(tokens[0], " ".join(tokens[1:]))]
    return [tuple(token.split("=", 1)) for token in tokens]  # type: ignore[misc]


def duration_seconds(text: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    total = 0.0
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", text):
        total += float(number) * units[unit]
    return total


# ------------------------------------------------------------------------------------------------ .dockerignore

def _pattern_regex(pattern: str) -> re.Pattern:
    out, i = "", 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
            continue
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "[":
            end = pattern.index("]", i + 1)
            body = pattern[i + 1:end]
            if body.startswith(("!", "^")):
                body = "^" + body[1:]
            out += f"[{body}]"
            i = end
        else:
            out += re.escape(char)
        i += 1
    return re.compile(out + r"\Z")


def dockerignore_rules(path: Path = DOCKERIGNORE) -> list[tuple[bool, re.Pattern, str]]:
    """(exception?, regex, pattern) in file order."""
    rules = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = os.path.normpath(line[1:].strip() if negate else line).lstrip("/")
        rules.append((negate, _pattern_regex(pattern), pattern))
    return rules


def is_ignored(relative: str, rules: list[tuple[bool, re.Pattern, str]]) -> bool:
    """Docker's rule: the last pattern matching the path, or one of its parent directories, decides."""
    parts = relative.split("/")
    candidates = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    ignored = False
    for negate, regex, _ in rules:
        if any(regex.match(candidate) for candidate in candidates):
            ignored = not negate
    return ignored


def build_context(root: Path = ROOT, rules: list | None = None) -> list[str]:
    """The files (relative, POSIX) that `docker build` would send."""
    rules = dockerignore_rules() if rules is None else rules
    exceptions = [pattern for negate, _, pattern in rules if negate]
    files: list[str] = []
    for directory, dirnames, filenames in os.walk(root):
        relative_dir = Path(directory).relative_to(root).as_posix()
        relative_dir = "" if relative_dir == "." else relative_dir
        keep = []
        for name in sorted(dirnames):
            relative = f"{relative_dir}/{name}" if relative_dir else name
            reincluded = any(pattern.startswith(relative + "/") or "**" in pattern for pattern in exceptions)
            if not is_ignored(relative, rules) or reincluded:
                keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            relative = f"{relative_dir}/{name}" if relative_dir else name
            if not is_ignored(relative, rules):
                files.append(relative)
    return files


# ------------------------------------------------------------------------------------------------------ compose

def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def interpolate(value: Any, environ: dict[str, str] | None = None) -> Any:
    """compose's `${VAR}`, `${VAR:-default}` (unset or empty), `${VAR-default}` (unset only) and `$$`."""
    if not isinstance(value, str):
        return value
    environ = {} if environ is None else environ

    def replace(match: re.Match) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, default = match.group(1), match.group(2), match.group(3)
        if operator == ":-":
            return environ.get(name) or default
        if operator == "-":
            return environ[name] if name in environ else default
        return environ.get(name, "")

    return re.sub(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|-)([^}]*))?\}", replace, value)


def compose_environment(service: dict[str, Any], environ: dict[str, str] | None = None) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {key: str(interpolate(value, environ)) for key, value in env.items()}


# ---------------------------------------------------------------------------------------------------- kustomize

KUSTOMIZATION_KEYS = {"apiVersion", "kind", "resources", "patches"}


def load_documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def _identity(doc: dict[str, Any]) -> tuple[str, str, str]:
    return doc.get("apiVersion", ""), doc.get("kind", ""), (doc.get("metadata") or {}).get("name", "")


def _merge(target: dict[str, Any], patch: dict[str, Any]) -> None:
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        elif isinstance(value, list):
            raise AssertionError("this minimal kustomize does not merge lists: patch maps only")
        else:
            target[key] = value


def kustomize(directory: Path) -> list[dict[str, Any]]:
    """`kustomize build directory` for what this repository uses: resources (files and directories) and
    strategic-merge patches of maps (`$patch: delete` too). Anything else fails loudly."""
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text(encoding="utf-8"))
    unknown = set(kustomization) - KUSTOMIZATION_KEYS
    assert not unknown, f"{directory}: kustomization fields this test cannot render: {sorted(unknown)}"
    assert kustomization["kind"] == "Kustomization"
    documents: list[dict[str, Any]] = []
    for resource in kustomization.get("resources", []):
        path = (directory / resource).resolve()
        assert path.exists(), f"{directory}/kustomization.yaml: resource {resource} does not exist"
        documents += kustomize(path) if path.is_dir() else load_documents(path)
    for entry in kustomization.get("patches", []):
        assert set(entry) <= {"path", "patch"}, f"{directory}: unsupported patch fields {sorted(entry)}"
        patch = yaml.safe_load((directory / entry["path"]).read_text(encoding="utf-8")) if "path" in entry \
            else yaml.safe_load(entry["patch"])
        matches = [doc for doc in documents if _identity(doc) == _identity(patch)]
        assert len(matches) == 1, f"{directory}: patch {_identity(patch)} matches {len(matches)} resources"
        if patch.get("$patch") == "delete":
            documents.remove(matches[0])
        else:
            _merge(matches[0], {key: value for key, value in patch.items() if key not in ("apiVersion", "kind")})
    identities = [_identity(doc)[1:] for doc in documents]
    assert len(identities) == len(set(identities)), f"{directory}: duplicate resources {identities}"
    return documents


def find(documents: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [doc for doc in documents if doc["kind"] == kind and (name is None or doc["metadata"]["name"] == name)]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def find_all(documents: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [doc for doc in documents if doc["kind"] == kind]


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(key) == value for key, value in selector.items())


# ----------------------------------------------------------------------------------------------------- gunicorn

def gunicorn_settings(env: dict[str, str], metrics_dir: Path) -> dict[str, Any]:
    """What deploy/gunicorn.conf.py computes for this environment (run in a child: it reads os.environ and
    prepares the metrics directory)."""
    code = ("import json, runpy, sys; ns = runpy.run_path(sys.argv[1]); "
            "print(json.dumps({k: ns[k] for k in ('bind', 'workers', 'threads', 'timeout', 'graceful_timeout', "
            "'worker_class', 'max_requests')}))")
    child_env = {"PATH": os.environ.get("PATH", ""), **env, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    done = subprocess.run([sys.executable, "-c", code, str(GUNICORN_CONF)], env=child_env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
