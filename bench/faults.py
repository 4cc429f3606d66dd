"""Load and faults on loopback: the service under gunicorn (deploy/gunicorn.conf.py) with a real Redis, under
sustained load from a pool of keep-alive clients, while Redis is killed and restarted, then while a gunicorn
worker is killed with SIGKILL.

    python bench/faults.py                       # 10 s per phase, 8 clients: about 1 minute
    python bench/faults.py --phase-seconds 3     # the short run tests/hostile/test_faults.py does
    GUNICORN_KEEPALIVE_REQUESTS=0 python bench/faults.py   # keep-alive connections never closed: for comparison
    python bench/faults.py --json out.json --markdown out.md

What runs: redis-server (Debian's, `apt-get install -y redis-server`) on a free loopback port with a password;
gunicorn with the project's config, WEB_CONCURRENCY=2, its control socket and PROMETHEUS_MULTIPROC_DIR in a temp
dir, REDIS_URL=redis://:<password>@127.0.0.1:<port>/0 (the answer cache and the rate-limit counters), LOG_LEVEL INFO
as deployed, and RATE_LIMIT raised to 100000 per minute (the limiter still counts every request in Redis; the
default 1200 per minute would answer this load from one address with 429s).

Phases, back to back, the load never pausing:

    before       steady state: Redis up, answers computed once then served from Redis
    redis-down   redis-server killed with SIGKILL: every answer must still be a 200, computed
    redis-back   redis-server restarted on the same port: the cache and the limiter go back to it
    worker-kill  one gunicorn worker (the one holding most client connections) killed with SIGKILL; the master
                 must spawn a replacement
    after        steady state again

The clients (threads, http.client, keep-alive) send a fixed mix of requests (legal-moves, apply, score, new,
view, picture, for Torri and Campanile) whose correct answers are computed beforehand in-process; every answer is
compared byte for byte. Like any pooling HTTP client (urllib3 does the same), a client checks that an idle
keep-alive connection has not been closed by the server before reusing it.

Capacity: the `after` phase's throughput is reported as a ratio of `before`'s. A worker restart (the kill, or a
`max_requests` recycle) must not leave the clients' keep-alive connections pinned to the surviving worker while the
new one idles: gunicorn closes a connection after GUNICORN_KEEPALIVE_REQUESTS requests (deploy/gunicorn.conf.py), so
the clients reconnect and the listen socket spreads them. Below `--min-after-ratio` (0.8) the run fails (the short
run of the tests only reports the ratio: a throughput figure is not a test's assertion).

A failure is anything but a 200 with the right bytes. The only failures allowed are the requests on the killed
worker's connections at that instant (counted as `in flight at the kill`): sent before it died and never answered,
or, rarely, sent on one of its connections in the instant between the client's check that the connection was open
and the worker's death (counted apart too).
Exit status 0 when the run met every expectation (printed at the end).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
PASSWORD = "s3cret-pass"
PHASES = ("before", "redis-down", "redis-back", "worker-kill", "after")
RATE_LIMIT = "100000 per minute"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_server_binary() -> str:
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK)
                                             else None)
    if not found:
        raise RuntimeError("redis-server is not installed (apt-get install -y redis-server)")
    return found


# ---------------------------------------------------------------- redis-server

class RedisServer:
    """One redis-server on a loopback port; kill() and start() keep the port, so clients see the same URL."""

    def __init__(self, workdir: Path, *, password: str | None = PASSWORD, port: int | None = None) -> None:
        self.binary = redis_server_binary()
        self.port = port or free_port()
        self.password = password
        self.dir = workdir / f"redis-{self.port}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def client(self):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, password=self.password, socket_timeout=2,
                           socket_connect_timeout=2)

    def start(self, timeout: float = 10.0) -> "RedisServer":
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir), "--save", "",
                "--appendonly", "no", "--daemonize", "no", "--logfile", str(self.dir / "redis.log")]
        if self.password:
            args += ["--requirepass", self.password]
        self.process = subprocess.Popen(args, cwd=self.dir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            try:
                if self.client().ping():
                    return self
            except Exception:  # noqa: BLE001 - not up yet
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.02)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def dbsize(self) -> int:
        return int(self.client().dbsize())

    def keys(self, pattern: str) -> list[bytes]:
        return list(self.client().scan_iter(match=pattern, count=1000))


# ---------------------------------------------------------------- gunicorn

def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    """Running, not a zombie (a zombie's sockets are already closed)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def _established_inodes(port: int) -> set[str]:
    """Inodes of the server side of established TCP connections on 127.0.0.1:port."""
    found = set()
    with open("/proc/net/tcp") as handle:
        for line in handle.readlines()[1:]:
            parts = line.split()
            local, state, inode = parts[1], parts[3], parts[9]
            if state == "01" and int(local.split(":")[1], 16) == port:
                found.add(inode)
    return found


class Gunicorn:
    """The service under gunicorn with the project's config, in its own process group."""

    def __init__(self, workdir: Path, env: dict[str, str], *, workers: int = 2) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.workers_wanted = workers
        self.log_path = workdir / "gunicorn.log"
        runtime = workdir / "run"
        runtime.mkdir(exist_ok=True)
        self.env = {**os.environ, "WEB_CONCURRENCY": str(workers), "BIND": f"127.0.0.1:{self.port}",
                    "PROMETHEUS_MULTIPROC_DIR": str(workdir / "metrics"), "XDG_RUNTIME_DIR": str(runtime),
                    "LOG_LEVEL": "INFO", **env}
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> "Gunicorn":
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONF), "--bind", f"127.0.0.1:{self.port}",
                 "service.api:create_app()"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n{self.log()[-3000:]}")
            try:
                if get(self.base + "/healthz", timeout=2)[0] == 200 and len(self.workers()) == self.workers_wanted:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn not ready after {timeout} s:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    def workers(self) -> list[int]:
        return [pid for pid in _children(self.process.pid) if _alive(pid)] if self.process else []

    def connections_per_worker(self) -> dict[int, int]:
        established = _established_inodes(self.port)
        return {pid: len(_socket_inodes(pid) & established) for pid in self.workers()}

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=25)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # our own session: the master and its workers
            self.process.wait(timeout=10)


