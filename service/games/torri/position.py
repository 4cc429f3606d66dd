"""A Torri position from what its schema loaded (service/games/torri/schemas.py), the rules a real position obeys,
and its JSON form.

`build_state` and `build_table` take a document whose shape the schema has checked (attribute names, defaults
applied) and give a `Reading`: the model objects, every rule the position breaks (each with its rule id and a
pointer into the document) and its warnings. `state_json` writes the canonical form: every field, keys in a fixed
order, hands and market sorted, so equal states are equal bytes.
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..core.errors import Problem
from ..core.reading import Reading
from .cards import (
    BUONA_PIETRA,
    CARD_NAMES,
    CARDS_BY_NAME,
    GUARD,
    NOBLE_COUNTS,
    NOBLES,
    PALAZZO,
    TOWER_COUNTS,
    is_tower_card,
    names,
)
from .engine_donazione import conspiracy_candidates
from .engine_noble_limits import _giostra_allowed, _window_counted
from .engine_whereabouts import _from_hand
from .messages import either, tr, tr_n
from .model import ENDING, MAIN, OVER, PLAIN, Draft, Pending, Player, PlayerDraft, State, Table, Tower
from .towers import MIN_HEIGHT, contradicted_field, interpretations, mismatch, read_tower, shape_rule

NOBLE_FIELDS = ("noble_deck", "removed", "palazzo")  # the advanced game's (T-COMP-2)


# ---------------------------------------------------------------- building

_card_of = CARDS_BY_NAME.__getitem__  # (bound once: a state has a dozen piles to read)


def _cards(loaded: Any) -> tuple[int, ...]:
    return tuple(map(_card_of, loaded))


def _pile(loaded: Any, first: str, second: str | None = None) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """A deck or hand as loaded: a list, or {"count": total, <known parts>}. Returns (first part, hidden, second
    part); a pile whose cards are all known after all is a list."""
    if isinstance(loaded, list):
        return _cards(loaded), 0, ()
    top = _cards(loaded.get(first, ()))
    bottom = _cards(loaded.get(second, ())) if second is not None else ()
    hidden = loaded["count"] - len(top) - len(bottom)
    if not hidden:
        return top + bottom, 0, ()
    return top, hidden, bottom


def _tower(loaded: dict, player: int, index: int, rules: list[Problem],
           loose: list[tuple[int, str]]) -> Tower | None:
    """Player `player`'s tower `index`: the tower the cards make, or None (with the rule broken) when they make
    none, or no single one. The cards of a tower that cannot be read are still on the table: `loose` keeps them, to
    be counted (T-COMP-4)."""
    cards = _cards(loaded["cards"])
    complete, kind, rank = loaded["complete"], loaded.get("kind"), loaded.get("rank")
    options = interpretations(cards)
    if len(options) == 1 and len(cards) >= MIN_HEIGHT:  # most towers: tall enough, one reading, kind and rank agree
        read_kind, read_rank = options[0]
        if (kind is None or kind == read_kind) and (rank is None or rank == read_rank):
            return Tower(cards, complete, read_kind, read_rank)
    pointer = f"/players/{player}/towers/{index}"
    if len(cards) < MIN_HEIGHT:
        rules.append(Problem("T-ACT-BUILD-1", f"{pointer}/cards",
                             tr("A tower has 3 or more stories; this one has {height}.", height=len(cards))))
    tower = read_tower(cards, complete, kind, rank) if options else None
    if tower is None:
        loose.extend((card, f"{pointer}/cards/{i}") for i, card in enumerate(cards))
    if not options:
        rule = shape_rule(cards) if cards else "T-ACT-BUILD-1"
        rules.append(Problem(rule, f"{pointer}/cards",
                             # Translators: {stack} is the tower's cards, bottom first ("9-8-9")
                             tr("{stack} is neither plain (one rank) nor colorful (one rank lower each story).",
                                stack="-".join(names(cards))) if cards else
                             tr("An empty tower is neither plain (one rank) nor colorful (one rank lower each "
                                "story).")))
        return None
    if tower is None:
        wrong = contradicted_field(options, kind, rank)  # kind and rank may be given; they must agree
        if wrong is None:
            rules.append(Problem("T-NOB-BP", f"{pointer}/cards", tr("These cards make more than one tower: give "
                                                                    "\"kind\" and \"rank\".")))
        else:
            rules.append(Problem("T-ACT-BUILD-2", f"{pointer}/{wrong}", mismatch(wrong, cards, options)))
    return tower


def _player(loaded: dict, index: int, rules: list[Problem], loose: list[tuple[int, str]]) -> Player:
    hand, hidden = (), 0
    if "hand" in loaded:  # a state's player (a table's has none)
        hand, hidden, _ = _pile(loaded["hand"], "known")
    towers = []
    for t, item in enumerate(loaded.get("towers", ())):
        tower = _tower(item, index, t, rules, loose)
        if tower is not None:
            towers.append(tower)
    name = loaded["name"] if "name" in loaded else f"Player {index + 1}"
    return PlayerDraft(name, tuple(sorted(hand)), hidden, tuple(towers), _cards(loaded.get("played", ()))).freeze()


def _players(loaded: list, rules: list[Problem], loose: list[tuple[int, str]]) -> list[Player]:
    """The players, when there are at most two (T-COMP-3): no third to read against the rules."""
    if len(loaded) != 2:
        rules.append(Problem("T-COMP-3", "/players", tr("Torri is for two players; {given} given.",
                                                        given=len(loaded))))
        if len(loaded) > 2:
            return []
    return [_player(item, i, rules, loose) for i, item in enumerate(loaded)]


def _pending(loaded: dict | None) -> Pending | None:
    """The pending decision as loaded; the schema has checked that it carries its type's fields, and only those."""
    if loaded is None:
        return None
    kind, action, player = loaded["type"], loaded["action"], loaded["player"]
    if kind in ("draw", "refill"):
        excluded = _cards(loaded.get("excluded", ()))
        return Pending(kind, action, player, loaded.get("left", 0), tuple(loaded.get("from_", ())),
                       tuple(sorted(set(excluded))))
    if kind in ("giostra", "rebuild"):
        cards = _cards(loaded.get("cards", ()))
        if kind == "giostra" and action not in ("build", "extend"):
            cards = (CARDS_BY_NAME[action],)
        return Pending(kind, action, player, cards=cards if kind == "giostra" else tuple(sorted(cards)),
                       tower=loaded.get("tower"), kind=loaded.get("kind"), rank=loaded.get("rank"))
    if kind == "target":
        return Pending("target", "conspiracy", player, left=loaded["height"], built=loaded["built"])
    if kind == "guard":
        target = loaded["target"]
        if action == "trade":
            return Pending("guard", "trade", player, left=loaded["size"], target=(target["player"], -1))
        return Pending("guard", "conspiracy", player, target=(target["player"], target["tower"]))
    return Pending(kind, "trade", player, left=loaded.get("left", 0), give=loaded.get("give", 0))


