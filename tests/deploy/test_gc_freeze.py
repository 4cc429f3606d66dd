"""What a server holds once the app is loaded is frozen for the cyclic garbage collector (deploy/gunicorn.conf.py:
`when_ready` in the master after preload_app, `post_worker_init` in each worker), so that its full collections walk
only what requests make; garbage made while loading is collected first, not frozen with the rest."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .manifests import GUNICORN_CONF

# Run in a child: freezing is for the whole process, and this one runs the rest of the tests.
CHILD = """
import gc, json, runpy, sys, weakref

config = runpy.run_path(sys.argv[1])


class Node:
    pass


cycle = Node()
cycle.me = cycle  # garbage only the cyclic collector frees
gone = weakref.ref(cycle)
del cycle
loaded = [Node() for _ in range(1000)]  # what the app holds once loaded
gc.disable()  # no collection of its own between here and the hook
config[sys.argv[2]](None)
walked = {id(obj) for obj in gc.get_objects()}  # what a collection would walk now
print(json.dumps({"frozen": gc.get_freeze_count(), "loaded_walked": sum(id(node) in walked for node in loaded),
                  "garbage_kept": gone() is not None}))
"""


@pytest.mark.parametrize("hook", ["when_ready", "post_worker_init"])
def test_what_is_loaded_is_frozen_and_the_garbage_collected_first(hook, tmp_path):
    env = {"PATH": os.environ.get("PATH", ""), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    done = subprocess.run([sys.executable, "-c", CHILD, str(GUNICORN_CONF), hook], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["frozen"] >= 1000
    assert found["loaded_walked"] == 0, "objects loaded before the hook are still walked by every collection"
    assert not found["garbage_kept"], "garbage made before the hook was frozen instead of collected"
