"""Every endpoint answers its question: real outcomes, not just status codes."""
from __future__ import annotations

import copy
from collections import Counter

import pytest
import yaml

import service
from service.api.docs import SPEC_PATH
from service.games import torri

from .helpers import BASE, RULE_IDS, canonical_state, impossible_state, table, wire

# ---------------------------------------------------------------- catalogue


def test_games_lists_torri_with_working_links(client):
    response = client.get("/v1/games")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    games = response.get_json()["games"]
    assert "torri" in [g["id"] for g in games]
    game = next(g for g in games if g["id"] == "torri")
    assert game["title"] == "Le Torri di San Gimignano"
    assert (game["min_players"], game["max_players"]) == (2, 2)
    assert game["rules_version"] == torri.RULES_VERSION
    assert [v["name"] for v in game["variants"]] == ["nobles"]
    assert set(game["links"]) == {"rules", "new", "validate", "legal-moves", "apply", "replay", "score", "view"}
    adapter = client.application.url_map.bind("localhost")
    for question, link in game["links"].items():
        assert link == f"{BASE}/{question}"
        method = "GET" if question == "rules" else "POST"
        endpoint, _ = adapter.match(link, method=method)
        assert not endpoint.startswith("unknown_game"), (link, endpoint)


def test_rules_catalogue(client):
    response = client.get(f"{BASE}/rules")
    assert response.status_code == 200
    body = response.get_json()
    assert body["game"] == "torri"
    assert body["rules_version"] == torri.RULES_VERSION
    ids = [rule["id"] for rule in body["rules"]]
    assert len(ids) == len(set(ids)), "rule ids are unique"
    assert set(ids) == RULE_IDS
    assert {"T-COMP-4", "T-ACT-BUILD-1", "T-TURN-4", "T-SCORE-WIN"} <= set(ids)
    for rule in body["rules"]:
        assert set(rule) == {"id", "section", "title", "text", "ruling"}
        assert isinstance(rule["ruling"], bool)
        assert rule["text"].strip()
    assert any(rule["ruling"] for rule in body["rules"]), "rulings are marked"
    conservation = next(rule for rule in body["rules"] if rule["id"] == "T-COMP-4")
    assert conservation["text"] == torri.RULES_BY_ID["T-COMP-4"].to_json()["text"]


def test_head_on_rules(client):
    response = client.head(f"{BASE}/rules")
    assert response.status_code == 200
    assert response.get_data() == b""


# ---------------------------------------------------------------- new


def test_new_same_seed_deals_the_same_state(make_app):
    # two separate apps, so the second answer cannot come from the first one's cache
    first = make_app().test_client().post(f"{BASE}/new", json={"seed": 42})
    second = make_app().test_client().post(f"{BASE}/new", json={"seed": 42})
    assert first.status_code == second.status_code == 200
    assert first.get_data() == second.get_data()
    body = first.get_json()
    assert body["seed"] == 42
    assert body["state"] == canonical_state(42), "the HTTP deal is the library's deal"


def test_new_deal_is_a_real_opening(client):
    state = client.post(f"{BASE}/new", json={"seed": 42, "names": ["Adso", "William"]}).get_json()["state"]
    assert [p["name"] for p in state["players"]] == ["Adso", "William"]
    assert (state["phase"], state["turn"], state["to_act"], state["passes"]) == ("main", 0, 0, 0)
    assert state["highest"] is None and state["pending"] is None
    assert state["variant"] == {"nobles": False}
    assert [len(p["hand"]) for p in state["players"]] == [5, 5]
    assert len(state["market"]) == 4
    cards = state["deck"] + state["market"] + [c for p in state["players"] for c in p["hand"]]
    assert Counter(cards) == {str(rank): rank for rank in range(5, 11)}, "45 tower cards, r of rank r"


def test_new_different_seeds_deal_differently(client):
    a = client.post(f"{BASE}/new", json={"seed": 1}).get_json()["state"]
    b = client.post(f"{BASE}/new", json={"seed": 2}).get_json()["state"]
    assert a != b


