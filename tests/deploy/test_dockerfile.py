"""The Dockerfile's essentials, read without Docker: multi-stage on slim Python 3.11, a non-editable venv copied
into the final stage with the contract, a numeric non-root user, exec-form CMD running gunicorn with the
repository's config, a HEALTHCHECK in Python, no remote ADD; and a build context that holds what the COPYs need
and nothing of .git, tests or bench."""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

import pytest

from service.api import docs

from .manifests import ROOT, build_context, dockerignore_rules, env_pairs, exec_form, healthcheck, \
    is_ignored, parse_dockerfile

SLIM_311 = re.compile(r"^(docker\.io/(library/)?)?python:3\.11(\.\d+)?-slim(-[a-z]+)?(@sha256:[0-9a-f]{64})?$")


@pytest.fixture(scope="module")
def dockerfile():
    return parse_dockerfile()


def copies(stage):
    """(flags, sources, destination) of each COPY (exec form or plain)."""
    found = []
    for instruction in stage.all("COPY"):
        flags, rest = instruction.flags_and_rest()
        parts = exec_form(rest) or rest.split()
        found.append((flags, parts[:-1], parts[-1]))
    return found


def workdir(stage) -> PurePosixPath:
    current = PurePosixPath("/")
    for instruction in stage.all("WORKDIR"):
        current = current / instruction.args
    return current


def test_multi_stage_on_slim_python_311(dockerfile):
    assert len(dockerfile.stages) >= 2, "build the venv in one stage, run from another"
    for stage in dockerfile.stages:
        assert SLIM_311.match(stage.base), f"stage {stage.name or stage.index} is based on {stage.base!r}"
    names = [stage.name for stage in dockerfile.stages[:-1]]
    used = {flags.get("from") for flags, _, _ in copies(dockerfile.final)}
    assert used & set(names), "the final stage copies nothing from the build stage"


def test_build_stage_installs_the_project_non_editable_into_a_venv(dockerfile):
    build = dockerfile.stages[0]
    runs = " && ".join(instruction.args for instruction in build.all("RUN"))
    assert re.search(r"python3?(\.\d+)? -m venv /opt/venv\b", runs), runs
    installs = re.findall(r"pip install ([^&;]*)", runs)
    assert installs, "the build stage never pip-installs the project"
    assert any(re.search(r"(^|\s)\.(\s|$)", args) for args in installs), installs
    assert not any(re.search(r"(^|\s)(-e|--editable)(\s|=|$)", args) for args in installs), \
        "an editable install would leave the package pointing at /src, which the final stage does not have"
    sources = {source for _, sources, _ in copies(build) for source in sources}
    assert {"pyproject.toml", "README.md", "service"} <= sources, \
        "the package build needs pyproject.toml, the README it names and the package"


def test_final_stage_copies_the_venv_the_contract_and_the_gunicorn_config(dockerfile):
    final = dockerfile.final
    build_names = {stage.name for stage in dockerfile.stages[:-1]}
    venvs = [(sources, dest) for flags, sources, dest in copies(final) if flags.get("from") in build_names]
    assert (["/opt/venv"], "/opt/venv") in venvs, venvs
    # the service reads the contract from the parent directory of its package: the venv's site-packages
    assert docs.SPEC_PATH == Path(docs.__file__).resolve().parents[2] / "openapi.yaml"
    contract = [dest for flags, sources, dest in copies(final) if sources == ["openapi.yaml"]]
    assert contract == ["/opt/venv/lib/python3.11/site-packages/openapi.yaml"], contract
    cmd = exec_form(final.last("CMD").args)
    config = PurePosixPath(cmd[cmd.index("--config") + 1])
    config = config if config.is_absolute() else workdir(final) / config
    copied = {(workdir(final) / dest if not PurePosixPath(dest).is_absolute() else PurePosixPath(dest))
              for _, sources, dest in copies(final) if sources == ["deploy/gunicorn.conf.py"]}
    assert copied == {config}, f"CMD reads {config}, the gunicorn config is copied to {copied}"


