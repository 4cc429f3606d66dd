"""The framework floor: the cheapest Flask answer to a JSON POST, served like the referee.

One endpoint, `POST /echo`: it parses the JSON body (orjson, as the service does) and answers a JSON body of
about the size asked for with `?bytes=N` (the parsed document echoed, padded with a string to N bytes, or only a
string of N bytes when the document is larger than that; without `bytes`, the document echoed as is). No schemas, no cache, no metrics, no rate limiter, no logging: whatever a
referee request costs above this is the service's own work.

bench/service.py runs it under the project's gunicorn config, like the service:

    gunicorn --config deploy/gunicorn.conf.py bench.floor_app:app
"""
from __future__ import annotations

import orjson
from flask import Flask, Response, request

app = Flask(__name__)

_PAD_OVERHEAD = len(b'{"echo":,"pad":""}')
_PAD_ONLY_OVERHEAD = len(b'{"pad":""}')


@app.post("/echo")
def echo() -> Response:
    doc = orjson.loads(request.get_data())
    wanted = request.args.get("bytes", type=int) or 0
    body = orjson.dumps(doc)
    if wanted > len(body) + _PAD_OVERHEAD:
        body = orjson.dumps({"echo": doc, "pad": " " * (wanted - len(body) - _PAD_OVERHEAD)})
    elif _PAD_ONLY_OVERHEAD < wanted < len(body):  # an answer smaller than the question (e.g. a short move list)
        body = orjson.dumps({"pad": " " * (wanted - _PAD_ONLY_OVERHEAD)})
    return Response(body, mimetype="application/json")


def create_app() -> Flask:
    return app