def build_state(loaded: dict) -> Reading[State]:
    """The State a loaded state document describes, with the rules it breaks and its warnings."""
    rules: list[Problem] = []
    loose: list[tuple[int, str]] = []
    nobles = loaded.get("variant", {}).get("nobles", False)
    phase = loaded.get("phase", MAIN)
    turn = loaded.get("turn", 0)
    deck, deck_hidden, deck_bottom = _pile(loaded["deck"], "top", "bottom")
    players = _players(loaded["players"], rules, loose)
    noble_deck, noble_hidden, noble_bottom, removed, palazzo = (), 0, (), (), None
    if nobles:
        if "noble_deck" in loaded:
            noble_deck, noble_hidden, noble_bottom = _pile(loaded["noble_deck"], "top", "bottom")
        removed = _cards(loaded.get("removed", ()))
        palazzo = loaded.get("palazzo")
    else:
        for key in NOBLE_FIELDS:
            if key in loaded and loaded[key] not in (None, []):
                rules.append(Problem("T-COMP-2", f"/{key}", tr("\"{field}\" belongs to the advanced game "
                                                               "(variant.nobles).", field=key)))
    if len(players) < 2:
        players += [Player(f"Player {i + 1}", ()) for i in range(len(players), 2)]
    # (written and frozen, as State(...) does it, without its extra calls; the players likewise)
    state = Draft(nobles, phase, turn, loaded.get("to_act", None if phase == OVER else turn), loaded.get("passes", 0),
                  loaded.get("highest"), deck, deck_hidden, deck_bottom, tuple(sorted(_cards(loaded["market"]))),
                  (players[0], players[1]), _pending(loaded.get("pending")), noble_deck, noble_hidden, noble_bottom,
                  removed, palazzo, loaded.get("closed_by")).freeze()
    warnings: list[Problem] = []
    rules.extend(check_state(state, warnings, loose))
    return Reading(state, tuple(rules), tuple(warnings))


# ---------------------------------------------------------------- the rules a position obeys

