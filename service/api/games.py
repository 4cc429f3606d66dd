"""The game endpoints: /v1/games and, for every registered game, /v1/games/<game>/<question>.

Routes are made per game from the registry and the table of endpoints below (each with its request and answer
schema by role, the game's call, how its answer is counted), so each game's paths carry its own exact schemas in the
spec, and a new game needs no change here.
"""
from __future__ import annotations

import inspect
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from flask import Flask, Response, current_app, request
from marshmallow import Schema

from ..games.core.errors import Problem
from ..games.core.game import Capability, Game
from ..games.core.language import said
from ..games.registry import GAMES
from .blueprint import Blueprint
from .caching import AnswerCache
from .config import Settings
from .front import Answer
from .jsonio import dumps
from .language import HEADERS as LANGUAGE_HEADERS
from .language import PARAMETERS, language, register_language_components, spoken
from .messages import tr
from .observability import GAME_KEY
from .problems import ApiProblem
from .schemas import GamesSchema, ProblemSchema, RulesSchema

PROBLEM_RESPONSES = {
    400: "Malformed request: not JSON, wrong shape, unknown fields or wrong types.",
    413: "Body over the size limit.",
    415: "Body is not JSON.",
    429: "Rate limit exceeded.",
}
def always(doc: dict) -> bool:
    return True


def never(doc: dict) -> bool:
    return False
QUESTIONS = ("rules", "new", "validate", "legal-moves", "apply", "replay", "score", "view")
TOOLS = ("picture", "notation", "suggest")  # POST endpoints beside the questions (not listed among a game's links)


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
                                    content_type="application/problem+json", headers=LANGUAGE_HEADERS)(view)
        return view
    return decorate


def require_body() -> None:
    """An empty body is no JSON document, even where the schema finds no field missing in it (/new needs none)."""
    if not request.get_data(cache=True):
        raise ApiProblem(400, tr("The body is not valid JSON."),
                         [Problem(None, "", tr("The body is empty: send a JSON object."))])


@dataclass(frozen=True)
class Endpoint:
    """One POST question of a game: its request and answer schemas (by their roles in the game's `wire`), the
    game's call (given the service's settings and the language of the answer's words), how its answer is counted
    in the metrics, and its documentation."""

    name: str
    request: str
    answer: str
    call: Callable[[Game, dict, Settings, str], dict]
    summary: str
    description: str
    errors: tuple[int, ...] = (400, 413, 415, 422, 429)
    outcome: Callable[[dict], str] = lambda answer: "ok"
    deterministic: Callable[[dict], bool] = lambda doc: True  # False: the answer is not cached
    speaks: Callable[[dict], bool] = never  # its answer to a body has words for people (said per language)
    storable: Callable[[dict], bool] = lambda answer: True  # False: this answer is not cached (Cache-Control)


def _legal(answer: dict) -> str:
    return "legal" if answer["legal"] else "illegal"


def _deal(game: Game, body: dict, settings: Settings, language: str) -> dict:
    if body.get("seed") is None:
        body["seed"] = secrets.randbelow(2 ** 53)  # returned with the deal, so it can be repeated
    return game.new(body)


def _suggest(game: Game, body: dict, settings: Settings, language: str) -> dict:
    """A computer player's suggestion within the service's limits: the default budget when none is given, no
    wall-clock budget over the ceiling, and the ceiling over a playout budget too."""
    ceiling = settings.SUGGEST_MAX_BUDGET_MS
    if body.get("seed") is None:
        body["seed"] = secrets.randbelow(2 ** 53)  # returned with the answer, so it can be repeated
    if body.get("playouts") is None:
        body["budget_ms"] = min(body.get("budget_ms") or settings.SUGGEST_DEFAULT_BUDGET_MS, ceiling)
    return game.suggest(body, ceiling_ms=ceiling)


def _reproducible(doc: dict) -> bool:
    """A suggestion is the same for the same request when its budget is in playouts and its seed given."""
    return doc.get("playouts") is not None and doc.get("seed") is not None


