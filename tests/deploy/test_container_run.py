"""Run the service the way the container does, without Docker (there is no engine here).

The Dockerfile is replayed into directories standing for each stage's filesystem: its COPYs from the build
context as .dockerignore filters it, its WORKDIR and ENV, and its RUN steps (a venv, then a real non-editable
`pip install` of the project; the dependencies come from the test environment instead of being downloaded: the
venv sees the base interpreter's site-packages and, through a .pth, those of the interpreter running the tests,
which may itself be a virtualenv). Then the final stage's CMD is run from its WORKDIR with the image's
ENV and the small install's ConfigMap (deploy/k8s/redis), only the bind address (a free loopback port),
REDIS_URL (a real redis-server started with the Redis Deployment's own arguments) and the container paths (mapped
into the replica) differing. Checked: the probes and the image's HEALTHCHECK, /readyz on Redis, the cache shared
by the workers (`X-Cache: hit`), /metrics in multiprocess mode, the contract served from the image, then Redis
killed (degraded, still 200, still answering), then SIGTERM (a clean exit within gunicorn's graceful_timeout).
"""
from __future__ import annotations

import contextlib
import http.client
import importlib
import json
import os
import re
import shutil
import signal
import site
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from .manifests import K8S, ROOT, build_context, duration_seconds, env_pairs, exec_form, expand, find, \
    gunicorn_settings, healthcheck, kustomize, parse_dockerfile

REDIS_BINARY = "/usr/bin/redis-server"
NEW = "/v1/games/torri/new"


# ------------------------------------------------------------------------------------------ the image, replayed

@dataclass
class Replica:
    rootfs: Path  # the final stage's filesystem
    context: Path  # the build context, as .dockerignore filters it
    workdir: Path
    venv: Path
    env: dict[str, str]  # the image's ENV, container paths mapped into rootfs
    cmd: list[str]
    healthcheck: list[str]
    healthcheck_timeout: float

    def host(self, container_path: str) -> Path:
        return self.rootfs / container_path.lstrip("/")

    def map_value(self, value: str) -> str:
        """Container paths (in a value or a PATH-like list) that exist in the replica, mapped to it."""
        parts = []
        for part in value.split(":"):
            first = PurePosixPath(part).parts[1:2]
            parts.append(str(self.host(part)) if part.startswith("/") and first and
                         self.host("/" + first[0]).exists() else part)
        return ":".join(parts)


def _copy(source: Path, destination: Path, into_directory: bool) -> None:
    assert source.exists(), f"COPY: {source} is not in the build context (or the build stage)"
    if source.is_dir():
        shutil.copytree(source, destination, symlinks=True, dirs_exist_ok=True)  # the directory's contents
        return
    target = destination / source.name if into_directory or destination.is_dir() else destination
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)


def _pip_build_flags() -> list[str]:
    """Build without downloading setuptools when this interpreter already has a recent enough one (>= 68, and
    able to build wheels: >= 70.1, or the wheel package); otherwise pip builds in isolation, as `docker build`."""
    import importlib.util
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = tuple(int(part) for part in re.findall(r"\d+", version("setuptools"))[:2])
    except PackageNotFoundError:
        return []
    if found >= (70, 1) or (found >= (68, 0) and importlib.util.find_spec("wheel") is not None):
        return ["--no-build-isolation"]
    return []


def site_directories_here() -> list[str]:
    """Where this interpreter finds its packages: its own site-packages (a virtualenv's, when the tests run in
    one) and the user's, as far as they are on sys.path."""
    found = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    return [path for path in dict.fromkeys(found) if path in sys.path and Path(path).is_dir()]


def _see_the_test_packages(venv: Path) -> None:
    """`--system-site-packages` shows the base interpreter's packages; when the tests run in a virtualenv, the
    packages they run with are that virtualenv's. A .pth in the replica's venv adds this interpreter's site
    directories after its own (as site directories, so their .pth files apply there as they do here)."""
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    done = subprocess.run([str(venv / "bin" / "python"), "-c", purelib], capture_output=True, text=True, timeout=60,
                          check=True)
    line = "import site; " + "; ".join(f"site.addsitedir({path!r})" for path in site_directories_here())
    (Path(done.stdout.strip()) / "tower_referee_test_environment.pth").write_text(line + "\n")