def _pile_places(name: str, top: tuple[int, ...], hidden: int,
                 bottom: tuple[int, ...]) -> Iterator[tuple[int, str]]:
    where = f"/{name}/top" if hidden else f"/{name}"
    for i, card in enumerate(top):
        yield card, f"{where}/{i}"
    for i, card in enumerate(bottom):
        yield card, f"/{name}/bottom/{i}"


def _places(state: State) -> Iterator[tuple[int, str]]:
    """Every known card with a pointer to where it lies."""
    yield from _pile_places("deck", state.deck, state.deck_hidden, state.deck_bottom)
    for i, card in enumerate(state.market):
        yield card, f"/market/{i}"
    yield from _pile_places("noble_deck", state.noble_deck, state.noble_hidden, state.noble_bottom)
    for i, card in enumerate(state.removed):
        yield card, f"/removed/{i}"
    for p, player in enumerate(state.players):
        for i, card in enumerate(player.hand):
            yield card, f"/players/{p}/hand/{i}" if not player.hidden else f"/players/{p}/hand/known/{i}"
        yield from _table_places(player, p)


def _table_places(player: Player, p: int) -> Iterator[tuple[int, str]]:
    for t, tower in enumerate(player.towers):
        for i, card in enumerate(tower.cards):
            yield card, f"/players/{p}/towers/{t}/cards/{i}"
    for i, card in enumerate(player.played):
        yield card, f"/players/{p}/played/{i}"


def _count_problems(places, nobles: bool) -> list[Problem]:
    """T-COMP-1/2/4: no card more often than the game has it; nobles only in the advanced game."""
    problems: list[Problem] = []
    seen: Counter = Counter()
    full = {**TOWER_COUNTS, **NOBLE_COUNTS}
    for card, pointer in places:
        if not nobles and not is_tower_card(card):
            problems.append(Problem("T-COMP-2", pointer, tr("{card} is a noble card: nobles are only in the advanced "
                                                            "game (variant.nobles).", card=CARD_NAMES[card])))
            continue
        seen[card] += 1
        if seen[card] == full[card] + 1:
            problems.append(Problem("T-COMP-4", pointer, tr("One {card} too many: the game has {number} of them.",
                                                            card=CARD_NAMES[card], number=full[card])))
    return problems


def _known_list(state: State) -> list[int]:
    """Every known card, wherever it lies (as `_places` walks them, without the pointers)."""
    known = [*state.deck, *state.deck_bottom, *state.market, *state.noble_deck, *state.noble_bottom, *state.removed]
    for player in state.players:
        known += player.hand
        known += player.played
        for tower in player.towers:
            known += tower.cards
    return known


def _known_cards(state: State) -> Counter:
    return Counter(_known_list(state))


# Every card of the game, sorted, in the base game and in the advanced one: what a position that knows where each
# card lies holds, once each (T-COMP-1, T-COMP-2).
_EVERY_CARD = {nobles: sorted(card for card, count in counts.items() for _ in range(count))
               for nobles, counts in ((False, TOWER_COUNTS), (True, {**TOWER_COUNTS, **NOBLE_COUNTS}))}


def _counts_fit(seen: Counter, nobles: bool) -> bool:
    full = {**TOWER_COUNTS, **NOBLE_COUNTS} if nobles else TOWER_COUNTS
    return all(card in full and count <= full[card] for card, count in seen.items())


def check_state(state: State, warnings: list[Problem], loose: list[tuple[int, str]] = ()) -> list[Problem]:
    """Every rule a position breaks. `loose`: (card, pointer) of towers that could not be read, counted too."""
    # Counting is cheap; walking every card with its pointer is done only to report a problem.
    known = _known_list(state)
    known += [card for card, _ in loose]
    if not state.has_hidden and sorted(known) == _EVERY_CARD[bool(state.nobles)]:
        problems = _pile_kinds(state)  # each card once: the counts fit (T-COMP-4) and the total is the game's
    else:
        seen = Counter(known)
        problems = [] if _counts_fit(seen, state.nobles) else _count_problems(
            itertools.chain(_places(state), loose), state.nobles)
        problems.extend(_check_totals(state, seen))
    for p, player in enumerate(state.players):
        if player.hand_size > player.hand_limit:
            problems.append(Problem("T-SETUP-4", f"/players/{p}/hand", tr("{player} holds {cards} cards; the limit "
                                                                          "is {limit}.", player=player.name,
                                                                          cards=player.hand_size,
                                                                          limit=player.hand_limit)))
    problems.extend(_check_flow(state))
    problems.extend(_check_marker(state, warnings, as_error=True))
    if state.nobles:
        problems.extend(_check_nobles(state))
    return problems


