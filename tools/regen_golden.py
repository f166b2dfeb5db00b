"""Regenerate the golden playthrough files (tests/golden/playthroughs/).

    python tools/regen_golden.py          # rewrite them
    python tools/regen_golden.py --check  # exit 1 if any differs (tests do this)

Each file records one uniform-random game, OpenSpiel style: for every step
the player to act, the legal actions, the chosen action (with its text) and
the state hash after it. A change in rules, action encoding, RNG or hashing
shows up as a diff at the first step that changed. Regenerate only when such
a change is intended, and say so in the commit message.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "playthroughs"
GAMES = [(1, "STT01", "STT02"), (2, "STT02", "STT01"), (3, "STT01", "STT01"), (4, "STT02", "STT02"), (5, "STT01", "STT02")]


def playthrough(seed, d0, d1):
    from azuki import Game
    from azuki._core import rng_bounded

    g = Game(seed=seed, decks=(d0, d1))
    steps = []
    i = 0
    while not g.is_terminal:
        legal = g.legal_actions()
        a = int(legal[int(rng_bounded(seed, 77 + i, [len(legal)])[0])])
        entry = {"step": i, "turn": g.turn, "phase": g.phase, "player": g.current_player,
                 "legal": legal.tolist(), "action": a, "text": g.action_str(a)}
        g.step(a)
        entry["hash"] = f"{g.state_hash():016x}"
        steps.append(entry)
        i += 1
    return {"format": "azuki-playthrough/1", "seed": seed, "decks": [d0, d1],
            "cardset": f"{g.cards.hash:016x}", "result": g.result, "turns": g.turn, "steps": steps}


def render(doc):
    head = {k: v for k, v in doc.items() if k != "steps"}
    lines = ["{", *(f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()), ' "steps": [']
    lines += [f"  {json.dumps(s)}," for s in doc["steps"]]
    if doc["steps"]:
        lines[-1] = lines[-1][:-1]
    lines += [" ]", "}", ""]
    return "\n".join(lines)


def files():
    return {OUT / f"seed{s}_{d0}_{d1}.json": render(playthrough(s, d0, d1)) for s, d0, d1 in GAMES}


def main(argv):
    fs = files()
    if "--check" in argv:
        bad = [p for p, t in fs.items() if not p.exists() or p.read_text() != t]
        for p in bad:
            print("stale:", p.relative_to(ROOT))
        return 1 if bad else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for p, t in fs.items():
        p.write_text(t)
        print("wrote", p.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
