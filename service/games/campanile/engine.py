"""The Campanile rules: which steps are legal, and what each one does.

`apply_step` and `legal_steps` are two readings of the same rules and must agree exactly (the conformance tests
hold them to it). Rule ids name the rule each check enforces.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from operator import attrgetter

from ..core.errors import illegal
from ..core.events import Event
from ..core.turns import Events, Stage, Turns, finished
from .cards import STORIES, STYLE_INDEX, STYLES, TOKEN_VALUES, full_deck
from .messages import tr, tr_n
from .model import BET, DRAW, OVER, PLAY, LastPlay, Pile, Player, State, Token
from .steps import Step

# ---------------------------------------------------------------- what is where (C-COMP-5, unknown cards)

def known_cards(state: State) -> Counter:
    """Every card the state names: hands, piles, towers (one card per play) and the removed cards."""
    seen: Counter = Counter(state.removed)
    for player in state.players:
        seen.update(player.hand)
    for pile in state.piles:
        seen.update(pile.cards)
    for tower in state.towers:
        if tower.plays:
            seen[tower.style] += len(tower.plays)
    return seen


def missing_cards(state: State) -> Counter:
    """Cards in play that no known place holds: what the unknown slots (hands, piles, removed) hold."""
    full = Counter(full_deck(len(state.players)))
    full.subtract(known_cards(state))
    return full


def _playable(state: State, player: Player) -> list[str]:
    styles = set(player.hand)
    if player.hidden:
        missing = missing_cards(state)
        styles.update(style for style in STYLES if missing[style] > 0)
    return sorted(styles)


def _bet_towers(state: State) -> list[int]:
    """C-TURN-BET: the towers whose style shows on a pile's face-up top card; C-VAR-1: and the tower just played."""
    towers = {STYLE_INDEX[pile.top] for pile in state.piles if pile.top is not None}
    if state.bet_on_played and state.last_play is not None:
        towers.add(state.last_play.tower)
    return sorted(towers)


def _replace_at(items: tuple, index: int, item) -> tuple:
    return items[:index] + (item,) + items[index + 1:]


def _next_card_known(pile: Pile) -> bool:
    """Whether the card under the top is known (or there is none: the pile runs out)."""
    return len(pile.cards) >= 2 or pile.hidden == 0


# ---------------------------------------------------------------- apply (C-TURN-*: play, bet, draw)

def _do_play(s: State, step: Step, events: Events) -> State:
    player = s.players[s.turn]
    card, stories = step.card, step.stories
    if player.hand_size == 0:
        raise illegal("C-TURN-END", "/type", tr("{player} holds no card, so they pass (a pass step).",
                                                player=player.name))
    if card not in player.hand:
        if not player.hidden:
            # Translators: {card} is a style letter A to E; {hand} the cards in hand, as letters ("A, C, C").
            raise illegal("C-TURN-PLAY", "/card", tr("{player} holds no {card}: the hand is {hand}.",
                                                     player=player.name, card=card, hand=", ".join(player.hand)))
        if missing_cards(s)[card] <= 0:
            # Translators: {card} is a style letter A to E (a card of that style).
            raise illegal("C-SVC-UNKNOWN", "/card",
                          tr("No {card} can be among {player}'s unknown cards: every {card} is accounted for "
                             "elsewhere (C-COMP-5).", card=card, player=player.name))
        player = player._replace(hidden=player.hidden - 1)
    else:
        rest = list(player.hand)
        rest.remove(card)
        player = player._replace(hand=tuple(rest))
    index = STYLE_INDEX[card]
    tower = s.towers[index]
    tower = tower._replace(plays=tower.plays + (stories,))
    events.append(Event({"type": "played", "player": s.turn, "card": card, "tower": index, "stories": stories,
                         "height": tower.height}))
    return replace(s, players=_replace_at(s.players, s.turn, player), towers=_replace_at(s.towers, index, tower),
                   step=BET, last_play=LastPlay(index, stories))


