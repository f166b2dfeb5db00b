"""azuki.obs — the observation layout (csrc/azk_obs.def) for Python.

``Game.observe(player)`` returns ``np.float32[OBS_LEN]``; this module names
its parts. The layout is declared once, in csrc/azk_obs.def; the C library
builds the offsets from it and reports them (azk_obs_field*), and everything
here reads them from there. docs/observation.md is generated from the same
report: ``python -m azuki.obs --write-doc`` rewrites it, ``--check`` fails
when it is stale (tools/test.sh runs that).

    lay = azuki.obs_layout()            # {name: {"offset", "shape", "doc", "norm"}}
    obs = game.observe(0)
    mask = azuki.obs_slice(obs, "MASK")  # a view, shaped
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from . import _core
from ._util import excerpt
from .spec_autogen import CAPS

OBS_LEN = _core.OBS_LEN
OBS_VERSION = _core.OBS_VERSION
# Card identities are (definition + 1) / CARD_ID_SCALE, 0 for none/unknown.
CARD_ID_SCALE = CAPS["AZK_CARD_ID_SCALE"]  # csrc/card_def.h: exact in the uint8 encoding
# Places: row side * PLACES + place (docs/observation.md).
PLACES = 12
PLACE_NAMES = ("leader",) + tuple(f"garden[{s}]" for s in range(5)) + tuple(f"alley[{s}]" for s in range(5)) + ("gate",)
DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "observation.md"
REGEN = "python -m azuki.obs --write-doc"


def _shape(rows, cols):
    if rows == 1:
        return (cols,)
    if cols == 1:
        return (rows,)
    return (rows, cols)


_LAYOUT = {name: {"offset": off, "shape": _shape(rows, cols), "doc": doc, "norm": norm}
           for name, off, rows, cols, doc, norm in _core.OBS_FIELDS}


def obs_layout(cards=None):
    """{name: {"offset", "shape", "doc", "norm"}} of every slice, in layout
    order. The layout does not depend on the card set (per-definition slices
    have AZK_MAX_CARD_DEFS = 64 columns); `cards` is accepted and ignored."""
    return {k: dict(v) for k, v in _LAYOUT.items()}


def obs_slice(obs, name):
    """The slice `name` of an observation (or of a batch, last axis OBS_LEN),
    as a view in its shape."""
    f = _LAYOUT.get(name) if isinstance(name, str) else None
    if f is None:
        raise KeyError(f"no observation slice {excerpt(name)}")
    if not isinstance(obs, np.ndarray):
        raise TypeError(f"obs must be a numpy array, got {type(obs).__name__}")
    if obs.shape[-1:] != (OBS_LEN,):
        raise ValueError(f"an observation has OBS_LEN = {OBS_LEN} values on its last axis, got shape {excerpt(obs.shape)}")
    n = int(np.prod(f["shape"]))
    return obs[..., f["offset"]:f["offset"] + n].reshape(obs.shape[:-1] + f["shape"])


def card_index(values):
    """Definition indices from card-identity values ((def + 1) / CARD_ID_SCALE): -1 for
    0 (no card, or one the observer may not know)."""
    return np.rint(np.asarray(values, dtype=np.float64) * CARD_ID_SCALE).astype(np.int64) - 1


# ---- docs/observation.md ----------------------------------------------------------

_INTRO = """\
# Observation

`Game.observe(player)` returns one player's view of the position as
`np.float32[OBS_LEN]` (`azuki.OBS_LEN` = {len}, layout version {version}); in C
`azk_observe(g, cs, player, out)` writes the same {len} floats. Every value is
finite and in [-1, 1]. The layout is declared once, in `csrc/azk_obs.def`; the
C library reports it (`azk_obs_field*`), `azuki.obs_layout()` returns it as
`{{name: {{"offset", "shape", "doc", "norm"}}}}`, `azuki.obs_slice(obs, name)`
cuts a slice out (shaped), and this page is generated from it
(`{regen}`; `python -m azuki.obs --check` fails when it is stale).

## Conventions

- **Me first.** Everything is seen by one player ("me"). Slices with two rows
  per player have row 0 = me, row 1 = the opponent.
- **Places.** The field is {rows} rows, `side * 12 + place`: side 0 me, 1 the
  opponent; place 0 the leader, 1–5 garden slots 0–4, 6–10 alley slots 0–4
  (the source codes of the action space, docs/rules.md §14), 11 the gate.
- **Card identity** is an embedding index: `(definition index + 1) / {id_scale}`
  (`AZK_CARD_ID_SCALE`; a set holds at most `AZK_MAX_CARD_DEFS` = {max_defs}
  definitions, so the uint8 encoding `128 + round(127 v)` is exactly
  `129 + definition`), 0 for no card or a card I may not know;
  `azuki.obs.card_index(v)` turns it back into definition indices (-1 for 0).
  Definition indices are the card set's order (`Game.cards`).
