"""core/records.py: a record made from one tuple of its fields is the record its class makes."""
from __future__ import annotations

from service.games.carcassonne.model import Meeple
from service.games.core.records import from_fields
from service.games.sangimignano.steps import Step


def test_a_record_from_its_fields_equals_the_class_s_own():
    fields = ("hex", (1, -1), None, ("B", "C", "D"), 3)
    made = from_fields(Step)(fields)
    assert made == Step(*fields) and type(made) is Step
    assert made.rotation == 3 and made.to_json() == Step(*fields).to_json()
    meeple = from_fields(Meeple)(((2, 0), "N", 1))
    assert (meeple.at, meeple.feature, meeple.player) == ((2, 0), "N", 1)
