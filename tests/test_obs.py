"""The observation encoder (csrc/obs.c, csrc/azk_obs.def, docs/observation.md), layout v4.

- range: every byte of every field within its kind (id <= 127, enum < n,
  place <= 24, bits: nothing past n), at every step of random games of
  every deck pairing and of the expansion's decks;
- mask: the packed MASK field unpacks to exactly Game.action_mask() for the
  decider and is all 0 for the other seat, at every step;
- lists: the multisets (my deck, the opponent's known hand cards and unseen
  cards, looked-at cards) are sorted by definition and 0 past their end;
- no leak: changing only what a seat cannot know leaves its observation
  byte-identical — (1) through Game.from_setup (the opponent's hand cards
  exchanged with cards of its deck, either deck reordered), (2) through
  Game.resample at every kind of decision point (prompts, looks, combat) —
  while public changes alter it;
- v3 recoverable: every slice of the float32 layout v3 is rebuilt, byte for
  byte, from the v4 observation of hundreds of positions recorded with the
  v3 build (tools/obs_v3_fixture.py, tests/data/obs_v3_fixture.npz);
- layout: C, Python and the generated docs agree; decode; determinism; bad
  `out` arguments and bad inputs.
"""
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import azuki
from azuki import Game, OBS_LEN
from azuki import spec_autogen as S
from azuki._core import CardSet
from azuki.obs import card_index, decode, mask_of, obs_layout, obs_slice

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [("STT01", "STT01"), ("STT01", "STT02"), ("STT02", "STT01"), ("STT02", "STT02")]
EXPANSION = ROOT / "azuki" / "data" / "expansion.json"
# the expansion as it was when the v3 fixture was recorded (before the balance re-stamp of
# docs/balance.md): the fixture's state bytes carry that set's hash, and a v3 build, which
# could record them again, no longer exists
EXPANSION_V1 = ROOT / "tests" / "data" / "expansion_exp01_v1.json"
FIXTURE = ROOT / "tests" / "data" / "obs_v3_fixture.npz"
SORTED_LISTS = ("OPP_HAND_KNOWN", "DECK", "OPP_UNSEEN", "LOOK")


def random_positions(games_per_pair=2, seed0=0, cards=None, pairs=PAIRS):
    """(game, rng) at every decision of random games, all deck pairings."""
    for k, decks in enumerate(pairs):
        for i in range(games_per_pair):
            seed = seed0 + 100 * k + i
            g = Game(seed=seed, decks=decks, cards=cards)
            rng = random.Random(seed)
            while not g.is_terminal:
                yield g, rng
                legal = g.legal_actions()
                g.step(int(legal[rng.randrange(len(legal))]))
            yield g, rng


def _in_range(o):
    """Every byte of every field within its kind."""
    for name, f in obs_layout().items():
        raw = o[f["offset"]:f["offset"] + f["rows"] * f["cols"]].reshape(f["rows"], f["cols"])
        if f["kind"] in ("id", "enum", "place"):
            assert raw.max(initial=0) < f["n"], name
        elif f["kind"] == "bits":
            bits = np.unpackbits(raw, axis=-1, bitorder="little")
            assert not bits[:, f["n"]:].any(), name


def _sorted_lists(d):
    for name in SORTED_LISTS:
        v = d[name].reshape(-1)
        k = int((v > 0).sum())
        assert (v[:k] > 0).all() and not v[k:].any(), name     # a prefix, 0 past its end
        assert (np.diff(v[:k]) >= 0).all(), name                # sorted by definition


# ---- range, mask, lists -------------------------------------------------------

@pytest.mark.parametrize("which", ["starter", "expansion"])
def test_range_mask_and_lists_every_step(which):
    cards = None if which == "starter" else CardSet.from_json(str(EXPANSION))
    pairs = PAIRS if which == "starter" else [("EXP01-FIRE", "EXP01-EARTH"), ("EXP01-EARTH", "STT01")]
    buf = np.empty(OBS_LEN, dtype=np.uint8)
    steps = 0
    for g, _ in random_positions(games_per_pair=2, cards=cards, pairs=pairs):
        cp = g.current_player
        for seat in (0, 1):
            buf[:] = 0xA5                                   # every byte is written
            o = g.observe(seat, out=buf)
            assert o is buf
            _in_range(o)
            d = decode(o)
            if seat == cp:
                assert np.array_equal(d["MASK"], g.action_mask().astype(bool))
            else:
                assert not d["MASK"].any() and not obs_slice(o, "MASK").any()
            assert d["DECIDER"][0, 0] == (0 if seat == cp else (2 if cp < 0 else 1))
            _sorted_lists(d)
            assert not obs_slice(o, "PAD").any()
        steps += 1
    assert steps > 300


