"""Listing the legal steps (`legal_steps`): every step apply_step accepts, each once, in a stable order, within a
budget of work (T-SVC-LIST: unknown hands multiply the choices). Most steps are listed by rule, memoised for a
known hand; a step with Buona Pietra and the rarer noble decisions are the candidates apply_step accepts."""
from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from itertools import combinations, product

from ..core.errors import IllegalStepError, InvalidStateError, Problem
from ..core.memo import memo
from .cards import BUONA_PIETRA, CARD_NAMES, NOBLE_COUNTS, PALAZZO, RANKS, is_tower_card
from .engine_building import _planned_build, _planned_extension
from .engine_donazione import _could_guard, conspiracy_candidates
from .engine_ending import CLOSE_MIN_COMPLETE
from .engine_market import NOBLE_DRAWERS, _draw_sources, _drawable, _purchase_draws, _refill_known
from .engine_noble_limits import _giostra_allowed, _window_counted, palazzo_cap
from .engine_nobles import ACTION_NOBLES, PALAZZO_COST, _planned_noble
from .engine_turns import apply_step
from .engine_whereabouts import DRAW_MEMO_ENTRIES, MEMO_ENTRIES, _fits, _hand_capacity, missing_cards
from .messages import tr
from .model import MAIN, OVER, PLAIN, Pending, Player, State, Tower
from .steps import Step
from .towers import LOWEST_STANDIN, MIN_HEIGHT, interpretations

_BUDGET: ContextVar[list[int] | None] = ContextVar("torri_legal_budget", default=None)


class TooManyStepsError(InvalidStateError):
    """The legal list would be longer than the caller allowed (T-SVC-LIST): with unknown hands the choices
    multiply."""


def legal_steps(state: State, *, limit: int | None = None) -> list[Step]:
    """Every step `apply_step` accepts in `state`, each once, in a stable order. With `limit`, raises
    TooManyStepsError as soon as more than `limit` candidates have been looked at or listed."""
    if limit is None and _BUDGET.get() is None:  # the common case: no budget to set up
        if state.pending is not None and state.phase != OVER:  # (_list_steps, written out for this case)
            return _LEGAL_PENDING[state.pending.type](state, state.pending)
        return _list_steps(state)
    token = _BUDGET.set([limit] if limit is not None else None)
    try:
        steps = _list_steps(state)
    finally:
        _BUDGET.reset(token)
    if limit is not None and len(steps) > limit:
        _too_many(limit)
    return steps


def _list_steps(state: State) -> list[Step]:
    if state.phase == OVER:
        return []
    if state.pending is None:
        return _legal_actions(state)
    return _LEGAL_PENDING[state.pending.type](state, state.pending)


def _spend(count: int = 1) -> None:
    """Counts enumeration work where unknown cards can make it explode."""
    budget = _BUDGET.get()
    if budget is not None:
        budget[0] -= count
        if budget[0] < 0:
            _too_many(None)


def _too_many(limit: int | None) -> None:
    raise TooManyStepsError(Problem("T-SVC-LIST", "/state", tr("This position has too many legal steps to list "
                                                              "(unknown hands multiply the choices); name more of "
                                                              "the cards, or ask with a player's view.")))


def _accepted(state: State, candidates) -> list[Step]:
    """The candidates apply_step accepts (for the rarer noble decisions, where listing by rule would repeat
    every check)."""
    out = []
    for step in candidates:
        _spend()
        try:
            apply_step(state, step)
        except IllegalStepError:
            continue
        out.append(step)
    return out


def _playable(state: State, candidates) -> list[Step]:
    """The candidate actions (builds, extensions, action nobles) that apply_step accepts, asked of the very checks
    it runs before it changes anything (`_PLANNED`): past them such an action cannot be refused, and the checks
    alone cost a fraction of a whole step. (Only with nothing pending: the candidates are the turn's action.)"""
    out = []
    for step in candidates:
        _spend()
        try:
            _PLANNED[step.type](state, step)
        except IllegalStepError:
            continue
        out.append(step)
    return out


# The checks of an action (all of them: the rest of the step cannot be refused), as engine_building and
# engine_nobles run them. A listed build gives kind/rank only where its cards are ambiguous, an extension never:
# each is already in the spelling apply_step checks (canonical_step would return it unchanged).
_PLANNED = {
    "build": lambda state, step: _planned_build(state, state.players[state.turn], step),
    "extend": _planned_extension,
    "noble": _planned_noble,
}