def _run_step(command: str, rootfs: Path, cwd: PurePosixPath, env: dict[str, str]) -> None:
    host = lambda path: rootfs / str(path).lstrip("/")  # noqa: E731
    venv = re.fullmatch(r"python3?(?:\.\d+)? -m venv (\S+)", command)
    install = re.fullmatch(r"(?:python3? -m )?pip install((?: --?[\w-]+(?:=\S+)?)*) \.", command)
    if venv:
        target = host(venv.group(1))
        done = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(target)],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        env["__venv__"] = venv.group(1)
    elif install:
        python = host(env["__venv__"]) / "bin" / "python"
        argv = [str(python), "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", *_pip_build_flags(),
                *install.group(1).split(), str(host(cwd))]
        child_env = {**os.environ, **{k: v for k, v in env.items() if k.startswith("PIP_")}}
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False, env=child_env)
        assert done.returncode == 0, f"{' '.join(argv)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    elif re.fullmatch(r"pip check", command):
        pass  # the dependencies are this test environment's, checked when it was installed
    elif re.match(r"(groupadd|useradd) ", command):
        home = re.search(r"(?:--home-dir|-d)[ =](\S+)", command)
        if home:
            env["__home__"] = home.group(1)  # Docker sets HOME from the user's passwd entry
        # the test runs as the current user
    else:
        pytest.fail(f"the Dockerfile RUNs `{command}`, which tests/deploy/test_container_run.py cannot replay: "
                    "teach it (_run_step)", pytrace=False)


def replay_dockerfile(tmp: Path) -> Replica:
    dockerfile = parse_dockerfile()
    context = tmp / "context"
    for relative in build_context():
        target = context / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, target)
    filesystems: dict[str, Path] = {}
    env: dict[str, str] = {}
    cwd = PurePosixPath("/")
    for stage in dockerfile.stages:
        rootfs = tmp / f"stage-{stage.index}"
        (rootfs / "tmp").mkdir(parents=True)
        env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")}  # the base image's
        cwd = PurePosixPath("/")
        for instruction in stage.instructions:
            keyword = instruction.keyword
            if keyword == "WORKDIR":
                cwd = cwd / expand(instruction.args, env)
                (rootfs / str(cwd).lstrip("/")).mkdir(parents=True, exist_ok=True)
            elif keyword == "ENV":
                for name, value in env_pairs(instruction):
                    env[name] = expand(value, env)
            elif keyword == "COPY":
                flags, rest = instruction.flags_and_rest()
                parts = exec_form(rest) or rest.split()
                sources, destination = parts[:-1], parts[-1]
                origin = filesystems[flags["from"]] if "from" in flags else context
                target = PurePosixPath(destination) if destination.startswith("/") else cwd / destination
                for source in sources:
                    assert not set(source) & set("*?["), "globs in COPY are not replayed"
                    _copy(origin / source.lstrip("/"), rootfs / str(target).lstrip("/"),
                          into_directory=len(sources) > 1 or destination.endswith("/"))
            elif keyword == "RUN":
                for command in re.split(r"\s*&&\s*", instruction.args):
                    _run_step(command.strip(), rootfs, cwd, env)
            elif keyword not in ("USER", "EXPOSE", "LABEL", "STOPSIGNAL", "HEALTHCHECK", "CMD", "ENTRYPOINT", "ARG"):
                pytest.fail(f"Dockerfile line {instruction.line}: {keyword} is not replayed", pytrace=False)
        filesystems[str(stage.index)] = rootfs
        if stage.name:
            filesystems[stage.name] = rootfs
    final = dockerfile.final
    entrypoint = final.last("ENTRYPOINT")
    cmd = (exec_form(entrypoint.args) if entrypoint else []) + exec_form(final.last("CMD").args)
    options, check = healthcheck(final.last("HEALTHCHECK"))
    venv_bin = [part for part in env["PATH"].split(":") if (rootfs / part.lstrip("/") / "python").exists()]
    assert venv_bin, "the final stage's PATH has no python from the copied venv"
    replica = Replica(rootfs=rootfs, context=context, workdir=rootfs / str(cwd).lstrip("/"),
                      venv=(rootfs / venv_bin[0].lstrip("/")).parent, env={}, cmd=cmd, healthcheck=check,
                      healthcheck_timeout=duration_seconds(options.get("timeout", "30s")))
    _see_the_test_packages(replica.venv)  # once built: the project's own build keeps to its build environment
    replica.env = {name: replica.map_value(value) for name, value in env.items() if not name.startswith("__")}
    replica.env.setdefault("HOME", replica.map_value(env.get("__home__", "/")))
    return replica


