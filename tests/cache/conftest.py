"""Real redis-server processes for the cache tests: one per test, on a free loopback port, in a temp dir.

`redis-server` missing is a failure, not a skip: CI must run these tests. The `RedisServer` handle can stop
(SIGKILL), pause (SIGSTOP: a hung server that accepts connections but never answers), resume and restart the
server on the same port mid-test.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service import cache as cache_module

READY_TIMEOUT = 10.0


def redis_server_binary() -> str:
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK)
                                             else None)
    if not found:
        pytest.fail("redis-server is not installed: the cache tests need a real Redis (apt-get install redis-server)",
                    pytrace=False)
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """One redis-server process; `stop()`/`start()` keep the port, so clients see the same URL come back."""

    def __init__(self, workdir: Path, *, port: int | None = None, password: str | None = None,
                 extra_args: tuple[str, ...] = ()) -> None:
        self.binary = redis_server_binary()
        self.port = port or free_port()
        self.password = password
        self.extra_args = extra_args
        self.dir = workdir / f"redis-{self.port}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def client(self, **options) -> redis.Redis:
        """A plain redis-py client for checking what the service stored (no retries: fail fast)."""
        options = {"password": self.password, "socket_timeout": 2, "socket_connect_timeout": 2,
                   "retry": Retry(NoBackoff(), 0), **options}
        return redis.Redis(host="127.0.0.1", port=self.port, **options)

    def start(self) -> "RedisServer":
        assert self.process is None or self.process.poll() is not None, "already running"
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
                "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--logfile", str(self.dir / "redis.log")]
        if self.password:
            args += ["--requirepass", self.password]
        args += list(self.extra_args)
        self.process = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.wait_ready()
        return self

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        client = self.client()
        try:
            while True:
                if self.process.poll() is not None:
                    err = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                    log = (self.dir / "redis.log").read_text(errors="replace")[-2000:] \
                        if (self.dir / "redis.log").exists() else ""
                    pytest.fail(f"redis-server on port {self.port} exited with {self.process.returncode}: "
                                f"{err}{log}", pytrace=False)
                try:
                    if client.ping():
                        return
                except redis.exceptions.RedisError:
                    pass
                if time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"redis-server on port {self.port} did not answer PING in {timeout}s", pytrace=False)
                time.sleep(0.02)
        finally:
            client.close()

    def stop(self) -> None:
        """Kill the server (SIGKILL: like a crash) and wait until the port is closed."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGCONT)  # a paused server must be able to die
        self.process.kill()
        self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()

    def restart(self) -> None:
        self.stop()
        self.start()

    def pause(self) -> None:
        """SIGSTOP: the kernel still accepts connections, nothing answers (a hung or unreachable-by-timeout
        Redis)."""
        assert self.process is not None and self.process.poll() is None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None and self.process.poll() is None
        self.process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@pytest.fixture
def redis_factory(tmp_path):
    """Start extra servers: `redis_factory(password="secret")`; every one is killed at the end."""
    servers: list[RedisServer] = []

    def start(**options) -> RedisServer:
        server = RedisServer(tmp_path, **options).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(name="free_port")
def free_port_fixture():
    """The free-port finder, for tests that need a second port (a TLS port)."""
    return free_port


@pytest.fixture
def redis_server(redis_factory) -> RedisServer:
    """A fresh real redis-server for one test (a handle: `.url`, `.client()`, `.stop()`, `.start()`,
    `.restart()`, `.pause()`, `.resume()`)."""
    return redis_factory()


@pytest.fixture
def redis_url(redis_server) -> str:
    return redis_server.url


@pytest.fixture
def cache_clock(monkeypatch) -> list[float]:
    """The cache's clock (its back-off), standing still until the test moves it: what happens within a back-off
    and after it then holds whatever the machine's pace. The cache's alone: the Redis client and the servers here
    keep the real one."""
    now = [1000.0]
    monkeypatch.setattr(cache_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    return now


class RedisClusterNodes:
    """A local Redis Cluster of masters only (no replicas)."""

    def __init__(self, servers: list[RedisServer]) -> None:
        self.servers = servers

    @property
    def url(self) -> str:
        return self.servers[0].url

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


def start_cluster(tmp_path: Path, nodes: int = 3) -> tuple[RedisClusterNodes | None, str]:
    """(cluster, "") or (None, why it could not be started here)."""
    cli = shutil.which("redis-cli")
    if not cli:
        return None, "redis-cli is not installed"
    servers: list[RedisServer] = []
    try:
        for _ in range(nodes):
            # the bus port defaults to port + 10000, which may not exist for a high free port: pick one too
            server = RedisServer(tmp_path / "cluster", extra_args=("--cluster-enabled", "yes",
                                                                   "--cluster-port", str(free_port()),
                                                                   "--cluster-node-timeout", "2000"))
            server.extra_args += ("--cluster-config-file", str(server.dir / "nodes.conf"))
            servers.append(server.start())
        created = subprocess.run(
            [cli, "--cluster", "create", *[f"127.0.0.1:{s.port}" for s in servers], "--cluster-replicas", "0",
             "--cluster-yes"], capture_output=True, text=True, timeout=30)
        if created.returncode != 0:
            raise RuntimeError(created.stdout[-1000:] + created.stderr[-1000:])
        deadline = time.monotonic() + 15
        while True:
            states = []
            for server in servers:
                client = server.client()
                try:
                    info = client.execute_command("CLUSTER INFO")
                finally:
                    client.close()
                if isinstance(info, dict):  # redis-py parses the reply
                    states.append(str(info.get("cluster_state")) in ("ok", "b'ok'"))
                else:
                    states.append("cluster_state:ok" in (info.decode() if isinstance(info, bytes) else str(info)))
            if all(states):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not reach cluster_state:ok")
            time.sleep(0.1)
        return RedisClusterNodes(servers), ""
    except Exception as error:  # noqa: BLE001 - any failure means: no real cluster here
        for server in servers:
            server.stop()
        return None, f"{type(error).__name__}: {error}"


@pytest.fixture
def redis_cluster(tmp_path):
    """A real 3-master cluster; skipped (the fake-cluster test still runs) when one cannot be started here."""
    cluster, why = start_cluster(tmp_path)
    if cluster is None:
        pytest.skip(f"a local Redis Cluster could not be started here ({why}); the fake-cluster test covers "
                    "RedisCache(cluster=True)")
    yield cluster
    cluster.stop()