def _do_pass(s: State, step: Step, events: Events) -> State:
    player = s.players[s.turn]
    if player.hand_size:
        raise illegal("C-TURN-END", "/type",
                      tr_n("{player} holds {count} card: only a player with no card in hand passes.",
                           "{player} holds {count} cards: only a player with no card in hand passes.",
                           player.hand_size, player=player.name))
    events.append(Event({"type": "passed", "player": s.turn}))
    if not any(p.hand_size for p in s.players):  # C-SVC-PASS: nobody can ever play again
        events.append(Event({"type": "game_over", "reason": "no_cards", "winners": _winners(replace(s, step=OVER))}))
        return replace(s, step=OVER, last_play=None)
    return _next_turn(s, events)


def _next_turn(s: State, events: Events) -> State:
    turn = (s.turn + 1) % len(s.players)  # C-SETUP-3: play passes 0, 1, 2, … in turn
    events.append(Event({"type": "turn", "player": turn}))
    return replace(s, turn=turn, step=PLAY, last_play=None)


def _do_bet(s: State, step: Step, events: Events) -> State:
    assert s.last_play is not None
    tower, value = step.tower, step.value
    stories = s.last_play.stories
    player = s.players[s.turn]
    if tower not in _bet_towers(s):
        tops = ", ".join(p.top for p in s.piles if p.top is not None)
        if tower == s.last_play.tower:
            # Translators: {tower} is the tower's position (0 to 4), {style} its style letter; {tops} the style
            # letters the piles' face-up top cards show ("A, D, D").
            message = tr("Tower {tower} ({style}) was just played on, but its style shows on no pile (the tops show "
                         "{tops}); betting on the tower played is the variant C-VAR-1, not in play here.",
                         tower=tower, style=STYLES[tower], tops=tops)
        else:
            # Translators: {tower} is the tower's position (0 to 4), {style} its style letter; {tops} the style
            # letters the piles' face-up top cards show ("A, D, D").
            message = tr("Tower {tower} ({style}) shows on no pile's face-up top card (they show {tops}): no bet on "
                         "it this turn.", tower=tower, style=STYLES[tower], tops=tops)
        raise illegal("C-TURN-BET", "/tower", message)
    if value < stories:
        raise illegal("C-TURN-BET", "/value",
                      # Translators: {value} is the value of the token bet (a 1, a 2): too small.
                      tr_n("Having built {count} story, the token must be worth at least {count}; a {value} is too "
                           "small.",
                           "Having built {count} stories, the token must be worth at least {count}; a {value} is too "
                           "small.", stories, value=value))
    if player.tokens_left(value) <= 0:
        raise illegal("C-TURN-BET", "/value", tr("{player} has no token of value {value} left in supply (C-COMP-4).",
                                                 player=player.name, value=value))
    supply = _replace_at(player.supply, value - 1, player.supply[value - 1] - 1)
    target = s.towers[tower]
    target = target._replace(tokens=target.tokens + (Token(s.turn, value),))
    events.append(Event({"type": "bet", "player": s.turn, "tower": tower, "value": value}))
    return replace(s, players=_replace_at(s.players, s.turn, player._replace(supply=supply)),
                   towers=_replace_at(s.towers, tower, target), step=DRAW)


def _do_no_bet(s: State, step: Step, events: Events) -> State:
    events.append(Event({"type": "no_bet", "player": s.turn}))
    return replace(s, step=DRAW)


