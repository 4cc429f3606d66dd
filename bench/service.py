"""The referee over real HTTP, against the framework floor, under the project's gunicorn config: every game and
variant, with request bodies sampled over whole seeded random games.

Starts three gunicorn servers on free loopback ports, all with deploy/gunicorn.conf.py, WEB_CONCURRENCY=2,
the deployed settings (deploy/k8s/configmap.yaml: the rate limiter counting every request, in this host's shared
memory) with RATE_LIMIT raised to one wrk client never reaches (HEAVY_CLIENT_RATE_LIMIT), and their own
PROMETHEUS_MULTIPROC_DIR in a temp dir:

    cold    the service, CACHE_MAX_ENTRIES=0: every answer is computed (X-Cache: miss)
    cached  the service, the in-process LRU, filled with the bodies before it is measured: every answer is a hit
    floor   bench/floor_app.py: a Flask app that parses the JSON body and answers JSON of the size asked for

Cases: every registered game (service/games/registry.py) and each of its variants (`game.info.variants`), base
game first. For each case, `--bodies` seeded random games are played from the deal to the end (2 to 4 players,
a random legal move each step, `pass` avoided as in bench/engine.py), and each game gives one body per scenario:

    apply        a state drawn uniformly from the game's states (early, middle and late alike) and one of its
                 legal moves, drawn at random
    legal-moves  another state drawn the same way
    score        the game's finished board
    replay       the deal and the game's first k moves, k drawn uniformly (not run by default: --scenarios)

wrk (Debian's; `apt-get install -y wrk`) loads each server on loopback with a Lua `request()` that cycles through
the case's bodies for the scenario, pre-formatted; the floor gets the same bodies and, per body, answers as many
bytes as the service answered for it (`/echo?bytes=N` in the path of each pre-formatted request). Every body is
sent once to each server before timing: 200 from all three, X-Cache miss from cold, the same answer from cached
as from cold, an answer of the right size from the floor.

Cases run one after the other. Within a case, each round runs every (scenario, server) once for --duration
seconds with --connections connections, in an order that rotates from round to round; figures are medians over
the rounds, and ratios are medians of the per-round ratios (each run against the floor run next to it in time),
so they hold on a noisy 2-core machine where wrk shares the cores. The check of every body is each server's
warm-up. Before a case's rounds every body is sent once more to each worker of the cached server, on a
keep-alive connection that worker accepted (found with `ss`): a case's bodies are far below CACHE_MAX_ENTRIES and
CACHE_MAX_BYTES per worker, and the cached server does not recycle its workers (a recycled worker starts with an
empty LRU) unless --max-requests says otherwise; cold and floor run the config's default.

Besides wrk's req/s and p50/p99 latency, each run records the CPU time the server's processes used per request
(from /proc: master, workers and reaped workers) and, for the service, the cache hits and misses (from its own
/metrics) and the worker restarts (gunicorn's max_requests recycling).

    python bench/service.py                    # 8 cases x 3 scenarios x 3 servers x 3 rounds x 2 s: ~12 minutes
    python bench/service.py --quick            # 60 bodies, 1 round of 1 s: ~2 minutes
    python bench/service.py --game carcassonne --variant tower --rounds 5
    python bench/service.py --scenarios apply,replay --json out.json
    python bench/service.py --profile          # also py-spy the workers (the first case): /apply cold, cached, floor
    python bench/service.py --game carcassonne --variant tower --profile-only --keep-profiles /tmp/profiles

Not a test: nothing here fails on speed; the goals are printed beside the figures.
"""
from __future__ import annotations

import argparse
import functools
import http.client
import json
import linecache
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.api.config import HEAVY_CLIENT_RATE_LIMIT  # noqa: E402
from service.games.registry import GAMES  # noqa: E402

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
SCENARIOS = ("apply", "legal-moves", "score", "replay")
DEFAULT_SCENARIOS = ("apply", "legal-moves", "score")
SERVERS = ("cold", "cached", "floor")
GOALS = (  # (label, scenario, numerator server, denominator server, minimum ratio of req/s)
    ("apply >= 0.7x", "apply", "cold", "floor", 0.7),
    ("score >= 0.5x", "score", "cold", "floor", 0.5),
    ("hit apply >= 0.9x", "apply", "cached", "floor", 0.9),
    ("hit legal >= 0.9x", "legal-moves", "cached", "floor", 0.9),
    ("hit score >= 0.9x", "score", "cached", "floor", 0.9),
    ("hit replay >= 5x cold", "replay", "cached", "cold", 5.0),
)
NAMES = ("Ada", "Bea", "Cy", "Dee")


# ---------------------------------------------------------------- cases and request bodies

@dataclass(frozen=True)
class Case:
    """A game, in its base form (variant None) or with one of its variants switched on."""

    game: str
    variant: str | None = None

    @property
    def name(self) -> str:
        return f"{self.game}/{self.variant or 'base'}"

    @property
    def base_path(self) -> str:
        return f"/v1/games/{self.game}"


def all_cases() -> list[Case]:
    return [Case(game_id, variant) for game_id, game in GAMES.items()
            for variant in [None] + [v.name for v in game.info.variants]]


@dataclass
class PlayedGame:
    """One seeded random game from the deal to its end: states[0] is the deal, states[-1] the finished board, and
    moves[i] (as JSON) leads from states[i] to states[i + 1]."""

    players: int
    states: list[Any]
    moves: list[dict]


