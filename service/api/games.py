"""The game endpoints: /v1/games and, for every registered game, /v1/games/<game>/<question>.

Routes are made per game from the registry, so each game's paths carry its own exact schemas in the spec,
and a new game needs no change here.
"""
from __future__ import annotations

import functools
import inspect
import secrets
import time
from typing import Any, Callable

import orjson
from flask import Flask, Response, current_app, g, request

from ..cache import HIT, cache_key
from ..games.base import GameRules
from ..games.errors import Problem
from ..games.registry import GAMES
from .blueprint import Blueprint
from .early import LOOKUP_KEY, CachedRoute
from .jsonio import canonical, dumps, request_document
from .problems import ApiProblem
from .schemas import GamesSchema, ProblemSchema, RulesSchema

PROBLEM_RESPONSES = {
    400: "Malformed request: not JSON, wrong shape, unknown fields or wrong types.",
    413: "Body over the size limit.",
    415: "Body is not JSON.",
    429: "Rate limit exceeded.",
}
QUESTIONS = ("rules", "new", "validate", "legal-moves", "apply", "replay", "score", "view")
TOOLS = ("picture", "notation")  # POST endpoints beside the questions (not listed among a game's links)


def operation_id(game_id: str, endpoint: str) -> str:
    """The name a generated client gives the call: `<game>_apply`, `<game>_legal_moves`."""
    return f"{game_id}_{endpoint}".replace("-", "_")


def json_response(data: Any, status: int = 200) -> Response:
    return Response(dumps(data), status=status, mimetype="application/json")


def _document_problems(blp: Blueprint, statuses: tuple[int, ...]) -> Callable:
    def decorate(view: Callable) -> Callable:
        for status in statuses:
            description = PROBLEM_RESPONSES.get(status) or ("Impossible state: well formed, but it breaks a rule "
                                                            "(the rule id is in errors[].rule).")
            view = blp.alt_response(status, schema=ProblemSchema, description=description,
                                    content_type="application/problem+json")(view)
        return view
    return decorate


CACHED_ROUTES: dict[str, CachedRoute] = {}  # path -> route, for the early-hit layer (early.py)


def cached(endpoint: str, game: GameRules, deterministic: Callable[[dict], bool] = lambda doc: True) -> Callable:
    """Serve a POST answer from the cache when the same canonical request was answered before.

    The key is computed from the raw body, before schema validation, so a hit costs one parse and one look-up;
    only 200 answers are stored, so a hit is always for a request that was valid. Usually the early-hit layer
    (early.py) has answered hits already and hands over its look-up of a miss."""
    CACHED_ROUTES[f"/v1/games/{game.info.id}/{endpoint}"] = CachedRoute(game, endpoint, deterministic)

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Response:
            state = current_app.extensions["referee"]
            looked_up = request.environ.pop(LOOKUP_KEY, None)
            if looked_up is not None:
                key, value, outcome = looked_up
            else:
                try:
                    doc = request_document(request)
                except orjson.JSONDecodeError:
                    return view(*args, **kwargs)  # the parser answers 400
                if not isinstance(doc, dict) or not deterministic(doc):
                    response = view(*args, **kwargs)
                    response.headers["X-Cache"] = "bypass"
                    return response
                key = cache_key(endpoint, game.info.id, game.info.rules_version, canonical(doc))
                value, outcome = state.cache_call("get", key)
            if outcome == HIT:
                response = Response(value, mimetype="application/json")
                response.headers["X-Cache"] = "hit"
                state.count(game.info.id, endpoint, "cached")
                return response
            started = time.perf_counter()
            response = view(*args, **kwargs)
            elapsed_ms = (time.perf_counter() - started) * 1000
            if response.status_code == 200 and elapsed_ms >= state.settings.CACHE_MIN_COMPUTE_MS:
                state.cache_call("set", key, response.get_data())
                response.headers["X-Cache"] = "miss"
            else:
                response.headers["X-Cache"] = "bypass"
            return response
        return wrapper
    return decorate


def document() -> dict:
    """The request body as sent (already checked by the endpoint's schema). The game reads the wire form
    itself, so the schema's loaded form (Python attribute names) is not used."""
    try:
        return request_document(request)
    except orjson.JSONDecodeError:
        # Only an empty body gets here (the schema found nothing missing in it), and it is no JSON document.
        raise ApiProblem(400, "The body is not valid JSON.",
                         [Problem(None, "", "The body is empty: send a JSON object.")]) from None


