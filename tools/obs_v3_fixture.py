"""Write tests/data/obs_v3_fixture.npz: positions of random games with both
players' observations in the float32 layout v3 (uint8-encoded), made ONCE
with the v3 build (commit 7f9f252) before the layout v4 replaced it.

tests/test_obs.py (test_v3_recoverable) reloads every position from its state
bytes, observes it in the current layout and rebuilds each v3 slice from that
(a pure-Python to_v3 in the test): everything a player could know in v3 stays
knowable. The script runs only against a v3 build (it refuses otherwise).

Positions: random games of the starter decks (default card set, every
pairing) and of the expansion decks (azuki/data/expansion.json), kept with a
bias towards the interesting ones (a pending prompt, an attack, known deck
positions, revealed hand cards, cards being looked at) and every game's end.

    .venv/bin/python tools/obs_v3_fixture.py [--out tests/data/obs_v3_fixture.npz]

Stored (np.savez_compressed): obs uint8[N, 2, 5840] (player 0's view, player
1's; u = int(127 v + 128.5), the v3 uint8 encoding, exact for every v3 value
that is a multiple of 1/127 and within half a step otherwise), states uint8
(the Game.to_bytes() of all positions, concatenated), state_off int64[N + 1],
cardset uint8[N] (0 the default set, 1 expansion.json), decks <U16[N, 2].

The expansion has been re-stamped since (docs/balance.md): the fixture's
expansion positions belong to tests/data/expansion_exp01_v1.json, the set as
it was when they were recorded, and tests/test_obs.py loads them with it.
"""
import argparse
import random
from pathlib import Path

import numpy as np

import azuki
import azuki._core
from azuki import Game
from azuki._core import CardSet

ROOT = Path(__file__).resolve().parent.parent
EXPANSION = ROOT / "azuki" / "data" / "expansion.json"
OUT = ROOT / "tests" / "data" / "obs_v3_fixture.npz"

DEFAULT_PAIRS = [("STT01", "STT01"), ("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02")]
EXP_PAIRS = [("EXP01-FIRE", "EXP01-EARTH"), ("EXP01-EARTH", "EXP01-FIRE"), ("EXP01-FIRE", "STT02"),
             ("STT01", "EXP01-EARTH"), ("EXP01-FIRE", "EXP01-FIRE"), ("EXP01-EARTH", "EXP01-EARTH")]


def q8(v):
    """csrc/obs.c's v3 uint8 encoding, in float32 as the C code computes it."""
    v = np.asarray(v, dtype=np.float32)
    return (v * np.float32(127.0) + np.float32(128.5)).astype(np.int32).astype(np.uint8)


def interesting(o):
    """A v3 observation of something rarer than a plain main phase."""
    s = azuki.obs_slice
    return bool(s(o, "PROMPT_KIND").any() or s(o, "IN_ATTACK").any() or s(o, "DECK_TOP").any()
                or s(o, "OPP_DECK_TOP").any() or s(o, "OPP_HAND_KNOWN").any() or s(o, "DECK_OPP_KNOWS").any()
                or s(o, "LOOK").any() or s(o, "RESULT").any() or s(o, "PLACE_WEAPONS").any())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--games", type=int, default=4, help="games per deck pairing")
    ap.add_argument("--per-game", type=int, default=12, help="at most this many positions per game")
    args = ap.parse_args(argv)
    if azuki._core.OBS_VERSION != 3:
        raise SystemExit(f"this script records the v3 layout; the build has layout {azuki._core.OBS_VERSION}")
    exp = CardSet.from_json(str(EXPANSION))
    obs, states, sets, decks = [], [], [], []
    for set_i, (cards, pairs) in enumerate(((None, DEFAULT_PAIRS), (exp, EXP_PAIRS))):
        for k, pair in enumerate(pairs):
            for i in range(args.games):
                seed = 1000 * set_i + 100 * k + i
                g = Game(seed=seed, decks=pair, cards=cards)
                rng = random.Random(seed)
                kept = 0
                while True:
                    o0, o1 = g.observe(0), g.observe(1)
                    rare = interesting(o0) or interesting(o1)
                    if g.is_terminal or (kept < args.per_game and rng.random() < (0.25 if rare else 0.02)):
                        obs.append(np.stack([q8(o0), q8(o1)]))
                        states.append(g.to_bytes())
                        sets.append(set_i)
                        decks.append(pair)
                        kept += 1
                    if g.is_terminal:
                        break
                    legal = g.legal_actions()
                    g.step(int(legal[rng.randrange(len(legal))]))
    off = np.cumsum([0] + [len(b) for b in states]).astype(np.int64)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, obs=np.stack(obs), states=np.frombuffer(b"".join(states), dtype=np.uint8),
                        state_off=off, cardset=np.array(sets, dtype=np.uint8), decks=np.array(decks, dtype="<U16"))
    print(f"{args.out}: {len(obs)} positions, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
