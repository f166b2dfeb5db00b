"""Hardening of the core (issue: hardening §1, §2): state checks before every
question, shocked, the decision cap, engine bounds that end the game instead
of dropping effects, and the event log that never loses data silently.

Each test cites the project's rules document (docs/rules.md); §13 there
describes the engine's caps and bounds, and docs/rulings.md the rulings.
"""
import copy
import json
import pathlib
import random

import pytest

import azuki
from azuki._core import encode
from scenario import P, choose, do, make_game, row

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARDS = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
NO_OP = encode("NO_OP", 0, 0)


def card(doc, cid):
    return next(c for c in doc["cards"] if c["id"] == cid)


def runtime_set(tmp_path, cid, effect, name="cards.json"):
    """The default card set with `cid`'s first ability's effect replaced."""
    doc = copy.deepcopy(CARDS)
    card(doc, cid)["abilities"][0]["effect"] = effect
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return str(p)


def ikz(untapped, tapped):
    return [{"tapped": False}] * untapped + [{"tapped": True}] * tapped


# ---------------------------------------------------------------- §9: state checks before every question

def test_state_checks_run_before_the_gate_prompt():
    """docs/rules.md §9, §13: a portal can take an opponent's Young Shao's
    bonus away (2 entities vs 1 no longer clears "+2"); its health drops to 2
    with 2 damage marked. The state check runs before Hydromancy asks its
    number, so the prompt is asked over a state where Young Shao is already
    in its owner's discard pile (the old engine kept it on the field, at
    lethal damage, until the answer)."""
    g = make_game(("STT02", "STT02"),
                  {"alley": ["STT02-013"], "ikz_area": ikz(1, 3), "hand": ["STT02-004"]},
                  {"garden": [{"card": "STT02-012", "damage": 2}, "STT02-004"]})
    assert g.health_of("p1.garden[0]") == 3             # 2 vs 0: the bonus holds
    g.step(encode("PORTAL_GATE", 0, 2))
    assert g.phase == "PROMPT" and g.prompt()["kind"] == "NUMBER"
    assert row(g, 1) == [None, "STT02-004", None, None, None]
    assert "STT02-012" in P(g, 1)["discard"]
    assert g.check_invariants() == 0
    choose(g, value=1)
    assert g.check_invariants() == 0


def _lethal_on_field(g):
    """Python's own reading of §9 at a decision point (the C checker's -15)."""
    for p in (0, 1):
        if g.health_of(f"p{p}.leader") - P(g, p)["leader"]["damage"] <= 0:
            return f"p{p}.leader"
        for zone in ("garden", "alley"):
            for s, e in enumerate(P(g, p)[zone]):
                where = f"p{p}.{zone}[{s}]"
                if e is not None and e["damage"] >= g.health_of(where) and "godmode" not in g.statuses_of(where):
                    return where
    return None


@pytest.mark.slow    # make quick-test skips it; make test runs it (pyproject.toml markers)
def test_no_decision_is_offered_over_a_lethal_state():
    """docs/rules.md §13: in random play of all four pairings, at every
    decision point no entity without godmode is at lethal damage and no
    leader is at 0 or less (uniform random play hit the old bug within the
    first hundred seeds; the C random-play test, soak and fuzzers check the
    same through the invariant checker, code -15)."""
    pairs = [("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02"), ("STT01", "STT01")]
    for s in range(120):
        g = azuki.Game(seed=s, decks=pairs[s % 4])
        r = random.Random(s)
        while not g.is_terminal:
            assert _lethal_on_field(g) is None, (s, g.state_dict()["turn"])
            g.step(r.choice(list(g.legal_actions())))


# ---------------------------------------------------------------- §7: shocked

# p1 keeps a playable card so that its main phase is a real decision (a
# position whose only legal action is END_TURN moves on by itself, §12)
P1_BUSY = {"hand": ["STT02-004"], "ikz_area": 1}


def _to_next_turn_of_p0(g):
    """From p1's main phase, end the turn; p0's start phase runs."""
    assert g.current_player == 1 and g.phase == "MAIN"
    do(g, "END_TURN")
    assert g.active_player == 0