def play(case: Case, seed: int) -> PlayedGame:
    """A random game of the case, 2 to 4 players (as the game allows), each step a random legal move; `pass`
    (Torri: it closes the game) is chosen only 3 % of the time when there is anything else, as in bench/engine.py,
    so games run their length."""
    game = GAMES[case.game]
    rng = random.Random(f"{case.name}:{seed}")
    players = rng.randint(game.info.min_players, max(game.info.min_players, min(game.info.max_players, 4)))
    deal = game.new({"seed": seed, "names": list(NAMES[:players]),
                     "variant": {v.name: v.example for v in game.info.variants if v.name == case.variant}})["state"]
    state = game.load_state(deal).checked()
    states, moves = [state], []
    while legal := game.legal_moves_of(state):
        others = [m for m in legal if m.get("type") != "pass"]
        move = rng.choice(others) if others and rng.random() > 0.03 else rng.choice(legal)
        state = game.apply_steps(state, [game.as_step(move, 0)]).state
        states.append(state)
        moves.append(move)
    return PlayedGame(players, states, moves)


def game_bodies(case: Case, played: PlayedGame, rng: random.Random,
                endpoints: tuple[str, ...] = SCENARIOS) -> dict[str, dict]:
    """One request document per endpoint from one played game: states drawn uniformly from those with a move to
    make (so early, middle and late states alike), the finished board for /score, a prefix of the game for
    /replay. Endpoints: apply, legal-moves, score, replay, validate, view."""
    game = GAMES[case.game]
    playing = len(played.states) - 1  # states with a legal move: all but the finished board
    drawn = lambda: played.states[rng.randrange(playing)]  # noqa: E731
    bodies: dict[str, dict] = {}
    for endpoint in endpoints:
        if endpoint == "apply":
            state = drawn()
            bodies[endpoint] = {"state": game.state_json(state),
                                "moves": [rng.choice(game.legal_moves_of(state))]}
        elif endpoint in ("legal-moves", "validate"):
            bodies[endpoint] = {"state": game.state_json(drawn())}
        elif endpoint == "view":
            bodies[endpoint] = {"state": game.state_json(drawn()), "player": rng.randrange(played.players)}
        elif endpoint == "score":
            bodies[endpoint] = {"state": game.state_json(played.states[-1])}
        elif endpoint == "replay":
            bodies[endpoint] = {"state": game.state_json(played.states[0]),
                                "moves": played.moves[:rng.randint(1, len(played.moves))]}
        else:
            raise ValueError(f"no bodies for {endpoint}")
    return bodies


def sample_bodies(case: Case, games: int, seed: int, endpoints: tuple[str, ...]) -> dict[str, list[bytes]]:
    """`games` random games of the case (seeds seed, seed + 1, ...), one body per endpoint from each; a game
    whose body repeats another's (two short games alike) gives none for that endpoint."""
    rng = random.Random(f"bodies:{case.name}:{seed}")
    bodies: dict[str, list[bytes]] = {endpoint: [] for endpoint in endpoints}
    seen: set[tuple[str, bytes]] = set()
    for index in range(games):
        played = play(case, seed + index)
        if len(played.states) < 2:
            continue
        for endpoint, doc in game_bodies(case, played, rng, endpoints).items():
            body = orjson.dumps(doc)
            if (endpoint, body) not in seen:
                seen.add((endpoint, body))
                bodies[endpoint].append(body)
    return bodies


# ---------------------------------------------------------------- servers

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post(url: str, body: bytes, timeout: float = 10) -> tuple[int, dict, bytes]:
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _proc_cpu(pid: int) -> tuple[float, float]:
    """(own utime+stime, reaped children's cutime+cstime) of a process, in seconds."""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        fields_ = handle.read().rsplit(b")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields_[11]) + int(fields_[12])) / tick, (int(fields_[13]) + int(fields_[14])) / tick


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


@dataclass
class Server:
    name: str
    app: str  # gunicorn's APP_MODULE
    env: dict[str, str | None]  # over the defaults below (WEB_CONCURRENCY 2, ...); None: the variable unset
    workdir: Path
    port: int = 0
    process: subprocess.Popen | None = None
    log_path: Path = field(default_factory=Path)
    _log_offset: int = 0
    config: Path = GUNICORN_CONF  # gunicorn's settings file
    cwd: Path = ROOT  # where `service` is imported from (another checkout's, to measure it beside this one)

    def start(self, log_level: str, max_requests: int | None) -> None:
        self.port = free_port()
        metrics_dir = self.workdir / f"{self.name}-metrics"
        self.log_path = self.workdir / f"{self.name}.log"
        env = {**os.environ, "WEB_CONCURRENCY": "2", "RATE_LIMIT": HEAVY_CLIENT_RATE_LIMIT,
               "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "LOG_LEVEL": log_level,
               "BIND": f"127.0.0.1:{self.port}", **self.env}
        if max_requests is not None:
            env["GUNICORN_MAX_REQUESTS"] = str(max_requests)
            env["GUNICORN_MAX_REQUESTS_JITTER"] = "0" if max_requests == 0 else env.get(
                "GUNICORN_MAX_REQUESTS_JITTER", "500")
        # the checkout measured first on the path, this one's bench/ (the floor's app) after it
        env["PYTHONPATH"] = os.pathsep.join([str(self.cwd), str(ROOT), env.get("PYTHONPATH") or ""]).rstrip(os.pathsep)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--config", str(self.config), "--bind",
                 f"127.0.0.1:{self.port}", self.app],
                cwd=self.cwd, env={name: value for name, value in env.items() if value is not None}, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, path: str, body: bytes, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:  # type: ignore[union-attr]
                raise SystemExit(f"{self.name}: gunicorn exited ({self.process.returncode}); log:\n{self.log_tail()}")
            try:
                post(self.url(path), body, timeout=5)  # any HTTP answer: up (answers are checked later)
                if len(self.workers()) >= 2:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{self.name}: not ready after {timeout:.0f} s; log:\n{self.log_tail()}")
            time.sleep(0.2)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def workers(self) -> list[int]:
        return _children(self.process.pid) if self.process else []

    def cpu_seconds(self) -> float:
        """CPU used so far by the master, its live workers and the workers it reaped."""
        own, reaped = _proc_cpu(self.process.pid)  # type: ignore[union-attr]
        total = own + reaped
        for pid in self.workers():
            try:
                total += _proc_cpu(pid)[0]
            except OSError:
                pass
        return total

    def worker_boots(self) -> int:
        """How many 'Booting worker' lines gunicorn logged since the last call."""
        count = 0
        with open(self.log_path, "rb") as log:
            log.seek(self._log_offset)
            while chunk := log.read(1 << 22):
                count += chunk.count(b"Booting worker")
            self._log_offset = log.tell()
        return count

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=25)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


