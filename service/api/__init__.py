"""The HTTP layer: `create_app(config=None)` builds the Flask app; it only translates between HTTP and the
game libraries."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from flask_smorest import Api
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import __version__
from ..games.core.language import read_catalogues
from .caching import AnswerCache
from .config import Settings
from .docs import docs_blp
from .front import Front
from .games import register_games
from .home import home_blp
from .jsonio import OrjsonProvider
from .messages import tr
from .observability import Metrics, configure_logging, register_request_hooks
from .openapi import SchemaExtrasPlugin, register_problem_responses
from .play import play_blp
from .probes import probes_blp
from .problems import ApiProblem, register_error_handlers
from .ratelimit import RateLimiter
from .referee import referee_blp
from .replay import replay_blp

API_DESCRIPTION = "\n\n".join([
    "A stateless referee for tower-building board games. Send a whole game state (and moves); the service "
    "answers whether they are legal and which rule they break, what the legal moves are, what the state becomes "
    "and what happened, and the score. Every rule has an id (see `/v1/games/{game}/rules`), cited in every "
    "violation and error.",
    "Errors are RFC 9457 `application/problem+json` with `errors[]` of `{rule, pointer, message}`: 400 for a "
    "malformed request, 404, 405, 413, 415, 422 for a well-formed but impossible state, 429. An illegal move is "
    "not an error: it is a 200 answer with `legal: false`.",
    "Words for people (violations' and problems' messages, problems' titles and details, events' `text`, rules, "
    "variants, pictures) are in English, French, German or Italian: `?lang=` names one, else `Accept-Language` "
    "chooses (q-values; `fr-CA` is French), anything else is English, never an error. Such answers carry "
    "`Content-Language` and `Vary: Accept-Language`. Rule ids, pointers, field names and event types are the same "
    "in every language.",
    "Answers are cached by (endpoint, game, rules version, canonical request, and the language chosen for an "
    "answer with words); the `X-Cache` header says `hit`, "
    "`miss` or `bypass`. An answer over the cache's size limit (1 MiB by default) is computed each time.",
    "Every request's work is bounded: the body by the server's limit (256 KiB by default, else 413), the moves of "
    "an `/apply` or `/replay` by each game's `maxItems`, and each move's work by the game (a search a move asks "
    "again on an unchanged board is answered once); a `/suggest`'s search by the service's time ceiling (1 s by "
    "default), and a suggestion counts as several requests against the rate limit (10 by default).",
    "No authentication: every operation is open to every caller (`security: []`), within the rate limit.",
])

SERVICE = Path(__file__).resolve().parents[1]  # the service's package: its folders' catalogues


class RefereeApi(Api):
    """flask-smorest's Api documenting errors as the service's problem+json."""

    def _register_responses(self) -> None:
        register_problem_responses(self)


class RefereeFlask(Flask):
    """Flask whose automatic OPTIONS answer lists the methods of the route that matched, not of every route that
    could match the path (the /v1/games/<game>/<path:rest> catch-all only words 404s and 405s)."""

    def make_default_options_response(self) -> Response:
        response = super().make_default_options_response()
        rule = request.url_rule
        if rule is not None and rule.methods and not rule.endpoint.startswith("unknown_game"):
            response.allow.clear()
            response.allow.update(sorted(rule.methods))
        return response


class Referee:
    """What the app holds between requests besides its extensions: settings, metrics, the spec, the limiter."""

    def __init__(self, settings: Settings, metrics: Metrics, api: Api, limiter: RateLimiter | None) -> None:
        self.settings = settings
        self.metrics = metrics
        self.api = api
        self.limiter = limiter
        self.count = metrics.count  # (game, endpoint, outcome): one answer given

    def spec_yaml(self) -> str:
        return self.api.spec.to_yaml()


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app. `config` overrides the environment (same names: REDIS_URL, MAX_BODY_BYTES, RATE_LIMIT, …) and
    may carry Flask settings such as TESTING. Every request goes through the front (front.py), whatever the
    settings: it answers the game questions and hands the rest to Flask."""
    settings = Settings.load(config)
    configure_logging(settings.LOG_LEVEL)
    app = RefereeFlask(__name__)
    app.json = OrjsonProvider(app)
    app.config.update(
        MAX_CONTENT_LENGTH=settings.MAX_BODY_BYTES,
        API_TITLE="Tower referee",
        API_VERSION=__version__,
        OPENAPI_VERSION="3.1.0",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION, "license": {"name": "MIT", "identifier": "MIT"},
                                   "contact": {"name": "Tower referee maintainers"}},
                          "servers": [{"url": "/"}], "security": []},
    )
    for key, value in (config or {}).items():
        if key not in Settings.__dataclass_fields__:
            app.config[key] = value

    api = RefereeApi(app, spec_kwargs={"extra_plugins": [SchemaExtrasPlugin()]})
    register_error_handlers(app)
    register_request_hooks(app)
    metrics = Metrics(app)
    # made here, before gunicorn forks the workers from the preloaded app: they share the host's counts
    limiter = RateLimiter.from_settings(settings)
    app.extensions["referee"] = Referee(settings, metrics, api, limiter)
    answers = AnswerCache()
    answers.init_app(app, settings, metrics)

    @app.before_request
    def _require_json() -> None:
        # Only for a POST the app answers: an unknown path stays 404 and a GET-only path 405, whatever the body.
        if request.routing_exception is not None or (request.endpoint or "").startswith("unknown_game"):
            return
        if request.method == "POST" and not request.is_json:
            raise ApiProblem(415, tr("Send the body as JSON with Content-Type: application/json."))
        # A chunked body (no Content-Length) is cut at MAX_CONTENT_LENGTH by werkzeug, silently: without this it
        # would be answered as truncated JSON (400), not as too large (413). A body that fills the limit is refused.
        limit = app.config["MAX_CONTENT_LENGTH"]
        if request.method == "POST" and request.content_length is None and limit is not None \
                and len(request.get_data(cache=True)) >= limit:
            raise RequestEntityTooLarge()

    register_games(app, api, answers, settings)
    # every language's sentences read here, before gunicorn forks the workers from the preloaded app: no answer
    # pays for reading a catalogue (a worker would, on its first answer in each language, after each restart)
    read_catalogues(SERVICE)
    api.register_blueprint(probes_blp)
    app.register_blueprint(docs_blp)
    app.register_blueprint(home_blp)
    app.register_blueprint(referee_blp)
    app.register_blueprint(replay_blp)
    app.register_blueprint(play_blp)

    app.wsgi_app = Front(app.wsgi_app, app, settings, answers, limiter)  # type: ignore[method-assign]
    if settings.FORWARDED_PROXIES:  # the client is who the trusted proxies say, for the limit and the logs
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.FORWARDED_PROXIES)  # type: ignore[method-assign]
    return app