def test_shocked_is_used_up_even_when_untapped():
    """docs/rules.md §7: shocked is removed at its controller's next untap
    step whether or not the card is tapped then; the card stays untapped and
    untaps normally at later untap steps (the old engine kept the condition
    on an untapped card, then skipped a later untap)."""
    g = make_game(("STT01", "STT02"),
                  {"garden": [{"card": "STT01-010", "shocked": True}]}, P1_BUSY, active=1)
    assert P(g, 0)["garden"][0]["shocked"] is True
    _to_next_turn_of_p0(g)
    e = P(g, 0)["garden"][0]
    assert e["shocked"] is False and e["tapped"] is False
    assert "shocked" not in g.statuses_of("p0.garden[0]")


def test_shocked_tapped_card_stays_tapped_once():
    """docs/rules.md §4.1 step 2, §7: a tapped shocked card stays tapped at
    the next untap step and loses the condition; the one after untaps it."""
    g = make_game(("STT01", "STT02"),
                  {"garden": [{"card": "STT01-010", "shocked": True, "tapped": True}], "hand": ["STT01-003"],
                   "ikz_area": 1}, P1_BUSY, active=1)
    _to_next_turn_of_p0(g)
    e = P(g, 0)["garden"][0]
    assert e["tapped"] is True and e["shocked"] is False
    do(g, "END_TURN")
    do(g, "END_TURN")
    assert g.active_player == 0
    assert P(g, 0)["garden"][0]["tapped"] is False


def test_granted_shock_is_used_up_even_when_untapped(tmp_path):
    """docs/rules.md §7 with a card set that grants shocked (Chilling Water
    granting shocked instead of frozen): the granted condition on an
    untapped entity is used up by its controller's next untap step."""
    path = runtime_set(tmp_path, "STT02-014", [
        {"choose": {"as": "t", "from": {"zone": ["garden"], "side": "opponent", "cost_max": 2}}},
        {"grant": {"target": "t", "status": ["shocked"], "duration": "start_of_next_turn"}}])
    g = azuki.Game.from_setup({"decks": ["STT02", "STT01"], "active": 0,
                               "players": [{"hand": ["STT02-014", "STT02-004"], "ikz_area": 3},
                                           {"garden": ["STT01-007"], "hand": ["STT01-003"], "ikz_area": 1}]},
                              cards=path)
    do(g, "PLAY_SPELL_MAIN")
    assert "shocked" in g.statuses_of("p1.garden[0]")
    assert P(g, 1)["garden"][0]["tapped"] is False
    do(g, "END_TURN")           # p1's untap step: the untapped entity loses the condition
    assert g.active_player == 1
    assert "shocked" not in g.statuses_of("p1.garden[0]")


# ---------------------------------------------------------------- §13: every game ends

def test_decision_cap_truncates_with_its_reason():
    """docs/rules.md §13: the step that applies the cap-th decision ends a
    still-ongoing game as TRUNCATED, end_reason DECISION_CAP; the cap is
    configurable and survives clone / bytes round trips."""
    g = azuki.Game(seed=4, decision_cap=40)
    assert g.decision_cap == 40 and g.decisions == 0 and g.end_reason is None
    h = g.clone()
    r = random.Random(4)
    while not g.is_terminal:
        g.step(r.choice(list(g.legal_actions())))
    assert g.decisions == 40
    assert g.result == "TRUNCATED" and g.end_reason == "DECISION_CAP" and g.winner is None
    ev = [e["type"] for e in g.events()]
    assert ev[-2:] == ["TRUNCATED", "GAME_OVER"]
    assert azuki.Game.from_bytes(h.to_bytes()).decision_cap == 40
    with pytest.raises(ValueError):
        azuki.Game(decision_cap=0)
    with pytest.raises(ValueError):
        azuki.Game(decision_cap=60001)


def test_lowering_the_decision_cap_below_the_count_ends_the_game():
    """docs/rules.md §13.2: a cap the game has already reached ends it at
    once (found by the API fuzz: the state checker's -17 broke)."""
    g = azuki.Game(seed=5)
    r = random.Random(5)
    for _ in range(12):
        g.step(r.choice(list(g.legal_actions())))
    g.set_decision_cap(12)
    assert g.is_terminal and g.end_reason == "DECISION_CAP" and g.legal_actions().size == 0
    assert g.check_invariants() == 0