def _answer(game: GameRules, endpoint: str, compute: Callable[[], dict], outcome: Callable[[dict], str]) -> Response:
    g.game = game.info.id
    answer = compute()
    current_app.extensions["referee"].count(game.info.id, endpoint, outcome(answer))
    return json_response(answer)


def game_blueprint(game: GameRules) -> Blueprint:
    game_id = game.info.id
    schemas = game.schemas
    blp = Blueprint(f"game_{game_id.replace('-', '_')}", __name__, url_prefix=f"/v1/games/{game_id}",
                    description=f"Refereeing {game.info.title}.")
    ok = lambda answer: "ok"  # noqa: E731
    problems = _document_problems

    def named(endpoint: str) -> Callable:
        return blp.doc(operationId=operation_id(game_id, endpoint))

    # Request schemas are given as instances: webargs would build a new schema (deep-copying every field, nested
    # ones included) for each request when given a class.

    @blp.route("/rules", methods=["GET"])
    @named("rules")
    @problems(blp, (429,))
    @blp.response(200, RulesSchema)
    def rules() -> Response:
        """The rule catalogue.

        Every rule id with its section, title and text; rulings (points the rulesheet leaves open, settled by the
        service) are marked. Violations and errors cite these ids."""
        return json_response({"game": game_id, "rules_version": game.info.rules_version, "rules": game.rules()})

    @blp.route("/new", methods=["POST"])
    @named("new")
    @cached("new", game, deterministic=lambda doc: doc.get("seed") is not None)
    @problems(blp, (400, 413, 415, 429))
    @blp.arguments(schemas.NewRequestSchema())
    @blp.response(200, schemas.NewResponseSchema)
    def new(_loaded: dict) -> Response:
        """Deal a new game.

        The same seed (and variant and players) always deals the same cards; without a seed the service picks
        one and returns it, so the deal can be repeated."""
        body = document()
        if body.get("seed") is None:
            body["seed"] = secrets.randbelow(2 ** 53)
        return _answer(game, "new", lambda: game.new(body), ok)

    @blp.route("/validate", methods=["POST"])
    @named("validate")
    @cached("validate", game)
    @problems(blp, (400, 413, 415, 429))
    @blp.arguments(schemas.StateRequestSchema())
    @blp.response(200, schemas.ValidateResponseSchema)
    def validate(_loaded: dict) -> Response:
        """Check a state.

        Every problem at once, each with its rule id and a pointer. An impossible state is a 200 answer here
        (valid: false): checking states is this endpoint's question."""
        return _answer(game, "validate", lambda: game.validate(document()),
                       lambda a: "valid" if a["valid"] else "invalid")

    @blp.route("/legal-moves", methods=["POST"])
    @named("legal-moves")
    @cached("legal-moves", game)
    @problems(blp, (400, 413, 415, 422, 429))
    @blp.arguments(schemas.StateRequestSchema())
    @blp.response(200, schemas.LegalMovesResponseSchema)
    def legal_moves(_loaded: dict) -> Response:
        """Every legal next step.

        The steps open to the player to act, each ready to post back to /apply; none once the game is over."""
        return _answer(game, "legal-moves", lambda: game.legal_moves(document()), ok)

    @blp.route("/apply", methods=["POST"])
    @named("apply")
    @cached("apply", game)
    @problems(blp, (400, 413, 415, 422, 429))
    @blp.arguments(schemas.MovesRequestSchema())
    @blp.response(200, schemas.ApplyResponseSchema)
    def apply(_loaded: dict) -> Response:
        """Apply moves.

        The moves are applied in order, stopping at the first illegal one: an illegal move is an answer
        (legal: false, with the rule broken), not an error. The answer has the state after the last legal move
        and the events that happened."""
        return _answer(game, "apply", lambda: game.apply(document()), lambda a: "legal" if a["legal"] else "illegal")

    @blp.route("/replay", methods=["POST"])
    @named("replay")
    @cached("replay", game)
    @problems(blp, (400, 413, 415, 422, 429))
    @blp.arguments(schemas.MovesRequestSchema())
    @blp.response(200, schemas.ReplayResponseSchema)
    def replay(_loaded: dict) -> Response:
        """Replay a whole game.

        Like apply, with the state after every move and the score of the last state: for settling a game
        played elsewhere."""
        return _answer(game, "replay", lambda: game.apply(document(), replay=True),
                       lambda a: "legal" if a["legal"] else "illegal")

    @blp.route("/score", methods=["POST"])
    @named("score")
    @cached("score", game)
    @problems(blp, (400, 413, 415, 422, 429))
    @blp.arguments(schemas.ScoreRequestSchema())
    @blp.response(200, schemas.ScoreResponseSchema)
    def score(_loaded: dict) -> Response:
        """Score a state or a table.

        Each player's points by category, the total, and the winner and why; warnings for what looks unlikely
        but breaks no rule."""
        return _answer(game, "score", lambda: game.score(document()), ok)

    if hasattr(game, "picture"):
        @blp.route("/picture", methods=["POST"])
        @named("picture")
        @problems(blp, (400, 413, 415, 422, 429))
        @blp.arguments(schemas.PictureRequestSchema())
        @blp.doc(summary="Draw the table as SVG.", description=inspect.cleandoc(game.picture.__doc__ or ""),
                 responses={"200": {
                     "description": "The picture as SVG; as `{\"svg\": …}` for `Accept: application/json`.",
                     "content": {"image/svg+xml": {"schema": {"type": "string"}},
                                 "application/json": {"schema": {"$ref": "#/components/schemas/"
                                                                 + schemas.PictureResponseSchema.__name__[:-6]}}}}})
        def picture(_loaded: dict) -> Response:
            g.game = game_id
            drawing = game.picture(document())
            current_app.extensions["referee"].count(game_id, "picture", "ok")
            if request.accept_mimetypes.best_match(["image/svg+xml", "application/json"]) == "application/json":
                return json_response({"svg": drawing})
            return Response(drawing, mimetype="image/svg+xml")

    if hasattr(game, "notation"):
        @blp.route("/notation", methods=["POST"])
        @named("notation")
        @cached("notation", game)
        @problems(blp, (400, 413, 415, 422, 429))
        @blp.arguments(schemas.NotationRequestSchema())
        @blp.response(200, schemas.NotationResponseSchema)
        def notation(_loaded: dict) -> Response:
            """Write a table in notation.

            A state's table or a table in the game's notation for people (api.md, Notation); reading it back
            gives the same table."""
            return _answer(game, "notation", lambda: game.notation(document()), ok)

    @blp.route("/view", methods=["POST"])
    @named("view")
    @cached("view", game)
    @problems(blp, (400, 413, 415, 422, 429))
    @blp.arguments(schemas.ViewRequestSchema())
    @blp.response(200, schemas.StateResponseSchema)
    def view(_loaded: dict) -> Response:
        """The state as one player sees it.

        What that player may not know (the other hands, the order of face-down cards) becomes counts."""
        return _answer(game, "view", lambda: game.view(document()), ok)

    return blp