def _check_totals(state: State, seen: Counter) -> list[Problem]:
    problems: list[Problem] = []
    total = sum(seen.values()) + state.deck_hidden + state.noble_hidden + sum(p.hidden for p in state.players)
    expected = sum(TOWER_COUNTS.values()) + (sum(NOBLE_COUNTS.values()) if state.nobles else 0)
    if total != expected:
        problems.append(Problem("T-COMP-4", "", tr_n(
            "The state holds {count} card in all; the game has {expected} (deck, market, hands and towers, nobles "
            "together).",
            "The state holds {count} cards in all; the game has {expected} (deck, market, hands and towers, nobles "
            "together).", total, expected=expected) if state.nobles else tr_n(
            "The state holds {count} card in all; the game has {expected} (deck, market, hands and towers "
            "together).",
            "The state holds {count} cards in all; the game has {expected} (deck, market, hands and towers "
            "together).", total, expected=expected)))
        return problems
    if not (state.deck_hidden or state.noble_hidden):
        return problems + _pile_kinds(state)
    full = Counter(TOWER_COUNTS)
    if state.nobles:
        full.update(NOBLE_COUNTS)
    full.subtract(seen)
    missing = full
    tower_missing = sum(n for card, n in missing.items() if is_tower_card(card) and n > 0)
    noble_missing = sum(n for card, n in missing.items() if not is_tower_card(card) and n > 0)
    if state.deck_hidden > tower_missing:
        problems.append(Problem("T-COMP-4", "/deck/count", tr_n(
            "The deck's {count} unknown card must be tower cards; only {missing} are unaccounted for.",
            "The deck's {count} unknown cards must be tower cards; only {missing} are unaccounted for.",
            state.deck_hidden, missing=tower_missing)))
    if state.noble_hidden > noble_missing:
        problems.append(Problem("T-COMP-4", "/noble_deck/count", tr_n(
            "The noble deck's {count} unknown card must be nobles; only {missing} are unaccounted for.",
            "The noble deck's {count} unknown cards must be nobles; only {missing} are unaccounted for.",
            state.noble_hidden, missing=noble_missing)))
    return problems + _pile_kinds(state)


def _pile_kinds(state: State) -> list[Problem]:
    problems: list[Problem] = []
    deck, noble_deck = state.deck + state.deck_bottom, state.noble_deck + state.noble_bottom
    if deck and not is_tower_card(max(deck)):  # (nobles are numbered above every rank: cards.py)
        i = next(i for i, card in enumerate(deck) if not is_tower_card(card))
        problems.append(Problem("T-COMP-4", f"/deck/{i}", tr("The tower deck holds tower cards only.")))
    if noble_deck and is_tower_card(min(noble_deck)):
        i = next(i for i, card in enumerate(noble_deck) if is_tower_card(card))
        problems.append(Problem("T-COMP-4", f"/noble_deck/{i}", tr("The noble deck holds nobles only.")))
    return problems


def _check_flow(state: State) -> list[Problem]:
    """The phase, turn, to_act, passes and pending fields must tell one consistent story."""
    problems: list[Problem] = []
    pending = state.pending
    if state.phase == OVER:
        if state.to_act is not None:
            problems.append(Problem("T-TURN-3", "/to_act", tr("Nobody acts once the game is over: to_act is null.")))
        if state.passes != 2:
            problems.append(Problem("T-TURN-3", "/passes", tr("A game ends only when both players pass in a row: "
                                                              "passes is 2 once it is over.")))
        if pending is not None:
            problems.append(Problem("T-TURN-2", "/pending", tr("A game that is over has no pending decision.")))
        return problems
    if state.passes > 1:
        problems.append(Problem("T-TURN-3", "/passes", tr("Two passes in a row end the game: phase would be over.")))
    if state.to_act is None:
        problems.append(Problem("T-TURN-2", "/to_act", tr("Someone must act while the game goes on.")))
    if state.phase == MAIN and state.deck_size == 0 and pending is None:
        problems.append(Problem("T-END-1", "/phase", tr("The deck is empty, so the Ending phase has begun.")))
    if state.closed_by is not None:
        problems.extend(_check_closer([p.towers for p in state.players], state.closed_by))
        if state.phase == MAIN:
            problems.append(Problem("T-END-1", "/closed_by",
                                    tr("Close starts the Ending phase: phase cannot be main.")))
    if state.phase == MAIN and not state.market and pending is None:
        problems.append(Problem("T-MKT-1", "/market", tr("The market is refilled whenever it empties while the deck "
                                                         "has cards: it cannot be empty between turns.")))
    if state.phase == ENDING and state.deck_size > 0 and not any(
            sum(t.complete for t in p.towers) >= 4 for p in state.players):
        problems.append(Problem("T-ACT-CLOSE-1", "/phase", tr("The Ending phase with cards in the deck means someone "
                                                              "closed, and nobody has the 4 complete towers it "
                                                              "needs.")))
    if pending is None:
        if state.to_act is not None and state.to_act != state.turn:
            problems.append(Problem("T-TURN-2", "/to_act", tr("With no decision pending, the player whose turn it is "
                                                              "acts.")))
        return problems
    problems.extend(_check_pending(state, pending))
    return problems