def resolve(argv: list[str], replica: Replica) -> list[str]:
    """argv[0] looked up on the image's PATH. gunicorn is a dependency of the project: in the image it is
    /opt/venv/bin/gunicorn; in this replica's venv (system site-packages) it runs as `python -m gunicorn`."""
    name = argv[0]
    found = shutil.which(name, path=replica.env["PATH"])
    if found and Path(found).is_relative_to(replica.venv):
        return [found, *argv[1:]]
    if Path(name).name == "gunicorn":
        return [str(replica.venv / "bin" / "python"), "-m", "gunicorn", *argv[1:]]
    assert found, f"{name} is not on the image's PATH"
    return [found, *argv[1:]]


def written_outside_tmp(replica: Replica) -> set[tuple[str, int]]:
    """Every path of the replica's root filesystem outside /tmp, with its modification time."""
    tmp = replica.host("/tmp")
    found = set()
    for path in replica.rootfs.rglob("*"):
        if path != tmp and not path.is_relative_to(tmp):
            found.add((str(path.relative_to(replica.rootfs)), path.lstat().st_mtime_ns))
    return found


# ------------------------------------------------------------------------------------------------- processes

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisProcess:
    def __init__(self, args: list[str], workdir: Path) -> None:
        if not os.access(REDIS_BINARY, os.X_OK):
            pytest.fail(f"{REDIS_BINARY} is missing: the deploy tests need a real Redis "
                        "(apt-get install redis-server)", pytrace=False)
        self.port = free_port()
        workdir.mkdir(parents=True, exist_ok=True)
        self.log = workdir / "redis.log"
        argv = [REDIS_BINARY, *args, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(workdir),
                "--daemonize", "no", "--logfile", str(self.log)]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        client = self.client()
        deadline = time.monotonic() + 10
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"redis-server exited: {self.process.stderr.read().decode(errors='replace')}"
                            f"{self.log.read_text(errors='replace') if self.log.exists() else ''}", pytrace=False)
            try:
                if client.ping():
                    break
            except redis.RedisError:
                pass
            assert time.monotonic() < deadline, "redis-server did not answer PING"
            time.sleep(0.05)
        client.close()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, socket_connect_timeout=2)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()


def request(port: int, method: str, path: str, body: object | None = None, timeout: float = 15):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def get_json(port: int, path: str) -> tuple[int, dict]:
    status, _, body = request(port, "GET", path)
    return status, json.loads(body)


# --------------------------------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def replica(tmp_path_factory) -> Replica:
    return replay_dockerfile(tmp_path_factory.mktemp("image"))


@pytest.fixture(scope="module")
def small_install():
    """The rendered small install (deploy/k8s/redis): the referee's ConfigMap and Deployment, Redis' args."""
    documents = kustomize(K8S / "redis")
    app = find(documents, "Deployment", "tower-referee")["spec"]["template"]["spec"]["containers"][0]
    redis_container = find(documents, "Deployment", "tower-referee-redis")["spec"]["template"]["spec"]["containers"][0]
    return find(documents, "ConfigMap")["data"], app, redis_container["args"]