def test_new_text_seed(client):
    response = client.post(f"{BASE}/new", json={"seed": "table 7, Siena"})
    assert response.status_code == 200
    assert response.get_json()["seed"] == "table 7, Siena"
    assert response.get_json()["state"] == canonical_state("table 7, Siena")


def test_new_without_seed_returns_the_seed_it_used(client):
    first = client.post(f"{BASE}/new", json={}).get_json()
    seed = first["seed"]
    assert isinstance(seed, int)
    again = client.post(f"{BASE}/new", json={"seed": seed}).get_json()
    assert again["state"] == first["state"]


def test_new_advanced_game(client):
    state = client.post(f"{BASE}/new", json={"seed": 7, "variant": {"nobles": True}}).get_json()["state"]
    assert state["variant"] == {"nobles": True}
    assert sorted(state["noble_deck"]) == sorted(
        ["buona_pietra"] * 3 + ["via_francigena"] * 2 + ["monumento", "giostra", "cappella", "palazzo", "mura"])
    assert state["removed"] == [] and state["palazzo"] is None


# ---------------------------------------------------------------- validate


def test_validate_a_fresh_deal(client, state):
    response = client.post(f"{BASE}/validate", json={"state": state})
    assert response.status_code == 200
    assert response.get_json() == {"valid": True, "errors": [], "warnings": []}


def test_validate_answers_an_impossible_state_with_200(client):
    response = client.post(f"{BASE}/validate", json={"state": impossible_state()})
    assert response.status_code == 200
    body = response.get_json()
    assert body["valid"] is False
    assert body["errors"], "the problems are listed"
    assert {e["rule"] for e in body["errors"]} == {"T-COMP-4"}
    assert "/state/players/0/hand/0" in {e["pointer"] for e in body["errors"]}
    for error in body["errors"]:
        assert error["pointer"].startswith("/state")
        assert error["message"]


def test_validate_lists_every_problem_at_once(client, state):
    state["players"][0]["hand"].append("5")  # T-COMP-4
    state["players"][1]["towers"] = [{"cards": ["6", "8", "7"]}]  # neither plain nor colorful
    body = client.post(f"{BASE}/validate", json={"state": state}).get_json()
    assert body["valid"] is False
    rules = {e["rule"] for e in body["errors"]}
    assert {"T-COMP-4", "T-ACT-BUILD-3"} <= rules
    assert "/state/players/1/towers/0/cards" in {e["pointer"] for e in body["errors"]}


# ---------------------------------------------------------------- legal-moves


@pytest.mark.parametrize("question", ["validate", "legal-moves", "apply", "view", "score"])
def test_a_state_the_service_returned_can_be_sent_back(client, question):
    """The round trip: /new's state, posted back untouched, is accepted everywhere (api.md: a caller sends the
    state back)."""
    state = client.post(f"{BASE}/new", json={"seed": 42}).get_json()["state"]
    body = {"validate": {"state": state}, "legal-moves": {"state": state}, "apply": {"state": state, "moves": []},
            "view": {"state": state, "player": 0}, "score": {"state": state}}[question]
    response = client.post(f"{BASE}/{question}", json=body)
    assert response.status_code == 200, response.get_json()


def test_legal_moves_of_the_opening(client, state):
    body = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()
    assert body["to_act"] == 0
    types = Counter(move["type"] for move in body["moves"])
    assert types["purchase"] == 1 and types["pass"] == 1
    assert types["exchange"] > 0 and types["build"] > 0
    assert body["moves"] == torri.legal_moves(torri.read_state(state))


def test_every_listed_move_is_accepted_by_apply(client, state):
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"]
    assert moves
    for move in moves:
        answer = client.post(f"{BASE}/apply", json={"state": state, "moves": [move]}).get_json()
        assert answer["legal"] is True, (move, answer["violations"])
        assert answer["failed_at"] is None