def _check_pending(state: State, pending: Pending) -> list[Problem]:
    problems: list[Problem] = []

    def bad(rule: str, pointer: str, message: str) -> None:
        problems.append(Problem(rule, f"/pending{pointer}", message))

    if pending.player != state.turn:
        bad("T-TURN-2", "/player", tr("The pending action belongs to the player whose turn it is."))
        return problems
    if state.phase != MAIN and pending.type not in ("giostra", "rebuild"):
        bad("T-END-2", "", tr("No action of the Ending phase draws, trades or destroys: only a Giostra window or "
                              "what follows it can be pending."))
        return problems
    actor = state.players[pending.player]
    expected_to_act = pending.target[0] if pending.type == "guard" and pending.target else pending.player
    if pending.type == "giostra":
        expected_to_act = 1 - pending.player
    if state.to_act != expected_to_act:
        # Translators: {kind} is the pending decision's type (draw, guard, target, take, give, refill, giostra,
        # rebuild)
        problems.append(Problem("T-TURN-2", "/to_act", tr("The pending {kind} is player {player}'s to decide.",
                                                          kind=pending.type, player=expected_to_act)))
    problems.extend(_check_provenance(state, pending))
    if pending.type == "draw":
        if pending.left < 1:
            bad("T-TURN-4", "/left", tr("A pending draw owes at least one card."))
        if not pending.sources:
            bad("T-TURN-4", "/from", tr("A pending draw names where it may draw from."))
        if "noble_deck" in pending.sources and not state.nobles:
            bad("T-NOB-DRAW", "/from", tr("Only the advanced game has a noble deck."))
        if pending.excluded and pending.action != "exchange":
            bad("T-ACT-EXCHANGE-2", "/excluded", tr("Only an Exchange excludes ranks from its market draws."))
        if pending.action == "purchase" and actor.hand_size + pending.left > actor.hand_limit:
            bad("T-ACT-PURCHASE-2", "/left", tr("These draws would take the hand over its limit."))
        available = state.deck_size + state.noble_deck_size * ("noble_deck" in pending.sources) + sum(
            1 for c in state.market if c not in pending.excluded)
        if available < pending.left:
            bad("T-DRAW-SHORT", "/left", tr_n("Only {count} card can still be drawn.",
                                              "Only {count} cards can still be drawn.", available))
    elif pending.type == "refill":
        if state.market:
            bad("T-MKT-1", "", tr("The market is refilled only when it is empty."))
        if pending.left != min(4, state.deck_size) or pending.left < 1:
            bad("T-MKT-1", "/left", tr_n("The market takes {count} card from the deck.",
                                         "The market takes {count} cards from the deck.", min(4, state.deck_size)))
    elif pending.type == "guard":
        owner, tower = pending.target  # type: ignore[misc]
        guarder = state.players[owner]
        if pending.action == "trade" and owner != 1 - pending.player:
            bad("T-DON-9", "/target/player", tr("A Trade is aimed at the opponent."))
        if pending.action == "conspiracy" and (tower >= len(guarder.towers) or guarder.towers[tower].complete):
            bad("T-DON-10", "/target/tower", tr("A Conspiracy is aimed at an incomplete tower on the table."))
        if GUARD not in guarder.hand and not guarder.hidden:
            bad("T-DON-5", "", tr("A Guard window opens only for a player who holds a 5 (or whose hand is unknown)."))
    elif pending.type == "target":
        built = pending.built
        if built is None or built >= len(actor.towers) or actor.towers[built].height != pending.left:
            bad("T-DON-10", "/built", tr("\"built\" is the index of the plain 10 tower just built, of that height."))
        elif len(conspiracy_candidates(state, pending.player, built, pending.left)) < 2:
            bad("T-DON-10", "", tr("A target is asked for only when several towers tie."))
    elif pending.type == "take":
        victim = state.players[1 - pending.player]
        if not 1 <= pending.left <= victim.hand_size:
            bad("T-DON-9", "/left", tr("The Trade can take 1 to {most} cards from this hand.",
                                       most=victim.hand_size))
    elif pending.type == "give":
        if not 1 <= pending.left <= actor.hand_size:
            bad("T-DON-9", "/left", tr("The Trade can give back 1 to {most} cards from this hand.",
                                       most=actor.hand_size))
    elif pending.type in ("giostra", "rebuild"):
        problems.extend(_check_noble_pending(state, pending))
    return problems


