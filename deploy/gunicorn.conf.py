"""gunicorn settings for the referee. Every value can be overridden by the environment."""
import ctypes
import gc
import multiprocessing
import os
import shutil
import tempfile

# Prometheus multiprocess mode: each worker writes its metrics to files in this directory, and /metrics
# gathers them. The directory must be empty at start and exist before any worker imports prometheus_client.
_metrics_dir = os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR",
                                     os.path.join(tempfile.gettempdir(), "referee-metrics"))
if os.path.isdir(_metrics_dir):
    shutil.rmtree(_metrics_dir, ignore_errors=True)
os.makedirs(_metrics_dir, exist_ok=True)

# glibc's malloc raises its mmap threshold to the largest block freed so far (up to 32 MiB): after one large answer
# every later one comes from the heap, and the heap, shared with the cache's long-lived answers, stays fragmented
# and grows request after request. A fixed threshold gives each block of 64 KiB or more its own mapping, returned
# when freed. Set here, in the master, so that every forked worker has it; MALLOC_MMAP_THRESHOLD_ in the
# environment (read by glibc itself at start) wins.
M_MMAP_THRESHOLD = -3  # mallopt's parameter (malloc.h)
if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
    try:
        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, 64 * 1024)
    except (OSError, AttributeError):
        pass  # not glibc: its allocator's own policy

bind = os.environ.get("BIND", f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}")
# CPU-bound work: processes give parallelism; a couple of threads hide the little I/O (Redis) there is.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = 5
# A keep-alive connection stays with the worker that accepted it: after a worker restarts or is recycled, busy
# clients (or a proxy's upstream pool) would stay on the surviving worker and the new one would idle. Closing a
# connection after this many requests (`Connection: close`; the client reconnects, which costs a loopback or LAN
# handshake) lets the shared listen socket spread the connections again. 0: no bound.
keepalive_requests = int(os.environ.get("GUNICORN_KEEPALIVE_REQUESTS", "100"))
# The app is built once in the master and forked into each worker: a worker recycled by max_requests starts in
# milliseconds instead of re-importing everything (about a second of CPU each time). Each worker opens its own
# Redis connections after the fork (service/cache.py), and prometheus_client's multiprocess files follow the pid.
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").strip().lower() in ("1", "true", "yes", "on")
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "500"))
limit_request_line = 4094
limit_request_fields = 100
accesslog = None  # the app writes one JSON line per request itself
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def pre_request(worker, req):
    worker.log.debug("%s %s", req.method, req.path)  # gunicorn's own hook does only this
    # req_number: the request's number on its HTTP/1 connection
    if keepalive_requests and getattr(req, "req_number", 0) >= keepalive_requests:
        req.must_close = True  # the answer says `Connection: close`, then the worker closes the connection


# The cyclic garbage collector's full collections walk every object the process holds. What a worker holds at start
# (the app, the games' tables, the compiled loaders: ~120,000 objects) lives as long as it does, yet each full
# collection walked it again (~47 ms, about every 240 requests of a mixed stream with the cache: 18 % of a
# worker's CPU) and, in a worker forked from the master, wrote to every page of it (the collector's own
# bookkeeping), copying pages the master shares. Frozen once loaded (gc.freeze: Python's advice for servers that
# fork), the collector walks only what requests make.
def _freeze_what_is_loaded() -> None:
    gc.collect()  # what is garbage now is not kept for ever
    gc.freeze()


def when_ready(server):
    _freeze_what_is_loaded()  # the master, after preload_app loaded the app


def post_worker_init(worker):
    _freeze_what_is_loaded()  # a worker, once it has the app (its own, without preload_app)


def child_exit(server, worker):
    from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

    GunicornInternalPrometheusMetrics.mark_process_dead_on_child_exit(worker.pid)
