"""The contract as served: /openapi.yaml (the committed file) and /docs, a Swagger UI page whose assets come
from the swagger-ui-bundle package, so it works with no internet."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"

docs_blp = Blueprint("docs", __name__)

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tower referee API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#docs", deepLinking: true,
                             defaultModelsExpandDepth: 0, tryItOutEnabled: true});
</script>
</body>
</html>
"""


def _assets_dir() -> str:
    from swagger_ui_bundle import swagger_ui_path

    return swagger_ui_path


def spec_text() -> str:
    if SPEC_PATH.exists():
        return SPEC_PATH.read_text(encoding="utf-8")
    from flask import current_app

    return current_app.extensions["referee"].spec_yaml()


@docs_blp.route("/openapi.yaml", methods=["GET"])
def openapi_yaml() -> Response:
    return Response(spec_text(), mimetype="application/yaml")


@docs_blp.route("/docs", methods=["GET"])
def docs_page() -> Response:
    return Response(PAGE, mimetype="text/html")


@docs_blp.route("/docs/assets/<path:name>", methods=["GET"])
def docs_asset(name: str) -> Response:
    if not name.endswith((".css", ".js", ".png")):
        abort(404)
    response = send_from_directory(_assets_dir(), name, max_age=86400)
    return response