# Which draw sources each drawing action may have (T-TURN-4, T-ACT-PURCHASE-3, T-NOB-DRAW, T-NOB-VF).
_SOURCES = {
    "purchase": (("deck", "market"), ("deck",), ("deck", "noble_deck", "market")),
    "exchange": (("deck", "market"), ("deck", "noble_deck", "market")),
    "extend": (("deck", "market"),),
    "income": (("deck", "market"),),
    "via_francigena": (("deck", "noble_deck"),),
}
_DONAZIONE = {"income": 8, "trade": 9, "conspiracy": 10}  # T-DON-8/9/10: the plain rank that causes each


def _check_provenance(state: State, pending: Pending) -> list[Problem]:
    """A pending decision must be one the rules could have produced: the action that causes it, with its
    numbers (a tampered pending is an impossible state, not a shortcut)."""
    problems: list[Problem] = []
    actor = state.players[pending.player]

    def bad(rule: str, pointer: str, message: str) -> None:
        problems.append(Problem(rule, f"/pending{pointer}", message))

    if pending.type == "draw":
        allowed = _SOURCES.get(pending.action, ())
        if pending.sources not in allowed:
            # Translators: {action} is the pending action's code (purchase, exchange, extend, income,
            # via_francigena); {sources} what "from" may be ("deck+market or deck")
            bad("T-TURN-4", "/from", tr("A {action} draws from {sources}.", action=pending.action,
                                        sources=either("+".join(option) for option in allowed)))
        if pending.action == "purchase" and pending.left > (1 if pending.sources == ("deck",) else 2):
            bad("T-ACT-PURCHASE-1", "/left", tr("A Purchase draws 2 cards (1 when the deck held only one)."))
        if pending.action == "exchange" and not pending.excluded:
            bad("T-ACT-EXCHANGE-2", "/excluded", tr("An Exchange's draws exclude the ranks it put down."))
    action = pending.action if pending.type in ("draw", "guard", "target", "take", "give") else None
    if action in _DONAZIONE:
        rank = _DONAZIONE[action]
        last = actor.towers[-1] if actor.towers else None
        if last is None or last.kind != PLAIN or last.rank != rank or last.complete:
            # Translators: {action} is the pending action's code (income, trade, conspiracy)
            bad(f"T-DON-{rank}", "/action", tr("A pending {action} follows the build of a plain {rank} tower, which "
                                               "is then the builder's last tower.", action=action, rank=rank))
            return problems
        height, built = last.height, len(actor.towers) - 1
        if action == "income" and pending.left > height:
            bad("T-DON-8", "/left", tr("Income draws as many cards as the tower has stories ({height}).",
                                       height=height))
        if pending.type == "guard" and action == "trade" and pending.left != height:
            bad("T-DON-9", "/size", tr("The Trade's size is the tower's height ({height}).", height=height))
        if pending.type == "take" and (pending.left > height or pending.give != height - 1):
            bad("T-DON-9", "/left", tr("The Trade takes at most {height} cards and gives back {back}.", height=height,
                                       back=height - 1))
        if pending.type == "give" and pending.left > height - 1:
            bad("T-DON-9", "/left", tr("The Trade gives back at most {back} cards.", back=height - 1))
        if pending.type == "target" and (pending.built != built or pending.left != height):
            bad("T-DON-10", "/built", tr("\"built\" is the builder's last tower ({built}), \"height\" its height.",
                                         built=built))
        if pending.type == "guard" and action == "conspiracy" and pending.target is not None and \
                pending.target not in conspiracy_candidates(state, pending.player, built, height):
            bad("T-DON-10", "/target", tr("A Conspiracy aims at one of the tallest incomplete towers no taller than "
                                          "the new one, never a plain 6 (T-DON-6)."))
    return problems