CACHE_LINE = re.compile(r'^referee_cache_requests_total\{([^}]*)\}\s+([0-9.e+]+)$', re.M)


def cache_gets(server: Server) -> Counter:
    """The service's cache look-ups so far by result (hit, miss, ...), from its /metrics (all workers). A scrape
    that meets a worker's metrics file while gunicorn recycles that worker can fail: it is asked again."""
    for attempt in range(3):
        try:
            with urllib.request.urlopen(server.url("/metrics"), timeout=10) as response:
                text = response.read().decode()
            break
        except urllib.error.HTTPError:
            if attempt == 2:
                raise
            time.sleep(0.5)
    counts: Counter = Counter()
    for labels, value in CACHE_LINE.findall(text):
        parts = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        if parts.get("operation") == "get":
            counts[parts.get("result", "?")] += int(float(value))
    return counts



# ---------------------------------------------------------------- wrk

LUA = """-- generated by bench/service.py: each request of the file in turn, round and round
local requests = {}
local headers = {["Content-Type"] = "application/json"}
for line in io.lines(%(requests)s) do
  local path, body = line:match("^(%%S+) (.*)$")
  requests[#requests + 1] = wrk.format("POST", path, headers, body)
end
local last = 0

request = function()
  last = last %% #requests + 1
  return requests[last]
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %%.0f, "duration_us": %%.0f, "bytes": %%.0f, "connect": %%.0f, "read": %%.0f, ' ..
    '"write": %%.0f, "status": %%.0f, "timeout": %%.0f, "p50": %%.0f, "p90": %%.0f, "p99": %%.0f, ' ..
    '"max": %%.0f, "mean": %%.1f}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
"""


def lua_script(workdir: Path, name: str, requests: list[tuple[str, bytes]]) -> Path:
    """A wrk script cycling through `requests` ((path, JSON body) pairs, POSTed in this order)."""
    lines_path = workdir / f"{name}.requests"
    lines_path.write_bytes(b"".join(path.encode() + b" " + body + b"\n" for path, body in requests))
    script = workdir / f"{name}.lua"
    script.write_text(LUA % {"requests": json.dumps(str(lines_path))})
    return script


def run_wrk(url: str, script: Path, seconds: int, connections: int, threads: int, midway=None) -> dict:
    """One wrk run; `midway()` is called half-way through it."""
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
            "-s", str(script), url]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if midway is not None:
        time.sleep(seconds / 2)
        midway()
    try:
        stdout, stderr = process.communicate(timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
    line = next((text for text in stdout.splitlines() if text.startswith("BENCH ")), None)
    if process.returncode != 0 or line is None:
        raise SystemExit(f"wrk failed ({process.returncode}): {stdout}\n{stderr}")
    stats = json.loads(line[6:])
    stats["rps"] = stats["requests"] / (stats["duration_us"] / 1e6)
    stats["errors"] = sum(stats[k] for k in ("connect", "read", "write", "status", "timeout"))
    return stats


def connection_split(server: Server) -> str:
    """How the load generator's connections are spread over the workers right now, e.g. "12/4": a worker keeps
    the keep-alive connections it accepted, and one worker is one core at most (the GIL)."""
    if shutil.which("ss") is None:
        return "?"
    out = subprocess.run(["ss", "-tnpH", "state", "established", f"( sport = :{server.port} )"],
                         capture_output=True, text=True).stdout
    per_pid = Counter(re.findall(r"pid=(\d+)", out))
    counts = sorted((per_pid.get(str(pid), 0) for pid in server.workers()), reverse=True)
    return "/".join(str(c) for c in counts) or "?"


def system_busy() -> tuple[int, int]:
    with open("/proc/stat") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)



@dataclass
class Run:
    case: str
    scenario: str
    server: str
    round: int
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int
    cpu_us_per_request: float
    machine_busy: float  # fraction of all cores busy during the run (server + wrk + anything else)
    wrk_cpu: float  # cores' worth of CPU wrk used
    hits: int = 0
    misses: int = 0
    worker_boots: int = 0
    split: str = "?"  # wrk's connections per worker, half-way through the run


def measure(server: Server, case: Case, scenario: str, script: Path, args: argparse.Namespace, round_: int,
            seconds: int) -> Run:
    is_service = server.name != "floor"
    gets_before = cache_gets(server) if is_service else Counter()
    server.worker_boots()
    cpu_before = server.cpu_seconds()
    busy_before = system_busy()
    children_before = os.times()
    split: list[str] = []
    stats = run_wrk(server.url("/"), script, seconds, args.connections, args.threads,
                    midway=lambda: split.append(connection_split(server)))
    children_after = os.times()
    busy_after = system_busy()
    cpu_used = server.cpu_seconds() - cpu_before
    boots = server.worker_boots()
    gets = (cache_gets(server) - gets_before) if is_service else Counter()
    wall = stats["duration_us"] / 1e6
    wrk_cpu = ((children_after.children_user + children_after.children_system)
               - (children_before.children_user + children_before.children_system)) / wall
    busy = (busy_after[0] - busy_before[0]) / max(1, busy_after[1] - busy_before[1])
    return Run(case.name, scenario, server.name, round_, stats["rps"], stats["p50"] / 1000, stats["p99"] / 1000,
               int(stats["requests"]), int(stats["errors"]), 1e6 * cpu_used / max(1, stats["requests"]), busy,
               wrk_cpu, gets.get("hit", 0), gets.get("miss", 0), boots, split[0] if split else "?")


