"""The core's public C API (csrc/azuki.h), driven through cffi.

Independent of the Cython binding: a module-scoped fixture compiles the C
sources listed in csrc/sources.mk together with a cffi API-mode stub into a
temporary directory and imports the result. The declarations below are copied
from csrc/azuki.h by hand (cffi cannot parse the #includes); in API mode cffi
checks them against the real header when compiling, so a drifted signature or
enum value fails the build.
"""
from __future__ import annotations

import importlib.util
import random
import re
import struct
import sys
from pathlib import Path

import pytest

cffi = pytest.importorskip("cffi")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from azuki import spec_autogen as spec  # noqa: E402

CDEF = """
typedef struct azk_game azk_game;
typedef struct azk_cardset azk_cardset;

typedef enum azk_status {
    AZK_OK = 0,
    AZK_ILLEGAL = 1,
    AZK_TERMINAL = 2,
    AZK_ERR_ARG = 3,
    AZK_ERR_CORRUPT = 4,
    AZK_ERR_CARDSET = 5,
    AZK_ERR_LIMIT = 6
} azk_status;

size_t azk_game_size(void);
int azk_num_actions(void);
const azk_cardset *azk_default_cardset(void);
const char *azk_status_name(azk_status s);
int azk_cardset_find_deck(const azk_cardset *cs, const char *name);

azk_status azk_game_init(azk_game *g, const azk_cardset *cs, uint64_t seed, int deck0, int deck1);
void azk_game_clone(azk_game *dst, const azk_game *src);
void azk_game_set_turn_cap(azk_game *g, int turns);

azk_status azk_step(azk_game *g, const azk_cardset *cs, int action);
int azk_legal_actions(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap);
int azk_legal_mask(const azk_game *g, const azk_cardset *cs, uint8_t *mask);
int azk_is_legal(const azk_game *g, const azk_cardset *cs, int action);

int azk_encode(int type, int p0, int p1);
int azk_decode(int action, int *type, int *p0, int *p1);

int azk_current_player(const azk_game *g);
int azk_phase(const azk_game *g);
int azk_is_terminal(const azk_game *g);
int azk_result(const azk_game *g);
int azk_winner(const azk_game *g);
int azk_turn(const azk_game *g);

uint64_t azk_hash(const azk_game *g);
uint64_t azk_cardset_hash(const azk_cardset *cs);
uint64_t azk_hash_bytes(const void *data, size_t len);
size_t azk_serialized_size(void);
size_t azk_serialize(const azk_game *g, const azk_cardset *cs, uint8_t *out, size_t cap);
azk_status azk_deserialize(azk_game *g, const azk_cardset *cs, const uint8_t *in, size_t len);
int azk_render(const azk_game *g, const azk_cardset *cs, char *out, int cap);
int azk_events(azk_game *g, uint32_t *out, int cap);
const char *azk_event_name(int type);
int azk_num_event_types(void);
"""

HEADER_BYTES = 24          # csrc/state.c: magic, version, reserved, size, reserved, card-set hash
MAGIC = b"AZKS"


def core_sources():
    text = (REPO / "csrc" / "sources.mk").read_text()
    body = text.split("AZK_CORE_SOURCES =", 1)[1]
    return [str(REPO / s) for s in re.findall(r"(\S+\.c)", body)]


@pytest.fixture(scope="module")
def core(tmp_path_factory):
    """(ffi, lib) of a freshly compiled cffi extension over the C core."""
    build = tmp_path_factory.mktemp("cffi_build")
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("_azk_cffi_test", '#include "azuki.h"', sources=core_sources(),
                   include_dirs=[str(REPO / "csrc"), str(REPO / "generated")],
                   extra_compile_args=["-std=c11", "-O1"])
    so = ffi.compile(tmpdir=str(build), verbose=False)
    spec_ = importlib.util.spec_from_file_location("_azk_cffi_test", so)
    mod = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(mod)
    return mod.ffi, mod.lib


