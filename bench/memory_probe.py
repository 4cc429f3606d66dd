"""gunicorn settings for bench/memory.py: the project's own (deploy/gunicorn.conf.py), and a hook that writes what
each worker's allocators hold, so that a worker's growing RSS can be told apart: live data growing, or memory the
allocators keep around live data that did not grow (fragmentation).

Every MEMORY_PROBE_EVERY requests of its own, a worker appends one JSON line to MEMORY_PROBE_DIR/<pid>.jsonl:

    requests        the requests it answered
    rss_anon_kib    its anonymous resident memory (RssAnon, /proc): the heap, what the figures below share out
    python_blocks   objects and buffers the interpreter holds (sys.getallocatedblocks): live Python data
    arenas          pymalloc's arenas of 1 MiB (small objects), as sys._debugmallocstats counts them
    free_in_pools_kib   free blocks inside pymalloc's used pools: small objects' fragmentation
    heap_used_kib, heap_free_kib    glibc malloc's heap (mallinfo2): blocks in use, free chunks between them
    mmapped_kib     glibc's blocks of MALLOC_MMAP_THRESHOLD or more (deploy/gunicorn.conf.py), each its own mapping
"""
from __future__ import annotations

import ctypes
import json
import os
import re
import sys
import tempfile
from pathlib import Path

_PROJECT_CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "gunicorn.conf.py"
exec(compile(_PROJECT_CONFIG.read_text(), str(_PROJECT_CONFIG), "exec"))  # noqa: S102 - the project's settings

_EVERY = int(os.environ.get("MEMORY_PROBE_EVERY", "500"))
_answered = 0


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                     "fsmblks", "uordblks", "fordblks", "keepcost")]


def _mallinfo() -> _MallInfo2 | None:
    try:
        function = ctypes.CDLL(None).mallinfo2
    except AttributeError:  # not glibc, or a glibc before 2.33
        return None
    function.restype = _MallInfo2
    return function()


def _pymalloc() -> dict[str, int]:
    """pymalloc's arenas and free bytes in used pools, from sys._debugmallocstats (which writes to fd 2 only)."""
    with tempfile.TemporaryFile("w+") as out:
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read()

    def figure(label: str) -> int:
        found = re.search(rf"^# {label}\s*=\s*([\d,]+)", text, re.M)
        return int(found.group(1).replace(",", "")) if found else -1
    return {"arenas": figure("arenas allocated current"),
            "free_in_pools_kib": figure("bytes in available blocks") // 1024}


def _rss_anon_kib() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        return next((int(line.split()[1]) for line in status if line.startswith("RssAnon:")), -1)


def post_request(worker, req, environ, resp):  # noqa: ARG001 - gunicorn's hook signature
    global _answered
    _answered += 1
    if _answered % _EVERY:
        return
    heap = _mallinfo()
    line = {"requests": _answered, "rss_anon_kib": _rss_anon_kib(), "python_blocks": sys.getallocatedblocks(),
            **_pymalloc()}
    if heap is not None:
        line.update(heap_used_kib=heap.uordblks // 1024, heap_free_kib=heap.fordblks // 1024,
                    mmapped_kib=heap.hblkhd // 1024)
    with open(Path(os.environ["MEMORY_PROBE_DIR"]) / f"{os.getpid()}.jsonl", "a") as out:
        out.write(json.dumps(line) + "\n")