def worker_owning(server: Server, local_port: int) -> int | None:
    """The pid of the worker that accepted our connection from `local_port` (from `ss`)."""
    where = f"( sport = :{server.port} and dport = :{local_port} )"
    out = subprocess.run(["ss", "-tnpH", "state", "established", where], capture_output=True, text=True).stdout
    found = re.search(r"pid=(\d+)", out)
    return int(found[1]) if found else None


def connection_to(server: Server, pid: int, tries: int = 200) -> http.client.HTTPConnection:
    """A keep-alive connection that worker `pid` accepted. Connections are opened (a cheap GET /healthz makes a
    worker accept each) until that worker holds one; the others stay open meanwhile: closed and opened again,
    they tend to go to the same worker every time."""
    others = []
    try:
        for _ in range(tries):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            if worker_owning(server, connection.sock.getsockname()[1]) == pid:
                return connection
            others.append(connection)
    finally:
        for other in others:
            other.close()
    raise SystemExit(f"{server.name}: no connection accepted by worker {pid} in {tries} tries")


def fill_cache(server: Server, requests: list[tuple[str, bytes]], per_connection: int = 50) -> Counter:
    """Send every request once to each worker of the cached server, on connections that worker accepted (each
    worker has its own LRU, and a keep-alive connection stays with the worker that accepted it; the config closes
    one after GUNICORN_KEEPALIVE_REQUESTS, so a fresh one is found every `per_connection` requests). The answers'
    X-Cache values."""
    seen: Counter = Counter()
    if shutil.which("ss") is None:  # no way to tell the workers apart: fresh connections land on either
        for path, body in requests * 16:
            status, headers, _ = post(server.url(path), body, timeout=60)
            seen[headers.get("X-Cache") if status == 200 else status] += 1
        return seen
    for pid in server.workers():
        for start in range(0, len(requests), per_connection):
            connection = connection_to(server, pid)
            try:
                for path, body in requests[start:start + per_connection]:
                    connection.request("POST", path, body, {"Content-Type": "application/json"})
                    answer = connection.getresponse()
                    answer.read()
                    seen[answer.getheader("X-Cache") if answer.status == 200 else answer.status] += 1
            finally:
                connection.close()
    return seen


# ---------------------------------------------------------------- profile (py-spy)

PROFILE_BUCKETS = (  # (bucket, test on a frame's "path:line"); the leaf-most frame that matches owns a sample
    ("cache key (canonical JSON + sha256) and LRU", re.compile(r"^service/cache\.py:")),
    ("marshmallow/webargs/flask-smorest validation", re.compile(
        r"^(marshmallow|webargs|flask_smorest|apispec)/|^service/games/\w+/schemas\.py:|^service/wire/strict\.py:")),
    ("game position (reading, checks, state_json)", re.compile(r"^service/games/\w+/position\.py:")),
    ("game engine/rules/scoring", re.compile(r"^service/games/")),
    ("endpoint glue (service/api, adapter)", re.compile(r"^service/")),
    ("prometheus (exporter + counters)", re.compile(r"^(prometheus_client|prometheus_flask_exporter)/")),
    ("flask-limiter (limits)", re.compile(r"^(flask_limiter|limits)/")),
    ("logging (JSON access log) + request id", re.compile(r"^(logging/|json/|uuid\.py:)")),
    ("flask-cors", re.compile(r"^flask_cors/")),
    ("Flask/werkzeug", re.compile(r"^(flask|werkzeug)/|floor_app\.py:")),
    ("gunicorn (HTTP parse, socket I/O, worker loop)", re.compile(r"^gunicorn/")),
)
WAITS = re.compile(r"^(selectors\.py|concurrent/futures/thread\.py:81|threading\.py|queue\.py|"
                   r"gunicorn/arbiter\.py)")  # blocking waits, should py-spy count a thread that is not running
FRAME = re.compile(r"^(?P<function>.*) \((?P<path>[^()]*):(?P<line>\d+)\)$")


@functools.lru_cache(maxsize=None)
def source_line(path: str, line: int) -> str:
    """The text of a frame's line: py-spy names files relative to sys.path (flask/app.py, service/api/...)."""
    for base in (ROOT, *(Path(p) for p in sys.path if p)):
        candidate = base / path
        if candidate.is_file():
            return linecache.getline(str(candidate), line)
    return ""


def bucket_of(frames: list[str]) -> str:
    """The leaf frame's own C call when it is JSON work (py-spy charges a C function to the Python line calling
    it), else the leaf-most frame of a known library; stdlib frames (copy, re, ...) are passed over."""
    parsed = [m for m in (FRAME.match(f) for f in frames) if m]
    if not parsed:
        return "other"
    if any(m["function"].endswith("load_wsgi") for m in parsed):
        return "worker boot (imports + create_app after max_requests recycling)"
    leaf = parsed[-1]
    text = source_line(leaf["path"], int(leaf["line"]))
    if "orjson.loads" in text or ".get_json(" in text:
        return "JSON parse (orjson.loads)"
    if "orjson.dumps" in text:
        return ("cache key (canonical JSON + sha256) and LRU" if leaf["function"] == "canonical"
                else "JSON encode (orjson.dumps)")
    for match in reversed(parsed):
        where = f"{match['path']}:{match['line']}"
        for name, test in PROFILE_BUCKETS:
            if test.search(where):
                return name
    return "other (stdlib, interpreter)"


