"""The core's public C API (csrc/azuki.h), driven through cffi.

Independent of the Cython binding: a module-scoped fixture compiles the C
sources listed in csrc/sources.mk together with a cffi API-mode stub into a
temporary directory and imports the result. The declarations are csrc/azuki.h
itself, read and stripped of what cffi cannot parse (comments, #includes,
#defines, the C++ guards) by header_cdef(); in API mode cffi checks them
against the real header when compiling, so every function the header declares
is callable here.
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
pytestmark = pytest.mark.slow    # compiles the core (cffi): make quick-test skips it, make test runs it

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from azuki import spec_autogen as spec  # noqa: E402

HEADER = REPO / "csrc" / "azuki.h"


def header_cdef(text: str) -> str:
    """The declarations of a C header as cffi's cdef() takes them: comments,
    the `#ifdef __cplusplus` guards (and what they hold), #include / #define /
    #if lines (with their continuations) removed."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"#\s*ifdef\s+__cplusplus.*?#\s*endif[^\n]*", "", text, flags=re.S)
    out, cont = [], False
    for line in text.splitlines():
        directive = cont or line.lstrip().startswith("#")
        cont = directive and line.rstrip().endswith("\\")
        if not directive and line.strip():
            out.append(line)
    return "\n".join(out) + "\n"


CDEF = header_cdef(HEADER.read_text())
# every function csrc/azuki.h declares (name before its parameter list)
HEADER_FUNCTIONS = sorted(set(re.findall(r"\b(azk_\w+)\s*\(", CDEF)))

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


# ---- the header itself ------------------------------------------------------------------

def test_every_header_function_is_callable(api):
    """The cdef is csrc/azuki.h: each function it declares is in the library."""
    assert "azk_game_setup" in HEADER_FUNCTIONS and "azk_export" in HEADER_FUNCTIONS
    missing = [f for f in HEADER_FUNCTIONS if not callable(getattr(api.lib, f, None))]
    assert missing == []


def test_header_cdef_strips_preprocessor():
    text = ('/* c */\n#ifndef X\n#define X\n#include <stdint.h>\n#ifdef __cplusplus\nextern "C" {\n#endif\n'
            '#define M(a) \\\n   (a)\nint f(void); // tail\n#ifdef __cplusplus\n}\n#endif\n#endif\n')
    assert header_cdef(text).split() == ["int", "f(void);"]


# ---- layouts (csrc/azk_export.def) -----------------------------------------------------

def _layout(api, kind):
    lib, ffi = api.lib, api.ffi
    num = getattr(lib, f"azk_{kind}_num_fields")()
    field = getattr(lib, f"azk_{kind}_field")
    name = getattr(lib, f"azk_{kind}_field_name")
    off, cnt = ffi.new("int *"), ffi.new("int *")
    out = {}
    for i in range(num):
        assert field(i, off, cnt) == 0
        out[ffi.string(name(i)).decode()] = (off[0], cnt[0])
    assert field(-1, off, cnt) == -1 and field(num, off, cnt) == -1
    assert name(-1) == ffi.NULL and name(num) == ffi.NULL
    return out


@pytest.mark.parametrize("kind,names", [("export", spec.EXPORT), ("plan", spec.PLAN)])
def test_layouts_are_declared_once(api, kind, names):
    lib = api.lib
    lay = _layout(api, kind)
    assert tuple(lay) == tuple(names)              # spec_autogen reads the same .def
    at = 0
    for n, (off, cnt) in lay.items():              # blocks follow one another
        assert off == at and cnt >= 1, n
        at += cnt
    assert at == getattr(lib, f"azk_{kind}_size")()
    assert getattr(lib, f"azk_{kind}_version")() >= 1
    N = lib.azk_num_cards()
    assert lay["CARD_DEF"][1] == N


class Export:
    """An azk_export of a game, read by field name."""

    def __init__(self, api, g):
        self.lay = _layout(api, "export")
        size = api.lib.azk_export_size()
        buf = api.ffi.new("int32_t[]", size)
        assert api.lib.azk_export(g, api.cs, buf, size) == size
        self.w = list(buf)

    def __getitem__(self, name):
        off, cnt = self.lay[name]
        return self.w[off] if cnt == 1 else self.w[off:off + cnt]

    def plist(self, name, p):
        off, cnt = self.lay[name]
        cap = cnt // 2
        n = self[name + "_N"][p]
        return self.w[off + p * cap:off + p * cap + n]