# In the order of the spec's paths. Request schemas are given as instances (below): webargs would build a new
# schema (deep-copying every field, nested ones included) for each request when given a class.
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("new", "NewRequest", "NewResponse", _deal, "Deal a new game.",
             "The same seed (and variant and players) always deals the same cards; without a seed the service picks\n"
             "one and returns it, so the deal can be repeated.",
             errors=(400, 413, 415, 429), deterministic=lambda doc: doc.get("seed") is not None),
    Endpoint("validate", "StateRequest", "ValidateResponse", lambda game, body, settings, language: game.validate(body, language),
             "Check a state.",
             "Every problem at once, each with its rule id and a pointer. An impossible state is a 200 answer here\n"
             "(valid: false): checking states is this endpoint's question.",
             errors=(400, 413, 415, 429), outcome=lambda answer: "valid" if answer["valid"] else "invalid",
             speaks=always),
    Endpoint("legal-moves", "LegalMovesRequest", "LegalMovesResponse",
             lambda game, body, settings, language: game.legal_moves(body, language), "Every legal next step.",
             "The steps open to the player to act, each ready to post back to /apply; none once the game is over.\n"
             "With `texts: true`, each said in words too, in the answer's language.",
             speaks=lambda doc: bool(doc.get("texts"))),
    Endpoint("apply", "MovesRequest", "ApplyResponse", lambda game, body, settings, language: game.apply(body, language=language), "Apply moves.",
             "The moves are applied in order, stopping at the first illegal one: an illegal move is an answer\n"
             "(legal: false, with the rule broken), not an error. The answer has the state after the last legal move\n"
             "and the events that happened.", outcome=_legal, speaks=always),
    Endpoint("replay", "MovesRequest", "ReplayResponse", lambda game, body, settings, language: game.apply(body, replay=True, language=language),
             "Replay a whole game.",
             "Like apply, with the state after every move and the score of the last state: for settling a game\n"
             "played elsewhere.", outcome=_legal, speaks=always),
    Endpoint("score", "ScoreRequest", "ScoreResponse", lambda game, body, settings, language: game.score(body, language),
             "Score a state or a table.",
             "Each player's points by category, the total, and the winner and why; warnings for what looks unlikely\n"
             "but breaks no rule.", speaks=always),
    Endpoint("notation", "NotationRequest", "NotationResponse", lambda game, body, settings, language: game.notation(body),
             "Write a table in notation.",
             "A state's table or a table in the game's notation for people (api.md, Notation); reading it back\n"
             "gives the same table."),
    Endpoint("view", "ViewRequest", "StateResponse", lambda game, body, settings, language: game.view(body),
             "The state as one player sees it.",
             "What that player may not know (the other hands, the order of face-down cards) becomes counts."),
    Endpoint("suggest", "SuggestRequest", "SuggestResponse", _suggest, "A computer player's move.",
             "For an empty seat or a hint: the steps the player to act would take (its turn, or up to a step that\n"
             "reveals something), ready to post to /apply, what the search thinks of them and of the alternatives.\n"
             "Levels: random, greedy (the most points right away) and mcts (information-set Monte Carlo tree\n"
             "search). It never peeks: whatever the player may not see (other hands, the order of decks, the bag)\n"
             "is dealt afresh, consistently with its view, at every iteration. A budget of `playouts` with a `seed`\n"
             "gives the same answer every time (and is cached); `budget_ms` is wall clock, capped by the service,\n"
             "which counts a suggestion as several requests against the rate limit. A finished game is a 422.",
             outcome=lambda answer: answer["level"], deterministic=_reproducible,
             storable=lambda answer: answer["complete"]),
)
OPTIONAL = {"notation": Capability.NOTATION, "picture": Capability.PICTURE}  # offered by the games declaring it


def offered(game: Game, endpoint: str) -> bool:
    """Whether `game` has the endpoint: every question and /suggest, and the tools its capabilities declare."""
    return endpoint not in OPTIONAL or game.offers(OPTIONAL[endpoint])