def read_raw_profile(path: Path) -> tuple[Counter, Counter, int]:
    """py-spy's raw (collapsed) output of the workers: samples per bucket, the top leaf frames, the total."""
    buckets: Counter = Counter()
    leaves: Counter = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        parts = stack.split(";")
        if sum(p.startswith("process ") for p in parts) < 2:
            continue  # the gunicorn master, not a worker
        frames = [p for p in parts if p and not p.startswith("process ")]
        leaf = FRAME.match(frames[-1]) if frames else None
        if not frames or (leaf and WAITS.search(f"{leaf['path']}:{leaf['line']}")):
            continue
        n = int(count)
        total += n
        buckets[bucket_of(frames)] += n
        leaves[frames[-1]] += n
    return buckets, leaves, total




def profile(servers: dict[str, Server], case: Case, scripts: dict[tuple[str, str], Path],
            fill_requests: list[tuple[str, bytes]], workdir: Path, args: argparse.Namespace) -> dict:
    """py-spy of the workers while wrk cycles through the case's bodies: /apply cold, cached and the floor (and
    /replay cold and cached, when measured and not --quick)."""
    if shutil.which("py-spy") is None:
        print("py-spy is not installed (pip install py-spy): no profile", file=sys.stderr)
        return {}
    cases = [("apply, computed (cold)", "cold", "apply"), ("apply, cache hit", "cached", "apply"),
             ("floor (apply bodies and answer sizes)", "floor", "apply")]
    if (("replay", "cold") in scripts) and not args.quick:
        cases += [("replay, computed (cold)", "cold", "replay"), ("replay, cache hit", "cached", "replay")]
    out = {}
    for label, server_name, scenario in cases:
        server = servers[server_name]
        script = scripts[scenario, "floor" if server_name == "floor" else "service"]
        if server_name == "cached":
            fill_cache(server, fill_requests)
        raw = workdir / f"profile-{server_name}-{scenario}.txt"
        spy = subprocess.Popen(["py-spy", "record", "--pid", str(server.process.pid), "--subprocesses", "--gil",  # type: ignore
                                "--rate", str(args.profile_rate), "--duration", str(args.profile_seconds),
                                "--format", "raw", "--output", str(raw)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)  # py-spy attaches
        stats = run_wrk(server.url("/"), script, args.profile_seconds, args.connections, args.threads)
        try:
            _, err = spy.communicate(timeout=args.profile_seconds + 60)
        except subprocess.TimeoutExpired:
            spy.kill()
            _, err = spy.communicate()
        if not raw.exists():
            print(f"py-spy failed: {err.strip()[-500:]}", file=sys.stderr)
            continue
        buckets, leaves, total = read_raw_profile(raw)
        if args.keep_profiles:
            kept = Path(args.keep_profiles)
            kept.mkdir(parents=True, exist_ok=True)
            shutil.copy(raw, kept / f"{case.name.replace('/', '-')}-{raw.name}")
        out[f"{case.name}: {label}"] = {"samples": total, "rps_under_profiler": stats["rps"],
                                        "buckets": {name: n / max(1, total) for name, n in buckets.most_common()},
                                        "top_leaves": {name: n / max(1, total) for name, n in leaves.most_common(12)}}
    return out


# ---------------------------------------------------------------- checks

def check_bodies(servers: dict[str, Server], case: Case, scenario: str, bodies: list[bytes]) -> list[int]:
    """Send every body once to each server: 200 from all three, a miss from cold, cached's answer the same as
    cold's, the floor's of the size asked. The service's answer size per body."""
    path = f"{case.base_path}/{scenario}"
    sizes = []
    for index, body in enumerate(bodies):
        where = f"{case.name} {scenario} body {index} ({len(body)} B)"
        status, headers, answer = post(servers["cold"].url(path), body, timeout=60)
        if status != 200 or headers.get("X-Cache") != "miss":
            raise SystemExit(f"cold {where}: {status} X-Cache={headers.get('X-Cache')}: {answer[:300]!r}")
        status, headers, cached = post(servers["cached"].url(path), body, timeout=60)
        if status != 200 or orjson.loads(cached) != orjson.loads(answer):
            raise SystemExit(f"cached {where}: {status} X-Cache={headers.get('X-Cache')}, or a different answer")
        status, _, echoed = post(servers["floor"].url(f"/echo?bytes={len(answer)}"), body, timeout=60)
        if status != 200 or abs(len(echoed) - len(answer)) > 64:
            raise SystemExit(f"floor {where}: {status}, {len(echoed)} bytes for {len(answer)} wanted")
        sizes.append(len(answer))
    return sizes


# ---------------------------------------------------------------- report

def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def summarise(runs: list[Run]) -> dict:
    """Per (case, scenario, server): medians over rounds, and ratios to the floor run of the same round; per
    (case, scenario): the cached server against the cold one."""
    by: dict[tuple[str, str, str], list[Run]] = defaultdict(list)
    for run in runs:
        by[run.case, run.scenario, run.server].append(run)
    table, speedups = {}, {}
    for case, scenario in dict.fromkeys((run.case, run.scenario) for run in runs):
        floor = {r.round: r for r in by[case, scenario, "floor"]}
        for server in SERVERS:
            mine = by[case, scenario, server]
            per_round = [(r, floor[r.round]) for r in mine if r.round in floor]
            table[case, scenario, server] = {
                "rps": median([r.rps for r in mine]),
                "p50_ms": median([r.p50_ms for r in mine]),
                "p99_ms": median([r.p99_ms for r in mine]),
                "cpu_us": median([r.cpu_us_per_request for r in mine]),
                "busy": median([r.machine_busy for r in mine]),
                "wrk_cpu": median([r.wrk_cpu for r in mine]),
                "rps_x_floor": median([r.rps / f.rps for r, f in per_round]),
                "p50_x_floor": median([r.p50_ms / f.p50_ms for r, f in per_round]),
                "p99_x_floor": median([r.p99_ms / f.p99_ms for r, f in per_round]),
                # the floor's CPU per request over the service's: like req/s ÷ floor, higher is better
                "cpu_floor_over": median([f.cpu_us_per_request / r.cpu_us_per_request for r, f in per_round]),
                "rps_spread": (min(r.rps for r in mine), max(r.rps for r in mine)) if mine else (0, 0),
                "requests": sum(r.requests for r in mine), "errors": sum(r.errors for r in mine),
                "hits": sum(r.hits for r in mine), "misses": sum(r.misses for r in mine),
                "worker_boots": sum(r.worker_boots for r in mine), "rounds": len(mine),
                "splits": [r.split for r in mine],
            }
        cold = {r.round: r for r in by[case, scenario, "cold"]}
        pairs = [(r, cold[r.round]) for r in by[case, scenario, "cached"] if r.round in cold]
        speedups[case, scenario] = {"rps": median([c.rps / k.rps for c, k in pairs]),
                                    "p50": median([k.p50_ms / c.p50_ms for c, k in pairs]),
                                    "cpu": median([k.cpu_us_per_request / c.cpu_us_per_request for c, k in pairs])}
    return {"table": table, "speedups": speedups}


def print_case(summary: dict, case: Case, scenarios: tuple[str, ...], sizes: dict) -> None:
    """Every (scenario, server) of one case, as measured."""
    table = summary["table"]
    header = (f"{'scenario':<12} {'server':<7} {'req B':>6} {'ans B':>7} {'req/s':>8} {'(min-max)':>15} "
              f"{'p50 ms':>8} {'p99 ms':>8} {'CPU µs/req':>10} {'x floor: req/s':>14} {'p50':>6} {'p99':>6} "
              f"{'CPU':>6} {'hit%':>5} {'boots':>5}")
    print(f"{case.name}: medians over rounds; request and answer bytes are medians over the bodies; x floor CPU is "
          f"the floor's CPU per request over the server's")
    print(header)
    print("-" * len(header))
    for scenario in scenarios:
        request_bytes, answer_bytes = sizes[case.name, scenario]["request_median"], sizes[case.name, scenario][
            "answer_median"]
        for server in SERVERS:
            row = table[case.name, scenario, server]
            lookups = row["hits"] + row["misses"]
            hit = f"{100 * row['hits'] / lookups:.1f}" if server != "floor" and lookups else "-"
            spread = f"({row['rps_spread'][0]:.0f}-{row['rps_spread'][1]:.0f})"
            ratio = lambda key: "1" if server == "floor" else f"{row[key]:.2f}"  # noqa: E731
            print(f"{scenario:<12} {server:<7} {request_bytes:>6.0f} {answer_bytes:>7.0f} {row['rps']:>8.0f} "
                  f"{spread:>15} {row['p50_ms']:>8.2f} {row['p99_ms']:>8.2f} {row['cpu_us']:>10.0f} "
                  f"{ratio('rps_x_floor'):>14} {ratio('p50_x_floor'):>6} {ratio('p99_x_floor'):>6} "
                  f"{ratio('cpu_floor_over'):>6} {hit:>5} {row['worker_boots']:>5}")
            if row["errors"]:
                print(f"  !! {row['errors']} wrk errors (non-2xx, timeouts, socket errors) in {row['requests']} "
                      f"requests")
    print("  wrk's connections per worker half-way through each run: " + "; ".join(
        f"{scenario} " + " ".join(f"{server} {','.join(table[case.name, scenario, server]['splits'])}"
                                  for server in SERVERS) for scenario in scenarios))
    print()


SHORT = {"apply": "apply", "legal-moves": "legal", "score": "score", "replay": "replay"}


def print_summary(summary: dict, cases: list[Case], scenarios: tuple[str, ...], sizes: dict) -> None:
    """One line per case: computed and cache-hit answers against the floor, by req/s and by CPU per request."""
    table = summary["table"]
    columns = [(s, "cold") for s in scenarios] + [(s, "cached") for s in scenarios]
    labels = [SHORT[s] if server == "cold" else f"hit {SHORT[s]}" for s, server in columns]
    body_scenario = "apply" if "apply" in scenarios else scenarios[0]
    width = max(len(label) for label in labels) + 1
    for title, key in (("req/s ÷ floor (median of per-round ratios)", "rps_x_floor"),
                       ("CPU: the floor's CPU µs/request ÷ the service's (median of per-round ratios; higher is "
                        "better, like req/s)", "cpu_floor_over")):
        print(f"{title}; 'hit' is the cached server, every answer a cache hit")
        header = (f"{'game/variant':<26} {'bodies':>6} {body_scenario + ' body median':>18} "
                  + " ".join(f"{label:>{width}}" for label in labels))
        print(header)
        print("-" * len(header))
        for case in cases:
            size = sizes[case.name, body_scenario]
            print(f"{case.name:<26} {size['bodies']:>6} {size['request_median']:>16,.0f} B "
                  + " ".join(f"{table[case.name, s, server][key]:>{width}.2f}" for s, server in columns))
        print()
    print("cache hit vs computed, req/s (cached ÷ cold, median of per-round ratios):")
    for case in cases:
        print(f"  {case.name:<26} " + "   ".join(f"{SHORT[s]} {summary['speedups'][case.name, s]['rps']:6.1f}x"
                                                for s in scenarios))
    print()
    goals = [g for g in GOALS if g[1] in scenarios]
    print("goals (met: both the req/s ratio and the CPU ratio reach it; no: neither; ?: one of them):")
    width = max(len(g[0]) for g in goals) + 1
    print(f"{'game/variant':<26} " + " ".join(f"{g[0]:>{width}}" for g in goals))
    for case in cases:
        cells = []
        for _, scenario, numerator, denominator, minimum in goals:
            if denominator == "floor":
                row = table[case.name, scenario, numerator]
                value, by_cpu = row["rps_x_floor"], row["cpu_floor_over"]
            else:
                speedup = summary["speedups"][case.name, scenario]
                value, by_cpu = speedup["rps"], speedup["cpu"]
            verdict = "met" if min(value, by_cpu) >= minimum else "no" if max(value, by_cpu) < minimum else "?"
            cells.append(f"{value:.2f} {verdict}")
        print(f"{case.name:<26} " + " ".join(f"{cell:>{width}}" for cell in cells))


def machine_line() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    wrk = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout.split(" Copyright")[0]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{os.cpu_count()} CPUs ({model}), Python {sys.version.split()[0]}, {wrk.strip()}, load average {load}"




def chosen_cases(games: str | None, variants: str | None) -> list[Case]:
    """The registry's cases, filtered by comma-separated game ids and variant names (`base`: no variant)."""
    cases = all_cases()
    if games:
        wanted = {g.strip() for g in games.split(",") if g.strip()}
        unknown = wanted - set(GAMES)
        if unknown:
            raise SystemExit(f"unknown game(s): {', '.join(sorted(unknown))}; registered: {', '.join(GAMES)}")
        cases = [c for c in cases if c.game in wanted]
    if variants:
        wanted = {v.strip() for v in variants.split(",") if v.strip()}
        cases = [c for c in cases if (c.variant or "base") in wanted]
    if not cases:
        raise SystemExit("no game and variant left by --game/--variant; cases: "
                         + ", ".join(c.name for c in all_cases()))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--variant", help="comma-separated variant names, `base` for none (default: all)")
    parser.add_argument("--scenarios", default=",".join(DEFAULT_SCENARIOS),
                        help=f"comma-separated subset of {', '.join(SCENARIOS)} (default: "
                             f"{','.join(DEFAULT_SCENARIOS)})")
    parser.add_argument("--bodies", type=int, default=300,
                        help="random games per case, each giving one body per scenario (default 300)")
    parser.add_argument("--duration", type=int, default=2, help="seconds per wrk run (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per case; every (scenario, server) runs once "
                                                              "a round (default 3)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1: it shares the 2 cores)")
    parser.add_argument("--log-level", default=os.environ.get("LOG_LEVEL", "INFO"),
                        help="the service's LOG_LEVEL (default INFO, as deployed: one JSON line per request)")
    parser.add_argument("--max-requests", type=int, default=None,
                        help="override GUNICORN_MAX_REQUESTS (0: no worker recycling); default: the config's")
    parser.add_argument("--quick", action="store_true", help="60 bodies, 1 round of 1 s, for a smoke test")
    parser.add_argument("--profile", action="store_true",
                        help="also py-spy the workers (the first case: apply cold, hit, floor)")
    parser.add_argument("--profile-only", action="store_true", help="only the profile, no measured rounds")
    parser.add_argument("--profile-seconds", type=int, default=15)
    parser.add_argument("--profile-rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--keep-profiles", metavar="DIR", help="copy py-spy's raw stacks to DIR")
    parser.add_argument("--json", metavar="PATH", help="write every run and the summary as JSON")
    parser.add_argument("--seed", type=int, default=7, help="the first game's seed (default 7)")
    parser.add_argument("--app", default="service.api:create_app()",
                        help="the service's gunicorn APP_MODULE (to measure a variant; default: the service)")
    args = parser.parse_args()
    if args.quick:
        args.bodies, args.duration, args.rounds, args.profile_seconds = 60, 1, 1, 5
    scenarios = tuple(s.strip() for s in args.scenarios.split(",") if s.strip())
    unknown = set(scenarios) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(sorted(unknown))}")
    if (args.profile or args.profile_only) and "apply" not in scenarios:
        parser.error("--profile needs the apply scenario")
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk")
    cases = chosen_cases(args.game, args.variant)

    started = time.monotonic()
    bodies: dict[Case, dict[str, list[bytes]]] = {}
    for case in cases:
        bodies[case] = sample_bodies(case, args.bodies, args.seed, scenarios)
    print(f"bodies: {args.bodies} seeded random games per case played and sampled in "
          f"{time.monotonic() - started:.0f} s", flush=True)

    workdir = Path(tempfile.mkdtemp(prefix="bench-service-"))
    servers = {
        "cold": Server("cold", args.app, {"CACHE_MAX_ENTRIES": "0"}, workdir),
        "cached": Server("cached", args.app, {}, workdir),
        "floor": Server("floor", "bench.floor_app:app", {}, workdir),
    }
    for name in ("REDIS_URL", "CACHE_MAX_ENTRIES", "CACHE_MIN_COMPUTE_MS"):  # the servers' own settings only
        os.environ.pop(name, None)
    runs: list[Run] = []
    sizes: dict[tuple[str, str], dict] = {}
    fills: dict[str, dict] = {}  # the cached server's answers while it was filled, by X-Cache
    profiles: dict = {}
    try:
        for server in servers.values():
            # A recycled worker starts with an empty LRU: the cached server keeps its workers (unless told).
            keep_workers = server.name == "cached" and args.max_requests is None
            server.start(args.log_level, 0 if keep_workers else args.max_requests)
        first = cases[0]
        servers["cold"].wait_ready(f"{first.base_path}/{scenarios[0]}", bodies[first][scenarios[0]][0])
        servers["cached"].wait_ready(f"{first.base_path}/{scenarios[0]}", bodies[first][scenarios[0]][0])
        servers["floor"].wait_ready("/echo", b"{}")

        print(f"machine: {machine_line()}")
        recycling = ("config default (5000 +- 500 jitter), the cached server's 0" if args.max_requests is None
                     else args.max_requests)
        print(f"gunicorn: {GUNICORN_CONF.relative_to(ROOT)}, app {args.app}, WEB_CONCURRENCY=2, GUNICORN_THREADS="
              f"{os.environ.get('GUNICORN_THREADS', '2')}, RATE_LIMIT='{HEAVY_CLIENT_RATE_LIMIT}' (counted, never refused), LOG_LEVEL={args.log_level}, max_requests="
              f"{recycling}")
        print(f"wrk: -t{args.threads} -c{args.connections} -d{args.duration}s --latency, cycling through the bodies; "
              f"{args.rounds} round(s) per case, order rotated each round; figures: medians over rounds", flush=True)

        for case_index, case in enumerate(cases):
            # Check every answer, learn the answers' sizes (the floor answers as many bytes), make wrk's scripts.
            scripts: dict[tuple[str, str], Path] = {}
            check_started = time.monotonic()
            for scenario in scenarios:
                mine = bodies[case][scenario]
                answer_sizes = check_bodies(servers, case, scenario, mine)
                path = f"{case.base_path}/{scenario}"
                stem = f"{case.game}-{case.variant or 'base'}-{scenario}"
                scripts[scenario, "service"] = lua_script(workdir, f"{stem}-service", [(path, b) for b in mine])
                scripts[scenario, "floor"] = lua_script(
                    workdir, f"{stem}-floor", [(f"/echo?bytes={n}", b) for n, b in zip(answer_sizes, mine)])
                sizes[case.name, scenario] = {
                    "bodies": len(mine), "request_median": median([len(b) for b in mine]),
                    "request_min": min(len(b) for b in mine), "request_max": max(len(b) for b in mine),
                    "answer_median": median(answer_sizes), "answer_min": min(answer_sizes),
                    "answer_max": max(answer_sizes)}
            fill_requests = [(f"{case.base_path}/{scenario}", body) for scenario in scenarios
                             for body in bodies[case][scenario]]
            print(f"\n== {case.name}: " + ", ".join(
                f"{s} {sizes[case.name, s]['bodies']} bodies of {sizes[case.name, s]['request_min']:,}-"
                f"{sizes[case.name, s]['request_max']:,} B (median {sizes[case.name, s]['request_median']:,.0f}), "
                f"answers median {sizes[case.name, s]['answer_median']:,.0f} B" for s in scenarios)
                + f"; every answer checked in {time.monotonic() - check_started:.0f} s", flush=True)
            script_of = lambda scenario, name: scripts[scenario, "floor" if name == "floor" else "service"]  # noqa: E731

            if not args.profile_only:  # (the check above was every server's warm-up)
                fills[case.name] = dict(fill_cache(servers["cached"], fill_requests))
                print("  cached server filled, every body sent to each worker: X-Cache "
                      + ", ".join(f"{k} {v}" for k, v in fills[case.name].items()), flush=True)
                for round_ in range(args.rounds):
                    for index, scenario in enumerate(scenarios):
                        shift = (round_ + index + case_index) % len(SERVERS)
                        for name in SERVERS[shift:] + SERVERS[:shift]:
                            run = measure(servers[name], case, scenario, script_of(scenario, name), args, round_,
                                          args.duration)
                            runs.append(run)
                            print(f"  round {round_ + 1} {scenario:<12} {name:<7} {run.rps:8.0f} req/s  p50 "
                                  f"{run.p50_ms:7.2f} ms  p99 {run.p99_ms:7.2f} ms  CPU {run.cpu_us_per_request:6.0f} "
                                  f"µs/req  busy {100 * run.machine_busy:3.0f}%  wrk {run.wrk_cpu:.2f} cores  "
                                  f"conns {run.split:<5}"
                                  + (f"  hits {run.hits} misses {run.misses}" if name != "floor" else "")
                                  + (f"  boots {run.worker_boots}" if run.worker_boots else "")
                                  + (f"  ERRORS {run.errors}" if run.errors else ""), flush=True)
            if (args.profile or args.profile_only) and case_index == 0:
                profiles = profile(servers, case, scripts, fill_requests, workdir, args)

        if runs:
            summary = summarise(runs)
            print()
            for case in cases:
                print_case(summary, case, scenarios, sizes)
            print_summary(summary, cases, scenarios, sizes)
        else:
            summary = {"table": {}, "speedups": {}}
        for label, data in profiles.items():
            print(f"\npy-spy, {label}: {data['samples']} samples from both workers, "
                  f"{data['rps_under_profiler']:.0f} req/s under the profiler")
            for name, share in data["buckets"].items():
                print(f"  {100 * share:5.1f}%  {name}")
            print("  top leaf frames:")
            for name, share in data["top_leaves"].items():
                print(f"    {100 * share:5.1f}%  {name}")
        print(f"\n{time.monotonic() - started:.0f} s in all")
        if args.json:
            Path(args.json).write_text(json.dumps({
                "machine": machine_line(), "args": vars(args), "cases": [c.name for c in cases],
                "sizes": {f"{c} {s}": v for (c, s), v in sizes.items()},
                "cache_fill": fills, "runs": [vars(r) for r in runs],
                "summary": {"table": {f"{c} {s} {v}": row for (c, s, v), row in summary["table"].items()},
                            "speedups": {f"{c} {s}": row for (c, s), row in summary["speedups"].items()}},
                "profiles": profiles}, indent=1))
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