class Api:
    """Thin helpers over (ffi, lib) for one test."""

    def __init__(self, ffi, lib):
        self.ffi, self.lib = ffi, lib
        self.cs = lib.azk_default_cardset()
        self.size = lib.azk_game_size()
        self.N = lib.azk_num_actions()
        self._buf = ffi.new("int32_t[]", self.N)

    def new_game(self, seed=1, deck0=0, deck1=1, turn_cap=None):
        raw = self.ffi.new("char[]", self.size)
        g = self.ffi.cast("azk_game *", raw)
        assert self.lib.azk_game_init(g, self.cs, seed, deck0, deck1) == self.lib.AZK_OK
        if turn_cap is not None:
            self.lib.azk_game_set_turn_cap(g, turn_cap)
        return raw, g

    def blank_game(self):
        raw = self.ffi.new("char[]", self.size)
        return raw, self.ffi.cast("azk_game *", raw)

    def raw_bytes(self, raw):
        return bytes(self.ffi.buffer(raw, self.size))

    def legal(self, g):
        n = self.lib.azk_legal_actions(g, self.cs, self._buf, self.N)
        return list(self._buf[0:n])

    def mask(self, g):
        m = self.ffi.new("uint8_t[]", self.N)
        n = self.lib.azk_legal_mask(g, self.cs, m)
        return n, bytes(self.ffi.buffer(m, self.N))

    def serialize(self, g):
        n = self.lib.azk_serialized_size()
        out = self.ffi.new("uint8_t[]", n)
        assert self.lib.azk_serialize(g, self.cs, out, n) == n
        return bytes(self.ffi.buffer(out, n))

    def deserialize(self, g, data: bytes):
        return self.lib.azk_deserialize(g, self.cs, data, len(data))

    def drain(self, g):
        buf = self.ffi.new("uint32_t[]", 256)
        got = []
        while True:
            n = self.lib.azk_events(g, buf, 256)
            if n == 0:
                return got
            got += list(buf[0:n])

    def play(self, g, rng, max_steps=20000, on_step=None):
        """Random legal moves to the end; returns the action sequence."""
        actions = []
        while not self.lib.azk_is_terminal(g):
            legal = self.legal(g)
            assert legal, "a live game must offer at least one action"
            a = rng.choice(legal)
            st = self.lib.azk_step(g, self.cs, a)
            assert st == self.lib.AZK_OK, self.ffi.string(self.lib.azk_status_name(st))
            actions.append(a)
            if on_step:
                on_step(a)
            assert len(actions) < max_steps, "game did not end"
        return actions


@pytest.fixture
def api(core):
    return Api(*core)


@pytest.fixture(scope="module")
def midgame_states(core):
    """Serialized states from a few points of a few seeded games (mulligan,
    main phase, prompts, game over), to exercise the checks on varied bytes."""
    a = Api(*core)
    states = []
    for seed in (11, 12, 13):
        raw, g = a.new_game(seed=seed, turn_cap=30)
        rng = random.Random(seed)
        steps = [0]

        def keep(_a):
            steps[0] += 1
            if steps[0] % 37 == 1:
                states.append(a.serialize(g))
        a.play(g, rng, on_step=keep)
        states.append(a.serialize(g))       # terminal
    return states


# ---- library facts ----------------------------------------------------------------

def test_library_facts(api):
    lib, ffi = api.lib, api.ffi
    assert api.size > 0 and api.N > 0
    assert lib.azk_serialized_size() > HEADER_BYTES + 8
    names = [ffi.string(lib.azk_status_name(s)).decode() for s in range(7)]
    assert names == ["OK", "ILLEGAL", "TERMINAL", "ERR_ARG", "ERR_CORRUPT", "ERR_CARDSET", "ERR_LIMIT"]
    assert lib.azk_cardset_find_deck(api.cs, b"STT01") == 0
    assert lib.azk_cardset_find_deck(api.cs, b"STT02") == 1
    assert lib.azk_cardset_find_deck(api.cs, b"NOPE") < 0
    assert lib.azk_cardset_hash(api.cs) == lib.azk_cardset_hash(lib.azk_default_cardset())


def test_init_rejects_bad_decks(api):
    lib = api.lib
    raw, g = api.blank_game()
    for d0, d1 in ((-1, 0), (0, 2), (99, 0), (0, -5)):
        assert lib.azk_game_init(g, api.cs, 1, d0, d1) == lib.AZK_ERR_ARG
    assert api.raw_bytes(raw) == bytes(api.size)     # untouched


