"""azuki.obs — the observation layout (csrc/azk_obs.def) for Python.

``Game.observe(player)`` returns ``np.uint8[OBS_LEN]`` (bytes, layout v4);
this module names its parts. The layout is declared once, in
csrc/azk_obs.def; the C library builds the offsets from it and reports them
with each field's kind and n (azk_obs_field*), and everything here reads them
from there. docs/observation.md is generated from the same report:
``python -m azuki.obs --write-doc`` rewrites it, ``--check`` fails when it is
stale (tools/test.sh runs that).

    lay = azuki.obs_layout()             # {name: {"offset", "shape", "rows", "cols", "kind", "n", "doc"}}
    obs = game.observe(0)
    d = azuki.obs.decode(obs)            # {name: int array (rows, cols)}; BITS unpacked; MASK bool
    raw = azuki.obs_slice(obs, "HAND_CARD")  # the field's raw bytes, a view, shaped
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from . import _core
from ._util import excerpt
from .spec_autogen import CAPS

OBS_LEN = _core.OBS_LEN          # bytes
OBS_VERSION = _core.OBS_VERSION
NUM_ACTIONS = _core.NUM_ACTIONS
KINDS = ("id", "enum", "num", "snum", "bits", "place")
# Card identities are definition index + 1 (kind "id"), 0 for none/unknown.
CARD_IDS = CAPS["AZK_MAX_CARD_DEFS"] + 1
# Places: row side * PLACES + place; a "place" byte is 1 + that row, 0 none (docs/observation.md).
# One side's places: its leader, AZK_ROW garden slots, AZK_ROW alley slots, its gate (csrc/obs.c
# AZK_OBS_PLACES; the layout's place fields have AZK_PLAYERS * PLACES rows, checked below).
PLACE_NAMES = (("leader",) + tuple(f"garden[{s}]" for s in range(CAPS["AZK_ROW"]))
               + tuple(f"alley[{s}]" for s in range(CAPS["AZK_ROW"])) + ("gate",))
PLACES = len(PLACE_NAMES)
DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "observation.md"
REGEN = "python -m azuki.obs --write-doc"


def _shape(rows, cols):
    if rows == 1:
        return (cols,)
    if cols == 1:
        return (rows,)
    return (rows, cols)


_LAYOUT = {name: {"offset": off, "shape": _shape(rows, cols), "rows": rows, "cols": cols, "kind": kind, "n": n,
                  "doc": doc}
           for name, off, rows, cols, kind, n, doc in _core.OBS_FIELDS}
assert all(f["kind"] in KINDS for f in _LAYOUT.values())
MASK_OFFSET = _LAYOUT["MASK"]["offset"]
MASK_BYTES = _LAYOUT["MASK"]["cols"]
assert _LAYOUT["MASK"]["n"] == NUM_ACTIONS and MASK_BYTES == (NUM_ACTIONS + 7) // 8
assert _LAYOUT["PLACE_CARD"]["rows"] == 2 * PLACES, "csrc/obs.c's places of a side are not PLACE_NAMES"


def obs_layout(cards=None):
    """{name: {"offset", "shape", "rows", "cols", "kind", "n", "doc"}} of
    every field, in layout order: offset and size in bytes (rows * cols),
    "shape" as obs_slice cuts it (a 1-row or 1-column field flat), kind one of
    KINDS, n its range / divisor / bit count (docs/observation.md). The
    layout does not depend on the card set; `cards` is accepted and ignored."""
    return {k: dict(v) for k, v in _LAYOUT.items()}


def _check_obs(obs):
    if not isinstance(obs, np.ndarray):
        raise TypeError(f"obs must be a numpy array, got {type(obs).__name__}")
    if obs.dtype != np.uint8:
        raise ValueError(f"an observation is uint8 (layout v{OBS_VERSION}), got dtype {obs.dtype}")
    if obs.shape[-1:] != (OBS_LEN,):
        raise ValueError(f"an observation has OBS_LEN = {OBS_LEN} bytes on its last axis, got shape {excerpt(obs.shape)}")


def obs_slice(obs, name):
    """The raw bytes of field `name` of an observation (or of a batch, last
    axis OBS_LEN), as a view in its shape (obs_layout()[name]["shape"])."""
    f = _LAYOUT.get(name) if isinstance(name, str) else None
    if f is None:
        raise KeyError(f"no observation field {excerpt(name)}")
    _check_obs(obs)
    n = f["rows"] * f["cols"]
    return obs[..., f["offset"]:f["offset"] + n].reshape(obs.shape[:-1] + f["shape"])


def mask_of(obs):
    """The legal-action mask from the packed MASK field: bool [..., NUM_ACTIONS]."""
    _check_obs(obs)
    bits = np.unpackbits(obs[..., MASK_OFFSET:MASK_OFFSET + MASK_BYTES], axis=-1, bitorder="little")
    return bits[..., :NUM_ACTIONS].astype(bool)


def decode(obs):
    """The observation (or a batch, last axis OBS_LEN) as {name: array}, for
    people and tests: every field but PAD shaped (..., rows, cols) as int64
    values (id, enum, num, place: the byte; snum: the byte as int8), BITS
    fields unpacked to 0/1 of their n bits, shaped (..., rows, n), and MASK a
    bool [..., NUM_ACTIONS] (Game.action_mask() when I decide)."""
    _check_obs(obs)
    lead = obs.shape[:-1]
    out = {}
    for name, f in _LAYOUT.items():
        if name == "PAD":
            continue
        r, c, off = f["rows"], f["cols"], f["offset"]
        raw = obs[..., off:off + r * c].reshape(lead + (r, c))
        if name == "MASK":
            out[name] = mask_of(obs)
        elif f["kind"] == "bits":
            out[name] = np.unpackbits(raw, axis=-1, bitorder="little")[..., :f["n"]].astype(np.int64)
        elif f["kind"] == "snum":
            out[name] = raw.view(np.int8).astype(np.int64)
        else:
            out[name] = raw.astype(np.int64)
    return out


def card_index(values):
    """Definition indices from card-identity bytes (kind "id": definition + 1):
    -1 for 0 (no card, or one the observer may not know)."""
    return np.asarray(values).astype(np.int64) - 1


# ---- docs/observation.md ----------------------------------------------------------

_INTRO = """\
# Observation