def test_final_stage_runs_as_a_numeric_non_root_user(dockerfile):
    user = dockerfile.final.last("USER")
    assert user is not None, "the final stage has no USER: it would run as root"
    uid, _, gid = user.args.partition(":")
    assert uid.isdigit() and int(uid) != 0, "USER must be a numeric uid (Kubernetes' runAsNonRoot checks it)"
    assert not gid or (gid.isdigit() and int(gid) != 0)
    later = [i.keyword for i in dockerfile.final.instructions if i.line > user.line]
    assert "RUN" not in later, "RUN after USER would run as the service user (and a change of USER as root)"


def test_cmd_is_exec_form_gunicorn_with_the_repository_config(dockerfile):
    final = dockerfile.final
    for keyword in ("CMD", "ENTRYPOINT"):
        for instruction in final.all(keyword):
            assert exec_form(instruction.args) is not None, f"{keyword} must be exec (JSON) form: {instruction.args}"
    entrypoint = final.last("ENTRYPOINT")
    argv = (exec_form(entrypoint.args) if entrypoint else []) + exec_form(final.last("CMD").args)
    assert Path(argv[0]).name == "gunicorn", argv
    assert argv[argv.index("--config") + 1] in ("deploy/gunicorn.conf.py", "/app/deploy/gunicorn.conf.py")
    assert argv[-1] == "service.api:create_app()"
    assert not {"-b", "--bind", "-w", "--workers"} & set(argv), \
        "bind and workers come from HOST/PORT/WEB_CONCURRENCY (deploy/gunicorn.conf.py), not the command line"


def test_environment_ports_and_metrics_dir(dockerfile):
    final = dockerfile.final
    env = dict(pair for instruction in final.all("ENV") for pair in env_pairs(instruction))
    assert env["PATH"].startswith("/opt/venv/bin:")
    assert env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/"), "the metrics files belong on the tmpfs"
    assert env.get("PYTHONDONTWRITEBYTECODE") == "1", "the root filesystem is read-only at run time"
    assert env["WEB_CONCURRENCY"].isdigit(), "gunicorn's default counts the host's cores, not the container's"
    assert env["PORT"] == "8000"
    assert [i.args for i in final.all("EXPOSE")] == ["8000"]


def test_healthcheck_asks_healthz_with_python(dockerfile):
    instruction = dockerfile.final.last("HEALTHCHECK")
    assert instruction is not None, "no HEALTHCHECK"
    options, command = healthcheck(instruction)
    assert command is not None, "HEALTHCHECK CMD must be exec form"
    assert command[0] in ("python", "python3", "/opt/venv/bin/python"), "the slim image has no curl"
    assert "/healthz" in " ".join(command), "the health check asks the liveness probe (never Redis)"
    assert {"interval", "timeout", "retries"} <= set(options)


def test_no_remote_add(dockerfile):
    for stage in dockerfile.stages:
        for instruction in stage.all("ADD"):
            assert "://" not in instruction.args and not instruction.args.startswith("git@"), \
                f"line {instruction.line}: ADD of a remote source; download in a RUN with a checksum instead"


def test_dockerignore_keeps_history_tests_and_benchmarks_out():
    rules = dockerignore_rules()
    for path in (".git", ".git/config", "tests", "tests/deploy/test_dockerfile.py", "bench", "bench/engine.py",
                 "service/__pycache__/x.cpython-311.pyc", "tower_referee.egg-info/PKG-INFO", ".venv/bin/python",
                 "deploy/k8s/deployment.yaml", "compose.yaml"):
        assert is_ignored(path, rules), f"{path} is sent to the Docker build"
    context = build_context()
    assert not [path for path in context if path.split("/")[0] in (".git", "tests", "bench")]


def test_every_copy_source_is_in_the_build_context(dockerfile):
    context = set(build_context())
    for stage in dockerfile.stages:
        for flags, sources, _ in copies(stage):
            if "from" in flags:
                continue
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such file"
                if (ROOT / source).is_dir():
                    inside = [path for path in context if path.startswith(source.rstrip("/") + "/")]
                    assert any(path.endswith(".py") for path in inside), f"COPY {source}: excluded by .dockerignore"
                else:
                    assert source in context, f"COPY {source}: excluded by .dockerignore"