def test_observation_reads_the_position():
    g = Game(seed=5, decks=("STT01", "STT02"))
    sd = g.state_dict()
    o = g.observe(0)
    d = decode(o)
    hand = sd["players"][0]["hand"]
    ids = list(g.cards.ids)
    slots = card_index(d["HAND_CARD"][0])
    assert [ids[i] for i in slots[:len(hand)]] == hand and (slots[len(hand):] == -1).all()
    assert d["HAND_N"][:, 0].tolist() == [len(hand), len(sd["players"][1]["hand"])]
    assert d["DECK_N"][:, 0].tolist() == [len(sd["players"][0]["deck"]), len(sd["players"][1]["deck"])]
    # my deck's contents, sorted; the order is hidden
    assert sorted(ids[i] for i in card_index(d["DECK"][0]) if i >= 0) == sorted(sd["players"][0]["deck"])
    # the leaders and gates are always there; my leader is row 0, the opponent's row 12
    occ = d["PLACE_CARD"][:, 0] > 0
    assert occ[0] and occ[11] and occ[12] and occ[23]
    assert d["PLACE_HEALTH"][0, 0] == g.health_of("p0.leader")
    assert d["PLACE_ATTACK"][0, 0] == g.attack_of("p0.leader")
    # the opponent's hand: nothing known at the start; its cards are all unseen
    assert not d["OPP_HAND_KNOWN"].any()
    assert int((d["OPP_UNSEEN"] > 0).sum()) == len(sd["players"][1]["hand"]) + len(sd["players"][1]["deck"])
    assert d["TURN"][0, 0] == g.turn and d["PHASE"][0, 0] == S.PHASE.index(g.phase)


def test_observe_is_deterministic():
    for g, _ in random_positions(games_per_pair=1, seed0=71):
        for seat in (0, 1):
            a = g.observe(seat)
            assert np.array_equal(a, g.observe(seat)) and np.array_equal(a, g.clone().observe(seat))
            assert np.array_equal(a, Game.from_bytes(g.to_bytes()).observe(seat))


# ---- no leak ------------------------------------------------------------------

def _variants(d, seat, rng):
    """Setups that differ from d only in what `seat` cannot know: cards
    nobody knows (hand cards not revealed, deck cards whose place nobody
    knows: state_dict's hand_revealed / deck_known) change places."""
    opp = 1 - seat
    out = []
    v = json.loads(json.dumps(d))
    pl = v["players"][opp]
    hand, deck = pl["hand"], pl["deck"]
    hidden_hand = [i for i, r in enumerate(pl["hand_revealed"]) if not r]
    hidden_deck = [j for j, k in enumerate(pl["deck_known"]) if not k]
    if hidden_hand and hidden_deck:   # exchange opponent hand cards with deck cards
        for _ in range(min(3, len(hidden_hand))):
            i, j = rng.choice(hidden_hand), rng.choice(hidden_deck)
            hand[i], deck[j] = deck[j], hand[i]
        out.append(v)
    for p in (seat, opp):             # reorder the unknown part of a deck
        v = json.loads(json.dumps(d))
        deck = v["players"][p]["deck"]
        hidden = [j for j, k in enumerate(v["players"][p]["deck_known"]) if not k]
        cards = [deck[j] for j in hidden]
        rng.shuffle(cards)
        for j, c in zip(hidden, cards):
            deck[j] = c
        out.append(v)
    return out


def _setup_dict(g):
    d = g.state_dict()
    for k in ("format", "cardset", "phase", "result", "current_player", "rng", "combat", "prompt",
              "pending_triggers", "hash"):
        d.pop(k, None)
    return d