def _check_noble_pending(state: State, pending: Pending) -> list[Problem]:
    problems: list[Problem] = []
    actor = state.players[pending.player]
    if not state.nobles:
        return [Problem("T-COMP-2", "/pending", tr("Giostra windows belong to the advanced game."))]
    if pending.action in ("build", "extend"):
        if _from_hand(state, actor, pending.cards) is None:
            problems.append(Problem("T-TURN-2", "/pending/cards", tr("The cards of the pending move are in the "
                                                                     "builder's hand until it resolves.")))
        if pending.action == "extend" and (pending.tower is None or pending.tower >= len(actor.towers)):
            problems.append(Problem("T-ACT-EXTEND-1", "/pending/tower", tr("The extended tower is one of the "
                                                                          "builder's towers.")))
        if pending.type == "giostra" and BUONA_PIETRA not in pending.cards:
            problems.append(Problem("T-NOB-GIOSTRA", "/pending/cards", tr("A Giostra window on a build opens only "
                                                                          "for Buona Pietra.")))
    elif pending.type == "giostra":
        card = pending.cards[0]
        if not (actor.played and actor.played[-1] == card) and not (card == PALAZZO and PALAZZO in state.removed):
            problems.append(Problem("T-NOB-GIOSTRA", "/pending/action", tr("The noble answered lies last in its "
                                                                           "player's played row.")))
    if pending.type == "giostra" and not problems and not _giostra_allowed(state, pending.player,
                                                                          _window_counted(pending)):
        problems.append(Problem("T-NOB-GIOSTRA", "/pending", tr("A Giostra window opens only for a player who may hold "
                                                                "Giostra and play it within T-NOB-LIMIT.")))
    return problems


def _check_marker(state_or_table, warnings: list[Problem], as_error: bool) -> list[Problem]:
    """T-HIGH-2: once any tower stands, somebody holds the marker; its holder reached the height first."""
    problems: list[Problem] = []
    towers = _towers_of(state_or_table)
    highest = state_or_table.highest
    if highest is None:
        if any(towers):
            message = tr("Towers stand, so the first of them took the Highest marker: say who holds it.")
            (problems if as_error else warnings).append(Problem("T-HIGH-2", "/highest", message))
        return problems
    tallest = [max([t.height for t in ts], default=0) for ts in towers]
    if tallest[highest] < tallest[1 - highest]:
        warnings.append(Problem("T-HIGH-3", "/highest",
                                tr("The marker's holder has no tower as tall as the other player's tallest "
                                   "({mine} < {theirs}): possible only if a taller tower was destroyed.",
                                   mine=tallest[highest], theirs=tallest[1 - highest])))
    return problems


def _towers_of(state_or_table) -> list[tuple[Tower, ...]]:
    if isinstance(state_or_table, Table):
        return list(state_or_table.towers)
    return [p.towers for p in state_or_table.players]


def _check_nobles(state: State) -> list[Problem]:
    # T-NOB-LIMIT is not a property of a position (T-SVC-LIMIT): it is checked when a noble is played.
    problems: list[Problem] = []
    for p, player in enumerate(state.players):
        for i, card in enumerate(player.played):
            if card not in NOBLES or card == BUONA_PIETRA:
                problems.append(Problem("T-NOB-PLAY", f"/players/{p}/played/{i}",
                                        tr("A played row holds the nobles played as actions, and Giostra.")))
        if PALAZZO in player.played and state.palazzo != p:
            problems.append(Problem("T-NOB-PC", "/palazzo", tr("A Palazzo Comunale in a played row is active: "
                                                               "palazzo is {player}.", player=p)))
    if state.palazzo is not None and PALAZZO not in state.players[state.palazzo].played:
        problems.append(Problem("T-NOB-PC", "/palazzo",
                                tr("An active Palazzo Comunale lies in its owner's played row.")))
    for i, card in enumerate(state.removed):
        if is_tower_card(card):
            problems.append(Problem("T-NOB-GIOSTRA", f"/removed/{i}", tr("Only nobles are removed from the game.")))
    return problems


# ---------------------------------------------------------------- tables


