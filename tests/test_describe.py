"""Game.describe (issue 28): a structured description of an action, resolved
from the parameter kinds csrc/azk_actions.def declares; Game.action_str is
its text. Checked over seeded games of the starter and expansion sets: every
place named holds the card named, abilities belong to the card that uses or
asks them, and the kinds cover every action type."""
import json
import random
from pathlib import Path

import pytest

import azuki
from azuki import spec_autogen as S
from azuki import text as T

DATA = Path(azuki.__file__).resolve().parent / "data"


def _abilities():
    out = {}
    for f in ("cards.json", "expansion.json"):
        for c in json.loads((DATA / f).read_text())["cards"]:
            out[c["id"]] = c.get("abilities", [])
    return out


def _games():
    for cs in (azuki.CardSet.default(), azuki.CardSet.from_json(str(DATA / "expansion.json"))):
        for seed in range(6):
            decks = (cs.decks[seed % len(cs.decks)], cs.decks[(seed + 1) % len(cs.decks)])
            yield azuki.Game(seed=seed, decks=decks, cards=cs), random.Random(seed)


def test_every_action_type_declares_parameter_kinds():
    assert len(S.ACTION_ARGS) == len(S.ACTION)
    for t, (n0, n1, k0, k1) in zip(S.ACTION, S.ACTION_ARGS):
        assert k0 in S.ACTION_PARAM and k1 in S.ACTION_PARAM, t
        for n, k in ((n0, k0), (n1, k1)):
            assert (n == 1) or k != "NONE", f"{t}: a parameter of size {n} has kind NONE"


def test_describe_names_what_the_action_uses():
    abilities = _abilities()
    seen_kinds, seen_ability = set(), set()
    for g, rng in _games():
        while not g.is_terminal:
            pr = g.prompt()
            for a in g.legal_actions():
                d = g.describe(a)
                t, p0, p1, _ = g.decode(a)
                assert (d["type"], d["p0"], d["p1"]) == (t, p0, p1)
                assert d["player"] == g.current_player
                assert g.action_str(a) == T.describe_str(d)
                for p in d["params"]:
                    seen_kinds.add(p["kind"])
                    if "where" in p and "card_index" in p:
                        assert g.card_info(p["where"])["index"] == p["card_index"], (g.action_str(a), p)
                    if p["kind"] == "HAND":
                        assert d["hand_index"] == p["value"]
                        assert p["where"] == f"p{d['player']}.hand[{p['value']}]"
                if t == "CHOOSE":
                    assert d["option"] == pr["options"][p0]
                ab = d["ability"]
                if t == "ACTIVATE_ABILITY":
                    src = d["params"][0]
                    assert ab["card"] == src["card"]
                    assert abilities[ab["card"]][ab["number"]]["kind"] == "activated"
                    seen_ability.add(t)
                elif t in ("PLAY_SPELL_MAIN", "PLAY_SPELL_RESPONSE"):
                    assert ab is None or ab["card"] == d["params"][0]["card"]
                    seen_ability.add(t) if ab else None
                elif pr is not None and pr.get("source") is not None:
                    # the running ability: the source's own, or one it runs (RUN_ABILITY,
                    # docs/rules.md §16.3: a scroll resolving another spell's effect)
                    assert ab is not None, (g.action_str(a), pr)
                    body = json.dumps(abilities[ab["card"]][ab["number"]])
                    if pr["kind"] == "MODE":
                        assert "choose_mode" in body
                    assert ab["card"] == pr["source"] or "trigger_ability" in json.dumps(abilities[pr["source"]])
                    seen_ability.add("prompt")
            g.step(int(rng.choice(list(g.legal_actions()))))
    assert {"HAND", "GARDEN", "ALLEY", "HOLDER", "ENEMY_HOLDER", "OPTION"} <= seen_kinds
    assert {"PLAY_SPELL_MAIN", "prompt"} <= seen_ability


def test_describe_rejects_out_of_range():
    g = azuki.Game(seed=0)
    for bad in (-1, azuki.NUM_ACTIONS if hasattr(azuki, "NUM_ACTIONS") else 10 ** 6, 10 ** 9):
        with pytest.raises(ValueError):
            g.describe(bad)
    with pytest.raises((TypeError, ValueError)):
        g.describe("ATTACK")