@pytest.fixture
def redis_server(small_install, tmp_path):
    _, _, args = small_install
    assert args[0] == "redis-server"
    server = RedisProcess(args[1:], tmp_path / "redis")
    yield server
    server.kill()


def test_the_replica_imports_the_installed_package_not_the_source_tree(replica):
    code = ("import service, service.api.docs as docs, gunicorn; print(service.__file__); "
            "print(docs.SPEC_PATH); print(docs.SPEC_PATH.exists())")
    done = subprocess.run([str(replica.venv / "bin" / "python"), "-c", code], cwd=replica.workdir,
                          env=replica.env | {"PYTHONNOUSERSITE": "1"}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    package, spec, exists = done.stdout.split()
    assert Path(package).is_relative_to(replica.venv), f"`service` came from {package}, not the image's venv"
    assert exists == "True", f"the service reads its contract from {spec}, which the image does not have"
    assert not (replica.workdir / "service").exists(), "the final stage must not carry the source tree"
    # the wheel carries every file of the package (templates, static assets, data), not just the Python
    files = lambda top: {p.relative_to(top).as_posix() for p in top.rglob("*")  # noqa: E731
                         if p.is_file() and "__pycache__" not in p.parts}
    missing = files(replica.context / "service") - files(Path(package).parent)
    assert not missing, f"not in the installed package (package-data in pyproject.toml?): {sorted(missing)}"


def test_the_replica_runs_with_the_packages_the_tests_run_with(replica):
    """The image installs the dependencies; the replica borrows this interpreter's, in a virtualenv or not."""
    modules = ("flask", "limits", "gunicorn", "redis", "prometheus_client")
    code = "import importlib, sys; print(*(importlib.import_module(name).__file__ for name in sys.argv[1:]))"
    done = subprocess.run([str(replica.venv / "bin" / "python"), "-c", code, *modules], cwd=replica.workdir,
                          env=replica.env | {"PYTHONNOUSERSITE": "1"}, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    here = [importlib.import_module(name).__file__ for name in modules]
    assert dict(zip(modules, done.stdout.split())) == dict(zip(modules, here))


def test_the_container_command_serves_caches_degrades_and_stops_cleanly(replica, small_install, redis_server,
                                                                        tmp_path):
    config, container, _ = small_install
    settings_redis = redis_server.client()
    assert settings_redis.config_get("maxmemory")["maxmemory"] == str(256 * 1024 * 1024)
    assert settings_redis.config_get("maxmemory-policy")["maxmemory-policy"] == "allkeys-lru"
    settings_redis.close()

    port = free_port()
    env = {**replica.env, **{name: replica.map_value(value) for name, value in config.items()},
           "TMPDIR": str(replica.host("/tmp")), "PYTHONNOUSERSITE": "1",
           "HOST": "127.0.0.1", "PORT": str(port), "REDIS_URL": redis_server.url}
    metrics_dir = Path(env["PROMETHEUS_MULTIPROC_DIR"])
    assert metrics_dir.is_relative_to(replica.host("/tmp")), "the metrics files must live on the tmpfs"
    graceful = gunicorn_settings(env, tmp_path / "conf-metrics")["graceful_timeout"]
    argv = resolve(replica.cmd, replica)
    before = written_outside_tmp(replica)
    out = (tmp_path / "gunicorn.log").open("wb")
    server = subprocess.Popen(argv, cwd=replica.workdir, env=env, stdout=out, stderr=subprocess.STDOUT,
                              start_new_session=True)

    def log() -> str:
        out.flush()
        return (tmp_path / "gunicorn.log").read_text(errors="replace")[-4000:]

    try:
        # started within the startup probe's budget
        startup = container["startupProbe"]
        deadline = time.monotonic() + startup["periodSeconds"] * startup["failureThreshold"]
        while True:
            assert server.poll() is None, f"gunicorn exited with {server.returncode}:\n{log()}"
            try:
                if request(port, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"/healthz did not answer within the startup probe's budget\n{log()}"
            time.sleep(0.1)

        def probes_and_healthcheck_pass() -> None:
            for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
                status, _, body = request(port, "GET", container[probe]["httpGet"]["path"],
                                          timeout=container[probe].get("timeoutSeconds", 1) + 5)
                assert status == 200, f"{probe}: {status} {body!r}"
            check = subprocess.run(resolve(replica.healthcheck, replica), cwd=replica.workdir, env=env,
                                   capture_output=True, text=True, timeout=replica.healthcheck_timeout * 3)
            assert check.returncode == 0, f"the image's HEALTHCHECK fails: {check.stderr}"

        status, health = get_json(port, "/healthz")
        assert status == 200 and health["status"] == "ok" and health["cache"] == "redis"
        status, ready = get_json(port, "/readyz")
        assert status == 200 and ready == {"status": "ok", "cache": "redis", "version": health["version"]}
        probes_and_healthcheck_pass()

        first = request(port, "POST", NEW, {"seed": 1})
        second = request(port, "POST", NEW, {"seed": 1})
        assert first[0] == second[0] == 200, (first, second)
        assert first[1]["x-cache"] == "miss" and second[1]["x-cache"] == "hit", (first[1], second[1])
        assert first[2] == second[2]
        stored = redis_server.client()
        assert [key for key in stored.scan_iter("tr:*")], "nothing was stored in Redis"
        stored.close()

        status, _, text = request(port, "GET", "/metrics")
        assert status == 200
        samples = {}
        for family in text_string_to_metric_families(text.decode()):
            for sample in family.samples:
                key = (sample.name, tuple(sorted(sample.labels.items())))
                samples[key] = samples.get(key, 0) + sample.value
        cache = {dict(labels)["result"]: value for (name, labels), value in samples.items()
                 if name == "referee_cache_requests_total" and dict(labels).get("store") == "redis"
                 and dict(labels).get("operation") == "get"}
        assert cache.get("hit", 0) >= 1 and cache.get("miss", 0) >= 1, cache
        assert any(name.startswith("flask_http_request") for name, _ in samples), "no HTTP metrics"
        assert any(metrics_dir.glob("*.db")), "gunicorn multiprocess mode writes no metric files"

        status, _, contract = request(port, "GET", "/openapi.yaml")
        assert status == 200 and contract == (ROOT / "openapi.yaml").read_bytes(), \
            "the image does not serve the committed openapi.yaml"

        # Redis dies: still ready (degraded), still answering, by computing
        redis_server.kill()
        status, ready = get_json(port, "/readyz")
        assert status == 200 and ready["status"] == "degraded" and ready["cache"] == "degraded", ready
        again = request(port, "POST", NEW, {"seed": 1})
        assert again[0] == 200 and again[1]["x-cache"] in ("miss", "bypass") and again[2] == first[2], again[:2]
        fresh = request(port, "POST", NEW, {"seed": 2})
        assert fresh[0] == 200 and json.loads(fresh[2])["state"], fresh[:2]
        probes_and_healthcheck_pass()
        status, ready = get_json(port, "/readyz")
        assert status == 200 and ready["status"] == "degraded"

        # SIGTERM (what the kubelet and `docker stop` send after the preStop hook): a clean, graceful exit
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=graceful)
        except subprocess.TimeoutExpired:
            pytest.fail(f"gunicorn did not exit within graceful_timeout ({graceful} s) of SIGTERM\n{log()}")
        assert code == 0, f"gunicorn exited with {code} after SIGTERM\n{log()}"
        elapsed = time.monotonic() - started
        with pytest.raises(ProcessLookupError):
            os.killpg(server.pid, 0)  # no worker outlived the master
        text = log()
        assert "Shutting down: Master" in text, text
        assert "Traceback" not in text, text
        assert elapsed < graceful
        # the root filesystem is read-only in the container: nothing may have been written outside /tmp
        assert written_outside_tmp(replica) == before, sorted(written_outside_tmp(replica) ^ before)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)  # workers left behind by a failed test
        out.close()