def _question(game: Game, endpoint: Endpoint, settings: Settings) -> Callable:
    """The Flask view of one endpoint for one game, for the questions the front hands over (front.py): the game
    gets what the request schema loaded (flask-smorest's way: the state or table built into the game's model, the
    moves as its steps, nothing read twice), and what it refuses becomes a problem document."""
    def view(loaded: dict) -> Response:
        request.environ[GAME_KEY] = game.info.id
        require_body()
        spoken_in = language()
        answer = endpoint.call(game, loaded, settings, spoken_in)
        current_app.extensions["referee"].count(game.info.id, endpoint.name, endpoint.outcome(answer))
        response = json_response(answer)
        if not endpoint.storable(answer):
            response.headers["Cache-Control"] = "no-store"
        return spoken(response, spoken_in) if endpoint.speaks(loaded) else response

    view.__name__ = endpoint.name.replace("-", "_")
    view.__doc__ = f"{endpoint.summary}\n\n{endpoint.description}"
    return view


def _answer(game: Game, endpoint: Endpoint, schema: Schema, settings: Settings) -> Answer:
    """The endpoint's answer for the front: a body the request schema loads, answered by the game as the view
    does, as (JSON bytes, outcome, storable); None for a body the schema or the game refuses, which the view then
    answers with its problem document."""
    def answer(doc: dict, language: str) -> tuple[bytes, str, bool] | None:
        try:
            result = endpoint.call(game, schema.load(doc), settings, language)
        except Exception:  # noqa: BLE001 - a refusal, or anything unforeseen: the view answers it, as always
            return None
        return dumps(result), endpoint.outcome(result), endpoint.storable(result)
    return answer


def _rules(game: Game) -> Callable:
    def rules() -> Response:
        """The rule catalogue.

        Every rule id with its section, title and text; rulings (points the rulesheet leaves open, settled by the
        service) are marked. Violations and errors cite these ids. The words are in the language chosen (`lang`,
        else Accept-Language: English, French, German or Italian); the ids stay as they are."""
        spoken_in = language()
        return spoken(json_response({"game": game.info.id, "rules_version": game.info.rules_version,
                                     "rules": game.rules(spoken_in)}), spoken_in)
    return rules


def _picture(game: Game) -> Callable:
    def picture(loaded: dict) -> Response:
        request.environ[GAME_KEY] = game.info.id
        require_body()
        spoken_in = language()
        drawing = game.picture(loaded, spoken_in)
        current_app.extensions["referee"].count(game.info.id, "picture", "ok")
        if request.accept_mimetypes.best_match(["image/svg+xml", "application/json"]) == "application/json":
            return spoken(json_response({"svg": drawing}), spoken_in)
        return spoken(Response(drawing, mimetype="image/svg+xml"), spoken_in)
    return picture


def game_blueprint(game: Game, answers: AnswerCache, settings: Settings) -> Blueprint:
    """The routes of one game, made from the table above and the game's schemas; the front answers its questions
    (`answers` keeps them) and Flask the rest."""
    game_id, forms = game.info.id, game.wire
    blp = Blueprint(f"game_{game_id.replace('-', '_')}", __name__, url_prefix=f"/v1/games/{game_id}",
                    description=f"Refereeing {game.info.title}.")

    def named(endpoint: str) -> Callable:
        return blp.doc(operationId=operation_id(game_id, endpoint))

    rules = _document_problems(blp, (429,))(blp.response(200, RulesSchema, headers=LANGUAGE_HEADERS)(_rules(game)))
    rules = blp.doc(parameters=PARAMETERS)(rules)
    blp.route("/rules", methods=["GET"])(named("rules")(rules))
    for endpoint in ENDPOINTS:
        if endpoint.name == "notation" and offered(game, "picture"):
            _route_picture(blp, game, named)  # the spec lists /picture after /score
        if not offered(game, endpoint.name):
            continue
        request_schema = forms.schema(endpoint.request)()
        view = blp.response(200, forms.schema(endpoint.answer),
                            headers=None if endpoint.speaks is never else LANGUAGE_HEADERS)(
            _question(game, endpoint, settings))
        view = blp.arguments(request_schema)(view)
        view = _document_problems(blp, endpoint.errors)(view)
        view = blp.doc(parameters=PARAMETERS)(view)  # the language of the answer's words (and its problems')
        answers.route(f"{blp.url_prefix}/{endpoint.name}", game, endpoint.name,
                      _answer(game, endpoint, request_schema, settings), endpoint.deterministic,
                      speaks=endpoint.speaks)
        blp.route(f"/{endpoint.name}", methods=["POST"])(named(endpoint.name)(view))
    return blp


