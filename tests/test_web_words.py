"""The page speaks the game (issue 28): over seeded games of the starter and
expansion sets, every banner, prompt title, option label, action label and
log line the server sends is in plain game words generated from the card
and ability data: a prompt's title names the card that asks and what its
ability does; no text contains "option i", "mode i", "a player chooses", an
engine identifier (PLAY_ENTITY_TO_GARDEN) or a location string (p0.garden[1])."""
import random
import re
from pathlib import Path

import pytest

import azuki
from azuki.web.server import _card_table
from azuki.web.sessions import GameSession, ReplaySession, state_payload
from azuki.web.words import Words

DATA = Path(azuki.__file__).resolve().parent / "data"
FORBIDDEN = [re.compile(p) for p in (r"(?i)\boption \d", r"(?i)\bmode \d", r"(?i)a player chooses",
                                     r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", r"\bp[01]\.[a-z_]+", r"(?i)\bchoose:? \d",
                                     r"\bCHOOSE\b", r"\bNO_OP\b", r"(?i)an effect applies", r"(?i)\bP[01]\b")]
SETS = [(None, ("STT01", "STT02")), (str(DATA / "expansion.json"), ("EXP01-FIRE", "EXP01-EARTH")),
        (str(DATA / "expansion.json"), ("STT01", "EXP01-EARTH"))]


def bad_text(t):
    return [p.pattern for p in FORBIDDEN if p.search(str(t))]


def texts_of(payload):
    """Every text of a payload the page shows."""
    w = payload["words"]
    out = [w["banner"]]
    if w["prompt"]:
        out += [w["prompt"]["title"]] + list(w["prompt"]["options"].values())
        if w["prompt"]["decline"]:
            out.append(w["prompt"]["decline"])
    out += [a["label"] for a in payload["legal"]]
    out += [e["text"] for e in payload.get("events", [])]
    if payload.get("last"):
        out.append(payload["last"]["text"])
    return out


@pytest.mark.parametrize("cards,decks", SETS)
def test_every_text_is_in_game_words(cards, decks):
    cs = azuki.CardSet.from_json(cards) if cards else azuki.CardSet.default()
    words = Words(_card_table(cs))
    kinds = set()
    for seed in range(8):
        sess = GameSession(decks, [None, None], cards=cards, seed=seed, names=words)
        rng = random.Random(seed)
        since = {0: 0, 1: 0}
        for _ in range(3000):
            g = sess.game
            if g.is_terminal:
                break
            for seat in (0, 1):
                p = sess.payload(seat, since[seat])
                since[seat] = p["next_event"]
                for t in texts_of(p):
                    assert not bad_text(t), (t, bad_text(t))
                pr = g.prompt()
                if pr is not None and seat == pr["chooser"]:
                    kinds.add(pr["kind"])
                    title = p["words"]["prompt"]["title"]
                    src = pr.get("source")
                    if src:
                        assert words.name(src) in title, (title, pr)
                        assert " — " in title and len(title.split(" — ", 1)[1]) > 8, title   # what it does
            d = g.current_player
            p = sess.payload(d, since[d])
            sess.act(d, p["token"], rng.choice(p["legal"])["id"])
        rep = ReplaySession(sess.replay(), cards=cards, names=words)
        for step in range(0, rep.n + 1, 7):
            for view in (0, 1, "full"):
                for t in texts_of(rep.payload(step, view)):
                    assert not bad_text(t), (t, bad_text(t))
    # the prompt kinds these seeded games reach (so the check cannot quietly cover fewer)
    want = {None: {"CARD", "YES_NO", "BOTTOM_ORDER", "HOLDER", "NUMBER"},
            ("EXP01-FIRE", "EXP01-EARTH"): {"CARD", "MODE", "SLOT", "SEARCH", "TOP_ORDER"}}
    assert want.get(cards and decks, set()) <= kinds, sorted(kinds)


def test_titles_name_the_card_and_what_it_does():
    # a known prompt: Ember Choice's modes (expansion), asked from a seeded game
    cards = str(DATA / "expansion.json")
    words = Words(_card_table(azuki.CardSet.from_json(cards)))
    assert words.ability_text({"card": "EXP01-020", "number": 0}).startswith("Choose one: Deal 2 damage")
    assert words.place("p1.garden[0]", 0) == "the opponent's garden, slot 1"
    assert words.place("p0.leader", 0) == "your leader"
    assert words.place("p0.leader", None) == "Player 0's leader"


def test_a_turn_the_engine_ends_itself_is_said():
    """Rules §12.2: when END_TURN is a player's only action the engine applies
    it; the log then says so (AUTO_END_TURN, before the TURN_END) instead of
    the turn ending silently, and only then: a turn ended by END_TURN gets no
    such line."""
    words = Words(_card_table(azuki.CardSet.default()))
    autos = explicit = 0
    for seed in range(20):
        sess = GameSession(("STT01", "STT02"), [None, None], seed=seed, names=words)
        rng = random.Random(seed)
        while not sess.game.is_terminal:
            d = sess.game.current_player
            p = sess.payload(d, 0)
            n = len(sess.events)
            a = rng.choice(p["legal"])
            sess.act(d, p["token"], a["id"])
            new = sess.events[n:]
            ends = [i for i, e in enumerate(new) if e["type"] == "TURN_END"]
            marks = [i for i, e in enumerate(new) if e["type"] == "AUTO_END_TURN"]
            if a["type"] == "END_TURN":
                explicit += 1
                assert len(marks) == len(ends) - 1
            else:
                assert len(marks) == len(ends)
            for i in marks:
                assert new[i + 1]["type"] == "TURN_END" and new[i + 1]["player"] == new[i]["player"]
                assert new[i]["texts"][new[i]["player"]].startswith("You had nothing else to do")
                autos += 1
        if autos >= 3 and explicit:
            break
    assert autos and explicit, (autos, explicit)