def build_table(loaded: dict) -> Reading[Table]:
    """The Table a loaded table document describes, with the rules it breaks and its warnings."""
    rules: list[Problem] = []
    players = _players(loaded["players"], rules, [])
    if len(players) < 2:  # no two players to check the rest against
        return Reading(None, tuple(rules))
    nobles = loaded["variant"]["nobles"] if "variant" in loaded else None
    if nobles is None:  # api.md: nobles on the table imply the advanced game
        nobles = any(not is_tower_card(c) for p in players for t in p.towers for c in t.cards) or any(
            p.played for p in players)
    closed_by = loaded.get("closed_by")
    table = Table(nobles, (players[0].name, players[1].name), (players[0].towers, players[1].towers),
                  (players[0].played, players[1].played), loaded.get("highest"), closed_by)
    rules.extend(_check_closer(table.towers, closed_by))
    rules.extend(_count_problems((item for p, player in enumerate(players) for item in _table_places(player, p)),
                                 nobles))
    warnings: list[Problem] = []
    rules.extend(_check_marker(table, warnings, as_error=False))
    return Reading(table, tuple(rules), tuple(warnings))


def table_of(state: State) -> Table:
    """The state's table; not `finished` while its game goes on (its picture then says who leads)."""
    p0, p1 = state.players
    return Table(state.nobles, (p0.name, p1.name), (p0.towers, p1.towers), (p0.played, p1.played), state.highest,
                 state.closed_by, state.phase == OVER)


def _check_closer(towers, closed_by: int | None) -> list[Problem]:
    """T-ACT-CLOSE-1: the closer had 4 complete towers, and complete towers are never destroyed."""
    if closed_by is not None and sum(t.complete for t in towers[closed_by]) < 4:
        return [Problem("T-ACT-CLOSE-1", "/closed_by", tr("Closing takes at least 4 complete towers, and this player "
                                                          "has fewer."))]
    return []


# ---------------------------------------------------------------- writing

def _pile_json(first: tuple, hidden: int, second: tuple, parts: tuple[str, ...]) -> Any:
    if not hidden:
        return names(first + second)
    out: dict[str, Any] = {"count": len(first) + hidden + len(second), parts[0]: names(first)}
    if len(parts) > 1:
        out[parts[1]] = names(second)
    return out


def tower_json(tower: Tower) -> dict[str, Any]:
    return {"cards": names(tower.cards), "complete": tower.complete, "kind": tower.kind, "rank": tower.rank}


def player_json(player: Player) -> dict[str, Any]:
    return {
        "name": player.name,
        "hand": _pile_json(player.hand, player.hidden, (), ("known",)),
        "towers": [tower_json(t) for t in player.towers],
        "played": names(player.played),
    }


def pending_json(pending: Pending | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    out: dict[str, Any] = {"type": pending.type, "action": pending.action, "player": pending.player}
    if pending.type == "draw":
        out.update({"left": pending.left, "from": list(pending.sources), "excluded": names(pending.excluded)})
    elif pending.type == "refill":
        out["left"] = pending.left
    elif pending.type == "target":
        out.update({"built": pending.built, "height": pending.left})
    elif pending.type == "guard":
        owner, tower = pending.target  # type: ignore[misc]
        if pending.action == "trade":
            out.update({"target": {"player": owner}, "size": pending.left})
        else:
            out["target"] = {"player": owner, "tower": tower}
    elif pending.type == "take":
        out.update({"left": pending.left, "give": pending.give})
    elif pending.type in ("giostra", "rebuild"):
        if pending.action in ("build", "extend"):
            out["cards"] = names(pending.cards)
            if pending.tower is not None:
                out["tower"] = pending.tower
            if pending.kind is not None:
                out["kind"] = pending.kind
                out["rank"] = pending.rank
    else:
        out["left"] = pending.left
    return out


def state_json(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "torri",
        "variant": {"nobles": state.nobles},
        "phase": state.phase,
        "turn": state.turn,
        "to_act": state.to_act,
        "passes": state.passes,
        "highest": state.highest,
        "closed_by": state.closed_by,
        "deck": _pile_json(state.deck, state.deck_hidden, state.deck_bottom, ("top", "bottom")),
        "market": names(state.market),
    }
    if state.nobles:
        out["noble_deck"] = _pile_json(state.noble_deck, state.noble_hidden, state.noble_bottom, ("top", "bottom"))
        out["removed"] = names(state.removed)
        out["palazzo"] = state.palazzo
    out["players"] = [player_json(p) for p in state.players]
    out["pending"] = pending_json(state.pending)
    return out


def table_json(table: Table) -> dict[str, Any]:
    return {
        "variant": {"nobles": table.nobles},
        "players": [{"name": table.names[i], "towers": [tower_json(t) for t in table.towers[i]],
                     "played": names(table.played[i])} for i in range(2)],
        "highest": table.highest,
        "closed_by": table.closed_by,
    }
