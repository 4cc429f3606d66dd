"""Campanile's components and the numbers that follow from the player count (C-COMP, C-SETUP).

Cards are style names "A"…"E" on the wire and inside: the tower at position i has style STYLES[i] (A nearest the
Finito piles). Tokens are their values 1, 2, 3.
"""
from __future__ import annotations

STYLES: tuple[str, ...] = ("A", "B", "C", "D", "E")  # C-COMP-1: five tower styles, positions 0 to 4
STYLE_INDEX: dict[str, int] = {style: i for i, style in enumerate(STYLES)}
CARDS_PER_STYLE = 14  # C-COMP-1: 14 tower cards per style (70)
PILES = 3  # C-COMP-2: Finito 1, 2, 3
STORIES = (1, 2, 3)  # C-TURN-PLAY: a card raises its tower by 1, 2 or 3 stories
FLAGS: tuple[tuple[int, int], ...] = ((8, 4), (6, 3), (4, 2), (2, 1))  # C-COMP-3, C-END-2
TOKEN_VALUES: tuple[int, ...] = (1, 2, 3)
TOKENS: dict[int, int] = {1: 5, 2: 3, 3: 1}  # C-COMP-4: each player's power tokens
HAND_SIZE = 3  # C-SETUP-2, C-TURN-DRAW
MIN_PLAYERS, MAX_PLAYERS = 2, 5
SETUP_REMOVED: dict[int, int] = {2: 5, 3: 3, 4: 1, 5: 0}  # C-SETUP-1: cards removed from each style


def in_play_per_style(players: int) -> int:
    """C-SETUP-1: the cards of one style in play (the others are out of the game, not listed: C-SVC-REMOVED)."""
    return CARDS_PER_STYLE - SETUP_REMOVED[players]


def cards_in_play(players: int) -> int:
    return len(STYLES) * in_play_per_style(players)


def pile_size(players: int) -> int:
    """C-SETUP-2: the size of each Finito pile after the deal (13, 15, 17, 18)."""
    return (cards_in_play(players) - HAND_SIZE * players) // PILES


def leftover(players: int) -> int:
    """C-SETUP-2: the cards that do not divide evenly into the three piles, removed (0, 1, 2, 1)."""
    return (cards_in_play(players) - HAND_SIZE * players) % PILES


def full_deck(players: int) -> dict[str, int]:
    return {style: in_play_per_style(players) for style in STYLES}
