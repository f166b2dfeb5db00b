"""Location strings: the one grammar for every place the API names.

Every location the API emits (`Game.card_info()["where"]`, prompt options'
`where` and `source_where`, `state_dict()` effects and combat, the places in
`Game.action_str()`) is made by `format_location`, and every method that
takes a location (`Game.locate`, `attack_of`, `health_of`, `statuses_of`,
`card_info`, `from_setup`'s `effects[].where`) reads it with
`parse_location`. The grammar (docs/python_api.md, "Locations"):

    location := "p" player "." place
    player   := "0" | "1"
    place    := "leader" | "gate" | "aside" | "resolving"
              | row "[" slot "]"                 row: garden | alley, slot 0..4
              | pile "[" index "]"               pile: hand | deck | discard | ikz_area
                                                       | ikz_pile | look | out
              | holder ".weapons[" index "]"     holder: leader | garden[slot]
    index    := "0" | [1-9][0-9]*                 (no sign, no leading zeros)

Index conventions (index i of a place is element i of the list that
state_dict() shows for it):

- `deck[i]`, `ikz_pile[i]`: 0 = the top (the next card drawn / gained);
- `discard[i]`: 0 = the bottom (the first card discarded), the last index is
  the top - the order state_dict() and from_setup() list the discard in;
- `hand[i]`: the hand's canonical order; `ikz_area[i]`, `look[i]`: their order;
- `garden[s]`, `alley[s]`: slot s (0-4), also used for empty slots (SLOT
  prompt options);
- `<holder>.weapons[k]`: the k-th weapon attached to the holder, in
  attachment order;
- `out[i]`: the player's out-of-game cards in physical-card order (the
  state_dict() `out` list; the used IKZ token, which state_dict() reports as
  `"token": "out"`, comes after them);
- `aside`: the player's IKZ token while kept aside (before it is gained);
- `resolving`: the player's spell while it resolves.

This module is pure grammar (no game): `parse_location(s)` returns a
`Location`, `format_location(loc)` (= `str(loc)`) the canonical string, and
`parse_location(format_location(x)) == x` for every valid `Location`. The
game maps locations to physical cards (`Game.locate`, `Game.card_info`).
"""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

from . import spec_autogen as S
from ._util import excerpt

_C = S.CAPS   # the engine's capacities (csrc/game.h, card_def.h), generated
ROW = _C["AZK_ROW"]
# place -> number of valid indices (the zone's capacity); None: no index.
CAPACITY = {"garden": ROW, "alley": ROW, "hand": _C["AZK_HAND_CAP"], "deck": _C["AZK_DECK_CAP"],
            "discard": _C["AZK_DISCARD_CAP"], "ikz_area": _C["AZK_IKZ_AREA_CAP"], "ikz_pile": _C["AZK_DECK_IKZ"],
            "look": _C["AZK_LOOK_CAP"], "out": 1 + 1 + _C["AZK_DECK_MAIN"] + _C["AZK_DECK_IKZ"] + 1,
            "weapons": _C["AZK_WEAPON_CAP"]}
BARE = ("leader", "gate", "aside", "resolving")
INDEXED = ("garden", "alley", "hand", "deck", "discard", "ikz_area", "ikz_pile", "look", "out")
PLACES = BARE + INDEXED + ("weapons",)

_MAX_LEN = 64
_RE = re.compile(r"p([01])\.([a-z_]+)(?:\[(0|[1-9][0-9]{0,3})\])?(?:\.weapons\[(0|[1-9][0-9]{0,3})\])?",
                 re.ASCII)


class Location(NamedTuple):
    """A place: player 0/1, place name (see PLACES), index (None for bare
    places), and for a weapon (place "weapons") the holder's Location."""
    player: int
    place: str
    index: Optional[int] = None
    holder: Optional["Location"] = None

    def __str__(self):
        return format_location(self)