_PURCHASE, _CLOSE, _PASS = Step("purchase"), Step("close"), Step("pass")


def _legal_actions(s: State) -> list[Step]:
    player = s.players[s.turn]
    steps: list[Step] = []
    main = s.phase == MAIN
    if main and player.hand_size + _purchase_draws(s) <= player.hand_limit:
        steps.append(_PURCHASE)
    if player.hidden:
        known, hidden, could = _hand_capacity(s, player)
        if main:
            steps.extend(_legal_exchanges(s, known, hidden, could))
    else:
        # A known hand (the common case): the options depend on few inputs, so they are memoised.
        known, hidden, could = _counted(player.hand), 0, _NO_CARDS
        if main:
            decks = s.deck_size + (s.noble_deck_size if s.nobles else 0)
            if decks >= len(player.hand):  # the decks alone can give back any Exchange: the market is moot
                steps.extend(_known_exchanges(player.hand, (), len(player.hand)))
            else:
                steps.extend(_known_exchanges(player.hand, s.market, decks))
    if BUONA_PIETRA in known or BUONA_PIETRA in could:
        steps.extend(_playable(s, _tower_candidates(s, player, known, hidden, could)))
    else:
        if hidden:
            steps.extend(_legal_builds(known, hidden, could))
        else:
            steps.extend(_known_builds(player.hand))
        if player.towers:
            steps.extend(_legal_extensions(player, known, hidden, could))
    if s.nobles:
        steps.extend(_legal_nobles(s, player, known, hidden, could))
    cap = palazzo_cap(s, s.turn)
    if cap is not None:
        steps = [step for step in steps if step.type not in ("build", "extend") or _height_after(s, step) <= cap]
    if main and player.towers:
        incomplete = [i for i, tower in enumerate(player.towers) if not tower.complete]
        for size in range(1, len(incomplete) + 1):
            for chosen in combinations(incomplete, size):
                steps.append(Step("complete", towers=chosen))
        if len(player.towers) - len(incomplete) >= CLOSE_MIN_COMPLETE:
            steps.append(_CLOSE)
    steps.append(_PASS)
    return steps


def _height_after(s: State, step: Step) -> int:
    """The height of the tower a build or an extension of the player to move makes."""
    height = len(step.cards)
    if step.type == "extend":
        height += s.players[s.turn].towers[step.tower].height  # type: ignore[index]
    return height


@memo(MEMO_ENTRIES)
def _known_builds(hand: tuple[int, ...]) -> tuple[Step, ...]:
    return tuple(_legal_builds(Counter(card for card in hand if is_tower_card(card)), 0, Counter()))


@memo(MEMO_ENTRIES)
def _counted(hand: tuple[int, ...]) -> Counter:
    """A known hand's counts, shared by every listing of that hand: read, never changed."""
    return Counter(hand)


_NO_CARDS: Counter = Counter()  # what no hidden slot can hold (shared: read, never changed)


@memo(MEMO_ENTRIES)
def _known_exchanges(hand: tuple[int, ...], market: tuple[int, ...], deck: int) -> tuple[Step, ...]:
    """T-ACT-EXCHANGE-1..3 for a known hand; `deck` is the deck size capped at the hand size (all that matters)."""
    in_market = Counter(market)
    cards = sorted(hand)
    steps = []
    for size in range(2, len(cards) + 1):
        for put in sorted(set(combinations(cards, size))):  # each sorted, as the hand
            # T-ACT-EXCHANGE-3: as many to draw back (the deck alone, or with the market's cards of other ranks)
            if deck >= size or deck + len(market) - sum(in_market[card] for card in set(put)) >= size:
                steps.append(_exchange_step(put))
    return tuple(steps)


@memo(MEMO_ENTRIES)
def _exchange_step(cards: tuple[int, ...]) -> Step:
    return Step("exchange", cards=cards)  # (one value for every hand that can put these cards down)


def _capacity(known: Counter, hidden: int, could: Counter, card: int) -> int:
    return known[card] + (min(hidden, could[card]) if hidden else 0)


