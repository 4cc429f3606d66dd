"""San Gimignano's events in words (service.games.core.narration): `narrate(event, names)` is the sentence a
referee reads out for one event of /apply or /replay (a Message: English as a str, said in another language where
it leaves the library). A guild space is named by its guild and its hexagon's place (S-GEO-2): "the B space of
[1, 0]"."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.language import Listed, Message
from ..core.narration import Event, narrator, plainly, player_name, winners_sentence
from .messages import tr, tr_n


def place(at: Sequence[Any]) -> str:
    """A place as the sentences write it: [q, r]."""
    return f"[{at[0]}, {at[1]}]" if len(at) == 2 else str(list(at))


def _token(event: Event, names: Sequence[str]) -> Message:
    # Translators: {guild_letter} is a guild's letter (A to D); {place}, its hexagon's place, [q, r].
    return tr("{player} placed a token on the {guild_letter} space of {place}.",
              player=player_name(names, event["player"]), guild_letter=event["guild"], place=place(event["at"]))


def _hex(event: Event, names: Sequence[str]) -> Message:
    # Translators: {hexagon} is the hexagon's three guild letters, counter-clockwise (ABC); {rotation}, 0 to 5.
    return tr("{player} laid the hexagon {hexagon} at {place}, rotation {rotation}.",
              player=player_name(names, event["player"]), hexagon="".join(event["hex"]), place=place(event["at"]),
              rotation=event["rotation"])


def _built(event: Event, names: Sequence[str]) -> Message:
    player, guild, at = player_name(names, event["player"]), event["guild"], place(event["at"])
    # Translators: the towers the builder has still to build: "3 towers left".
    left = tr_n("{count} tower left", "{count} towers left", event["towers_left"])
    returned = event.get("returned") or []  # S-BUILD-2: the tokens on the space go back to their owners
    if not returned:
        # Translators: {guild_letter} is a guild's letter (A to D); {place}, its hexagon's place, [q, r]; {towers_left}
        # says how many towers the builder has left: "3 towers left".
        return tr("{player} built a tower on the {guild_letter} space of {place} ({towers_left}).", player=player,
                  guild_letter=guild, place=at, towers_left=left)
    owners = Listed(player_name(names, p) for p in sorted(set(returned)))
    # Translators: {guild_letter} is a guild's letter (A to D); {place}, its hexagon's place, [q, r]; {count}, the
    # tokens that lay on that space, which go back to their owners' supplies ({owners}: "Ada and Bea");
    # {towers_left} says how many towers the builder has left: "3 towers left".
    return tr_n("{player} built a tower on the {guild_letter} space of {place}; the {count} token there goes back to "
                "{owners} ({towers_left}).",
                "{player} built a tower on the {guild_letter} space of {place}; the {count} tokens there go back to "
                "{owners} ({towers_left}).", len(returned), player=player, guild_letter=guild, place=at, owners=owners,
                towers_left=left)


# the phase passed over and why (S-SVC-SKIP, S-TURN-2, S-SVC-NOFIT, S-TURN-3): each reason is one phase's
SKIPS: dict[tuple[str, str], Callable[[str], Message]] = {
    ("token", "no_token"): lambda player: tr("{player} skips placing a token: no token is left in supply.",
                                             player=player),
    ("token", "no_room"): lambda player: tr("{player} skips placing a token: no guild space can take a token.",
                                            player=player),
    ("hex", "no_hexagon"): lambda player: tr("{player} skips laying a hexagon: no hexagon is left in hand.",
                                             player=player),
    ("hex", "no_fit"): lambda player: tr("{player} skips laying a hexagon: no hexagon in hand fits anywhere.",
                                         player=player),
    ("build", "no_group"): lambda player: tr("{player} skips building a tower: no group of their tokens can take a "
                                             "tower.", player=player),
}


def _skipped(event: Event, names: Sequence[str]) -> Message:
    said = SKIPS.get((event.get("phase"), event.get("reason")))  # type: ignore[arg-type]
    return said(player_name(names, event["player"])) if said else plainly(event, names)


def _game_over(event: Event, names: Sequence[str]) -> Message:
    winners = winners_sentence(names, event.get("winners", []))
    reason = event.get("reason")
    if reason == "tenth_tower":
        # Translators: {winners} is who won, a clause: "Ada wins", "Ada and Bea share the win", "nobody wins".
        return tr("The game is over: the tenth tower is built; {winners}.", winners=winners)
    if reason == "no_possible_group":
        # Translators: {winners} is who won, a clause: "Ada wins", "Ada and Bea share the win", "nobody wins".
        return tr("The game is over: no player can ever build again; {winners}.", winners=winners)
    # Translators: {reason} is the code of an ending the service does not know; {winners}, who won: "Ada wins".
    return tr("The game is over: {reason}; {winners}.", reason=str(reason), winners=winners)


SENTENCES: dict[str, Callable[[Event, Sequence[str]], Message]] = {
    "token": _token,
    "hex": _hex,
    "built": _built,
    "declined": lambda e, n: tr("{player} built no tower this turn.", player=player_name(n, e["player"])),
    "no_fit": lambda e, n: tr("{player} declared that no hexagon in hand fits.", player=player_name(n, e["player"])),
    "skipped": _skipped,
    "turn": lambda e, n: tr("{player}'s turn.", player=player_name(n, e["player"])),
    "game_over": _game_over,
}


narrate = narrator(SENTENCES)  # one of San Gimignano's events in words; `names`: the players' names in seat order


__all__ = ["SENTENCES", "narrate"]