def test_legal_moves_mid_action_are_the_draws(client, state):
    purchase = client.post(f"{BASE}/apply", json={"state": state, "moves": [{"type": "purchase"}]})
    after = wire(purchase.get_json()["state"])
    assert after["pending"]["type"] == "draw"
    moves = client.post(f"{BASE}/legal-moves", json={"state": after}).get_json()["moves"]
    assert moves and {m["type"] for m in moves} == {"draw"}
    market_cards = {m["card"] for m in moves if m["from"] == "market"}
    assert market_cards == set(state["market"])
    assert {"type": "draw", "from": "deck"} in moves
    for move in moves:
        assert client.post(f"{BASE}/apply", json={"state": after, "moves": [move]}).get_json()["legal"] is True


# ---------------------------------------------------------------- apply


def test_apply_a_purchase(client, state):
    top, market_card = state["deck"][0], state["market"][0]
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"},
             {"type": "draw", "from": "market", "card": market_card}]
    response = client.post(f"{BASE}/apply", json={"state": state, "moves": moves})
    assert response.status_code == 200
    body = response.get_json()
    assert body["legal"] is True
    assert body["violations"] == [] and body["failed_at"] is None
    events = body["events"]
    assert [e["type"] for e in events] == ["purchase", "drew", "drew", "turn"]
    name = state["players"][0]["name"]

    def drew(card: str, source: str) -> str:
        return f"{name} drew {'an' if card == '8' else 'a'} {card} from the {source}."

    assert events[1] == {"type": "drew", "player": 0, "from": "deck", "card": top, "step": 1,
                         "text": drew(top, "deck")}
    assert events[2] == {"type": "drew", "player": 0, "from": "market", "card": market_card, "step": 2,
                         "text": drew(market_card, "market")}
    assert events[3]["player"] == 1
    new = body["state"]
    assert (new["turn"], new["to_act"], new["pending"]) == (1, 1, None)
    assert new["deck"] == state["deck"][1:]
    market = list(state["market"])
    market.remove(market_card)
    assert sorted(new["market"]) == sorted(market)
    assert Counter(new["players"][0]["hand"]) == Counter(state["players"][0]["hand"] + [top, market_card])
    assert new["players"][1] == state["players"][1]


def test_apply_step_by_step_equals_all_at_once(client, state):
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"},
             {"type": "draw", "from": "market", "card": state["market"][1]}]
    at_once = client.post(f"{BASE}/apply", json={"state": state, "moves": moves}).get_json()
    current = state
    events = []
    for move in moves:
        step = client.post(f"{BASE}/apply", json={"state": current, "moves": [move]}).get_json()
        assert step["legal"] is True
        current = wire(step["state"])
        events += [e["type"] for e in step["events"]]
    assert current == wire(at_once["state"])
    assert events == [e["type"] for e in at_once["events"]]


def test_apply_no_moves_returns_the_canonical_state(client, state):
    sparse = copy.deepcopy(state)
    for key in ("passes", "pending", "highest"):
        del sparse[key]
    for player in sparse["players"]:
        del player["played"]
    body = client.post(f"{BASE}/apply", json={"state": sparse, "moves": []}).get_json()
    assert body == {"legal": True, "state": canonical_state(), "events": [], "violations": [], "failed_at": None}


def test_apply_an_illegal_move_is_a_200_answer(client, state):
    build = {"type": "build", "cards": ["5", "6", "7"]}
    response = client.post(f"{BASE}/apply", json={"state": state, "moves": [build]})
    assert response.status_code == 200
    body = response.get_json()
    assert body["legal"] is False
    assert body["failed_at"] == 0
    assert body["state"] == canonical_state(), "nothing was applied"
    assert body["events"] == []
    [violation] = body["violations"]
    assert violation["rule"] == "T-ACT-BUILD-1"
    assert violation["rule"] in RULE_IDS
    assert violation["pointer"] == "/moves/0/cards"
    assert violation["message"]