def test_no_leak_through_setup():
    """Main-phase positions rebuilt by from_setup: hidden-only variants give
    byte-identical observations, public variants do not."""
    rng = random.Random(7)
    checked = public = 0
    for g, _ in random_positions(games_per_pair=3, seed0=11):
        if g.phase != "MAIN" or g.turn < 2 or rng.random() < 0.8:
            continue
        d = _setup_dict(g)
        base = Game.from_setup(d, seed=1)
        if base.turn != g.turn or base.phase != "MAIN":
            continue               # the one-answer rule moved it on: not comparable
        for seat in (0, 1):
            ref = base.observe(seat).tobytes()
            for v in _variants(d, seat, rng):
                h = Game.from_setup(v, seed=1)
                if h.turn != base.turn or h.phase != "MAIN":
                    continue
                assert h.observe(seat).tobytes() == ref, f"seat {seat} sees a hidden change"
                checked += 1
            # public: a card of the opponent's discard pile exchanged with a different deck card
            v = json.loads(json.dumps(d))
            pl = v["players"][1 - seat]
            diff = [j for j, c in enumerate(pl["deck"]) if pl["discard"] and c != pl["discard"][-1]]
            if diff:
                j = diff[0]
                pl["discard"][-1], pl["deck"][j] = pl["deck"][j], pl["discard"][-1]
                h = Game.from_setup(v, seed=1)
                if h.turn == base.turn and h.phase == "MAIN":
                    assert h.observe(seat).tobytes() != ref, "a public change left the observation alone"
                    public += 1
    assert checked >= 30 and public >= 3, (checked, public)


def test_resample_keeps_the_observation_and_plays_on():
    rng = random.Random(3)
    n = varied_opp = varied_deck = other_changed = 0
    for g, grng in random_positions(games_per_pair=4, seed0=23):
        if g.is_terminal or rng.random() < 0.3:
            continue
        for seat in (0, 1):
            h = g.clone()
            h.resample(seat, rng.randrange(1 << 64))
            assert h.check_invariants() == 0, azuki.invariant_text(h.check_invariants())
            assert h.observe(seat).tobytes() == g.observe(seat).tobytes(), f"seat {seat}: resampling changed what it sees"
            assert h.current_player == g.current_player and h.phase == g.phase
            a, b = g.state_dict(), h.state_dict()
            opp = 1 - seat
            # known and public cards never move
            for p in (0, 1):
                for k in ("garden", "alley", "discard", "leader", "gate", "ikz_area"):
                    assert a["players"][p][k] == b["players"][p][k]
            assert a["players"][seat]["hand"] == b["players"][seat]["hand"]
            assert len(a["players"][opp]["hand"]) == len(b["players"][opp]["hand"])
            # the opponent's unseen cards keep their multiset
            pool = lambda s: sorted(s["players"][opp]["hand"] + s["players"][opp]["deck"])   # noqa: E731
            assert pool(a) == pool(b)
            assert sorted(a["players"][seat]["deck"]) == sorted(b["players"][seat]["deck"])
            varied_opp += a["players"][opp]["hand"] != b["players"][opp]["hand"]
            varied_deck += a["players"][seat]["deck"] != b["players"][seat]["deck"]
            other_changed += h.observe(opp).tobytes() != g.observe(opp).tobytes()
            # it plays on
            for _ in range(20):
                if h.is_terminal:
                    break
                legal = h.legal_actions()
                h.step(int(legal[grng.randrange(len(legal))]))
            n += 1
    assert n > 200
    assert varied_opp > n // 4 and varied_deck > n // 2 and other_changed > n // 4, (n, varied_opp, varied_deck, other_changed)