games_blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The games served.")


@games_blp.route("", methods=["GET"])
@games_blp.doc(operationId="list_games")
@_document_problems(games_blp, (429,))
@games_blp.response(200, GamesSchema)
def list_games() -> Response:
    """The games served.

    Each game's id, title, player counts, rules version and variants, with links to its endpoints under
    /v1/games/{id}/."""
    games = []
    for game_id, game in GAMES.items():
        info = game.info
        games.append({
            "id": info.id, "title": info.title, "min_players": info.min_players, "max_players": info.max_players,
            "rules_version": info.rules_version,
            "variants": [{"name": v.name, "description": v.description} for v in info.variants],
            "links": {q: f"/v1/games/{game_id}/{q}" for q in QUESTIONS},
        })
    return json_response({"games": games})


def unknown_game(game: str, rest: str = "") -> Response:
    """Anything under /v1/games/<game>/ that no game route matched."""
    if game in GAMES:
        if rest in QUESTIONS or (rest in TOOLS and hasattr(GAMES[game], rest)):
            allowed = "GET" if rest == "rules" else "POST"
            raise ApiProblem(405, f"{request.method} is not allowed on /v1/games/{game}/{rest}; use {allowed}.",
                             headers={"Allow": f"{allowed}, OPTIONS" + (", HEAD" if allowed == "GET" else "")})
        offered = [*QUESTIONS, *(tool for tool in TOOLS if hasattr(GAMES[game], tool))]
        raise ApiProblem(404, f"{game} has no endpoint \"{rest}\"; it has {', '.join(offered)}.")
    raise ApiProblem(404, f"No game \"{game}\" is served; the games are {', '.join(GAMES)}.")


def register_games(app: Flask, api: Any) -> None:
    api.register_blueprint(games_blp)
    for game_id, game in GAMES.items():
        for name, schema in getattr(game.schemas, "COMPONENTS", {}).items():
            api.spec.components.schema(name, schema=schema)  # referenced by the move union (oneOf)
        api.register_blueprint(game_blueprint(game))
    for rule in ("/v1/games/<game>", "/v1/games/<game>/<path:rest>"):
        app.add_url_rule(rule, "unknown_game_" + str(rule.count("<")), unknown_game,
                         methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