def test_apply_stops_at_the_first_illegal_move(client, state):
    assert "10" not in state["market"]
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"},
             {"type": "draw", "from": "market", "card": "10"}, {"type": "pass"}]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": moves}).get_json()
    assert body["legal"] is False
    assert body["failed_at"] == 2
    [violation] = body["violations"]
    assert violation["rule"] == "T-TURN-4"
    assert violation["pointer"].startswith("/moves/2/")
    assert violation["pointer"] == "/moves/2/card"
    # the state after the last legal move: one draw of the Purchase still pending
    assert body["state"]["pending"]["type"] == "draw" and body["state"]["pending"]["left"] == 1
    assert [e["type"] for e in body["events"]] == ["purchase", "drew"]
    assert {e["step"] for e in body["events"]} == {0, 1}


def test_apply_move_out_of_turn(client, state):
    moves = [{"type": "pass"}, {"type": "guard"}]
    body = client.post(f"{BASE}/apply", json={"state": state, "moves": moves}).get_json()
    assert body["legal"] is False and body["failed_at"] == 1
    [violation] = body["violations"]
    assert violation["rule"] in RULE_IDS
    assert violation["pointer"].startswith("/moves/1")


# ---------------------------------------------------------------- replay


def test_replay_gives_a_state_per_move_and_the_score(client, state):
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"},
             {"type": "draw", "from": "market", "card": state["market"][0]}, {"type": "pass"}]
    body = client.post(f"{BASE}/replay", json={"state": state, "moves": moves}).get_json()
    assert body["legal"] is True and body["failed_at"] is None
    assert len(body["states"]) == len(moves)
    assert body["states"][-1] == body["state"]
    applied = client.post(f"{BASE}/apply", json={"state": state, "moves": moves}).get_json()
    assert applied["state"] == body["state"]
    assert applied["events"] == body["events"]
    # each intermediate state is what apply gives for the prefix
    for i in range(len(moves)):
        prefix = client.post(f"{BASE}/apply", json={"state": state, "moves": moves[:i + 1]}).get_json()
        assert body["states"][i] == prefix["state"]
    score = body["score"]
    assert [p["total"] for p in score["players"]] == [0, 0]
    assert score["winner"] is None and score["decided_by"] == "draw"


def test_replay_stops_at_an_illegal_move(client, state):
    moves = [{"type": "purchase"}, {"type": "draw", "from": "deck"}, {"type": "close"}]
    body = client.post(f"{BASE}/replay", json={"state": state, "moves": moves}).get_json()
    assert body["legal"] is False and body["failed_at"] == 2
    assert len(body["states"]) == 2
    assert body["violations"][0]["pointer"].startswith("/moves/2")
    assert "score" in body


# ---------------------------------------------------------------- score


def test_score_the_rulesheet_table(client):
    response = client.post(f"{BASE}/score", json={"table": table()})
    assert response.status_code == 200
    body = response.get_json()
    adso, william = body["players"]
    assert (adso["name"], adso["total"]) == ("Adso", 63)
    assert (william["name"], william["total"]) == ("William", 66)
    assert body["winner"] == 1
    assert body["decided_by"] == "points"
    assert body["warnings"] == []
    assert adso["categories"] == {"completion": 15, "blessing": 0, "plain": 33, "colorful": 5, "highest": 10,
                                  "monumento": 0, "cappella": 0}
    assert william["categories"] == {"completion": 20, "blessing": 6, "plain": 7, "colorful": 33, "highest": 0,
                                     "monumento": 0, "cappella": 0}
    assert adso["plain_ranks_won"] == [6, 8, 9, 10] and william["plain_ranks_won"] == [7]
    for player in body["players"]:
        assert sum(player["categories"].values()) == player["total"]


def test_score_a_state(client, state):
    body = client.post(f"{BASE}/score", json={"state": state}).get_json()
    assert [p["total"] for p in body["players"]] == [0, 0]
    assert body["winner"] is None and body["decided_by"] == "draw"


def test_score_an_impossible_table_is_422(client):
    bad = table()
    bad["players"][0]["towers"].append({"cards": ["10", "10", "10", "10", "10", "10", "10", "10"]})
    response = client.post(f"{BASE}/score", json={"table": bad})
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert "T-COMP-4" in {e["rule"] for e in errors}
    assert all(e["pointer"].startswith("/table") for e in errors)