def test_revealed_and_returned_cards_are_known():
    """A card returned to hand from the field stays known to the opponent
    until it leaves the hand (docs/observation.md); resampling keeps it; the
    known cards are listed sorted by definition, never at their hand
    positions (whose canonical order would tell the unknown cards)."""
    found = 0
    for g, rng in random_positions(games_per_pair=3, seed0=41):
        for seat in (0, 1):
            opp = 1 - seat
            known = [c for c in range(azuki._core.NUM_CARDS) if g.card_known(seat, c)]
            d = decode(g.observe(seat))
            listed = d["OPP_HAND_KNOWN"][0]
            in_opp_hand = [c for c in known if c // 63 == opp and _zone(g, c) == "HAND"]
            assert int((listed > 0).sum()) == len(in_opp_hand)
            defs = sorted(g.cards.ids.index(g.card_info(c)["id"]) for c in in_opp_hand)
            assert card_index(listed[:len(defs)]).tolist() == defs
            if in_opp_hand and not g.is_terminal:
                found += 1
                h = g.clone()
                h.resample(seat, 5)
                assert all(h.card_known(seat, c) and _zone(h, c) == "HAND" for c in in_opp_hand)
    assert found > 0, "no game returned or revealed a card into a hand"


def _zone(g, c):
    off, _ = azuki._core.EXPORT_LAYOUT.fields["CARD_ZONE"]
    return S.ZONE[int(g.export()[off + c])]


# ---- layout, docs, decode ---------------------------------------------------------------

def test_layout_is_contiguous_and_matches_the_def():
    lay = obs_layout()
    assert list(lay) == list(S.OBS)
    off = 0
    for name, f in lay.items():
        assert f["offset"] == off, name
        assert f["doc"] == S.OBS_DOC[S.OBS.index(name)]
        assert f["kind"] in azuki.obs.KINDS and f["n"] > 0 and f["rows"] * f["cols"] == int(np.prod(f["shape"]))
        if f["kind"] == "bits":
            assert f["n"] <= 8 * f["cols"], name
        if f["kind"] == "id":
            assert f["n"] == S.CAPS["AZK_MAX_CARD_DEFS"] + 1
        if f["kind"] == "place":
            assert f["n"] == 25
        off += f["rows"] * f["cols"]
    assert off == OBS_LEN == azuki._core.OBS_LEN and OBS_LEN % 8 == 0 and OBS_LEN <= 1536
    assert lay["MASK"]["kind"] == "bits" and lay["MASK"]["n"] == azuki.NUM_ACTIONS
    assert lay["MASK"]["cols"] == (azuki.NUM_ACTIONS + 7) // 8
    assert lay["PLACE_STATUS"]["shape"] == (24, 2) and lay["PLACE_STATUS"]["n"] == len(S.STATUS)
    assert lay["OPT_CARD"]["shape"] == (S.CAPS["AZK_MAX_OPTIONS"],)
    assert obs_layout(azuki.CardSet.default()) == lay
    assert azuki.OBS_VERSION == 4


def test_docs_are_fresh():
    p = subprocess.run([sys.executable, "-m", "azuki.obs", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_obs_slice_decode_batches_and_errors():
    g = Game(seed=1)
    batch = np.stack([g.observe(0), g.observe(1)])
    assert obs_slice(batch, "PLACE_CARD").shape == (2, 24)
    assert obs_slice(batch, "DISCARD").shape == (2, 2, S.CAPS["AZK_DECK_MAIN"])
    assert np.array_equal(obs_slice(batch, "MASK")[0], batch[0, obs_layout()["MASK"]["offset"]:][:132])
    d = decode(batch)
    assert d["DISCARD"].shape == (2, 2, 50) and d["PLACE_STATUS"].shape == (2, 24, len(S.STATUS))
    assert d["MASK"].shape == (2, azuki.NUM_ACTIONS) and d["MASK"].dtype == bool
    assert np.array_equal(d["MASK"], mask_of(batch)) and "PAD" not in d
    one = decode(batch[1])
    assert all(np.array_equal(one[k], d[k][1]) for k in d)
    assert azuki.obs_decode is decode
    with pytest.raises(KeyError):
        obs_slice(batch, "NOPE")
    for bad in (np.zeros(3, np.uint8), np.zeros(OBS_LEN, np.float32)):
        for f in (lambda o: obs_slice(o, "MASK"), decode, mask_of):
            with pytest.raises(ValueError):
                f(bad)
    with pytest.raises(TypeError):
        decode([0] * OBS_LEN)


def test_snum_attack_can_be_negative():
    """PLACE_ATTACK is an int8 (kind snum): decode reads the byte as signed."""
    o = Game(seed=1).observe(0)
    f = obs_layout()["PLACE_ATTACK"]
    assert f["kind"] == "snum"
    o[f["offset"]] = 0xFE
    assert decode(o)["PLACE_ATTACK"][0, 0] == -2


def test_envs_mask_from_obs_unpacks_the_packed_mask():
    """azuki.envs.mask_from_obs (numpy; torch when installed: unpackbits on a CPU,
    shifts elsewhere) is Game.action_mask() for the decider, all False for the other
    seat, also with AzukiEnv's head masks appended; float input is refused."""
    from azuki.envs import HEAD_SIZES, decode_obs, mask_from_obs
    rows, masks = [], []
    for g, _ in random_positions(games_per_pair=1, seed0=3):
        for seat in (0, 1):
            rows.append(g.observe(seat))
            masks.append(g.action_mask().astype(bool) if seat == g.current_player else np.zeros(azuki.NUM_ACTIONS, bool))
    obs, want = np.stack(rows), np.stack(masks)
    assert np.array_equal(mask_from_obs(obs), want)
    ext = np.concatenate([obs, np.ones((len(obs), sum(HEAD_SIZES)), np.uint8)], axis=1)
    assert np.array_equal(mask_from_obs(ext), want)
    assert np.array_equal(decode_obs(ext)["MASK"], want)
    for bad in (obs.astype(np.float32), obs[:, :10]):
        with pytest.raises(ValueError):
            mask_from_obs(bad)
    try:
        import torch
    except ImportError:
        return
    from azuki.envs import MASK_BYTES, MASK_OFFSET, _mask_bits_shifts
    t = torch.from_numpy(ext)
    assert torch.equal(mask_from_obs(t), torch.from_numpy(want))
    assert torch.equal(mask_from_obs(t[:, :azuki.OBS_LEN]), torch.from_numpy(want))     # a strided view
    # the other devices' unpacking (shifts on the device), run here on the CPU tensor
    assert torch.equal(_mask_bits_shifts(t[:, MASK_OFFSET:MASK_OFFSET + MASK_BYTES]), torch.from_numpy(want))
    assert torch.equal(decode_obs(t)["HAND_CARD"], torch.from_numpy(decode(obs)["HAND_CARD"]))


# ---- bad arguments --------------------------------------------------------------------

@pytest.mark.parametrize("out, exc", [
    (np.zeros(OBS_LEN, np.float32), ValueError),
    (np.zeros(OBS_LEN, np.int8), ValueError),
    (np.zeros(OBS_LEN + 1, np.uint8), ValueError),
    (np.zeros((1, OBS_LEN), np.uint8), ValueError),
    (np.zeros(2 * OBS_LEN, np.uint8)[::2], ValueError),
    ([0] * OBS_LEN, TypeError),
    ("x", TypeError),
])
def test_observe_rejects_bad_out(out, exc):
    g = Game(seed=2)
    before = out.copy() if isinstance(out, np.ndarray) else None
    with pytest.raises(exc):
        g.observe(0, out=out)
    if before is not None:
        assert np.array_equal(before, out)


def test_observe_rejects_read_only_out_and_bad_player():
    g = Game(seed=2)
    ro = np.zeros(OBS_LEN, np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        g.observe(0, out=ro)
    assert not ro.any()
    for bad, exc in ((2, ValueError), (-1, ValueError), (True, TypeError), (0.0, TypeError), ("0", TypeError)):
        with pytest.raises(exc):
            g.observe(bad)
    with pytest.raises(ValueError):
        g.resample(2, 0)
    with pytest.raises(ValueError):
        g.resample(0, -1)


def test_deck_positions_the_player_chose_are_known():
    """docs/rules.md §8.9, docs/observation.md: after Hayabusa Itto the four
    cards its controller put on the bottom, in the order it chose, are known
    to that player where they lie (DECK_TOP from the other end, card_known) and to nobody
    else; the resampler keeps them in place while the rest of the deck varies;
    the opponent's view does not show them."""
    from scenario import choose, do, make_game
    top = ["STT02-004", "STT02-007", "STT02-014", "STT02-016", "STT02-009", "STT02-005"]
    g = make_game(("STT02", "STT01"), {"deck_top": top, "ikz_area": 3, "hand": ["STT02-003", "STT02-004"]}, {})
    do(g, "PLAY_ENTITY_TO_GARDEN", "Hayabusa Itto", "garden[0]")
    choose(g, card="STT02-014")
    for cid in ["STT02-007", "STT02-016", "STT02-004"]:
        choose(g, card=cid)
    assert g.phase == "MAIN"
    bottom = ["STT02-009", "STT02-004", "STT02-016", "STT02-007"]     # deck[0] is the bottom card
    deck_cards = [g.locate(f"p0.deck[{i}]") for i in range(len(g.state_dict()["players"][0]["deck"]))]
    known_mine = [c for c in deck_cards if g.card_known(0, c)]
    assert len(known_mine) == 4 and not any(g.card_known(1, c) for c in deck_cards)
    ids = {i: c for i, c in enumerate(g.cards.ids)}
    d = decode(g.observe(0))
    n = int(d["DECK_N"][0, 0])
    from_bottom = d["DECK_TOP"][0][:n][::-1]
    assert [ids[i] for i in card_index(from_bottom[:4])] == bottom and not from_bottom[4:].any()
    assert not obs_slice(g.observe(1), "DECK_TOP").any() and not obs_slice(g.observe(1), "OPP_DECK_TOP").any()
    d0 = g.state_dict()["players"][0]["deck"]
    varied = 0
    for seed in range(20):
        h = g.clone()
        h.resample(0, seed)
        d = h.state_dict()["players"][0]["deck"]
        assert d[-4:] == d0[-4:]                      # state_dict lists the deck top first
        varied += d[:-4] != d0[:-4]
        assert np.array_equal(h.observe(0), g.observe(0)) and h.check_invariants() == 0
    assert varied > 15


# --- deck --- (docs/rules.md §17.5)
def test_resample_keeps_known_top_and_bottom_deck_positions():
    """Known top (ordered, put there in public) and bottom (put there from hand) deck cards survive resampling,
    for the seat that knows them: same cards at the same positions, same observation."""
    from test_ext_deck import known_deck_position, known_positions
    g = known_deck_position()
    n0 = len(g.state_dict()["players"][0]["deck"])
    assert (n0 - 1, "STT01-003") in known_positions(g, 0, 0)           # the bottom
    assert known_positions(g, 0, 1) == [(0, "STT02-007")] == known_positions(g, 1, 1)   # a top both know
    o = g.observe(0)
    assert obs_slice(o, "DECK_TOP")[n0 - 1] > 0 and obs_slice(o, "OPP_DECK_TOP").reshape(-1)[0] > 0
    for seat in (0, 1):
        facts = [known_positions(g, seat, p) for p in (0, 1)]
        for s in range(10):
            h = g.clone()
            h.resample(seat, s)
            assert [known_positions(h, seat, p) for p in (0, 1)] == facts
            assert h.observe(seat).tobytes() == g.observe(seat).tobytes()


# ---- everything v3 showed stays knowable ----------------------------------------------------
# The float32 layout v3 as it was (csrc/azk_obs.def at 7f9f252): (name, rows, cols).
P, NA, DEFS, OPTS = 24, 1056, 127, 64
V3 = [("PHASE", 1, 6), ("STEP", 1, 12), ("DECIDER", 1, 3), ("MY_TURN", 1, 1), ("FIRST_PLAYER", 1, 1),
      ("TURN", 1, 1), ("DECISIONS", 1, 1), ("RESULT", 1, 4), ("HAND_N", 2, 1), ("DECK_N", 2, 1),
      ("DISCARD_N", 2, 1), ("IKZ_UNTAPPED", 2, 1), ("IKZ_TAPPED", 2, 1), ("IKZ_PILE_N", 2, 1), ("TOKEN", 2, 3),
      ("LOOK_N", 2, 1), ("PLAYED_ENTITIES", 2, 1), ("MULLIGAN_DONE", 2, 1), ("WEAPONS_N", 2, 1),
      ("PLACE_OCCUPIED", P, 1), ("PLACE_CARD", P, 1), ("PLACE_ATTACK", P, 1), ("PLACE_HEALTH", P, 1),
      ("PLACE_DAMAGE", P, 1), ("PLACE_REMAINING", P, 1), ("PLACE_TAPPED", P, 1), ("PLACE_COOLDOWN", P, 1),
      ("PLACE_STATUS", P, 10), ("PLACE_WEAPONS", P, 1), ("PLACE_WEAPON_BONUS", P, 1), ("PLACE_ONCE_USED", P, 8),
      ("HAND", 1, DEFS), ("HAND_SLOTS", 1, 50), ("HAND_COST", 1, 50), ("OPP_HAND_KNOWN", 1, DEFS),
      ("DECK", 1, DEFS), ("DECK_BOTTOM", 1, 50), ("OPP_UNSEEN", 1, DEFS), ("DISCARD", 2, DEFS), ("LOOK", 1, DEFS),
      ("IN_ATTACK", 1, 1), ("ATTACKER", 1, P), ("TARGET", 1, P), ("DEFENDER_USED", 1, 1), ("PROMPT_KIND", 1, 9),
      ("PROMPT_MINE", 1, 1), ("PROMPT_OPTIONAL", 1, 1), ("PROMPT_N", 1, 1), ("PROMPT_SOURCE_SIDE", 1, 2),
      ("PROMPT_SOURCE_CARD", 1, 1), ("PROMPT_PLACING_CARD", 1, 1), ("OPT_VALID", OPTS, 1), ("OPT_CARD", OPTS, 1),
      ("OPT_SIDE", OPTS, 2), ("OPT_ZONE", OPTS, 14), ("OPT_PLACE", OPTS, P), ("OPT_NUMBER", OPTS, 1),
      ("DECK_TOP", 1, 50), ("DECK_OPP_KNOWS", 1, 50), ("OPP_DECK_TOP", 1, 50), ("OPP_DECK_BOTTOM", 1, 50),
      ("MASK", 1, NA)]
F = np.float32


def _q8(v):
    """v3's uint8 encoding, as csrc/obs.c computed it (float32)."""
    return (np.asarray(v, dtype=F) * F(127) + F(128.5)).astype(np.int32).astype(np.uint8)


def _ratio(n, d):
    return np.clip(np.asarray(n).astype(F) / F(d), F(-1), F(1))


def _onehot(v, k, base=0):
    """One-hot of k columns of v - base per row; rows where v - base is outside [0, k) stay 0."""
    v = np.asarray(v).reshape(-1) - base
    out = np.zeros((len(v), k), F)
    ok = (v >= 0) & (v < k)
    out[np.nonzero(ok)[0], v[ok]] = 1
    return out


def _ident(v):
    """v3 identity (definition + 1) / 127 from a v4 id byte (0 stays 0)."""
    return np.asarray(v).astype(F) / F(127)


def _counts(ids, k=DEFS):
    """v3 per-definition counts, count / 4 at most 1, from v4 identity rows."""
    ids = np.atleast_2d(ids)
    out = np.zeros((ids.shape[0], k), F)
    for r, row in enumerate(ids):
        for v in row[row > 0]:
            out[r, v - 1] += 1
    return np.minimum(out, 4) * F(0.25)


def to_v3(d):
    """The v3 slices ({name: float32 (rows, cols)}) from a decoded v4 observation."""
    fl = d["FLAGS"][0]
    pk = int(d["PROMPT_KIND"][0, 0]) - 1
    is_gate = np.array([p % 12 == 11 for p in range(P)])
    has = d["PLACE_CARD"][:, 0] > 0
    health, dmg = d["PLACE_HEALTH"][:, 0], d["PLACE_DAMAGE"][:, 0]
    n_opt = int(d["PROMPT_N"][0, 0])
    num = d["OPT_NUMBER"][:, 0]
    deck_n, opp_deck_n = int(d["DECK_N"][0, 0]), int(d["DECK_N"][1, 0])

    def bottom(top, n):
        out = np.zeros(50, np.int64)
        out[:n] = top[:n][::-1]
        return out

    v = {
        "PHASE": _onehot(d["PHASE"], 6), "STEP": _onehot(d["STEP"], 12), "DECIDER": _onehot(d["DECIDER"], 3),
        "MY_TURN": fl[0], "FIRST_PLAYER": fl[1],
        "TURN": None, "DECISIONS": None,          # exact bytes: TURN_FRAC / DECISIONS_FRAC (below)
        "RESULT": _onehot(d["RESULT"], 4, base=1),
        "HAND_N": _ratio(d["HAND_N"], 50), "DECK_N": _ratio(d["DECK_N"], 50), "DISCARD_N": _ratio(d["DISCARD_N"], 50),
        "IKZ_UNTAPPED": _ratio(d["IKZ_UNTAPPED"], 11), "IKZ_TAPPED": _ratio(d["IKZ_TAPPED"], 11),
        "IKZ_PILE_N": _ratio(d["IKZ_PILE_N"], 10), "TOKEN": _onehot(d["TOKEN"], 3),
        "LOOK_N": _ratio(d["LOOK_N"], 10), "PLAYED_ENTITIES": _ratio(d["PLAYED_ENTITIES"], 10),
        "MULLIGAN_DONE": d["MULLIGAN_DONE"], "WEAPONS_N": _ratio(d["WEAPONS_N"], 10),
        "PLACE_OCCUPIED": has, "PLACE_CARD": _ident(d["PLACE_CARD"]),
        "PLACE_ATTACK": _ratio(d["PLACE_ATTACK"], 10), "PLACE_HEALTH": _ratio(d["PLACE_HEALTH"], 20),
        "PLACE_DAMAGE": _ratio(d["PLACE_DAMAGE"], 20),
        "PLACE_REMAINING": np.where(has & ~is_gate, _ratio(health - dmg, 20), F(0)),
        "PLACE_TAPPED": d["PLACE_FLAGS"][:, 0], "PLACE_COOLDOWN": d["PLACE_FLAGS"][:, 1],
        "PLACE_STATUS": d["PLACE_STATUS"], "PLACE_WEAPONS": np.minimum(d["PLACE_WEAPONS"], 4) * F(0.25),
        "PLACE_WEAPON_BONUS": _ratio(d["PLACE_WEAPON_BONUS"], 10), "PLACE_ONCE_USED": d["PLACE_ONCE_USED"],
        "HAND": _counts(d["HAND_CARD"]), "HAND_SLOTS": _ident(d["HAND_CARD"]),
        "HAND_COST": np.where(d["HAND_CARD"] > 0, _ratio(d["HAND_COST"], 10), F(0)),
        "OPP_HAND_KNOWN": _counts(d["OPP_HAND_KNOWN"]), "DECK": _counts(d["DECK"]),
        "DECK_BOTTOM": _ident(bottom(d["DECK_TOP"][0], deck_n)), "OPP_UNSEEN": _counts(d["OPP_UNSEEN"]),
        "DISCARD": _counts(d["DISCARD"]), "LOOK": _counts(d["LOOK"]),
        "IN_ATTACK": fl[2], "ATTACKER": _onehot(d["ATTACKER"], P, base=1), "TARGET": _onehot(d["TARGET"], P, base=1),
        "DEFENDER_USED": fl[3], "PROMPT_KIND": _onehot(d["PROMPT_KIND"], 9, base=1),
        "PROMPT_MINE": fl[4], "PROMPT_OPTIONAL": fl[5], "PROMPT_N": _ratio(d["PROMPT_N"], 64),
        "PROMPT_SOURCE_SIDE": _onehot(d["PROMPT_SOURCE_SIDE"], 2, base=1),
        "PROMPT_SOURCE_CARD": _ident(d["PROMPT_SOURCE_CARD"]), "PROMPT_PLACING_CARD": _ident(d["PROMPT_PLACING_CARD"]),
        "OPT_VALID": np.arange(OPTS) < n_opt, "OPT_CARD": _ident(d["OPT_CARD"]),
        "OPT_SIDE": _onehot(d["OPT_SIDE"], 2, base=1), "OPT_ZONE": _onehot(d["OPT_ZONE"], 14, base=1),
        "OPT_PLACE": _onehot(d["OPT_PLACE"], P, base=1),
        "OPT_NUMBER": num.astype(F) if pk == S.PROMPT.index("YES_NO") else _ratio(num, 64),
        "DECK_TOP": _ident(d["DECK_TOP"]), "DECK_OPP_KNOWS": d["DECK_OPP_KNOWS"],
        "OPP_DECK_TOP": _ident(d["OPP_DECK_TOP"]), "OPP_DECK_BOTTOM": _ident(bottom(d["OPP_DECK_TOP"][0], opp_deck_n)),
        "MASK": d["MASK"],
    }
    return v


def test_v3_recoverable():
    """Every slice of layout v3 (float32, 5,840 values), as the v3 build
    encoded it in uint8, is rebuilt byte for byte from the v4 observation of
    the same position (docs/observation.md, "What layout v3 held")."""
    z = np.load(FIXTURE)
    obs3, states, off = z["obs"], z["states"], z["state_off"]
    sets = [None, CardSet.from_json(str(EXPANSION_V1))]
    assert sum(r * c for _, r, c in V3) == obs3.shape[-1] == 5840
    seen = {name: 0 for name, _, _ in V3}
    for i in range(len(obs3)):
        g = Game.from_bytes(states[off[i]:off[i + 1]].tobytes(), cards=sets[z["cardset"][i]],
                            decks=tuple(z["decks"][i]))
        for seat in (0, 1):
            o4 = g.observe(seat)
            d = decode(o4)
            want = to_v3(d)
            at = 0
            for name, r, c in V3:
                ref = obs3[i, seat, at:at + r * c]
                at += r * c
                if name in ("TURN", "DECISIONS"):      # v3's byte minus 128, stored as it was
                    got = 128 + d["TURN_FRAC" if name == "TURN" else "DECISIONS_FRAC"].reshape(-1).astype(np.uint8)
                else:
                    got = _q8(np.broadcast_to(np.asarray(want[name], dtype=F).reshape(-1), (r * c,)))
                assert np.array_equal(got, ref), (i, seat, name, np.nonzero(got != ref)[0][:5], got[got != ref][:5],
                                                  ref[got != ref][:5])
                seen[name] += bool((ref != 128).any())
    rare = [n for n in ("PROMPT_KIND", "ATTACKER", "DECK_BOTTOM", "OPP_DECK_TOP", "OPP_HAND_KNOWN", "DECK_OPP_KNOWS",
                        "LOOK", "RESULT", "OPT_CARD", "OPT_PLACE", "OPT_NUMBER", "PLACE_WEAPONS") if seen[n] < 3]
    assert not rare, f"the fixture lacks positions that exercise {rare}"