def get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


# ---------------------------------------------------------------- the requests and their right answers

@dataclass(frozen=True)
class Call:
    name: str
    path: str
    body: bytes
    expected: bytes = b""


def _torri_states(count: int, seed: int) -> list[dict]:
    from service.games import torri

    rng = random.Random(seed)
    states = []
    for index in range(count):
        state = torri.new_game(seed + index)
        for _ in range(rng.randrange(0, 12)):
            legal = torri.legal_steps(state)
            if not legal or state.phase == torri.OVER:
                break
            state = torri.apply_step(state, rng.choice(legal))[0]
        states.append(torri.state_json(state))
    return states


def build_calls(seed: int = 11) -> list[Call]:
    """A mix of questions; the right answer of each, computed in-process by the same app without Redis."""
    import orjson

    from service.api import create_app
    from service.api.config import HEAVY_CLIENT_RATE_LIMIT
    from service.games import torri
    from service.games.registry import GAMES

    ADSO_WILLIAM_TABLE = GAMES["torri"].examples["score"]["table"]
    bodies: list[tuple[str, str, dict]] = []
    for index, state in enumerate(_torri_states(8, seed)):
        step = torri.legal_steps(torri.read_state(state))[0].to_json() if state["phase"] != "over" else {"type": "pass"}
        bodies += [(f"torri/legal-moves#{index}", "/v1/games/torri/legal-moves", {"state": state}),
                   (f"torri/apply#{index}", "/v1/games/torri/apply", {"state": state, "moves": [step]}),
                   (f"torri/view#{index}", "/v1/games/torri/view", {"state": state, "player": index % 2})]
    bodies += [(f"torri/new#{s}", "/v1/games/torri/new", {"seed": s}) for s in range(4)]
    bodies += [("torri/score", "/v1/games/torri/score", {"table": ADSO_WILLIAM_TABLE}),
               ("torri/picture", "/v1/games/torri/picture", {"table": ADSO_WILLIAM_TABLE}),
               ("campanile/new", "/v1/games/campanile/new", {"seed": 5, "names": ["Ada", "Bea", "Cy"]})]
    oracle = create_app({"TESTING": True, "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT, "REDIS_URL": "",
                         "LOG_LEVEL": "WARNING"}).test_client()
    campanile_state = oracle.post("/v1/games/campanile/new", json={"seed": 5, "names": ["Ada", "Bea", "Cy"]})
    bodies.append(("campanile/legal-moves", "/v1/games/campanile/legal-moves",
                   {"state": campanile_state.get_json()["state"]}))
    calls = []
    for name, path, body in bodies:
        raw = orjson.dumps(body)
        answer = oracle.post(path, data=raw, content_type="application/json")
        if answer.status_code != 200:
            raise RuntimeError(f"{name}: the oracle answered {answer.status_code}: {answer.get_data()[:300]!r}")
        calls.append(Call(name, path, raw, answer.get_data()))
    return calls