def _legal_builds(known: Counter, hidden: int, could: Counter) -> list[Step]:
    steps: list[Step] = []
    caps = {rank: _capacity(known, hidden, could, rank) for rank in RANKS}
    for rank in RANKS:  # T-ACT-BUILD-2
        for height in range(MIN_HEIGHT, caps[rank] + 1):
            if hidden and not _fits(Counter({rank: height}), known, hidden, could):
                break
            steps.append(Step("build", cards=(rank,) * height))
    for bottom in RANKS[MIN_HEIGHT - 1:]:  # T-ACT-BUILD-3: bottom rank down, one rank a story
        run: list[int] = []
        for rank in range(bottom, RANKS[0] - 1, -1):
            if not caps[rank]:
                break
            run.append(rank)
            if len(run) >= MIN_HEIGHT and (not hidden or _fits(Counter(run), known, hidden, could)):
                steps.append(Step("build", cards=tuple(run)))
    return steps


def _legal_extensions(player: Player, known: Counter, hidden: int, could: Counter) -> list[Step]:
    steps: list[Step] = []
    for index, tower in enumerate(player.towers):
        if tower.complete:
            continue
        added: list[int] = []
        wanted = tower.rank if tower.kind == PLAIN else tower.top - 1
        while wanted >= RANKS[0]:
            added.append(wanted)
            if known[wanted] + (could[wanted] if hidden else 0) < added.count(wanted) or (
                    hidden and not _fits(Counter(added), known, hidden, could)):
                break
            steps.append(Step("extend", tower=index, cards=tuple(added)))
            if tower.kind != PLAIN:
                wanted -= 1
    return steps


def _tower_candidates(s: State, player: Player, known: Counter, hidden: int, could: Counter) -> list[Step]:
    """Builds and extensions when Buona Pietra may be among the cards (T-NOB-BP): every arrangement of the
    cards the hand can supply, each spelled as apply_step wants it (kind/rank only when ambiguous)."""
    caps = {card: _capacity(known, hidden, could, card) for card in RANKS + (BUONA_PIETRA,)}
    steps = _build_steps(_build_candidates(caps))
    for index, tower in enumerate(player.towers):
        if not tower.complete:
            steps.extend(Step("extend", tower=index, cards=added) for added in _extension_candidates(tower, caps))
    return steps


def _build_steps(candidates) -> list[Step]:
    steps: list[Step] = []
    for cards in candidates:
        options = interpretations(cards)
        if len(options) == 1:
            steps.append(Step("build", cards=cards))
        else:
            steps.extend(Step("build", cards=cards, kind=kind, rank=rank) for kind, rank in options)
    return steps