def _main_phase_game(api, seed, steps=60):
    lib = api.lib
    raw, g = api.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if lib.azk_is_terminal(g):
            break
        lib.azk_step(g, api.cs, rng.choice(api.legal(g)))
    while not lib.azk_is_terminal(g) and spec.PHASE[lib.azk_phase(g)] != "MAIN":
        lib.azk_step(g, api.cs, rng.choice(api.legal(g)))
    return raw, g


def test_export_agrees_with_queries(api):
    lib, ffi = api.lib, api.ffi
    for seed in (3, 4, 5):
        raw, g = _main_phase_game(api, seed)
        x = Export(api, g)
        assert x["VERSION"] == lib.azk_export_version() and x["SIZE"] == lib.azk_export_size()
        N = x["NUM_CARDS"]
        assert N == lib.azk_num_cards() and x["PLAYERS"] == 2 and x["CARDS_PER_PLAYER"] * 2 == N
        assert x["TURN"] == lib.azk_turn(g) and x["PHASE"] == lib.azk_phase(g)
        assert x["RESULT"] == lib.azk_result(g) and x["WINNER"] == lib.azk_winner(g)
        assert x["CURRENT_PLAYER"] == lib.azk_current_player(g) and x["ACTIVE"] == lib.azk_active_player(g)
        assert x["FIRST_PLAYER"] == lib.azk_first_player(g) and x["TURN_CAP"] == lib.azk_turn_cap(g)
        assert x["DECISION_CAP"] == lib.azk_decision_cap(g) and x["DECISIONS"] == lib.azk_decisions(g)
        for c in range(N):
            assert x["CARD_DEF"][c] == lib.azk_card_definition(g, c)
            assert x["CARD_ATTACK"][c] == lib.azk_card_attack(g, api.cs, c)
            assert x["CARD_HEALTH"][c] == lib.azk_card_health(g, api.cs, c)
            assert x["CARD_STATUSES"][c] == lib.azk_card_statuses(g, api.cs, c)
            assert x["CARD_OWNER"][c] == c // x["CARDS_PER_PLAYER"]
        seen = set()
        for p in range(2):
            for name, zone in (("DECK", "DECK"), ("HAND", "HAND"), ("DISCARD", "DISCARD"), ("WEAPONS", "WEAPON"),
                               ("IKZ_AREA", "IKZ_AREA"), ("IKZ_PILE", "IKZ_PILE"), ("LOOK", "LOOK")):
                for i, c in enumerate(x.plist(name, p)):
                    assert x["CARD_ZONE"][c] == spec.ZONE.index(zone) and x["CARD_POS"][c] == i
                    seen.add(c)
            for row in ("GARDEN", "ALLEY"):
                off, cnt = x.lay[row]
                for s in range(cnt // 2):
                    c = x.w[off + p * (cnt // 2) + s]
                    if c >= 0:
                        assert x["CARD_ZONE"][c] == spec.ZONE.index(row) and x["CARD_POS"][c] == s
                        seen.add(c)
        assert len(seen) <= N
        assert x["PROMPT_PENDING"] == (spec.PHASE[lib.azk_phase(g)] == "PROMPT")
    # out-of-range cards
    assert lib.azk_card_definition(g, -1) == -1 and lib.azk_card_definition(g, N) == -1
    assert lib.azk_card_statuses(g, api.cs, N) == -1 and lib.azk_card_statuses(g, api.cs, -5) == -1
    assert lib.azk_card_attack(g, api.cs, N) == 0 and lib.azk_card_health(g, api.cs, -1) == 0


def test_export_bad_arguments_write_nothing(api):
    lib, ffi = api.lib, api.ffi
    raw, g = api.new_game(seed=7)
    size = lib.azk_export_size()
    buf = ffi.new("int32_t[]", size + 4)
    for i in range(size + 4):
        buf[i] = 12345
    before = api.raw_bytes(raw)
    for cap in (-1, 0, 1, size - 1):
        assert lib.azk_export(g, api.cs, buf, cap) == -1
    assert lib.azk_export(ffi.NULL, api.cs, buf, size) == -1
    assert lib.azk_export(g, ffi.NULL, buf, size) == -1
    assert lib.azk_export(g, api.cs, ffi.NULL, size) == -1
    assert all(buf[i] == 12345 for i in range(size + 4))
    assert lib.azk_export(g, api.cs, buf, size + 4) == size       # a larger buffer is fine
    assert buf[size] == 12345                                    # and nothing past the size
    assert api.raw_bytes(raw) == before                           # reading changes nothing


def test_event_unpack(api):
    lib, ffi = api.lib, api.ffi
    t, p, c, v = (ffi.new("int *") for _ in range(4))
    for typ, pl, card, val in ((3, 0, 17, 5), (0, 3, 0xFF, -1), (27, 1, 125, -8192), (1, 3, 0, 8191)):
        e = typ | pl << 8 | card << 10 | (val & 0x3FFF) << 18
        assert lib.azk_event_unpack(e, t, p, c, v) == 0
        assert (t[0], p[0], c[0], v[0]) == (typ, -1 if pl == 3 else pl, -1 if card == 0xFF else card, val)
    assert lib.azk_event_unpack(0, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == 0


# ---- setup from a plan -------------------------------------------------------------------

def plan_from_export(api, x):
    """A plan reproducing the main-phase position of export x."""
    lay = _layout(api, "plan")
    w = [-1] * api.lib.azk_plan_size()

    def put(name, vals):
        off, cnt = lay[name]
        vals = vals if isinstance(vals, list) else [vals]
        assert len(vals) <= cnt
        w[off:off + len(vals)] = vals

    put("VERSION", api.lib.azk_plan_version())
    for n in ("TURN", "ACTIVE", "FIRST_PLAYER", "TURN_CAP", "DECISION_CAP"):
        put(n, x[n])
    for n in ("CARD_DEF", "CARD_ZONE", "CARD_FLAGS", "CARD_DAMAGE", "CARD_ONCE_USED", "CARD_HOLDER", "CARD_SEEN",
              "PLAYED_ENTITIES"):
        put(n, x[n])
    for n in ("DECK", "HAND", "DISCARD", "WEAPONS", "IKZ_AREA", "IKZ_PILE", "GARDEN", "ALLEY"):
        assert lay[n][1] == x.lay[n][1]
        if n not in ("GARDEN", "ALLEY"):
            put(n + "_N", x[n + "_N"])
        put(n, x[n])
    live = [i for i in range(x["EFFECTS_N"]) if x["FX_LIVE"][i]]
    put("EFFECTS_N", len(live))
    for n in ("FX_CARD", "FX_KIND", "FX_DURATION", "FX_CREATOR", "FX_AMOUNT", "FX_STATUS"):
        put(n, [x[n][i] for i in live])
    return w, lay


def _setup(api, g, words, detail=None):
    arr = api.ffi.new("int32_t[]", words) if words else api.ffi.NULL
    d = detail if detail is not None else api.ffi.new("int *")
    return api.lib.azk_game_setup(g, api.cs, arr, len(words), d), d[0]


def test_setup_reproduces_an_exported_position(api):
    lib = api.lib
    for seed in (21, 22, 23, 24):
        raw, g = _main_phase_game(api, seed, steps=40 + seed)
        if lib.azk_is_terminal(g):
            continue
        x = Export(api, g)
        if any(x.plist("LOOK", p) for p in (0, 1)) or 8 in x["CARD_ZONE"]:  # nothing a plan can hold
            continue
        words, _ = plan_from_export(api, x)
        raw2, g2 = api.new_game(seed=seed + 100)
        st, detail = _setup(api, g2, words)
        assert (st, detail) == (lib.AZK_OK, 0)
        assert lib.azk_check_invariants(g2, api.cs) == 0
        assert api.drain(g2) == []                                # setup is not news
        y = Export(api, g2)
        for n in ("CARD_DEF", "CARD_ZONE", "CARD_POS", "CARD_HOLDER", "CARD_FLAGS", "CARD_DAMAGE", "CARD_SEEN", "DECK", "HAND",
                  "DISCARD", "WEAPONS", "GARDEN", "ALLEY", "IKZ_AREA", "IKZ_PILE", "TURN", "ACTIVE", "CARD_ATTACK",
                  "CARD_HEALTH", "CARD_STATUSES"):
            assert y[n] == x[n], n
        assert spec.PHASE[lib.azk_phase(g2)] in ("MAIN", "PROMPT", "GAME_OVER")
        assert api.legal(g2) or lib.azk_is_terminal(g2)


def test_setup_rejects_bad_lengths_and_arguments(api):
    lib, ffi = api.lib, api.ffi
    raw, g = _main_phase_game(api, 31)
    words, lay = plan_from_export(api, Export(api, g))
    raw2, g2 = api.new_game(seed=32)
    before = api.raw_bytes(raw2)
    d = ffi.new("int *")
    for bad in (words[:-1], words + [0], [], words[:10]):
        assert _setup(api, g2, bad, d)[0] == lib.AZK_ERR_ARG
    arr = ffi.new("int32_t[]", words)
    assert lib.azk_game_setup(ffi.NULL, api.cs, arr, len(words), d) == lib.AZK_ERR_ARG
    assert lib.azk_game_setup(g2, ffi.NULL, arr, len(words), d) == lib.AZK_ERR_ARG
    assert lib.azk_game_setup(g2, api.cs, ffi.NULL, len(words), d) == lib.AZK_ERR_ARG
    assert lib.azk_game_setup(g2, api.cs, arr, len(words), ffi.NULL) == lib.AZK_OK   # detail is optional
    assert api.raw_bytes(raw2) != before
    raw3, g3 = api.new_game(seed=32)
    assert api.raw_bytes(raw3) == before
    bad = list(words)
    bad[lay["VERSION"][0]] = 999
    assert _setup(api, g3, bad) == (lib.AZK_ERR_ARG, 0)
    assert api.raw_bytes(raw3) == before


def test_setup_rejects_out_of_range_words(api):
    """Each word set to a hostile value: refused with its index (the game
    untouched), or - when the value happens to be valid - a checked position."""
    lib = api.lib
    raw, g = _main_phase_game(api, 41)
    words, lay = plan_from_export(api, Export(api, g))
    raw2, g2 = api.new_game(seed=42)
    before = api.raw_bytes(raw2)
    N = lib.azk_num_cards()
    named = {"TURN": 0, "ACTIVE": 2, "FIRST_PLAYER": -1, "TURN_CAP": 0, "DECISION_CAP": 70000,
             "CARD_DEF": 200, "CARD_ZONE": 99, "CARD_FLAGS": 16, "CARD_DAMAGE": -1, "CARD_ONCE_USED": 256,
             "CARD_HOLDER": N, "PLAYED_ENTITIES": 256, "DECK_N": 51, "HAND_N": -1, "IKZ_PILE_N": 11,
             "DECK": N + 7, "GARDEN": 2 ** 31 - 1, "EFFECTS_N": 49, "FX_CARD": N}
    for name, value in named.items():
        off, _ = lay[name]
        bad = list(words)
        bad[off] = value
        st, detail = _setup(api, g2, bad)
        assert st == lib.AZK_ERR_ARG, name
        assert detail == off or detail < 0, (name, detail)
        assert api.raw_bytes(raw2) == before, name
    rng = random.Random(43)
    hostile = (-2 ** 31, -2, -1, 0, 1, 2, 7, 15, 62, 63, 125, 126, 255, 256, 9999, 10000, 2 ** 31 - 1)
    for _ in range(400):
        bad = list(words)
        for _k in range(rng.choice((1, 1, 2, 3))):
            bad[rng.randrange(len(bad))] = rng.choice(hostile)
        raw3, g3 = api.new_game(seed=44)
        b3 = api.raw_bytes(raw3)
        st, detail = _setup(api, g3, bad)
        if st == lib.AZK_OK:
            assert lib.azk_check_invariants(g3, api.cs) == 0
        else:
            assert st == lib.AZK_ERR_ARG and api.raw_bytes(raw3) == b3
            assert detail < 0 or 0 <= detail < len(bad)
            if detail < 0:
                assert lib.azk_invariant_name(detail) != api.ffi.NULL


def test_setup_rejects_inconsistent_positions(api):
    """Words each in range, position impossible: the invariant code comes back."""
    lib = api.lib
    raw, g = _main_phase_game(api, 51)
    x = Export(api, g)
    words, lay = plan_from_export(api, x)
    raw2, g2 = api.new_game(seed=52)
    before = api.raw_bytes(raw2)
    # a hand card listed twice: one card in two places
    hand = x.plist("HAND", 0)
    deck = x.plist("DECK", 0)
    if hand and deck:
        bad = list(words)
        bad[lay["DECK"][0]] = hand[0]
        st, detail = _setup(api, g2, bad)
        assert st == lib.AZK_ERR_ARG and detail < 0
        assert api.raw_bytes(raw2) == before
    # a leader moved to the hand zone
    bad = list(words)
    bad[lay["CARD_ZONE"][0] + 0] = spec.ZONE.index("HAND")
    st, detail = _setup(api, g2, bad)
    assert st == lib.AZK_ERR_ARG and detail < 0
    assert api.raw_bytes(raw2) == before