# ---------------------------------------------------------------- the load

@dataclass
class Sample:
    start: float  # when the request was sent
    end: float
    call: str
    status: int  # 0: no answer
    right: bool
    error: str = ""
    reused: bool = False
    chosen: float = 0.0  # when the client checked the connection it then used (before start)


def _dropped(conn: http.client.HTTPConnection) -> bool:
    """An idle keep-alive connection the server has closed (readable at EOF), as urllib3 checks before reuse."""
    if conn.sock is None:
        return True
    try:
        readable, _, _ = select.select([conn.sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


class Load:
    """`clients` threads, each with one keep-alive connection at a time, sending the calls round-robin."""

    def __init__(self, port: int, calls: list[Call], clients: int) -> None:
        self.port, self.calls, self.clients = port, calls, clients
        self.samples: list[Sample] = []
        self.stop_event = threading.Event()
        self.threads = [threading.Thread(target=self._client, args=(i,), daemon=True) for i in range(clients)]

    def start(self) -> "Load":
        for thread in self.threads:
            thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def _client(self, index: int) -> None:
        conn: http.client.HTTPConnection | None = None
        position = index * 7
        while not self.stop_event.is_set():
            call = self.calls[position % len(self.calls)]
            position += 1
            chosen = time.perf_counter()
            reused = conn is not None
            if conn is not None and _dropped(conn):
                conn.close()
                conn, reused = None, False
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                conn.request("POST", call.path, body=call.body, headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                data = response.read()
                ended = time.perf_counter()
                self.samples.append(Sample(started, ended, call.name, response.status,
                                           response.status == 200 and data == call.expected, reused=reused,
                                           chosen=chosen))
                if response.will_close:
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as error:
                self.samples.append(Sample(started, time.perf_counter(), call.name, 0, False,
                                           f"{type(error).__name__}: {error}"[:200], reused, chosen))
                conn.close()
                conn = None
        if conn is not None:
            conn.close()


# ---------------------------------------------------------------- the scenario

@dataclass
class Result:
    phases: dict[str, dict] = field(default_factory=dict)
    kill: dict = field(default_factory=dict)
    redis: dict = field(default_factory=dict)
    readyz: list[tuple[float, int, str, float]] = field(default_factory=list)
    log: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)
    capacity: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def _median_share(spreads: list[list[int]]) -> float:
    """The median share of the client connections held by the busiest worker (0.5: even over two workers)."""
    shares = [spread[0] / sum(spread) for spread in spreads if spread and sum(spread)]
    return round(_percentile(shares, 0.5), 2)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _phase_stats(samples: list[Sample], seconds: float, in_flight: list[Sample]) -> dict:
    """Figures of the requests sent during a phase; `failures` leaves out the requests in flight at the worker
    kill (counted apart, in `in_flight_at_kill`)."""
    latencies = [(s.end - s.start) * 1000 for s in samples if s.status == 200]
    held = [s for s in samples if any(s is k for k in in_flight)]
    return {"requests": len(samples), "failures": sum(1 for s in samples if not s.right) - len(held),
            "in_flight_at_kill": len(held),
            "non_200": sum(1 for s in samples if s.status not in (0, 200)),
            "wrong_bodies": sum(1 for s in samples if s.status == 200 and not s.right),
            "no_answer": sum(1 for s in samples if s.status == 0),
            "req_per_s": round(len(samples) / seconds, 1) if seconds else 0.0,
            "p50_ms": round(_percentile(latencies, 0.50), 1), "p99_ms": round(_percentile(latencies, 0.99), 1),
            "max_ms": round(max(latencies), 1) if latencies else 0.0,
            "errors": sorted({s.error.split(":")[0] for s in samples if s.error})}


class _ReadyzPoller(threading.Thread):
    def __init__(self, base: str, into: list, started: float) -> None:
        super().__init__(daemon=True)
        self.base, self.into, self.started = base, into, started
        self.stop_event = threading.Event()

    def run(self) -> None:
        while not self.stop_event.wait(0.25):
            sent = time.perf_counter()
            try:
                status, body = get(self.base + "/readyz", timeout=5)
                cache = json.loads(body).get("cache", "?") if status == 200 else body[:80].decode(errors="replace")
            except (OSError, ValueError) as error:
                status, cache = 0, type(error).__name__
            # (sent, status, cache, answered), in seconds from the start of the load
            answered = time.perf_counter()
            self.into.append((round(sent - self.started, 3), status, cache, round(answered - self.started, 3)))


READYZ_SETTLE_SECONDS = 35.0  # the Redis cache's longest back-off (30 s, service/cache.py) and a margin
READYZ_STREAK = 10  # answers in a row that say redis: both workers have seen Redis back


def _readyz_settles(base: str, samples: list[tuple[float, int, str, float]], after: float,
                    started: float) -> float | None:
    """When /readyz said redis again for good (seconds from the start of the load): at once if every probe of the
    `after` phase did; else probed until READYZ_STREAK answers in a row do. A worker that met the outage skips Redis
    for its back-off (up to 30 s) and says degraded meanwhile; None if that lasts past READYZ_SETTLE_SECONDS."""
    back = [r for r in samples if r[0] >= after]
    if back and all(r[2] == "redis" for r in back):
        return back[0][0]
    deadline, streak, first = time.perf_counter() + READYZ_SETTLE_SECONDS, 0, None
    while time.perf_counter() < deadline and streak < READYZ_STREAK:
        sent = time.perf_counter()
        try:
            status, body = get(base + "/readyz", timeout=5)
            cache = json.loads(body).get("cache", "?") if status == 200 else "?"
        except (OSError, ValueError):
            cache = "?"
        streak, first = (streak + 1, first if streak else sent - started) if cache == "redis" else (0, None)
        time.sleep(0.1)
    return first if streak >= READYZ_STREAK else None


def run_scenario(phase_seconds: float = 10.0, clients: int = 8, *, workdir: Path | None = None,
                 say=print, min_after_ratio: float | None = None) -> Result:
    """The whole scenario. With `min_after_ratio`, an `after` phase slower than that share of `before` is a
    problem (a throughput figure: judged by the benchmark's own run, reported only by the short test run)."""
    result = Result(settings={"phase_seconds": phase_seconds, "clients": clients, "workers": 2,
                              "threads_per_worker": int(os.environ.get("GUNICORN_THREADS", "2")),
                              "keepalive_requests": os.environ.get("GUNICORN_KEEPALIVE_REQUESTS", "config default"),
                              "max_requests": os.environ.get("GUNICORN_MAX_REQUESTS", "config default"),
                              "rate_limit": RATE_LIMIT})
    owned = workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="referee-faults-")) if owned else workdir
    redis_server = RedisServer(workdir).start()
    server = Gunicorn(workdir, {"REDIS_URL": redis_server.url, "RATE_LIMIT": RATE_LIMIT})
    load: Load | None = None
    poller: _ReadyzPoller | None = None
    try:
        calls = build_calls()
        server.start()
        say(f"gunicorn on 127.0.0.1:{server.port} (workers {server.workers()}), redis on {redis_server.port}; "
            f"{len(calls)} distinct requests, {clients} clients, {phase_seconds:g} s per phase")
        for call in calls:  # every answer right once before the load (and in Redis)
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("POST", call.path, body=call.body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            conn.close()
            if response.status != 200 or data != call.expected:
                result.problems.append(f"warm-up: {call.name} answered {response.status}, "
                                       f"{'right' if data == call.expected else 'wrong'} bytes")
        stored_before = redis_server.dbsize()
        started = time.perf_counter()
        marks: dict[str, float] = {}
        load = Load(server.port, calls, clients).start()
        poller = _ReadyzPoller(server.base, result.readyz, started)
        poller.start()

        marks["before"] = time.perf_counter()
        time.sleep(phase_seconds)

        marks["redis-down"] = time.perf_counter()
        redis_server.kill()
        say("redis-server killed (SIGKILL)")
        time.sleep(phase_seconds)

        marks["redis-back"] = time.perf_counter()
        redis_server.start()
        say("redis-server restarted on the same port")
        time.sleep(phase_seconds)

        marks["worker-kill"] = time.perf_counter()
        per_worker = server.connections_per_worker()
        victim = max(per_worker, key=lambda pid: per_worker[pid])
        old = set(server.workers())
        killed_at = time.perf_counter()  # taken first: this thread may wait for the GIL after the kill
        os.kill(victim, signal.SIGKILL)
        while _alive(victim) and time.perf_counter() - killed_at < 10:
            time.sleep(0.001)
        died_at = time.perf_counter()
        replacement, replaced_at = None, None
        while time.perf_counter() - killed_at < 60:
            new = set(server.workers()) - old
            if new and len(server.workers()) == 2:
                replacement, replaced_at = new.pop(), time.perf_counter()
                break
            time.sleep(0.02)
        say(f"worker {victim} killed (SIGKILL; it held {per_worker[victim]} of "
            f"{sum(per_worker.values())} connections); replacement {replacement}")
        time.sleep(max(0.0, phase_seconds - (time.perf_counter() - marks["worker-kill"])))

        marks["after"] = time.perf_counter()
        spreads = []  # client connections per worker, busiest first, every half second
        while time.perf_counter() - marks["after"] < phase_seconds:
            time.sleep(min(0.5, max(0.0, phase_seconds - (time.perf_counter() - marks["after"]))))
            spreads.append(sorted(server.connections_per_worker().values(), reverse=True))
        marks["end"] = time.perf_counter()
        load.stop()
        poller.stop_event.set()
        poller.join(timeout=10)
        settled_at = _readyz_settles(server.base, result.readyz, marks["after"] - started, started)

        # ---- figures
        order = list(PHASES) + ["end"]
        samples = load.samples
        # lost to the kill: failed after SIGKILL on a connection the client had chosen (checked open) while the
        # worker was alive. Nearly all were sent before it was gone (in flight); a few may have been sent in the
        # instant between the client's check and the worker's death (the client threads share one GIL, so that
        # instant can stretch): counted apart, as `sent_in_the_kill_race`.
        in_flight = [s for s in samples if not s.right and s.chosen < died_at and s.end >= killed_at]
        race = [s for s in in_flight if s.start >= died_at]
        beyond = [s for s in samples if not s.right and not any(s is k for k in in_flight)]
        for name, nxt in zip(order, order[1:]):
            inside = [s for s in samples if marks[name] <= s.start < marks[nxt]
                      and not any(s is k for k in in_flight)]
            if name == "worker-kill":  # sent a moment before the kill, failed by it: shown in its phase
                inside += in_flight
            result.phases[name] = _phase_stats(inside, marks[nxt] - marks[name], in_flight)
        late = [s for s in samples if s.start >= marks["end"]]  # sent after the last mark, while stopping
        result.kill = {"victim": victim, "client_connections_on_victim": per_worker[victim],
                       "client_connections_total": sum(per_worker.values()),
                       "death_ms": round((died_at - killed_at) * 1000, 1),
                       "replacement": replacement,
                       "replaced_after_s": round(replaced_at - killed_at, 2) if replaced_at else None,
                       "in_flight_failures": len(in_flight),
                       "in_flight_errors": sorted({s.error.split(":")[0] for s in in_flight}),
                       "sent_in_the_kill_race": len(race),
                       "failures_beyond": len(beyond), "stopping_samples": len(late)}
        before_rate, after_rate = result.phases["before"]["req_per_s"], result.phases["after"]["req_per_s"]
        result.capacity = {"before_req_per_s": before_rate, "after_req_per_s": after_rate,
                           "after_over_before": round(after_rate / before_rate, 2) if before_rate else 0.0,
                           "minimum": min_after_ratio,
                           "connections_per_worker_at_kill": sorted(per_worker.values(), reverse=True),
                           "connections_per_worker_after": spreads,
                           "busiest_worker_share_after": _median_share(spreads)}
        outage = [r for r in result.readyz if marks["redis-down"] - started <= r[0] < marks["redis-back"] - started]
        back = [r for r in result.readyz if r[0] >= marks["after"] - started]
        result.redis = {"keys_before_load": stored_before, "keys_at_end": redis_server.dbsize(),
                        "limiter_keys_at_end": len(redis_server.keys("LIMITS*")),
                        "readyz_during_outage": sorted({r[2] for r in outage}),
                        "readyz_after": sorted({r[2] for r in back}),
                        "readyz_redis_again_after_s": None if settled_at is None else round(
                            settled_at - (marks["redis-back"] - started), 1),
                        "readyz_non_200": sum(1 for r in result.readyz if r[1] != 200 and not (
                            r[0] < died_at - started and r[3] >= killed_at - started)),
                        "readyz_in_flight_at_kill": sum(1 for r in result.readyz if r[1] != 200 and (
                            r[0] < died_at - started and r[3] >= killed_at - started))}
        text = server.log()
        result.log = {"lines": text.count("\n"), "tracebacks": text.count("Traceback"),
                      "password_seen": PASSWORD in text or redis_server.url in text,
                      "worker_boots": text.count("Booting worker"),
                      "worker_timeouts": text.count("WORKER TIMEOUT"),
                      "autorestarts": text.count("Autorestarting worker"),
                      "redis_warnings": text.count("redis cache unavailable")}

        # ---- expectations
        for name, stats in result.phases.items():
            if stats["failures"]:
                result.problems.append(f"{name}: {stats['failures']} failed requests besides those in flight at the "
                                       f"kill: {stats['errors']}, non-200 {stats['non_200']}, "
                                       f"wrong bodies {stats['wrong_bodies']}")
        if beyond:
            result.problems.append(f"{len(beyond)} failures beyond the requests in flight at the worker kill: "
                                   f"{sorted({s.error or s.status for s in beyond}, key=str)}")
        if result.kill["in_flight_failures"] > clients:
            result.problems.append(f"{result.kill['in_flight_failures']} in-flight failures for {clients} clients")
        if replacement is None:
            result.problems.append("the killed worker was not replaced within 60 s")
        if result.redis["readyz_non_200"]:
            result.problems.append(f"/readyz answered non-200 {result.redis['readyz_non_200']} times (besides a probe "
                                   f"in flight at the worker kill)")
        if "degraded" not in result.redis["readyz_during_outage"]:
            result.problems.append(f"/readyz never said degraded while Redis was down: {result.redis}")
        if settled_at is None:
            result.problems.append(f"/readyz after recovery: {result.redis['readyz_after']}, and not redis again "
                                   f"within the cache's longest back-off ({READYZ_SETTLE_SECONDS:g} s)")
        if result.redis["keys_at_end"] == 0:
            result.problems.append("nothing was stored in Redis after its restart (the cache never came back)")
        if result.log["password_seen"]:
            result.problems.append("the Redis password or URL appears in gunicorn's log")
        if result.log["tracebacks"] or result.log["worker_timeouts"]:
            result.problems.append(f"gunicorn's log has {result.log['tracebacks']} tracebacks, "
                                   f"{result.log['worker_timeouts']} worker timeouts")
        if min_after_ratio is not None and result.capacity["after_over_before"] < min_after_ratio:
            result.problems.append(f"capacity after the worker kill: {after_rate} req/s, "
                                   f"{result.capacity['after_over_before']} of the {before_rate} before (minimum "
                                   f"{min_after_ratio}); connections per worker during it: {spreads}")
        if sum(p["requests"] for p in result.phases.values()) < 50 * len(PHASES):
            result.problems.append("too little load to mean anything")
        return result
    finally:
        if load is not None:
            load.stop()
        if poller is not None:
            poller.stop_event.set()
        server.stop()
        redis_server.kill()
        if owned:
            shutil.rmtree(workdir, ignore_errors=True)


def markdown(result: Result) -> str:
    rows = ["| phase | requests | req/s | failures | in flight at the kill | p50 ms | p99 ms | max ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, stats in result.phases.items():
        rows.append(f"| {name} | {stats['requests']} | {stats['req_per_s']} | {stats['failures']} | "
                    f"{stats['in_flight_at_kill']} | "
                    f"{stats['p50_ms']} | {stats['p99_ms']} | {stats['max_ms']} |")
    kill, capacity = result.kill, result.capacity
    minimum = f" (minimum {capacity['minimum']})" if capacity.get("minimum") is not None else ""
    rows += ["", f"Capacity: after / before = {capacity.get('after_over_before')}{minimum}; client connections "
                 f"per worker at the kill {capacity.get('connections_per_worker_at_kill')}; during `after` the "
                 f"busiest worker held a median {capacity.get('busiest_worker_share_after')} of them (0.5: even).",
             f"Worker kill: pid {kill['victim']} held {kill['client_connections_on_victim']} of "
                 f"{kill['client_connections_total']} open connections; gone {kill['death_ms']} ms after SIGKILL; "
                 f"replacement forked after {kill['replaced_after_s']} s; {kill['in_flight_failures']} requests on "
                 f"its connections at the kill failed ({', '.join(kill['in_flight_errors']) or '-'}; "
                 f"{kill['sent_in_the_kill_race']} of them sent in the instant between the client's connection "
                 f"check and the death); {kill['failures_beyond']} failures beyond them.",
             f"Redis: /readyz during the outage {result.redis['readyz_during_outage']}, redis again "
             f"{result.redis['readyz_redis_again_after_s']} s after its restart, after "
             f"{result.redis['readyz_after']}; keys at the end {result.redis['keys_at_end']} (limiter "
             f"{result.redis['limiter_keys_at_end']}).",
             f"gunicorn log: {result.log['lines']} lines, {result.log['tracebacks']} tracebacks, "
             f"{result.log['worker_timeouts']} worker timeouts, {result.log['autorestarts']} max_requests restarts, "
             f"password seen: {result.log['password_seen']}."]
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phase-seconds", type=float, default=10.0, help="seconds per phase (default 10)")
    parser.add_argument("--clients", type=int, default=8, help="client threads (default 8)")
    parser.add_argument("--min-after-ratio", type=float, default=0.8,
                        help="fail when the after phase's req/s is below this share of before's (default 0.8)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    args = parser.parse_args(argv)
    result = run_scenario(args.phase_seconds, args.clients, min_after_ratio=args.min_after_ratio)
    table = markdown(result)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(result.__dict__, indent=1, default=str))
    if args.markdown:
        args.markdown.write_text(table)
    print("OK" if result.ok else "NOT OK:\n  " + "\n  ".join(result.problems))
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