def _do_draw(s: State, step: Step, events: Events) -> State:
    assert s.last_play is not None
    number = s.last_play.stories  # C-TURN-DRAW: the pile numbered as the stories just built
    pile = s.piles[number - 1]
    if pile.top is None:
        raise illegal("C-END-1", "/type", tr("Finito pile {pile} is empty: the game should have ended.", pile=number))
    card = pile.top
    if _next_card_known(pile):
        if step.reveals is not None:
            if len(pile.cards) >= 2:
                # Translators: "reveals" is a field of the draw step, kept in English.
                message = tr("Pile {pile}'s the next card is known: a draw from it names nothing (\"reveals\" is "
                             "only for a card the state does not know).", pile=number)
            else:
                # Translators: "reveals" is a field of the draw step, kept in English.
                message = tr("Pile {pile}'s it is the pile's last card: a draw from it names nothing (\"reveals\" is "
                             "only for a card the state does not know).", pile=number)
            raise illegal("C-SVC-UNKNOWN", "/reveals", message)
        rest = Pile(pile.cards[1:], 0)
    else:
        revealed = step.reveals
        if revealed is None:
            raise illegal("C-SVC-UNKNOWN", "/reveals",
                          # Translators: "reveals" is a field of the draw step, kept in English.
                          tr("The card under pile {pile}'s top is unknown here: name the card turned face up "
                             "(\"reveals\").", pile=number))
        if missing_cards(s)[revealed] <= 0:
            raise illegal("C-SVC-UNKNOWN", "/reveals",
                          # Translators: {card} is a style letter A to E (a card of that style).
                          tr("No {card} can be left in pile {pile}: every {card} is accounted for elsewhere "
                             "(C-COMP-5).", card=revealed, pile=number))
        rest = Pile((revealed,), pile.hidden - 1)
    player = s.players[s.turn]
    player = player._replace(hand=tuple(sorted(player.hand + (card,))))
    s = replace(s, players=_replace_at(s.players, s.turn, player), piles=_replace_at(s.piles, number - 1, rest))
    events.append(Event({"type": "drew", "player": s.turn, "pile": number, "card": card, "revealed": rest.top,
                         "left": rest.size}))
    if rest.size == 0:  # C-END-1: the last card of a pile was taken: the game ends at once
        over = replace(s, step=OVER, last_play=None)
        events.append(Event({"type": "game_over", "reason": "pile_empty", "pile": number, "winners": _winners(over)}))
        return over
    return _next_turn(s, events)


def _winners(state: State) -> list[int]:
    from .scoring import score_state
    return list(score_state(state).winners)


# Each stage refuses any other kind of step in its own words ({step}: the type of step sent, kept in English).
def _not_a_play(state: State, step: Step) -> str:
    # Translators: play and pass are step types, kept in English; {step} is the type of step sent.
    return tr("A turn starts with playing a card from hand: expected a play or pass step, not \"{step}\".",
              step=step.type)


def _not_a_bet(state: State, step: Step) -> str:
    # Translators: bet and no_bet are step types, kept in English; {step} is the type of step sent.
    return tr("After playing, the player bets (a bet step) or declines (no_bet) before drawing: expected a bet or "
              "no_bet step, not \"{step}\".", step=step.type)


def _not_a_draw(state: State, step: Step) -> str:
    # Translators: draw is a step type, kept in English; {step} is the type of step sent.
    return tr("The turn ends with the draw: expected a draw step, not \"{step}\".", step=step.type)


TURNS = Turns(stage_of=attrgetter("step"), stages={
    PLAY: Stage({"play": _do_play, "pass": _do_pass}, "C-TURN-PLAY", _not_a_play),
    BET: Stage({"bet": _do_bet, "no_bet": _do_no_bet}, "C-TURN-BET", _not_a_bet),
    DRAW: Stage({"draw": _do_draw}, "C-TURN-DRAW", _not_a_draw),
    OVER: finished("C-END-1", tr("The game is over: a pile ran out, so no move is possible.")),
})
apply_step = TURNS.apply_step  # the state after one step, and what happened; IllegalStepError naming the rule broken


# ---------------------------------------------------------------- legal steps

_PASS, _NO_BET, _DRAW = Step("pass"), Step("no_bet"), Step("draw")


def legal_steps(state: State) -> list[Step]:
    """Every step `apply_step` accepts in `state`, each once, in a stable order."""
    if state.step == OVER:
        return []
    player = state.players[state.turn]
    if state.step == PLAY:
        if player.hand_size == 0:
            return [_PASS]  # C-TURN-END
        return [Step("play", card=card, stories=stories) for card in _playable(state, player) for stories in STORIES]
    assert state.last_play is not None
    stories = state.last_play.stories
    if state.step == BET:
        values = [v for v in TOKEN_VALUES if v >= stories and player.tokens_left(v) > 0]
        return [_NO_BET] + [Step("bet", tower=tower, value=value) for tower in _bet_towers(state) for value in values]
    pile = state.piles[stories - 1]
    if pile.top is None:
        return []
    if _next_card_known(pile):
        return [_DRAW]
    missing = missing_cards(state)
    return [Step("draw", reveals=style) for style in STYLES if missing[style] > 0]


__all__ = ["apply_step", "known_cards", "legal_steps", "missing_cards"]