# ---- random games ------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_game_to_the_end(api, seed):
    lib = api.lib
    raw, g = api.new_game(seed=seed, deck0=seed % 2, deck1=(seed // 2) % 2)
    assert not lib.azk_is_terminal(g)
    assert lib.azk_turn(g) >= 0 and lib.azk_current_player(g) in (0, 1)
    phases = {spec.PHASE[lib.azk_phase(g)]}
    actions = api.play(g, random.Random(seed), on_step=lambda a: phases.add(spec.PHASE[lib.azk_phase(g)]))
    assert len(actions) > 20
    assert {"MULLIGAN", "MAIN", "GAME_OVER"} <= phases
    assert lib.azk_is_terminal(g)
    assert lib.azk_current_player(g) == -1
    assert spec.PHASE[lib.azk_phase(g)] == "GAME_OVER"
    res = spec.RESULT[lib.azk_result(g)]
    assert res != "ONGOING"
    assert lib.azk_winner(g) == {"WIN_P0": 0, "WIN_P1": 1}.get(res, -1)
    assert api.legal(g) == []
    # stepping a finished game is refused and changes nothing
    before = api.raw_bytes(raw)
    assert lib.azk_step(g, api.cs, actions[-1]) == lib.AZK_TERMINAL
    assert lib.azk_step(g, api.cs, 0) == lib.AZK_TERMINAL
    assert api.raw_bytes(raw) == before


def test_turn_cap_truncates(api):
    lib = api.lib
    raw, g = api.new_game(seed=5, turn_cap=2)
    # end every turn as soon as possible: the cap is reached quickly
    rng = random.Random(5)
    end_turn = [lib.azk_encode(spec.ACTION_END_TURN, 0, 0)]
    while not lib.azk_is_terminal(g):
        legal = api.legal(g)
        a = end_turn[0] if end_turn[0] in legal else rng.choice(legal)
        assert lib.azk_step(g, api.cs, a) == lib.AZK_OK
    assert spec.RESULT[lib.azk_result(g)] == "TRUNCATED"
    assert lib.azk_winner(g) == -1


def test_mask_agrees_with_list(api):
    lib = api.lib
    raw, g = api.new_game(seed=7, turn_cap=20)
    rng = random.Random(7)
    checked = 0
    while not lib.azk_is_terminal(g):
        legal = api.legal(g)
        n, mask = api.mask(g)
        assert n == len(legal)
        assert [i for i, b in enumerate(mask) if b] == sorted(legal) == legal
        assert set(mask) <= {0, 1}
        for a in legal:
            assert lib.azk_is_legal(g, api.cs, a) == 1
        # a few masked-out ones
        for a in rng.sample(range(api.N), 20):
            assert lib.azk_is_legal(g, api.cs, a) == mask[a]
        # a short output buffer is filled with a prefix
        if len(legal) > 1:
            buf = api.ffi.new("int32_t[]", 1)
            assert lib.azk_legal_actions(g, api.cs, buf, 1) == 1 and buf[0] == legal[0]
        assert lib.azk_step(g, api.cs, rng.choice(legal)) == lib.AZK_OK
        checked += 1
    assert checked > 10
    n, mask = api.mask(g)
    assert n == 0 and not any(mask)


# ---- illegal actions -----------------------------------------------------------------

def _illegal_candidates(api, g):
    legal = set(api.legal(g))
    masked_out = [a for a in range(api.N) if a not in legal]
    return [-1, -2**31, 2**31 - 1, api.N, api.N + 1, 10**6] + masked_out


def test_illegal_actions_change_nothing(api):
    lib = api.lib
    raw, g = api.new_game(seed=9, turn_cap=20)
    rng = random.Random(9)
    probes = 0
    while not lib.azk_is_terminal(g):
        if probes < 12:
            before_raw, before_hash = api.raw_bytes(raw), lib.azk_hash(g)
            cands = _illegal_candidates(api, g)
            assert len(cands) > 6, "expected some masked-out in-range actions"
            for a in cands[:6] + rng.sample(cands[6:], min(40, len(cands) - 6)):
                assert lib.azk_is_legal(g, api.cs, a) == 0
                assert lib.azk_step(g, api.cs, a) == lib.AZK_ILLEGAL, a
                assert lib.azk_hash(g) == before_hash
                assert api.raw_bytes(raw) == before_raw, a
            probes += 1
        assert lib.azk_step(g, api.cs, rng.choice(api.legal(g))) == lib.AZK_OK
    assert probes == 12


def test_all_masked_out_actions_rejected_at_start(api):
    lib = api.lib
    raw, g = api.new_game(seed=10)
    before = api.raw_bytes(raw)
    legal = set(api.legal(g))
    for a in range(api.N):
        if a not in legal:
            assert lib.azk_step(g, api.cs, a) == lib.AZK_ILLEGAL
    assert api.raw_bytes(raw) == before


# ---- determinism and clone -------------------------------------------------------------

def test_determinism(api):
    lib = api.lib

    def run(seed, choices_seed):
        raw, g = api.new_game(seed=seed, turn_cap=40)
        hashes = [lib.azk_hash(g)]
        acts = api.play(g, random.Random(choices_seed), on_step=lambda a: hashes.append(lib.azk_hash(g)))
        return acts, hashes, api.serialize(g)

    a1, h1, s1 = run(21, 99)
    a2, h2, s2 = run(21, 99)
    assert a1 == a2 and h1 == h2 and s1 == s2
    assert len(set(h1)) > len(h1) // 2          # the hash follows the state
    # replaying the recorded actions on a fresh game reproduces every hash
    raw, g = api.new_game(seed=21, turn_cap=40)
    replay = [lib.azk_hash(g)]
    for a in a1:
        assert lib.azk_step(g, api.cs, a) == lib.AZK_OK
        replay.append(lib.azk_hash(g))
    assert replay == h1
    # another seed gives another game
    raw3, g3 = api.new_game(seed=22, turn_cap=40)
    raw1, g1 = api.new_game(seed=21, turn_cap=40)
    assert lib.azk_hash(g3) != lib.azk_hash(g1)
    assert api.serialize(g3) != api.serialize(g1)


def test_clone_is_independent(api):
    lib = api.lib
    raw, g = api.new_game(seed=31)
    rng = random.Random(31)
    for _ in range(15):
        assert lib.azk_step(g, api.cs, rng.choice(api.legal(g))) == lib.AZK_OK
    raw2, g2 = api.blank_game()
    lib.azk_game_clone(g2, g)
    assert lib.azk_hash(g2) == lib.azk_hash(g)
    assert api.legal(g2) == api.legal(g)
    h = lib.azk_hash(g)
    snap = api.raw_bytes(raw)
    a = api.legal(g2)[0]
    assert lib.azk_step(g2, api.cs, a) == lib.AZK_OK
    assert lib.azk_hash(g) == h and api.raw_bytes(raw) == snap
    assert lib.azk_step(g, api.cs, a) == lib.AZK_OK
    assert lib.azk_hash(g) == lib.azk_hash(g2)


# ---- serialization -----------------------------------------------------------------------

def test_serialize_header(api):
    raw, g = api.new_game(seed=3)
    data = api.serialize(g)
    lib = api.lib
    assert len(data) == lib.azk_serialized_size()
    assert data[0:4] == MAGIC
    version, r1, size, r2, set_hash = struct.unpack_from("<HHIIQ", data, 4)
    assert version >= 1 and r1 == 0 and r2 == 0
    assert size == len(data) - HEADER_BYTES - 8
    assert set_hash == lib.azk_cardset_hash(api.cs)
    (checksum,) = struct.unpack_from("<Q", data, len(data) - 8)
    assert checksum == lib.azk_hash_bytes(data, len(data) - 8)
    # too small a buffer: nothing written, 0 returned
    small = api.ffi.new("uint8_t[]", len(data) - 1)
    assert lib.azk_serialize(g, api.cs, small, len(data) - 1) == 0
    assert bytes(api.ffi.buffer(small)) == bytes(len(data) - 1)


def test_round_trip(api, midgame_states):
    lib = api.lib
    rng = random.Random(4)
    for data in midgame_states:
        raw, g = api.blank_game()
        assert api.deserialize(g, data) == lib.AZK_OK
        assert api.serialize(g) == data
        # and it plays on exactly like the original would
        raw2, g2 = api.blank_game()
        assert api.deserialize(g2, data) == lib.AZK_OK
        assert lib.azk_hash(g) == lib.azk_hash(g2)
        assert api.mask(g) == api.mask(g2)
        if not lib.azk_is_terminal(g):
            a = rng.choice(api.legal(g))
            assert lib.azk_step(g, api.cs, a) == lib.AZK_OK
            assert lib.azk_step(g2, api.cs, a) == lib.AZK_OK
            assert lib.azk_hash(g) == lib.azk_hash(g2)


def test_round_trip_preserves_hash_and_legality(api):
    lib = api.lib
    raw, g = api.new_game(seed=8, turn_cap=25)
    rng = random.Random(8)
    n = 0
    while not lib.azk_is_terminal(g):
        if n % 5 == 0:
            data = api.serialize(g)
            raw2, g2 = api.new_game(seed=1000 + n)        # overwrite a different live game
            assert api.deserialize(g2, data) == lib.AZK_OK
            assert lib.azk_hash(g2) == lib.azk_hash(g)
            assert api.legal(g2) == api.legal(g)
            assert lib.azk_current_player(g2) == lib.azk_current_player(g)
            assert lib.azk_turn(g2) == lib.azk_turn(g) and lib.azk_phase(g2) == lib.azk_phase(g)
        assert lib.azk_step(g, api.cs, rng.choice(api.legal(g))) == lib.AZK_OK
        n += 1


def _corruptions(api, data):
    """(label, bytes) variants of a valid serialized state that must be rejected."""
    lib = api.lib
    body = len(data) - 8

    def resum(b):
        b = bytearray(b)
        struct.pack_into("<Q", b, body, lib.azk_hash_bytes(bytes(b[:body]), body))
        return bytes(b)

    def flip(i, mask=0x01):
        b = bytearray(data)
        b[i] ^= mask
        return bytes(b)

    out = [
        ("empty", b""),
        ("one byte", data[:1]),
        ("header only", data[:HEADER_BYTES]),
        ("truncated by 1", data[:-1]),
        ("truncated by 8", data[:-8]),
        ("one extra byte", data + b"\x00"),
        ("doubled", data + data),
        ("all zero", bytes(len(data))),
        ("all 0xff", b"\xff" * len(data)),
        ("wrong magic", flip(0, 0x20)),
        ("wrong magic (resummed)", resum(b"AZKX" + data[4:])),
        ("wrong version", flip(4)),
        ("wrong version (resummed)", resum(flip(4, 0x02))),
        ("reserved field set (resummed)", resum(flip(6))),
        ("wrong payload size (resummed)", resum(flip(8))),
        ("reserved field 2 set (resummed)", resum(flip(12))),
        ("checksum flipped", flip(len(data) - 1, 0x80)),
        ("payload garbage (resummed)", resum(data[:HEADER_BYTES] + b"\xff" * (body - HEADER_BYTES) + data[body:])),
    ]
    for i in (HEADER_BYTES, HEADER_BYTES + 100, (HEADER_BYTES + body) // 2, body - 1):
        out.append((f"payload byte {i} flipped", flip(i)))
    return out


def test_corrupt_bytes_rejected(api, midgame_states):
    lib = api.lib
    for data in midgame_states[:3] + midgame_states[-1:]:
        raw, g = api.new_game(seed=77)
        before = api.raw_bytes(raw)
        for label, bad in _corruptions(api, data):
            st = api.deserialize(g, bad)
            assert st == lib.AZK_ERR_CORRUPT, (label, st)
            assert api.raw_bytes(raw) == before, label
        # sanity: the intact bytes are accepted
        assert api.deserialize(g, data) == lib.AZK_OK


def test_other_cardset_rejected(api, midgame_states):
    lib = api.lib
    data = bytearray(midgame_states[0])
    body = len(data) - 8
    struct.pack_into("<Q", data, 16, lib.azk_cardset_hash(api.cs) ^ 1)
    struct.pack_into("<Q", data, body, lib.azk_hash_bytes(bytes(data[:body]), body))
    raw, g = api.new_game(seed=78)
    before = api.raw_bytes(raw)
    assert api.deserialize(g, bytes(data)) == lib.AZK_ERR_CARDSET
    assert api.raw_bytes(raw) == before


def test_deserialize_null_args(api, midgame_states):
    lib, ffi = api.lib, api.ffi
    data = midgame_states[0]
    raw, g = api.new_game(seed=79)
    before = api.raw_bytes(raw)
    assert lib.azk_deserialize(g, api.cs, ffi.NULL, len(data)) == lib.AZK_ERR_ARG
    assert lib.azk_deserialize(g, ffi.NULL, data, len(data)) == lib.AZK_ERR_ARG
    assert lib.azk_deserialize(ffi.NULL, api.cs, data, len(data)) == lib.AZK_ERR_ARG
    assert api.raw_bytes(raw) == before


# ---- encoding ---------------------------------------------------------------------------

def test_encode_decode_inverse(api):
    lib, ffi = api.lib, api.ffi
    t, p0, p1 = ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
    types = []
    prev = None
    for a in range(api.N):
        assert lib.azk_decode(a, t, p0, p1) == 0
        assert lib.azk_encode(t[0], p0[0], p1[0]) == a
        assert 0 <= t[0] < len(spec.ACTION) and p0[0] >= 0 and p1[0] >= 0
        key = (t[0], p0[0], p1[0])
        assert prev is None or key > prev        # flat space is ordered by (type, p0, p1)
        prev = key
        types.append(t[0])
    assert sorted(set(types)) == list(range(len(spec.ACTION)))   # every action type has codes
    # the simplest types are single codes
    for name in ("NO_OP", "END_TURN", "MULLIGAN_KEEP", "MULLIGAN_SHUFFLE"):
        assert types.count(getattr(spec, "ACTION_" + name)) == 1
    for a in (-1, api.N, api.N + 7, -2**31, 2**31 - 1):
        t[0] = p0[0] = p1[0] = 12345
        assert lib.azk_decode(a, t, p0, p1) == -1
    for args in ((-1, 0, 0), (len(spec.ACTION), 0, 0), (0, 1, 0), (0, 0, 1), (0, -1, 0),
                 (spec.ACTION_END_TURN, 0, 1), (spec.ACTION_CHOOSE, -1, 0), (1, 10**6, 0)):
        assert lib.azk_encode(*args) == -1, args


# ---- render and events ---------------------------------------------------------------

def test_render(api):
    lib, ffi = api.lib, api.ffi
    raw, g = api.new_game(seed=41)
    before = api.raw_bytes(raw)
    buf = ffi.new("char[]", 8192)
    n = lib.azk_render(g, api.cs, buf, 8192)
    text = ffi.string(buf).decode()
    assert n == len(text) > 100
    assert text.startswith(f"turn {lib.azk_turn(g)}")
    assert "p0.leader" in text and "p1.leader" in text and "p0.garden[0]" in text and "p1.alley[4]" in text
    assert "STT01-001" in text and "STT02-001" in text     # the two leaders of decks 0 and 1
    assert api.raw_bytes(raw) == before                     # rendering changes nothing
    # truncation: always NUL-terminated within cap
    small = ffi.new("char[]", 16)
    m = lib.azk_render(g, api.cs, small, 16)
    assert m == 15 and ffi.string(small).decode() == text[:15]
    assert lib.azk_render(g, api.cs, ffi.NULL, 100) == 0
    assert lib.azk_render(g, api.cs, buf, 0) == 0
    # after play the text follows the state
    rng = random.Random(41)
    api.play(g, rng)
    n2 = lib.azk_render(g, api.cs, buf, 8192)
    assert "GAME_OVER" in ffi.string(buf).decode()[:n2]


def test_events_drain(api):
    lib, ffi = api.lib, api.ffi
    raw, g = api.new_game(seed=51, turn_cap=30)
    n_types = lib.azk_num_event_types()
    names = [ffi.string(lib.azk_event_name(i)).decode() for i in range(n_types)]
    assert len(set(names)) == n_types and "DRAWN" in names and "GAME_OVER" in names
    assert lib.azk_event_name(-1) == ffi.NULL and lib.azk_event_name(n_types) == ffi.NULL

    assert api.drain(g) == []              # setup draws are not logged (engine.c: "not news")
    rng = random.Random(51)
    seen = []
    # play until a step logs at least two events, then drain it in parts
    while True:
        assert lib.azk_step(g, api.cs, rng.choice(api.legal(g))) == lib.AZK_OK
        h = lib.azk_hash(g)
        buf1 = ffi.new("uint32_t[]", 1)
        got1 = lib.azk_events(g, buf1, 1)
        rest = api.drain(g)
        assert lib.azk_hash(g) == h        # the log is outside the hashed state
        if got1:
            seen.append(buf1[0])
        seen += rest
        assert api.drain(g) == []          # drained
        if got1 and rest:
            break
    api.play(g, rng, on_step=lambda _a: seen.extend(api.drain(g)))
    seen += api.drain(g)
    kinds = [names[e & 0xFF] for e in seen]
    assert all((e & 0xFF) < n_types for e in seen)
    assert all(((e >> 8) & 3) in (0, 1, 3) for e in seen)
    assert "DRAWN" in kinds and "TURN_START" in kinds
    assert kinds[-1] == "GAME_OVER"
    assert api.drain(g) == []
    # draining with cap 0 / NULL takes nothing
    assert lib.azk_events(g, ffi.NULL, 0) == 0


def test_events_do_not_affect_hash_or_serialization(api):
    lib = api.lib
    raw1, g1 = api.new_game(seed=61)
    raw2, g2 = api.new_game(seed=61)
    api.drain(g1)                          # g2 keeps its log
    assert lib.azk_hash(g1) == lib.azk_hash(g2)
    assert api.serialize(g1) == api.serialize(g2)
