"""The one game protocol (service/games/core/game.py): capabilities declared are checked when a game's class is
made, never probed; events are records nobody changes after the engine made them; a variant's value reaches the
deal as the request gave it."""
from __future__ import annotations

from typing import Any

import pytest

from service.games.core.events import Event
from service.games.core.game import Capability, Game
from service.games.registry import GAMES


def test_a_capability_declared_without_its_methods_is_refused_when_the_class_is_made() -> None:
    base = type(GAMES["carcassonne"])
    with pytest.raises(TypeError, match="notation without read_notation, write_notation"):
        type("Unwritten", (base,), {"capabilities": frozenset({Capability.NOTATION})})
    with pytest.raises(TypeError, match="table without score_table, table_of, a table in its wire form"):
        type("Untabled", (base,), {"capabilities": frozenset({Capability.TABLE})})
    with pytest.raises(TypeError, match="editor without its editor folder"):
        type("Uneditable", (base,), {"capabilities": frozenset({Capability.EDITOR}), "editor": None})


@pytest.mark.parametrize("game_id", list(GAMES))
def test_what_a_game_offers_is_what_it_declares(game_id: str) -> None:
    game = GAMES[game_id]
    for capability in Capability:
        assert game.offers(capability) == (capability in game.capabilities)
    assert isinstance(game, Game)


def test_an_event_cannot_be_changed_once_made() -> None:
    event = Event({"type": "played", "player": 0})
    for change in (lambda: event.__setitem__("step", 1), lambda: event.update(step=1), lambda: event.pop("type"),
                   lambda: event.setdefault("x", 1), lambda: event.clear(), lambda: event.__delitem__("type")):
        with pytest.raises(TypeError):
            change()
    placed = event.at(3)
    assert placed == {"type": "played", "player": 0, "step": 3} and placed.step == 3
    assert event == {"type": "played", "player": 0} and event.step is None


@pytest.mark.parametrize("game_id", list(GAMES))
def test_applying_and_answering_leave_the_engines_events_as_made(game_id: str) -> None:
    """The step index and the words are new records: the events the engine made keep neither."""
    game = GAMES[game_id]
    example = game.examples
    state = game.load_state(game.new(example["new"])["state"]).checked()
    steps = [game.as_step(move) for move in example["apply"]["moves"]]
    made: list[Event] = []
    after = state
    for step in steps:
        after, events = game.apply_step(after, step)
        made.extend(events)
    answer = game.apply({"state": game.state_json(state), "moves": example["apply"]["moves"]})
    assert all("step" not in event and "text" not in event for event in made)
    assert [{k: v for k, v in e.items() if k not in ("step", "text")} for e in answer["events"]] == made
    assert all(type(event) is dict for event in answer["events"])


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_variant_reaches_the_deal_as_given(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = GAMES[game_id]
    dealt: list[dict[str, Any]] = []
    deal = type(game).deal

    def recorded(self: Game, seed: Any, *, names: Any, variant: Any, **options: Any) -> Any:
        dealt.append(dict(variant))
        return deal(self, seed, names=names, variant=variant, **options)
    monkeypatch.setattr(type(game), "deal", recorded)
    game.new({"seed": 1, "variant": {v.name: v.example for v in game.info.variants}})
    game.new({"seed": 1})
    assert dealt == [{v.name: v.example for v in game.info.variants}, {v.name: v.default for v in game.info.variants}]