def _check(loc: Location) -> None:
    if not isinstance(loc, Location):
        raise TypeError(f"expected a Location, got {type(loc).__name__}")
    if loc.player not in (0, 1) or isinstance(loc.player, bool):
        raise ValueError(f"bad location player {excerpt(loc.player)}")
    if loc.place not in PLACES:
        raise ValueError(f"bad location place {excerpt(loc.place)} (known: {', '.join(PLACES)})")
    if loc.place in BARE:
        if loc.index is not None or loc.holder is not None:
            raise ValueError(f"{loc.place} takes no index")
        return
    if isinstance(loc.index, bool) or not isinstance(loc.index, int) or not 0 <= loc.index < CAPACITY[loc.place]:
        raise ValueError(f"bad {loc.place} index {excerpt(loc.index)} (expected 0..{CAPACITY[loc.place] - 1})")
    if loc.place == "weapons":
        h = loc.holder
        if not isinstance(h, Location) or h.player != loc.player or h.holder is not None or not (
                h.place == "leader" or h.place == "garden"):
            raise ValueError("a weapon's holder is its owner's leader or a garden slot")
        _check(h)
    elif loc.holder is not None:
        raise ValueError(f"{loc.place} has no holder")


def format_location(loc: Location) -> str:
    """The canonical string of a Location (validated)."""
    _check(loc)
    if loc.place == "weapons":
        return f"{format_location(loc.holder)}.weapons[{loc.index}]"
    if loc.index is None:
        return f"p{loc.player}.{loc.place}"
    return f"p{loc.player}.{loc.place}[{loc.index}]"


def location(player: int, place: str, index: Optional[int] = None, weapon: Optional[int] = None) -> Location:
    """Build a Location: location(0, "garden", 2), location(1, "deck", 0),
    location(0, "leader", weapon=0) for the leader's first weapon."""
    loc = Location(player, place, index)
    if weapon is not None:
        _check(loc)
        loc = Location(player, "weapons", weapon, loc)
    _check(loc)
    return loc


def parse_location(s) -> Location:
    """Parse a location string. TypeError if `s` is not a str, ValueError
    (quoting an excerpt of `s`) if it is not a location of the grammar."""
    if not isinstance(s, str):
        raise TypeError(f"a location must be a str like 'p0.garden[1]', got {type(s).__name__}")
    m = _RE.fullmatch(s) if len(s) <= _MAX_LEN else None
    if m is None:
        raise ValueError(f"bad location {excerpt(s)} (e.g. 'p0.garden[1]', 'p1.leader', 'p0.deck[0]')")
    p, place, idx, weapon = int(m.group(1)), m.group(2), m.group(3), m.group(4)
    if place not in BARE + INDEXED:
        raise ValueError(f"bad location {excerpt(s)}: unknown place {place!r} (known: {', '.join(BARE + INDEXED)})")
    if (idx is None) != (place in BARE):
        raise ValueError(f"bad location {excerpt(s)}: " +
                         (f"{place} takes no index" if idx is not None else f"{place} needs an index, e.g. {place}[0]"))
    i = None if idx is None else int(idx)
    if i is not None and i >= CAPACITY[place]:
        raise ValueError(f"bad location {excerpt(s)}: {place} index {i} out of range 0..{CAPACITY[place] - 1}")
    loc = Location(p, place, i)
    if weapon is not None:
        if place not in ("leader", "garden"):
            raise ValueError(f"bad location {excerpt(s)}: only the leader and garden entities hold weapons")
        k = int(weapon)
        if k >= CAPACITY["weapons"]:
            raise ValueError(f"bad location {excerpt(s)}: weapon index {k} out of range")
        loc = Location(p, "weapons", k, loc)
    return loc


def slot_location(player: int, code: int) -> Location:
    """The place of a SLOT prompt option's code (garden s = s, alley s = 8 + s)."""
    return Location(player, "alley" if code >= 8 else "garden", code & 7)


def holder_location(player: int, code: int) -> Location:
    """The place of a HOLDER prompt option's code (0 leader, 1..5 garden slot + 1)."""
    return Location(player, "leader") if code == 0 else Location(player, "garden", code - 1)