`Game.observe(player)` returns one player's view of the position as
`np.uint8[OBS_LEN]` (`azuki.OBS_LEN` = {len} bytes, layout version {version});
in C `azk_observe(g, cs, player, out)` writes the same {len} bytes. The
layout is declared once, in `csrc/azk_obs.def`: named fields of `rows × cols`
bytes, each of one **kind** with a number **n**. The C library reports them
(`azk_obs_field`, `azk_obs_kind_name`), `azuki.obs_layout()` returns them as
`{{name: {{"offset", "shape", "rows", "cols", "kind", "n", "doc"}}}}`,
`azuki.obs_slice(obs, name)` cuts a field's raw bytes out (shaped),
`azuki.obs.decode(obs)` (also `azuki.obs_decode`) turns an observation or a
batch into named integer arrays (bits unpacked, the mask as bools), and this
page is generated from the same report (`{regen}`;
`python -m azuki.obs --check` fails when it is stale). Every consumer
(`VecGame`, the envs, the policies) reads these bytes; there is no other
encoding.

## Kinds: what a byte means and how a network reads it

| kind | a byte is | n | a network reads it |
|---|---|---|---|
| `id` | a card identity: 0 no card or a card I may not know, else definition index + 1 (1–{max_defs}) | {card_ids} | an embedding of {card_ids} rows (row 0: none / unknown), shared by every `id` field |
| `enum` | a small category in [0, n) | the number of values | an embedding or a one-hot of n values |
| `num` | a non-negative count or amount, saturated to [0, 255] | the divisor | `value / n` (n is declared only in `azk_obs.def`) |
| `snum` | a signed amount, int8 two's complement, saturated to [-128, 127] | the divisor | `int8(value) / n` |
| `bits` | packed flags: bit i of the field is byte `i >> 3`, bit `i & 7` (LSB first) | the meaningful bits | unpack (`np.unpackbits(..., bitorder="little")`, or a bit table on the GPU) to n 0/1 inputs |
| `place` | a field place: 0 none, else `1 + side * 12 + place` | {places} | an embedding of {places} rows, or a pointer into the place rows |

Definition indices are the card set's order (`Game.cards`);
`azuki.obs.card_index(v)` turns identities back into definition indices
(-1 for 0). The length does not depend on the card set.

## Conventions

- **Me first.** Everything is seen by one player ("me"). Fields with two rows
  per player have row 0 = me, row 1 = the opponent.