def _build_candidates(caps: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    return _stacks(tuple(caps[card] for card in RANKS), caps[BUONA_PIETRA])


@memo(4096)
def _stacks(counts: tuple[int, ...], stones: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct stack of 3+ cards, with counts[i] cards of rank RANKS[i] and `stones` Buona Pietra at most,
    that is plain or colorful with Buona Pietra standing in (T-ACT-BUILD-2/3, T-NOB-BP)."""
    caps = dict(zip(RANKS, counts))
    found: dict[tuple[int, ...], None] = {}
    for rank in RANKS:  # plain: any mix of the rank and stones, at least one tower card
        if not caps[rank]:
            continue
        for height in range(MIN_HEIGHT, caps[rank] + stones + 1):
            for positions in _stone_positions(height, min(stones, height - 1)):
                if height - len(positions) <= caps[rank]:
                    found[tuple(BUONA_PIETRA if i in positions else rank for i in range(height))] = None

    def colorful(rank: int, stack: tuple[int, ...], stones_left: int, real: bool) -> None:
        if len(stack) >= MIN_HEIGHT and real:
            found[stack] = None
        if rank < LOWEST_STANDIN:
            return
        if 5 <= rank <= 10 and caps[rank]:
            colorful(rank - 1, stack + (rank,), stones_left, True)
        if stones_left:
            colorful(rank - 1, stack + (BUONA_PIETRA,), stones_left - 1, real)

    for bottom in range(11, LOWEST_STANDIN + MIN_HEIGHT - 2, -1):  # colorful: each story the card or a stone
        if bottom == 11:
            if stones:  # 11 exists only as a stand-in (T-NOB-BP)
                colorful(10, (BUONA_PIETRA,), stones - 1, False)
        else:
            if caps[bottom]:
                colorful(bottom - 1, (bottom,), stones, True)
            if stones:
                colorful(bottom - 1, (BUONA_PIETRA,), stones - 1, False)
    return tuple(found)


def _stone_positions(height: int, most: int):
    for count in range(0, most + 1):
        for positions in combinations(range(height), count):
            yield set(positions)


def _extension_candidates(tower: Tower, caps: dict[int, int]):
    stones = caps[BUONA_PIETRA]
    if tower.kind == PLAIN:
        for length in range(1, caps[tower.rank] + stones + 1):
            for choice in product((tower.rank, BUONA_PIETRA), repeat=length):
                if choice.count(BUONA_PIETRA) <= stones and choice.count(tower.rank) <= caps[tower.rank]:
                    yield choice
        return
    wanted = []
    rank = tower.top - 1
    while rank >= LOWEST_STANDIN:
        wanted.append(rank)
        rank -= 1
    for length in range(1, len(wanted) + 1):
        for choice in product((False, True), repeat=length):
            cards = tuple(BUONA_PIETRA if stone else r for r, stone in zip(wanted, choice))
            if any(not stone and not 5 <= r <= 10 for r, stone in zip(wanted, choice)):
                continue
            need = Counter(cards)
            if all(need[c] <= caps[c] for c in need):
                yield cards


def _multisets(caps: list[tuple[int, int]], size: int):
    """Every multiset of `size` cards with card c at most caps[c] times, as sorted tuples."""
    if size == 0:
        yield ()
        return
    if not caps:
        return
    (card, cap), rest = caps[0], caps[1:]
    for n in range(min(cap, size), -1, -1):
        for tail in _multisets(rest, size - n):
            yield (card,) * n + tail


def _legal_exchanges(s: State, known: Counter, hidden: int, could: Counter) -> list[Step]:
    caps = sorted((card, _capacity(known, hidden, could, card)) for card in set(known) | set(could))
    caps = [(card, cap) for card, cap in caps if cap > 0]
    total = sum(known.values()) + hidden
    sources = _draw_sources(s, "exchange")
    steps: list[Step] = []
    for size in range(2, total + 1):  # T-ACT-EXCHANGE-1
        for cards in _multisets(caps, size):
            _spend()
            if hidden and not _fits(Counter(cards), known, hidden, could):
                continue
            if _drawable(s, sources, set(cards)) >= size:  # T-ACT-EXCHANGE-3
                steps.append(Step("exchange", cards=cards))
    return steps


def _legal_nobles(s: State, player: Player, known: Counter, hidden: int, could: Counter) -> list[Step]:
    candidates: list[Step] = []
    for card in ACTION_NOBLES:
        if not _capacity(known, hidden, could, card):
            continue
        if card != PALAZZO:
            candidates.append(Step("noble", card=card, cost=()))
            continue
        rest = known.copy()
        rest[PALAZZO] -= 1
        caps = [(c, _capacity(rest, hidden, could, c)) for c in sorted(set(rest) | set(could))]
        candidates.append(Step("noble", card=card, cost=()))
        for cost in _multisets([c for c in caps if c[1] > 0], PALAZZO_COST):
            candidates.append(Step("noble", card=card, cost=cost))
    return _playable(s, candidates)


_DECK_DRAW = Step("draw", source="deck")
_NOBLE_DRAW = Step("draw", source="noble_deck")
_STOP = Step("stop")


def _legal_draws(s: State, pending: Pending) -> list[Step]:
    if (s.deck or not s.deck_hidden) and (s.noble_deck or not s.noble_hidden):
        # No unknown top card to name (the usual case): the draws depend on few inputs, so they are memoised.
        return list(_known_draws(pending.sources, pending.action, pending.excluded, s.market,
                                 bool(s.deck or s.deck_bottom), bool(s.noble_deck or s.noble_bottom)))
    steps: list[Step] = []
    if "deck" in pending.sources and s.deck_size:
        if s.deck or not s.deck_hidden:
            steps.append(_DECK_DRAW)
        else:
            missing = missing_cards(s)
            steps.extend(Step("draw", source="deck", card=rank) for rank in RANKS if missing[rank] > 0)
    if "noble_deck" in pending.sources and s.noble_deck_size:
        if s.noble_deck or not s.noble_hidden:
            steps.append(_NOBLE_DRAW)
        else:
            missing = missing_cards(s)
            steps.extend(Step("draw", source="noble_deck", card=card) for card in sorted(NOBLE_COUNTS)
                         if missing[card] > 0)
    steps.extend(_known_draws(pending.sources, pending.action, pending.excluded, s.market, False, False))  # the rest
    return steps


@memo(DRAW_MEMO_ENTRIES)
def _known_draws(sources: tuple[str, ...], action: str, excluded: tuple[int, ...], market: tuple[int, ...],
                 deck: bool, noble_deck: bool) -> tuple[Step, ...]:
    """The draws from these sources: from each deck not empty (`deck`, `noble_deck`) whose top is known, from the
    market, and Via Francigena's early stop."""
    steps: list[Step] = []
    if deck and "deck" in sources:
        steps.append(_DECK_DRAW)
    if noble_deck and "noble_deck" in sources:
        steps.append(_NOBLE_DRAW)
    if "market" in sources:
        towers_only = action not in NOBLE_DRAWERS  # T-NOB-DRAW
        steps += [_MARKET_DRAW[card] for card in sorted(set(market).difference(excluded))
                  if not towers_only or is_tower_card(card)]
    if action == "via_francigena":
        steps.append(_STOP)  # T-NOB-VF
    return tuple(steps)


_MARKET_DRAW = {card: Step("draw", source="market", card=card) for card in CARD_NAMES}  # (made once: steps are values)


def _legal_guard(s: State, pending: Pending) -> list[Step]:
    assert pending.target is not None
    steps = [Step("decline")]
    if _could_guard(s, s.players[pending.target[0]]):
        steps.insert(0, Step("guard"))
    return steps


def _legal_giostra(s: State, pending: Pending) -> list[Step]:
    steps = [Step("decline")]
    if _giostra_allowed(s, pending.player, _window_counted(pending)):
        steps.insert(0, Step("giostra"))
    return steps


def _legal_rebuild(s: State, pending: Pending) -> list[Step]:
    player = s.players[pending.player]
    need = Counter(pending.cards)
    caps = {card: need[card] for card in RANKS + (BUONA_PIETRA,)}
    if pending.action == "extend":
        tower = player.towers[pending.tower]  # type: ignore[index]
        candidates = [Step("extend", tower=pending.tower, cards=cards) for cards in _extension_candidates(tower, caps)
                      if Counter(cards) == need]
    else:
        candidates = _build_steps(cards for cards in _build_candidates(caps) if Counter(cards) == need)
    return _accepted(s, candidates) + [_STOP]


def _legal_targets(s: State, pending: Pending) -> list[Step]:
    assert pending.built is not None
    return [Step("target", player=owner, tower=index)
            for owner, index in conspiracy_candidates(s, pending.player, pending.built, pending.left)]


def _legal_takes(s: State, pending: Pending) -> list[Step]:
    victim = s.players[1 - pending.player]
    if not victim.hidden:
        return [Step("take", positions=chosen) for chosen in combinations(range(len(victim.hand)), pending.left)]
    return [Step("take", cards=cards) for cards in _hand_multisets(s, victim, pending.left)]


def _legal_gives(s: State, pending: Pending) -> list[Step]:
    return [Step("give", cards=cards) for cards in _hand_multisets(s, s.players[pending.player], pending.left)]


def _hand_multisets(s: State, player: Player, size: int) -> list[tuple[int, ...]]:
    known, hidden, could = _hand_capacity(s, player)
    caps = [(card, _capacity(known, hidden, could, card)) for card in sorted(set(known) | set(could))]
    found = []
    for cards in _multisets([c for c in caps if c[1] > 0], size):
        _spend()
        if not hidden or _fits(Counter(cards), known, hidden, could):
            found.append(cards)
    return found


def _legal_refills(s: State, pending: Pending) -> list[Step]:
    known, unknown = _refill_known(s, pending.left)
    missing = missing_cards(s)
    caps = [(rank, missing[rank]) for rank in RANKS if missing[rank] > 0]
    steps = []
    for rest in _multisets(caps, unknown):
        _spend()
        steps.append(Step("refill", cards=tuple(sorted(known + rest))))
    return steps


_LEGAL_PENDING = {
    "draw": _legal_draws,
    "guard": _legal_guard,
    "target": _legal_targets,
    "take": _legal_takes,
    "give": _legal_gives,
    "refill": _legal_refills,
    "giostra": _legal_giostra,
    "rebuild": _legal_rebuild,
}
