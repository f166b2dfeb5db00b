"""Helpers shared by the scenario suites (tests/test_cards_*.py, test_rules.py),
and greedy_positions, the walk the bot tests (test_search, test_pbots, test_expert) share.

Positions are built with azuki.Game.from_setup (docs/state_format.md) and
driven through the public action API; actions are found by the text
`Game.action_str` gives them, prompt options by the card, location, value or
holder they name.
"""
import re

import azuki
from azuki._core import encode
from azuki.bots import GreedyBot

NO_OP = encode("NO_OP", 0, 0)
END_TURN = encode("END_TURN", 0, 0)


def make_game(decks, p0=None, p1=None, active=0, **kw):
    d = {"decks": list(decks), "active": active, "players": [p0 or {}, p1 or {}]}
    d.update(kw)
    return azuki.Game.from_setup(d)


def strs(g):
    return [g.action_str(a) for a in g.legal_actions()]


def _matches(text, parts):
    """All parts in the action text, or in it without the player prefixes of
    its locations ("-> garden[0]" matches "-> p0.garden[0]")."""
    short = re.sub(r"\bp[01]\.", "", text)
    return all(p in text for p in parts) or all(p in short for p in parts)


def find(g, *parts):
    return [int(a) for a in g.legal_actions() if _matches(g.action_str(a), parts)]


def has(g, *parts):
    return bool(find(g, *parts))


def do(g, *parts):
    m = find(g, *parts)
    assert m, f"no legal action matching {parts}: {strs(g)}"
    g.step(m[0])


def legal(g, a):
    return a in [int(x) for x in g.legal_actions()]


def P(g, p):
    return g.state_dict()["players"][p]


def hand(g, p):
    return P(g, p)["hand"]


def row(g, p, zone="garden"):
    return [None if e is None else e["card"] for e in P(g, p)[zone]]


def discard(g, p):
    return P(g, p)["discard"]


def deck(g, p):
    return P(g, p)["deck"]


def leader_damage(g, p):
    return P(g, p)["leader"]["damage"]


def untapped_ikz(g, p):
    return sum(not e["tapped"] for e in P(g, p)["ikz_area"])


def tapped_ikz(g, p):
    return sum(e["tapped"] for e in P(g, p)["ikz_area"])


def ikz(untapped=0, tapped=0):
    return [{"tapped": False, "token": False}] * untapped + [{"tapped": True, "token": False}] * tapped


def options(g):
    pr = g.prompt()
    assert pr is not None, f"no prompt; phase {g.phase}, actions {strs(g)}"
    return pr["options"]


def option_cards(g):
    return sorted(o.get("card") for o in options(g))


def option_wheres(g):
    return sorted(o.get("where") for o in options(g))


def choose(g, card=None, where=None, value=None, holder=None):
    for o in options(g):
        if card is not None and o.get("card") != card:
            continue
        if where is not None and o.get("where") != where:
            continue
        if value is not None and o.get("value") != value:
            continue
        if holder is not None and o.get("holder") != holder:
            continue
        g.step(o["action"])
        return o
    raise AssertionError(f"no option card={card} where={where} value={value} holder={holder}: {options(g)}")


def yes(g):
    pr = g.prompt()
    assert pr is not None and pr["kind"] == "YES_NO", pr
    choose(g, value=1)


def no(g):
    pr = g.prompt()
    assert pr is not None and pr["kind"] == "YES_NO", pr
    choose(g, value=0)


def decline(g):
    pr = g.prompt()
    assert pr is not None and pr["optional"], pr
    g.step(pr["decline_action"])


def attack(g, attacker=1, target=0):
    """attacker: 0 leader, 1..5 garden slot+1; target: 0 enemy leader, 1..5 enemy slot+1."""
    g.step(encode("ATTACK", attacker, target))


def bottom_all(g):
    """Answer BOTTOM_ORDER prompts (first option each time) until none is left."""
    while g.prompt() is not None and g.prompt()["kind"] == "BOTTOM_ORDER":
        g.step(options(g)[0]["action"])


def greedy_positions(seed, decks=("STT01", "STT02"), every=4):
    """Clones of the positions of a greedy-vs-greedy game (bot seeds `seed`, `seed` + 1) where the player
    to act has two or more legal actions, every `every`-th such position."""
    g = azuki.Game(seed=seed, decks=decks)
    bots = (GreedyBot(seed), GreedyBot(seed + 1))
    k = 0
    while not g.is_terminal:
        if len(g.legal_actions()) >= 2:
            k += 1
            if k % every == 0:
                yield g.clone()
        g.step(bots[g.current_player].act(g))