def test_default_caps_and_natural_end_reasons():
    """docs/rules.md §9, §13: default caps 200 turns / 10,000 decisions;
    games that end by the rules say why (LEADER or DECK_OUT)."""
    seen = set()
    for s in range(40):
        g = azuki.Game(seed=s)
        assert (g.turn_cap, g.decision_cap) == (200, 10000)
        r = random.Random(s)
        while not g.is_terminal:
            g.step(r.choice(list(g.legal_actions())))
        assert g.end_reason in ("LEADER", "DECK_OUT")
        assert g.state_dict()["end_reason"] == g.end_reason
        seen.add(g.end_reason)
    assert seen == {"LEADER", "DECK_OUT"}


def two_card_loop(tmp_path, ask):
    """Benzai (A) and Rei (B) that keep replaying each other inside one turn;
    no single ability replays its own card, so the compiler's self-replay
    check (docs/abilities.md) accepts both: A plays B from hand (after a
    yes/no question if `ask`); B returns A and itself to hand and plays A
    again. With the alley full but one slot (A's) and the garden full but one
    slot (B's), no placement is ever asked."""
    doc = copy.deepcopy(CARDS)
    play_b = [{"choose": {"as": "b", "from": {"zone": ["hand"], "side": "self", "card": "STT02-004"}}},
              {"play_free": {"card": "b", "to": "garden"}}]
    card(doc, "STT02-007")["abilities"][0]["effect"] = [{"may": play_b}] if ask else play_b
    card(doc, "STT02-004")["abilities"] = [{"kind": "triggered", "trigger": "on_play", "effect": [
        {"choose": {"as": "a", "from": {"zone": ["alley"], "side": "self", "card": "STT02-007"}}},
        {"return_to_hand": "a"},
        {"return_to_hand": "self"},
        {"choose": {"as": "a2", "from": {"zone": ["hand"], "side": "self", "card": "STT02-007"}}},
        {"play_free": {"card": "a2", "to": "alley"}}]}]
    p = tmp_path / "loop.json"
    p.write_text(json.dumps(doc))
    return azuki.Game.from_setup({"decks": ["STT02", "STT01"],
                                  "players": [{"hand": ["STT02-007", "STT02-004"], "ikz_area": 3,
                                               "garden": ["STT02-008"] * 4, "alley": ["STT02-008"] * 4}, {}]},
                                 cards=str(p))


def test_self_replaying_cards_end_by_the_decision_cap(tmp_path):
    """docs/rules.md §13.2: cards that replay each other inside one turn,
    with a question each time, loop through decisions (the turn cap never
    fires); the decision cap ends the game as TRUNCATED."""
    g = two_card_loop(tmp_path, ask=True)
    g.set_decision_cap(500)
    do(g, "PLAY_ENTITY_TO_ALLEY", "Benzai")
    turn = g.turn
    while not g.is_terminal:
        assert g.prompt()["kind"] == "YES_NO"
        choose(g, value=1)
    assert g.turn == turn
    assert g.result == "TRUNCATED" and g.end_reason == "DECISION_CAP" and g.decisions == 500


# ---------------------------------------------------------------- §13: engine bounds end the game

def _play_benzai(tmp_path, effect):
    path = runtime_set(tmp_path, "STT02-007", effect)
    g = azuki.Game.from_setup({"decks": ["STT02", "STT01"],
                               "players": [{"hand": ["STT02-007"], "ikz_area": 3}, {}]}, cards=path)
    g.events()
    do(g, "PLAY_ENTITY_TO_GARDEN", "Benzai")
    return g


def test_too_many_effects_end_the_game_instead_of_dropping_them(tmp_path):
    """docs/rules.md §13: 127 x "+1 attack" needs 127 live temporary effects;
    the engine holds 48. The old engine silently kept 48 (+48 attack) and
    played on; now the step is applied up to the bound and the game ends
    TRUNCATED with end_reason EFFECTS, in the events too."""
    g = _play_benzai(tmp_path, [{"repeat": {"times": 127, "do": [
        {"modify_attack": {"target": "self", "amount": 1, "duration": "end_of_turn"}}]}}])
    assert g.is_terminal and g.result == "TRUNCATED" and g.end_reason == "EFFECTS"
    ev = g.events()
    assert [e["type"] for e in ev][-2:] == ["TRUNCATED", "GAME_OVER"]
    assert ev[-2]["value"] == azuki.END_REASONS.index("EFFECTS")
    assert g.legal_actions().size == 0 and g.current_player == -1
    with pytest.raises(azuki.IllegalActionError):
        g.step(NO_OP)
    assert g.check_invariants() == 0