- **Places.** The `PLACE_*` fields have {rows} rows, `side * 12 + place`:
  side 0 me, 1 the opponent; place 0 the leader, 1–5 garden slots 0–4, 6–10
  alley slots 0–4 (the source codes of the action space, docs/rules.md §14),
  11 the gate. A place is occupied when its `PLACE_CARD` is not 0.
- **Lists of identities** whose order is hidden (my deck's contents, the
  opponent's known hand cards, its unseen cards, the cards I look at) are
  sorted by definition and 0 past their end, so no order leaks. Ordered
  lists keep their order: my hand (canonical order, docs/rules.md §12.3:
  entry i is the card at hand index i of the play actions), the discard
  piles (pile order), the known deck positions (from the top).
- **My prompt's options** are rows of the `OPT_*` fields: row i is `CHOOSE i`;
  options `0 .. PROMPT_N - 1` exist.
- **The legal-action mask** is field `MASK` ({num_actions} bits in
  {mask_bytes} bytes, bit a = flat action id a of docs/rules.md §14): exactly
  `Game.action_mask()` when I decide, all 0 when I do not (the opponent's legal
  actions would show its hand). PufferLib has no mask channel: it travels
  inside the observation (`azuki.envs.mask_from_obs` unpacks it, numpy or torch).

## Hidden information

The observation holds nothing I may not know (docs/rules.md §2, §8.9); the
rule is `azk_card_known` (`Game.card_known(player, card)`):

| where the card is | do I know what it is? |
|---|---|
| leader, gate, garden, alley, weapons, IKZ area, discard piles, a resolving spell, the token | yes (public) |
| my hand | yes |
| the opponent's hand | only cards revealed into it ("reveal … and add it to your hand", §8.9) or returned to it from the field (`OPP_HAND_KNOWN`, sorted by definition: never at their hand positions, whose canonical order would tell the unknown cards' definitions); the rest: only their number (`HAND_N`) |
| cards I am looking at during an effect (`LOOK`) | yes |
| cards the opponent is looking at | no: only their number (`LOOK_N`) |
| either deck | no: its order is hidden; my deck's *contents* (`DECK`, sorted) are what my decklist leaves once everything I can see is taken away |
| IKZ piles | no (only their number; every IKZ card is alike) |

Decklists are open: `OPP_UNSEEN` lists the opponent's main-deck cards I
cannot see (the unknown part of its hand, its deck, its looked-at cards),
sorted. The opponent's pending prompt shows only its kind and whose ability
runs (`PROMPT_*`), never its options or their number; the opponent's legal
actions are not shown.

A card returned to its owner's hand from the field, or revealed into it, is
marked (card flag 3, `revealed`) until it leaves the hand; the mark is part of
the state (hashed and serialized).

Deck positions a player chose are knowledge too (§8.9): a card its owner
puts on the bottom after looking (Itto, Recruit, Mizuki; also looked-at
cards an ability leaves behind) is marked as seen by that player (the card's
`seen` bits, hashed and serialized) until it moves again or the deck is
shuffled. `DECK_TOP` shows those cards at their positions from the top
(the card k-th from the bottom is entry `DECK_N - 1 - k`); `card_known`
answers yes for them; the resampler leaves them where they are. The
opponent does not know them. (Positions a player chose are the only deck
knowledge the starter cards create; `from_setup` positions start with none.)

Deck effects (docs/rules.md §17; the deck group's expansion cards) add more:
ordering the top (`order_top`) marks those cards as seen by their owner;
a card put on a deck (`put_on_deck`) is seen by every player who knew it
where it came from (both, from the field or the discard pile); a searched
card is seen by both while it is still in the deck; a card the opponent knew
on top stays known to it when drawn (revealed). `DECK_TOP` shows my known
cards from the top, `DECK_OPP_KNOWS` which of my deck's cards the opponent
knows, `OPP_DECK_TOP` the opponent's deck cards I know (`OPP_UNSEEN` leaves
them out). A `SEARCH` prompt's options are cards of the chooser's own deck:
its observation names them (`OPT_CARD`).

The property tests check the rule on random positions of every deck
pairing: replacing hidden information only (the opponent's unknown hand
cards exchanged with cards of its deck, either deck reordered, through
`Game.from_setup`; and `Game.resample` at every kind of decision point)
leaves the observation byte-identical, while public changes alter it
(`tests/test_obs.py`, `tests/c/test_obs.c`, also under ASan+UBSan).