- **Per-definition slices** have {max_defs} columns, column `d` for definition `d`;
  counts are `count / 4`, at most 1 (a deck holds at most 4 copies of a
  main-deck card). The length does not depend on the card set.
- **The legal-action mask** is slice `MASK` ({num_actions} values, the flat action
  ids of docs/rules.md §14): exactly `Game.action_mask()` when I decide, all 0
  when I do not (the opponent's legal actions would show its hand). PufferLib
  has no mask channel: it travels inside the observation.
- **My hand** is a multiset (`HAND`) and, for reading the mask's hand
  indices, in canonical order (`HAND_SLOTS`, docs/rules.md §12.3).

## Hidden information

The observation holds nothing I may not know (docs/rules.md §2, §8.9); the
rule is `azk_card_known` (`Game.card_known(player, card)`):

| where the card is | do I know what it is? |
|---|---|
| leader, gate, garden, alley, weapons, IKZ area, discard piles, a resolving spell, the token | yes (public) |
| my hand | yes |
| the opponent's hand | only cards revealed into it ("reveal … and add it to your hand", §8.9) or returned to it from the field; the rest: only their number (`HAND_N`) |
| cards I am looking at during an effect (`LOOK`) | yes |
| cards the opponent is looking at | no: only their number (`LOOK_N`) |
| either deck | no: its order is hidden; my deck's *contents* (`DECK`) are what my decklist leaves once everything I can see is taken away |
| IKZ piles | no (only their number; every IKZ card is alike) |

Decklists are open: `OPP_UNSEEN` counts the opponent's main-deck cards I
cannot see (the unknown part of its hand, its deck, its looked-at cards). The
opponent's pending prompt shows only its kind and whose ability runs (`PROMPT_*`),
never its options or their number; the opponent's legal actions are not shown.

A card returned to its owner's hand from the field, or revealed into it, is
marked (card flag 3, `revealed`) until it leaves the hand; the mark is part of
the state (hashed and serialized).

Deck positions a player chose are knowledge too (§8.9): a card its owner
puts on the bottom after looking (Itto, Recruit, Mizuki; also looked-at
cards an ability leaves behind) is marked as seen by that player (the card's
`seen` bits, hashed and serialized) until it moves again or the deck is
shuffled. `DECK_BOTTOM` shows those cards at their positions from the
bottom; `card_known` answers yes for them; the resampler leaves them where
they are. The opponent does not know them. (Positions a player chose are
the only deck knowledge the starter cards create; `from_setup` positions
start with none.)

Deck effects (docs/rules.md §17; the deck group's expansion cards) add more:
ordering the top (`order_top`) marks those cards as seen by their owner;
a card put on a deck (`put_on_deck`) is seen by every player who knew it
where it came from (both, from the field or the discard pile); a searched
card is seen by both while it is still in the deck; a card the opponent knew
on top stays known to it when drawn (revealed). `DECK_TOP` shows my known
cards from the top, `DECK_OPP_KNOWS` which of my deck's cards the opponent
knows, `OPP_DECK_TOP` / `OPP_DECK_BOTTOM` the opponent's deck cards I know
(`OPP_UNSEEN` leaves them out). A `SEARCH` prompt's options are cards of the
chooser's own deck: its observation names them (`OPT_CARD`).

The property tests check the rule on random positions of every deck
pairing: replacing hidden information only (the opponent's unknown hand
cards exchanged with cards of its deck, either deck reordered, through
`Game.from_setup`; and `Game.resample` at every kind of decision point)
leaves the observation byte-identical, while public changes alter it
(`tests/test_obs.py`, `tests/c/test_obs.c`, also under ASan+UBSan).

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

## Layout

| slice | offset | shape | meaning | normalization |
|---|---|---|---|---|
"""


def doc_text():
    from . import spec_autogen as S
    lines = [_INTRO.format(len=OBS_LEN, version=OBS_VERSION, regen=REGEN, rows=2 * PLACES, id_scale=CARD_ID_SCALE, max_defs=CAPS["AZK_MAX_CARD_DEFS"],
                           num_actions=_core.NUM_ACTIONS)]
    for name, f in _LAYOUT.items():
        shape = " × ".join(str(d) for d in f["shape"])
        doc = f["doc"].replace("|", "\\|")
        norm = f["norm"].replace("|", "\\|")
        lines.append(f"| `{name}` | {f['offset']} | {shape} | {doc} | {norm} |\n")
    lines.append(f"\nTotal: {OBS_LEN} floats ({4 * OBS_LEN:,} bytes).\n\n")
    lines.append("Column orders named above: `PHASE` = " + ", ".join(S.PHASE) + "; `PROMPT` = "
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
