"""The Torri rules: which steps are legal, and what each one does.

`apply_step` and `legal_steps` are two readings of the same rules and must agree exactly; the conformance
tests hold them to it. Rule ids name the rule each check enforces. The rules are written in the engine_*
modules beside this one, a concern each, from the ground up:

- engine_whereabouts: what is where (the cards no known place shows, hands, the decks' tops and bottoms);
- engine_ending: the end of a turn (the Ending phase), Close and Pass;
- engine_market: Purchase, Exchange, every draw, the market's refill;
- engine_noble_limits: what the nobles allow around any move (T-NOB-LIMIT, Palazzo's cap, the Giostra window);
- engine_donazione: Trade and Conspiracy, and the Guard that answers them;
- engine_building: Build, Extend, Complete, the Highest marker;
- engine_nobles: action nobles, Giostra's answer, the rebuild after it;
- engine_turns: the turn structure that hands each step to its handler (`apply_step`, `canonical_step`);
- engine_legal: listing the legal steps, within a budget (`legal_steps`).

A name with a leading underscore is the engine's own, shared between those modules; position.py reads a pending
Giostra window with three of them.
"""
from __future__ import annotations

from .engine_donazione import conspiracy_candidates
from .engine_legal import TooManyStepsError, legal_steps
from .engine_noble_limits import _giostra_allowed, _window_counted, nobles_used
from .engine_turns import apply_step, canonical_step
from .engine_whereabouts import _from_hand, missing_cards

__all__ = [
    "TooManyStepsError", "_from_hand", "_giostra_allowed", "_window_counted", "apply_step", "canonical_step",
    "conspiracy_candidates", "legal_steps", "missing_cards", "nobles_used",
]
