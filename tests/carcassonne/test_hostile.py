"""Bad input never crashes the library: any JSON put anywhere in a state or a step is read into a problem
(GameError), never another exception."""
from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from service.games import carcassonne
from service.games.carcassonne.game import CarcassonneGame

from .helpers import doc
from .test_rules_tower import ROW, ROW_MEEPLES

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2000, 2000) | st.text(max_size=8)
                    | st.sampled_from(["BA/L", "TO/F", "N", "WR", "inner", "tower", "place", "capture"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                 max_size=3), max_leaves=8)
BASE = doc(ROW, tower=True, step="action", last=(3, 1), meeples=ROW_MEEPLES, towers=[((0, 1), 2, None)])
RULES = CarcassonneGame()


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            yield from _paths(item, prefix + (index,))


PATHS = [p for p in _paths(BASE) if p]


def _put(document, path, value):
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(PATHS), value=JSON, move=st.fixed_dictionaries({"type": st.sampled_from(
    ["place", "discard", "meeple", "floor", "tower_meeple", "capture", "skip", "ransom"])}, optional={
    "tile": JSON, "at": JSON, "rotation": JSON, "feature": JSON, "player": JSON, "from": JSON}))
def test_any_value_anywhere_is_a_problem_not_a_crash(path, value, move):
    document = copy.deepcopy(BASE)
    _put(document, path, value)
    for call in (lambda: RULES.validate({"state": document}), lambda: RULES.legal_moves({"state": document}),
                 lambda: RULES.score({"state": document}), lambda: RULES.picture({"state": document}),
                 lambda: RULES.apply({"state": document, "moves": [move]}),
                 lambda: RULES.apply({"state": BASE, "moves": [move]})):
        try:
            call()
        except carcassonne.GameError as error:
            assert error.problems and all(p.pointer.startswith(("/state", "/moves")) for p in error.problems)