def test_runaway_ability_ends_the_game(tmp_path):
    """docs/rules.md §13: an ability that runs more than the VM's
    instruction bound ends the game TRUNCATED (VM_STEPS): the old engine
    abandoned the ability half-applied and played on."""
    deck = {"context": "deck_size"}     # computed: the compiler cannot bound it
    g = _play_benzai(tmp_path, [{"repeat": {"times": deck, "do": [
        {"repeat": {"times": deck, "do": [{"set": {"var": "n", "value": 1}}]}}]}}])
    assert g.result == "TRUNCATED" and g.end_reason == "VM_STEPS"


def test_too_many_options_end_the_game(tmp_path):
    """docs/rules.md §13: 0..(30 + deck size) does not fit one prompt (64
    options; a literal max above 63 is a compile error, a computed one is
    not): the old engine silently offered 0..63; now the game ends TRUNCATED
    (OPTIONS)."""
    g = _play_benzai(tmp_path, [{"choose_number": {"as": "n", "max": {"add": [30, {"context": "deck_size"}]}}},
                                  {"draw": {"var": "n"}}])
    assert g.result == "TRUNCATED" and g.end_reason == "OPTIONS"


def test_looking_at_more_than_the_look_zone_holds_ends_the_game(tmp_path):
    """docs/rules.md §13: a computed look count beyond the look zone's
    capacity (10) is a bound, not a silent cut to 10."""
    g = _play_benzai(tmp_path, [{"look": {"add": [5, {"context": "deck_size"}]}}, {"bottom_looked": True}])
    assert g.result == "TRUNCATED" and g.end_reason == "LOOK"


# ---------------------------------------------------------------- the event log

def test_event_log_keeps_the_newest_and_counts_the_dropped():
    """A game averages ~500 events and the log holds 128: a caller that never
    drains still gets GAME_OVER (the newest are kept) and an EVENTS_DROPPED
    event first, whose value is how many were overwritten."""
    g = azuki.Game(seed=9)
    r = random.Random(9)
    n = 0
    while not g.is_terminal:
        g.step(r.choice(list(g.legal_actions())))
        n += 1
    ev = g.events()
    assert ev[0]["type"] == "EVENTS_DROPPED" and ev[0]["value"] > 0
    assert ev[-1]["type"] == "GAME_OVER"
    assert len(ev) == 129
    assert g.events() == []                     # events() drains
    # drained every step: nothing is ever dropped
    g = azuki.Game(seed=9)
    r = random.Random(9)
    types = []
    while not g.is_terminal:
        g.step(r.choice(list(g.legal_actions())))
        types += [e["type"] for e in g.events()]
    assert "EVENTS_DROPPED" not in types and types[-1] == "GAME_OVER"
    assert len(types) == ev[0]["value"] + 128


def test_render_uses_the_api_names():
    """render(): 0-based slots as in location strings, the phase, prompt
    kind and result names of the rest of the API."""
    g = azuki.Game(seed=2)
    text = g.render()
    assert "phase MULLIGAN" in text and "p0.garden[0]:" in text and "p1.alley[4]:" in text
    assert "garden[5]" not in text
    r = random.Random(2)
    while not g.is_terminal:
        g.step(r.choice(list(g.legal_actions())))
    assert f"result {g.result} ({g.end_reason})" in g.render()


def test_loop_without_decisions_ends_by_the_trigger_bound(tmp_path):
    """docs/rules.md §13.3: the same loop with no question asked would run
    forever inside one step; after 256 triggers the game ends TRUNCATED
    (TRIGGER_LIMIT) and the step returns normally."""
    g = two_card_loop(tmp_path, ask=False)
    do(g, "PLAY_ENTITY_TO_ALLEY", "Benzai")
    assert g.result == "TRUNCATED" and g.end_reason == "TRIGGER_LIMIT"
    assert g.check_invariants() == 0