def _route_picture(blp: Blueprint, game: Game, named: Callable) -> None:
    """/picture: SVG by default, JSON for `Accept: application/json`; not cached (drawing is cheap, answers big)."""
    forms = game.wire
    json_answer = "#/components/schemas/" + forms.schema("PictureResponse").__name__[:-6]
    view = blp.doc(summary="Draw the table as SVG.", description=inspect.cleandoc(game.draw.__doc__ or ""),
                   responses={"200": {
                       "description": "The picture as SVG; as `{\"svg\": …}` for `Accept: application/json`.",
                       "content": {"image/svg+xml": {"schema": {"type": "string"}},
                                   "application/json": {"schema": {"$ref": json_answer}}}}}
                   )(_picture(game))
    view = blp.arguments(forms.schema("PictureRequest")())(view)
    view = _document_problems(blp, (400, 413, 415, 422, 429))(view)
    view = blp.doc(parameters=PARAMETERS)(view)
    blp.route("/picture", methods=["POST"])(named("picture")(view))


games_blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The games served.")


@games_blp.route("", methods=["GET"])
@games_blp.doc(operationId="list_games", parameters=PARAMETERS)
@_document_problems(games_blp, (429,))
@games_blp.response(200, GamesSchema)
def list_games() -> Response:
    """The games served.

    Each game's id, title, player counts, rules version and variants, with links to its endpoints under
    /v1/games/{id}/."""
    games, spoken_in = [], language()
    for game_id, game in GAMES.items():
        info = game.info
        games.append({
            "id": info.id, "title": info.title, "min_players": info.min_players, "max_players": info.max_players,
            "rules_version": info.rules_version,
            "variants": [{"name": v.name, "description": said(v.description, spoken_in)} for v in info.variants],
            "links": {q: f"/v1/games/{game_id}/{q}" for q in QUESTIONS},
        })
    return spoken(json_response({"games": games}), spoken_in)


def unknown_game(game: str, rest: str = "") -> Response:
    """Anything under /v1/games/<game>/ that no game route matched."""
    if game in GAMES:
        if rest in QUESTIONS or (rest in TOOLS and offered(GAMES[game], rest)):
            allowed = "GET" if rest == "rules" else "POST"
            raise ApiProblem(405, tr("{method} is not allowed on {path}; use {allowed}.", method=request.method,
                                     path=request.path, allowed=allowed),
                             headers={"Allow": f"{allowed}, OPTIONS" + (", HEAD" if allowed == "GET" else "")})
        endpoints = [*QUESTIONS, *(tool for tool in TOOLS if offered(GAMES[game], tool))]
        raise ApiProblem(404, tr("{game} has no endpoint \"{endpoint}\"; it has {endpoints}.", game=game, endpoint=rest,
                                 endpoints=", ".join(endpoints)))
    raise ApiProblem(404, tr("No game \"{game}\" is served; the games are {games}.", game=game, games=", ".join(GAMES)))


def register_games(app: Flask, api: Any, answers: AnswerCache, settings: Settings) -> None:
    register_language_components(api.spec)
    api.register_blueprint(games_blp)
    for game_id, game in GAMES.items():
        for name, named in game.wire.components.items():  # referred to by name
            if isinstance(named, dict):
                api.spec.components.schema(name, component=named)
            else:
                api.spec.components.schema(name, schema=named)
        api.register_blueprint(game_blueprint(game, answers, settings))
    for rule in ("/v1/games/<game>", "/v1/games/<game>/<path:rest>"):
        app.add_url_rule(rule, "unknown_game_" + str(rule.count("<")), unknown_game,
                         methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