## What layout v3 held, and what v4 keeps

Layout v4 (this one, {len} bytes) replaced the float32 layout v3 (5,840
values): identities as bytes instead of one-hot or scaled floats, multisets
as sorted lists instead of 127 per-definition counts, flags and the mask as
bits. Everything v3 showed a player is still there: `tests/test_obs.py`
(`test_v3_recoverable`) reloads hundreds of positions recorded with the v3
build (starter and expansion decks, prompts, attacks, known deck positions,
revealed hand cards; `tools/obs_v3_fixture.py`, `tests/data/obs_v3_fixture.npz`)
and rebuilds every v3 slice, byte for byte, from the v4 observation.
Derivable v3 slices are gone: `PLACE_OCCUPIED` (`PLACE_CARD` not 0),
`PLACE_REMAINING` (`PLACE_HEALTH - PLACE_DAMAGE`), `OPT_VALID`
(`i < PROMPT_N`), `DECK_BOTTOM` and `OPP_DECK_BOTTOM` (`DECK_TOP` /
`OPP_DECK_TOP` read from the other end with `DECK_N`), the per-definition
counts (the sorted lists hold each copy; v3 capped a count at 4). Nothing
is lost in practice; the limits are saturation: a `num` byte stops at 255
and an `snum` at ±127 (every count is bounded by a capacity of at most 64,
v3 clipped attack at ±10 and a turn count at the turn cap), and a list
holds at most its capacity (a deck, a hand, a discard pile: 50 cards, the
whole main deck).

"""


RESAMPLING = """\
## Resampling

`Game.resample(player, seed)` (C: `azk_resample`) draws another position
from `player`'s information set, in place: the identities of the opponent's
unknown hand cards, its deck and its looked-at cards are shuffled among
themselves, and so is `player`'s own deck; sizes, revealed cards and
everything public stay, every card keeps its place, the hand is put back in
canonical order, and the game's RNG is reseeded from `seed` (future shuffles
are hidden too). A zone holding a card that the running effect, the trigger
queue or the pending prompt names is left as it is. `observe(player)` is
byte-identical afterwards, the state passes the invariant checker and plays
on. One reading to know: the decider may then face a single legal answer
where the one-answer rule (§12.2) would have skipped the question.

"""


def doc_text():
    from . import spec_autogen as S
    lines = [_INTRO.format(len=OBS_LEN, version=OBS_VERSION, regen=REGEN, rows=2 * PLACES,
                           max_defs=CAPS["AZK_MAX_CARD_DEFS"], card_ids=CARD_IDS, places=2 * PLACES + 1,
                           num_actions=NUM_ACTIONS, mask_bytes=MASK_BYTES)]
    lines.append(RESAMPLING)
    lines.append("## Layout\n\n| field | offset | rows × cols (bytes) | kind | n | meaning |\n|---|---|---|---|---|---|\n")
    for name, f in _LAYOUT.items():
        doc = f["doc"].replace("|", "\\|")
        lines.append(f"| `{name}` | {f['offset']} | {f['rows']} × {f['cols']} | {f['kind']} | {f['n']} | {doc} |\n")
    lines.append(f"\nTotal: {OBS_LEN:,} bytes (a multiple of 8; `PAD` fills the end).\n\n")
    lines.append("Orders named above: `PHASE` = " + ", ".join(S.PHASE) + "; `PROMPT` = "
                 + ", ".join(S.PROMPT) + "; `ZONE` = " + ", ".join(S.ZONE) + "; `STATUS` = "
                 + ", ".join(S.STATUS) + ".\n")
    return (f"<!-- generated from csrc/azk_obs.def by azuki.obs — do not edit; regenerate with `{REGEN}` -->\n"
            + "".join(lines))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m azuki.obs", description="docs/observation.md from csrc/azk_obs.def")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write-doc", action="store_true", help="rewrite docs/observation.md")
    g.add_argument("--check", action="store_true", help="fail if docs/observation.md is stale")
    a = ap.parse_args(argv)
    text = doc_text()
    if a.write_doc:
        DOC_PATH.write_text(text, newline="\n")
        print(f"wrote {DOC_PATH.name}")
        return 0
    try:
        fresh = DOC_PATH.read_text() == text
    except OSError:
        fresh = False
    if not fresh:
        print(f"docs/observation.md is stale: regenerate with `{REGEN}`", file=sys.stderr)
        return 1
    print("docs/observation.md is fresh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