def test_score_notation(client):
    notation = "Adso @: 10x3* 9x3* 8x3 6x3* 10-6\nWilliam: 7x3* 9-5* 10-8* 7-5*"
    response = client.post(f"{BASE}/score", json={"notation": notation})
    assert response.status_code == 200
    assert [p["total"] for p in response.get_json()["players"]] == [63, 66]


def test_score_several_deals_charges_the_losing_closer(client):
    # T-SVC-DEALS: with Adso's 8x3 complete he wins 68 to 66, so William, who called Close, loses 10 more.
    closed = {**table(), "closed_by": 1}
    closed["players"][0]["towers"][2]["complete"] = True
    single = client.post(f"{BASE}/score", json={"table": closed}).get_json()
    deal = client.post(f"{BASE}/score", json={"table": closed, "several_deals": True}).get_json()
    assert [p["total"] for p in single["players"]] == [68, 66]
    assert [p["total"] for p in deal["players"]] == [68, 56]
    assert [p["categories"]["close_penalty"] for p in deal["players"]] == [0, -10]
    assert deal["winner"] == 0
    refused = client.post(f"{BASE}/score", json={"table": closed, "several_deals": "yes"})
    assert refused.status_code == 400
    assert [e["pointer"] for e in refused.get_json()["errors"]] == ["/several_deals"]


# ---------------------------------------------------------------- view


def test_view_hides_the_opponents_hand_and_the_deck(client, state):
    response = client.post(f"{BASE}/view", json={"state": state, "player": 1})
    assert response.status_code == 200
    view = response.get_json()["state"]
    opponent, me = view["players"]
    assert isinstance(opponent["hand"], dict)
    assert opponent["hand"]["count"] == len(state["players"][0]["hand"]) == 5
    assert not opponent["hand"].get("known"), "no card of the opponent's hand is shown"
    assert me["hand"] == state["players"][1]["hand"], "the viewer's own hand is shown"
    assert isinstance(view["deck"], dict) and view["deck"]["count"] == len(state["deck"])
    assert not view["deck"].get("top") and not view["deck"].get("bottom")
    assert view["market"] == state["market"], "the market is open information"
    text = response.get_data(as_text=True)
    assert str(state["deck"]) not in text


def test_view_for_the_other_player(client, state):
    view = client.post(f"{BASE}/view", json={"state": state, "player": 0}).get_json()["state"]
    assert view["players"][0]["hand"] == state["players"][0]["hand"]
    assert view["players"][1]["hand"]["count"] == 5


def test_a_view_is_still_a_valid_state(client, state):
    view = wire(client.post(f"{BASE}/view", json={"state": state, "player": 1}).get_json()["state"])
    assert client.post(f"{BASE}/validate", json={"state": view}).get_json()["valid"] is True
    moves = client.post(f"{BASE}/legal-moves", json={"state": view}).get_json()
    assert moves["to_act"] == 0 and moves["moves"]


# ---------------------------------------------------------------- probes, metrics, docs


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "cache": "memory", "version": service.__version__}


def test_readyz(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "cache": "memory", "version": service.__version__}


def test_metrics_is_prometheus_text(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert "# TYPE referee_adjudications_total counter" in text
    assert "# TYPE referee_cache_requests_total counter" in text


def test_openapi_yaml_is_the_committed_contract(client):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.get_data(as_text=True) == SPEC_PATH.read_text(encoding="utf-8")
    spec = yaml.safe_load(response.get_data(as_text=True))
    assert spec["openapi"] == "3.1.0"
    assert f"{BASE}/apply" in spec["paths"]


def test_docs_page_and_its_assets(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "SwaggerUIBundle" in html and '"/openapi.yaml"' in html
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"):
        assert asset in html
        response = client.get(asset)
        assert response.status_code == 200, asset
        assert len(response.get_data()) > 10_000
        assert "max-age=86400" in response.headers.get("Cache-Control", "")
    assert client.get("/docs/assets/swagger-ui-bundle.js").mimetype in ("text/javascript", "application/javascript")
    assert client.get("/docs/assets/swagger-ui.css").mimetype == "text/css"
