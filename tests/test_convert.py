"""Tests for the card-set transpiler `python -m azuki.convert`.

Every bad-input class is exercised through the command line (a subprocess, so
exit status, stderr and the file system are observed exactly as a user sees
them) and checked for the documented contract:

* exit status 2;
* stderr names the file, the JSON path and the problem
  (`error: FILE: PATH: MESSAGE`), and shows no Python traceback;
* nothing is written: the --out directory keeps exactly its previous files,
  byte for byte, and gains no new file (not even a temporary one).

Bad inputs are built by loading the shipped azuki/data/cards.json, mutating the
dict and writing it to tmp_path. The in-process API (load_cardset raising
ConvertError with .problems) is covered as well, plus determinism, --check,
--validate and the "do not edit" stamps of the generated files.
"""
from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "azuki" / "data" / "cards.json"
GENERATED = ("generated/cards_autogen.c", "generated/cards_autogen.h", "azuki/spec_autogen.py")

sys.path.insert(0, str(REPO))
from azuki.convert import ConvertError, Problem, load_cardset  # noqa: E402


# ---- helpers -------------------------------------------------------------------

def run_cli(*args, cwd=REPO):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "azuki.convert", *map(str, args)],
                          cwd=str(cwd), env=env, capture_output=True, text=True, timeout=60)


def snapshot(root: Path):
    """Every file (bytes) and directory under root, hidden ones included."""
    files, dirs = {}, set()
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            dirs.add(os.path.relpath(os.path.join(dirpath, d), root))
        for f in filenames:
            p = os.path.join(dirpath, f)
            files[os.path.relpath(p, root)] = Path(p).read_bytes()
    return files, dirs


@pytest.fixture(scope="module")
def base_doc():
    return json.loads(CARDS.read_text())


@pytest.fixture
def doc(base_doc):
    return copy.deepcopy(base_doc)


def card_index(doc, cid):
    return next(i for i, c in enumerate(doc["cards"]) if c["id"] == cid)


def prepared_out(tmp_path):
    """An --out directory holding stale copies of every generated file plus a
    sentinel, so both 'no new file' and 'no file replaced' are observable."""
    out = tmp_path / "out"
    for rel in GENERATED:
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"/* old contents of " + rel.encode() + b" */\n")
    (out / "sentinel.txt").write_bytes(b"keep me\x00\xff")
    return out


def write_content(path, content):
    """Write a card-set file: a dict as JSON, bytes as they are, a str as text; returns `path`."""
    if isinstance(content, dict):
        path.write_text(json.dumps(content, indent=1))
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def assert_rejected(tmp_path, content, path, message, name="bad.json"):
    """Run the CLI on `content` (a dict, or raw str/bytes) and check the error
    contract. `path` is the expected JSON path ('' for whole-file problems);
    `message` a regex that must match the message part of that line."""
    bad = write_content(tmp_path / name, content)
    out = prepared_out(tmp_path)
    before = snapshot(out)
    r = run_cli(bad, "--out", out)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.stdout == "", r.stdout
    check_lines(r.stderr, bad, path, message)
    assert snapshot(out) == before, "the out directory changed"
    return r.stderr


# ---- the bad-input table ----------------------------------------------------------
#
# (id, build, json path, message regex, how). `build(doc)` mutates a fresh copy
# of cards.json and returns what to write: the dict itself, or raw str/bytes.
# A path of "" means a whole-file problem (printed as `file: message`).
# how="cli": run through `python -m azuki.convert` (all such runs are started
# together, in parallel, by the `cli_results` fixture); how="api": through
# load_cardset() in-process (cheaper, same checks on file/path/message).

def _text_replace(old, new):
    def build(doc):
        text = json.dumps(doc)
        assert old in text
        return text.replace(old, new, 1)
    return build


def _set(*keys, value):
    def build(doc):
        node = doc
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
        return doc
    return build


def _del(*keys):
    def build(doc):
        node = doc
        for k in keys[:-1]:
            node = node[k]
        del node[keys[-1]]
        return doc
    return build


def _nested(depth):
    def build(doc):
        nest = 1
        for _ in range(depth):
            nest = {"a": nest}
        doc["description"] = nest          # the depth check runs before the schema
        return doc
    return build


def _deck_main(k, **changes):
    """Change decks[k].main: NAME=n sets a count, NAME=None removes, and
    rename=(old, new) moves a count to another id."""
    def build(doc):
        main = doc["decks"][k]["main"]
        ren = changes.get("rename")
        if ren:
            main[ren[1]] = main.pop(ren[0])
        for cid, n in changes.items():
            if cid != "rename":
                main[cid.replace("_", "-")] = n
        return doc
    return build


def _effect(card, mutate):
    def build(doc):
        mutate(doc["cards"][card]["abilities"][0]["effect"])
        return doc
    return build


def _more_than_four(doc):
    main = doc["decks"][0]["main"]
    main["STT01-006"] = 5                  # 2 -> 5 ...
    for cid in ("STT01-010", "STT01-011", "STT01-016"):
        main[cid] -= 1                     # ... and keep the deck at 50
    assert sum(main.values()) == 50
    return doc


def _deep_value(doc):
    v = 1
    for _ in range(6):
        v = {"add": [1, v]}
    doc["cards"][11]["abilities"][0]["effect"][0]["mill"] = v
    return doc


def _malformed(doc):
    text = json.dumps(doc, indent=1)
    return text[: len(text) // 2] + "}, ]" + text[len(text) // 2:]


# card indices refer to the shipped set (checked by test_table_indices)
BAD = [
    # malformed input
    ("malformed_json", _malformed, "", r"^malformed JSON: .* at line \d+ column \d+$", "cli"),
    ("truncated_json", lambda d: json.dumps(d)[:-200], "", r"^malformed JSON", "api"),
    ("empty_file", lambda d: "", "", r"^malformed JSON", "api"),
    ("nan", _text_replace('"attack": 1,', '"attack": NaN,'), "", r"^malformed JSON: NaN is not valid JSON$", "api"),
    ("not_utf8", lambda d: json.dumps(d).encode().replace(b'"starter"', b'"st\xff\xfeer"', 1), "",
     r"^not UTF-8 text", "cli"),
    ("deep_nesting_recursion", lambda d: "[" * 100_000 + "]" * 100_000, "", r"^malformed JSON: nested too deeply$", "cli"),
    ("deep_nesting_over_limit", _nested(80), "", r"^JSON nested deeper than 64 levels$", "cli"),
    ("file_too_large", _set("description", value="x" * (4 << 20)), "", r"^file larger than \d+ bytes$", "cli"),
    ("huge_integer_digits", _text_replace('"attack": 1,', '"attack": 1' + "0" * 5000 + ","), "",
     r"^malformed JSON: .*digits", "cli"),
    ("huge_integer", _set("cards", 4, "attack", value=10 ** 30), "cards[4].attack",
     r"^1000000000000000000000000000000 is greater than the maximum of 99$", "cli"),
    ("huge_float", _text_replace('"health": 20,', '"health": 1e400,'), "cards[0].health",
     r"^inf is not of type 'integer'$", "api"),
    # schema violations
    ("attack_three", _set("cards", 12, "attack", value="three"), "cards[12].attack",
     r"^'three' is not of type 'integer'$", "cli"),
    ("boolean_cost", _set("cards", 12, "cost", value=True), "cards[12].cost", r"^True is not of type 'integer'$", "api"),
    ("missing_field", _del("cards", 3, "name"), "cards[3]", r"^'name' is a required property$", "cli"),
    ("missing_top_level", _del("decks"), "(root)", r"^'decks' is a required property$", "api"),
    ("unknown_field", _set("cards", 3, "colour", value="red"), "cards[3]",
     r"^Additional properties are not allowed \('colour' was unexpected\)$", "cli"),
    ("wrong_format", _set("format", value="azuki-cards/2"), "format", r"'azuki-cards/1' was expected", "api"),
    ("negative_cost", _set("cards", 5, "cost", value=-1), "cards[5].cost", r"^-1 is less than the minimum of 0$", "api"),
    ("unknown_keyword", _set("cards", 9, "keywords", value=["charge", "flying"]), "cards[9].keywords[1]",
     r"^'flying' is not one of \[.*'charge'", "cli"),
    ("unknown_card_type", _set("cards", 4, "card_type", value="artifact"), "cards[4].card_type",
     r"^'artifact' is not one of", "api"),
    ("bad_id_pattern", _set("cards", 4, "id", value="has space"), "cards[4].id", r"does not match", "api"),
    # semantic problems
    ("duplicate_id", _set("cards", 3, "id", value="STT01-003"), "cards[3].id",
     r"^duplicate card id 'STT01-003' \(first at cards\[2\]\)$", "cli"),
    ("duplicate_deck_name", _set("decks", 1, "name", value="STT01"), "decks[1].name",
     r"^duplicate deck name 'STT01'$", "api"),
    ("deck_of_49", _deck_main(0, STT01_006=1), "decks[0].main",
     r"^a main deck has exactly 50 cards, this one has 49$", "cli"),
    ("deck_of_51", _deck_main(0, STT01_006=3), "decks[0].main",
     r"^a main deck has exactly 50 cards, this one has 51$", "cli"),
    ("ikz_pile_of_9", _set("decks", 0, "ikz", "IKZ-001", value=9), "decks[0].ikz",
     r"^an IKZ pile has exactly 10 cards, this one has 9$", "api"),
    ("more_than_four_copies", _more_than_four, "decks[0].main.STT01-006",
     r"^5 copies \(at most 4 of a card\)$", "cli"),
    ("dangling_id_in_main", _deck_main(0, rename=("STT01-006", "NOPE-001")), "decks[0].main.NOPE-001",
     r"^unknown card id 'NOPE-001'$", "cli"),
    ("dangling_leader", _set("decks", 1, "leader", value="GHOST-1"), "decks[1].leader",
     r"^unknown card id 'GHOST-1'$", "api"),
    ("entity_as_leader", _set("decks", 0, "leader", value="STT01-003"), "decks[0].leader",
     r"^STT01-003 is a entity, expected leader$", "cli"),
    ("leader_in_main", _deck_main(0, rename=("STT01-006", "STT01-001")), "decks[0].main.STT01-001",
     r"^STT01-001 is a leader, expected entity or weapon or spell$", "cli"),
    ("ikz_as_gate", _set("decks", 0, "gate", value="IKZ-001"), "decks[0].gate", r"^IKZ-001 is a ikz, expected gate$", "api"),
    ("token_not_marked", _set("decks", 0, "token", value="IKZ-001"), "decks[0].token",
     r'^IKZ-001 is not marked "token": true$', "api"),
    ("weapon_with_health", _set("cards", 11, "health", value=3), "cards[11].health", r"^a weapon card has no health$", "cli"),
    ("entity_without_attack", _del("cards", 7, "attack"), "cards[7]", r"^a entity needs 'attack'$", "api"),
    ("spell_with_gate_points", _set("cards", 16, "gate_points", value=1), "cards[16].gate_points",
     r"^a spell card has no gate_points$", "api"),
    ("weapon_with_keywords", _set("cards", 12, "keywords", value=["charge"]), "cards[12].keywords",
     r"^a weapon card cannot have keywords$", "api"),
    # bad ability programs
    ("unknown_statement", _effect(3, lambda e: e[1]["if"]["then"].insert(2, {"frobnicate": 3})),
     "cards[3].abilities[0].effect[1].if.then[2].frobnicate", r"^unknown statement 'frobnicate'$", "cli"),
    ("unknown_trigger", _set("cards", 11, "abilities", 0, "trigger", value="on_sneeze"),
     "cards[11].abilities[0].trigger", r"^'on_sneeze' is not one of", "cli"),
    ("unknown_card_variable", _effect(16, lambda e: e[1]["if"]["then"][2]["deal_damage"].__setitem__("to", "c")),
     "cards[16].abilities[0].effect[1].if.then[2].deal_damage.to", r"^unknown card 'c'", "cli"),
    ("unknown_chosen_variable", _effect(3, lambda e: e[1]["if"].__setitem__("condition", {"chosen": "kost"})),
     "cards[3].abilities[0].effect[1].if.condition.chosen", r"^unknown card variable 'kost'", "api"),
    ("unknown_number_variable", _effect(3, lambda e: e[1]["if"]["then"].__setitem__(1, {"look": {"var": "n"}})),
     "cards[3].abilities[0].effect[1].if.then[1].look.var", r"^unknown number variable 'n'$", "api"),
    ("bad_selector_field", _effect(16, lambda e: e[0]["choose"]["from"].__setitem__("colour", "red")),
     "cards[16].abilities[0].effect[0].choose.from.colour", r"^unknown selector field \(known: ", "cli"),
    ("bad_selector_zone", _effect(19, lambda e: e[0]["choose"]["from"].__setitem__("zone", ["leader", "moon"])),
     "cards[19].abilities[0].effect[0].choose.from.zone[1]", r"^unknown zone 'moon'", "api"),
    ("field_of_wrong_kind", _set("cards", 11, "abilities", 0, "cost", value={"ikz": 1}),
     "cards[11].abilities[0].cost", r"^not a field of a triggered ability", "api"),
    ("operand_out_of_range", _set("cards", 11, "abilities", 0, "effect", 0, "mill", value=300),
     "cards[11].abilities[0].effect[0].mill", r"^mill at most 50 cards \(a deck holds 50, AZK_DECK_CAP\), got 300$",
     "api"),
    ("operand_not_a_byte", _set("cards", 11, "abilities", 0, "effect", 0, value={"repeat": {"times": 300, "do": []}}),
     "cards[11].abilities[0].effect[0].repeat.times", r"^expected an integer in \[-128, 127\], got 300$", "api"),
    ("negative_mill_cli", _set("cards", 11, "abilities", 0, "effect", 0, "mill", value=-1),
     "cards[11].abilities[0].effect[0].mill", r"^expected a count >= 0, got -1$", "cli"),
    ("expression_too_deep", _deep_value, "cards[11].abilities[0].effect[0].mill.add[1].add[1].add[1].add",
     r"^expression too deep$", "api"),
    ("leader_sacrifice_cost", _set("cards", 0, "abilities", 0, "cost", "sacrifice", value=True),
     "cards[0].abilities[0].cost.sacrifice", r"^only an entity can sacrifice itself as a cost \(this card is a leader\)$",
     "api"),
    ("weapon_with_activated_ability", _set("cards", 11, "abilities", 0, value={"kind": "activated", "effect": [{"mill": 1}]}),
     "cards[11].abilities[0]", r"^a weapon card cannot have an activated ability", "cli"),
    ("spell_without_spell_ability", _set("cards", 16, "abilities", 0, "kind", value="activated"),
     "cards[16].abilities", r'^a spell needs exactly one ability of kind "spell"$', "api"),
]
CLI_BAD = [b for b in BAD if b[4] == "cli"]
API_BAD = [b for b in BAD if b[4] == "api"]


def test_table_indices(base_doc):
    """The table addresses cards by index; make sure they are the intended ones."""
    ids = [c["id"] for c in base_doc["cards"]]
    assert ids[2:5] == ["STT01-003", "STT01-004", "STT01-005"]
    assert ids[7] == "STT01-008" and ids[9] == "STT01-010" and ids[11:13] == ["STT01-012", "STT01-013"]
    assert ids[16] == "STT01-017" and ids[0] == "STT01-001"
    assert base_doc["cards"][11]["abilities"][0]["effect"] == [{"mill": 1}]
    assert base_doc["cards"][19]["card_type"] == "leader"
    assert base_doc["decks"][0]["main"]["STT01-006"] == 2


def _write_bad(where: Path, build, base_doc):
    return write_content(where / "bad.json", build(copy.deepcopy(base_doc)))


@pytest.fixture(scope="module")
def cli_results(tmp_path_factory, base_doc):
    """Run every CLI case of the table, in parallel; {id: (bad file, result, before, after)}."""
    jobs = {}
    for case_id, build, *_ in CLI_BAD:
        where = tmp_path_factory.mktemp(case_id)
        bad = _write_bad(where, build, base_doc)
        out = prepared_out(where)
        jobs[case_id] = (bad, out, snapshot(out))

    def go(case_id):
        bad, out, before = jobs[case_id]
        r = run_cli(bad, "--out", out)
        return case_id, (bad, r, before, snapshot(out))

    with ThreadPoolExecutor(max_workers=max(4, os.cpu_count() or 1)) as ex:
        return dict(ex.map(go, jobs))


def check_lines(stderr, bad, path, message):
    lines = stderr.splitlines()
    assert lines and all(ln.startswith(f"error: {bad}: ") for ln in lines), stderr
    prefix = f"error: {bad}: " + (f"{path}: " if path else "")
    hits = [ln for ln in lines if ln.startswith(prefix) and re.search(message, ln[len(prefix):])]
    assert hits, f"no line '{prefix}<{message}>' in:\n{stderr}"


@pytest.mark.parametrize("case_id,path,message", [(b[0], b[2], b[3]) for b in CLI_BAD], ids=[b[0] for b in CLI_BAD])
def test_bad_input_cli(cli_results, case_id, path, message):
    bad, r, before, after = cli_results[case_id]
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.stdout == ""
    check_lines(r.stderr, bad, path, message)
    assert after == before, "the out directory changed"


@pytest.mark.parametrize("case_id,build,path,message", [b[:4] for b in API_BAD], ids=[b[0] for b in API_BAD])
def test_bad_input_api(tmp_path, base_doc, case_id, build, path, message):
    bad = _write_bad(tmp_path, build, base_doc)
    with pytest.raises(ConvertError) as ei:
        load_cardset(bad)
    probs = ei.value.problems
    assert probs and all(isinstance(p, Problem) and p.file == str(bad) for p in probs)
    assert any(p.path == path and re.search(message, p.message) for p in probs), \
        "\n".join(f"{p.path!r}: {p.message}" for p in probs)
    assert str(ei.value).splitlines() == [str(p) for p in probs]


def test_missing_input_file(tmp_path):
    out = prepared_out(tmp_path)
    before = snapshot(out)
    missing = tmp_path / "nope.json"
    r = run_cli(missing, "--out", out)
    assert r.returncode == 2
    assert f"error: {missing}: cannot read: " in r.stderr
    assert "Traceback" not in r.stderr
    assert snapshot(out) == before


# Non-string names where the compiler expects a name currently escape as
# TypeError/AttributeError (a traceback and exit 1) instead of a ConvertError
# with a JSON path. See the report: abilities.py compares unhashable values
# with dict keys (`z not in ZONE_BITS`, `name in self.cards`) and calls
# t.upper() on non-strings.
NON_STRING_NAMES = [
    ("choose.from.type", lambda eff: eff[0]["choose"]["from"].__setitem__("type", [1]),
     "cards[16].abilities[0].effect[0].choose.from.type[0]"),
    ("choose.from.zone", lambda eff: eff[0]["choose"]["from"].__setitem__("zone", [["garden"]]),
     "cards[16].abilities[0].effect[0].choose.from.zone[0]"),
    ("choose.from.side", lambda eff: eff[0]["choose"]["from"].__setitem__("side", ["opponent"]),
     "cards[16].abilities[0].effect[0].choose.from.side"),
    ("choose.as", lambda eff: eff[0]["choose"].__setitem__("as", ["a"]),
     "cards[16].abilities[0].effect[0].choose.as"),
]


@pytest.mark.parametrize("label,mutate,path", NON_STRING_NAMES, ids=[n[0] for n in NON_STRING_NAMES])
def test_non_string_name_is_reported(doc, label, mutate, path):
    mutate(doc["cards"][16]["abilities"][0]["effect"])
    with pytest.raises(ConvertError) as ei:
        load_cardset("bad.json", text=json.dumps(doc))
    assert [p.path for p in ei.value.problems] == [path]


def test_non_string_name_cli(tmp_path, doc):
    doc["cards"][16]["abilities"][0]["effect"][0]["choose"]["from"]["zone"] = 5
    assert_rejected(tmp_path, doc, "cards[16].abilities[0].effect[0].choose.from.zone", r".")


# ---- unwritable output ----------------------------------------------------------------

def test_out_under_a_regular_file(tmp_path):
    blocker = tmp_path / "afile"
    blocker.write_bytes(b"not a directory")
    r = run_cli("--out", blocker / "sub")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert re.search(rf"^error: {re.escape(str(blocker))}\S*: cannot write: Not a directory$", r.stderr, re.M), r.stderr
    assert blocker.read_bytes() == b"not a directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_out_with_file_where_a_directory_goes(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "azuki").write_bytes(b"in the way")     # azuki/spec_autogen.py cannot be created
    r = run_cli("--out", out)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert re.search(rf"^error: {re.escape(str(out / 'azuki'))}: cannot write: ", r.stderr, re.M), r.stderr
    files, _dirs = snapshot(out)
    assert files == {"azuki": b"in the way"}


def test_out_with_file_where_a_directory_goes_leaves_no_directory(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "azuki").write_bytes(b"in the way")
    run_cli("--out", out)
    assert snapshot(out) == ({"azuki": b"in the way"}, set())


def test_out_with_directory_where_a_file_goes(tmp_path):
    out = prepared_out(tmp_path)
    (out / "generated" / "cards_autogen.c").unlink()
    (out / "generated" / "cards_autogen.c").mkdir()
    before = snapshot(out)
    r = run_cli("--out", out)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "cannot write: Is a directory" in r.stderr
    assert snapshot(out) == before      # cards_autogen.h not replaced, no temporaries left


def test_unwritable_out_read_only_dir(tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root ignores directory permissions")
    out = prepared_out(tmp_path)
    (out / "generated").chmod(0o555)
    try:
        before = snapshot(out)
        r = run_cli("--out", out)
        assert r.returncode == 2 and "cannot write" in r.stderr
        assert snapshot(out) == before
    finally:
        (out / "generated").chmod(0o755)


# ---- in-process API --------------------------------------------------------------------

def test_load_default_cardset():
    cs = load_cardset()
    assert cs.source == "cards.json"
    assert cs.name == "starter"
    assert len(cs.defs) == len(json.loads(CARDS.read_text())["cards"])
    assert [d["name"] for d in cs.decks] == ["STT01", "STT02"]
    for d in cs.decks:
        assert len(d["main"]) == 50 and len(d["ikz"]) == 10
    assert len(cs.digest) == 64 and cs.compiled.bytecode


def test_load_cardset_problems(tmp_path, doc):
    doc["cards"][2]["cost"] = "one"
    doc["cards"][4]["colour"] = "blue"
    bad = tmp_path / "two.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ConvertError) as ei:
        load_cardset(bad)
    probs = ei.value.problems
    assert all(isinstance(p, Problem) and p.file == str(bad) for p in probs)
    assert {p.path for p in probs} == {"cards[2].cost", "cards[4]"}
    assert any("'one' is not of type 'integer'" in p.message for p in probs)
    # str() is one `file: path: message` line per problem
    assert str(ei.value).splitlines() == [f"{bad}: {p.path}: {p.message}" for p in probs]


def test_load_cardset_semantic_problems_all_reported(doc):
    doc["decks"][0]["main"]["STT01-006"] = 1
    doc["decks"][1]["leader"] = "STT01-003"
    with pytest.raises(ConvertError) as ei:
        load_cardset("mem.json", text=json.dumps(doc))
    got = {(p.file, p.path) for p in ei.value.problems}
    assert got == {("mem.json", "decks[0].main"), ("mem.json", "decks[1].leader")}


def test_load_cardset_ability_problem_path(doc):
    doc["cards"][3]["abilities"][0]["effect"][1]["if"]["then"][1] = {"look": {"var": "n"}}
    with pytest.raises(ConvertError) as ei:
        load_cardset("mem.json", text=json.dumps(doc))
    (p,) = ei.value.problems
    assert (p.file, p.path) == ("mem.json", "cards[3].abilities[0].effect[1].if.then[1].look.var")
    assert "unknown number variable 'n'" in p.message


def test_load_cardset_missing_file(tmp_path):
    with pytest.raises(ConvertError) as ei:
        load_cardset(tmp_path / "absent.json")
    (p,) = ei.value.problems
    assert p.file == str(tmp_path / "absent.json") and p.path == "" and p.message.startswith("cannot read")


# ---- outputs, determinism, --check, --validate ----------------------------------------------

@pytest.fixture(scope="module")
def generated_twice(tmp_path_factory):
    a, b = tmp_path_factory.mktemp("gen_a"), tmp_path_factory.mktemp("gen_b")
    ra = run_cli("--out", a)
    rb = run_cli(CARDS, "--out", b, cwd=b)     # explicit path, different cwd
    assert ra.returncode == 0, ra.stderr
    assert rb.returncode == 0, rb.stderr
    assert sorted(ra.stdout.splitlines()) == sorted(f"wrote {rel}" for rel in GENERATED)
    return a, b


def test_default_run_writes_exactly_the_generated_files(generated_twice):
    a, _ = generated_twice
    files, _dirs = snapshot(a)
    assert sorted(files) == sorted(GENERATED)


def test_deterministic(generated_twice):
    a, b = generated_twice
    assert snapshot(a)[0] == {k: v for k, v in snapshot(b)[0].items()}


def test_matches_checked_in(generated_twice):
    a, _ = generated_twice
    for rel in GENERATED:
        assert (a / rel).read_bytes() == (REPO / rel).read_bytes(), f"{rel} is stale: run python -m azuki.convert"


def test_do_not_edit_stamp(generated_twice):
    a, _ = generated_twice
    digest = load_cardset().digest
    for rel in GENERATED:
        first = (a / rel).read_text().splitlines()[0]
        assert "do not edit" in first and "azuki.convert" in first, (rel, first)
    for rel in ("generated/cards_autogen.c", "generated/cards_autogen.h"):
        assert f"generated from cards.json (sha256 {digest[:16]})" in (a / rel).read_text().splitlines()[0]
    assert f'#define AZK_DEFAULT_CARDSET_DIGEST "{digest}"' in (a / "generated/cards_autogen.h").read_text()


def test_check_checked_in_tree():
    r = run_cli("--check")
    assert r.returncode == 0, r.stderr
    assert "up to date" in r.stdout


def test_check_detects_modified_file(generated_twice, tmp_path):
    a, _ = generated_twice
    out = tmp_path / "tree"
    for rel in GENERATED:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes((a / rel).read_bytes())
    assert run_cli("--check", "--out", out).returncode == 0
    c = out / "generated/cards_autogen.c"
    c.write_bytes(c.read_bytes().replace(b"{", b"{ ", 1))
    before = snapshot(out)
    r = run_cli("--check", "--out", out)
    assert r.returncode == 1
    assert r.stderr.strip() == "stale: generated/cards_autogen.c (run `python -m azuki.convert --write-default`)"
    assert snapshot(out) == before                 # --check writes nothing


def test_check_detects_missing_file(generated_twice, tmp_path):
    a, _ = generated_twice
    out = tmp_path / "tree"
    for rel in GENERATED[:2]:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes((a / rel).read_bytes())
    r = run_cli("--check", "--out", out)
    assert r.returncode == 1 and "stale: azuki/spec_autogen.py" in r.stderr


def test_check_bad_input_is_status_2(tmp_path, doc):
    doc["cards"][0]["health"] = 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    r = run_cli(bad, "--check")
    assert r.returncode == 2 and f"error: {bad}: cards[0].health: " in r.stderr


def test_validate(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    r = run_cli("--validate", "--out", out)
    assert r.returncode == 0, r.stderr
    cs = load_cardset()
    assert r.stdout.strip() == (f"cards.json: ok — {len(cs.defs)} cards, {len(cs.decks)} decks (STT01, STT02), "
                                f"{len(cs.compiled.abilities)} abilities, {len(cs.compiled.bytecode)} bytes of bytecode")
    assert not any(out.iterdir())


def test_validate_bad_input(tmp_path, doc):
    doc["decks"][0]["main"]["STT01-006"] = 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    r = run_cli(bad, "--validate")
    assert r.returncode == 2
    assert f"error: {bad}: decks[0].main: a main deck has exactly 50 cards, this one has 51" in r.stderr


def test_modified_card_set_changes_output(generated_twice, tmp_path, doc):
    a, _ = generated_twice
    i = card_index(doc, "STT01-011")
    assert doc["cards"][i]["attack"] == 4
    doc["cards"][i]["attack"] = 7
    src = tmp_path / "mod.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "out"
    r = run_cli(src, "--out", out)
    assert r.returncode == 0, r.stderr
    new_c = (out / "generated/cards_autogen.c").read_text()
    old_c = (a / "generated/cards_autogen.c").read_text()
    assert new_c != old_c
    assert f"generated from {src}" in new_c.splitlines()[0]
    assert load_cardset(src).digest != load_cardset().digest
    assert (out / "generated/cards_autogen.h").read_bytes() != (a / "generated/cards_autogen.h").read_bytes()
    # the vocabulary module depends only on csrc/*.def, not on the cards
    assert (out / "azuki/spec_autogen.py").read_bytes() == (a / "azuki/spec_autogen.py").read_bytes()
    # and the checked-in tree is stale with respect to the modified set
    assert run_cli(src, "--check").returncode == 1


def test_valid_set_overwrites_stale_outputs(tmp_path, generated_twice):
    a, _ = generated_twice
    out = prepared_out(tmp_path)
    r = run_cli("--out", out)
    assert r.returncode == 0, r.stderr
    files, _ = snapshot(out)
    assert files.pop("sentinel.txt") == b"keep me\x00\xff"
    assert files == snapshot(a)[0]


def test_check_with_directory_in_place_of_a_file(tmp_path):
    """--check treats a directory where a generated file belongs as stale (exit 1), no traceback."""
    (tmp_path / "generated" / "cards_autogen.c").mkdir(parents=True)
    r = run_cli("--check", "--out", tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "stale: generated/cards_autogen.c" in r.stderr


@pytest.mark.parametrize("bad", ["", [], 0, False, "forever"])
def test_bad_duration_is_reported(doc, bad):
    """An empty or unknown duration is an error, never a silent end_of_turn."""
    eff = next(c for c in doc["cards"] if c["id"] == "STT02-001")["abilities"][0]["effect"]
    stmt = next(s for s in eff if "modify_attack" in s)
    stmt["modify_attack"]["duration"] = bad
    with pytest.raises(ConvertError) as ei:
        load_cardset("bad.json", text=json.dumps(doc))
    assert ei.value.problems[0].path.endswith("modify_attack.duration")


def test_installed_package_without_source_tree_needs_out(tmp_path, monkeypatch, capsys):
    """An installed (non-editable) azuki has no csrc/ beside the package:
    writing or checking generated/ there means nothing, so the CLI asks for
    --out (exit 2) and writes nothing; --validate still works."""
    import azuki.convert.__main__ as cli
    monkeypatch.setattr(cli, "REPO_DIR", tmp_path)
    for argv in (["--check"], ["--write-default"], ["--coverage"]):
        assert cli.main(argv) == 2
        assert "not an azuki source checkout" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    assert cli.main(["--validate"]) == 0
    assert cli.main([]) == 0
    assert cli.main(["--check", "--out", str(REPO)]) == 0


# ---- engine capacities the compiler enforces -----------------------------------------------

def test_compiler_capacities_match_the_engine():
    """The compiler's capacities are the #defines of csrc/game.h, read from the
    header (not retyped), and mirrored into azuki/spec_autogen.py for installs."""
    from azuki import spec_autogen
    from azuki.convert import abilities
    from azuki.convert.defs import CAPS
    text = (REPO / "csrc" / "game.h").read_text()
    defines = dict(re.findall(r"#define (AZK_\w+) (\d+)\b", text))
    assert int(defines["AZK_MAX_EACH"]) == abilities.MAX_EACH
    assert int(defines["AZK_LOOK_CAP"]) == abilities.LOOK_CAP
    assert int(defines["AZK_VM_STEP_LIMIT"]) == abilities.STEP_LIMIT
    assert CAPS["AZK_IKZ_AREA_CAP"] == 11 and CAPS["AZK_HAND_CAP"] == 50     # derived #defines evaluated
    assert spec_autogen.CAPS == CAPS
    src = (REPO / "azuki" / "convert" / "abilities.py").read_text()
    assert not re.search(r"^(MAX_EACH|LOOK_CAP|NUM_REGS|NUM_TREGS|MAX_BYTECODE) = \d", src, re.M)


def test_capacities_installed_package_reads_spec_autogen(monkeypatch):
    """Without csrc/ (an installed package) the capacities come from spec_autogen."""
    from azuki.convert import defs
    monkeypatch.setattr(defs, "header_files", lambda: None)
    assert defs.load_capacities() == defs.CAPS


def test_header_constant_parser():
    from azuki.convert.defs import parse_header_constants
    got = parse_header_constants(["#define AZK_A 10   /* ten */\n#define AZK_B (AZK_A + 1)\n"
                                  "#define AZK_C 0xFF\n#define AZK_F(x) ((x) + 1)\n#define AZK_S \"str\"\n"
                                  "#define AZK_U 6364136223846793005ULL\n#define AZK_D AZK_UNKNOWN\n"])
    assert got == {"AZK_A": 10, "AZK_B": 11, "AZK_C": 255, "AZK_U": 6364136223846793005}


@pytest.mark.parametrize("sel, ok", [
    ({"zone": "garden", "side": "opponent"}, True),
    ({"zone": ["garden", "alley"], "side": "self"}, True),
    ({"zone": ["leader", "garden"], "side": "any"}, True),
    ({"zone": ["garden", "alley"], "side": "any"}, False),    # up to 20 cards
    ({"zone": "hand", "side": "self"}, False),
    ({"zone": "discard", "side": "opponent"}, False),
    ({"side": "self"}, False),                                # no zone: every zone
])
def test_for_each_must_fit_the_snapshot(doc, sel, ok):
    """for_each iterates a snapshot of at most AZK_MAX_EACH cards: a selector
    that could match more is a compile error naming the path, not a silent
    truncation at run time."""
    card = next(c for c in doc["cards"] if c["id"] == "STT02-007")
    card["abilities"] = [{"kind": "triggered", "trigger": "on_play", "effect": [
        {"for_each": {"as": "e", "in": sel, "do": [{"tap": "e"}]}}]}]
    idx = doc["cards"].index(card)
    if ok:
        load_cardset("mem.json", text=json.dumps(doc))
        return
    with pytest.raises(ConvertError) as ei:
        load_cardset("mem.json", text=json.dumps(doc))
    (p,) = ei.value.problems
    assert p.path == f"cards[{idx}].abilities[0].effect[0].for_each.in.zone"
    assert "at most 16" in p.message


def test_look_constant_over_capacity_rejected(doc):
    card = next(c for c in doc["cards"] if c["id"] == "STT02-007")
    idx = doc["cards"].index(card)
    card["abilities"] = [{"kind": "triggered", "trigger": "on_play", "effect": [{"look": 11}, {"bottom_looked": True}]}]
    with pytest.raises(ConvertError) as ei:
        load_cardset("mem.json", text=json.dumps(doc))
    (p,) = ei.value.problems
    assert p.path == f"cards[{idx}].abilities[0].effect[0].look" and "at most 10" in p.message
    card["abilities"][0]["effect"][0] = {"look": 10}
    load_cardset("mem.json", text=json.dumps(doc))


# ---- hardening: counts, capacities, nesting, self-replay (each error names the JSON path) ----

def _with_ability(doc, ability, cid="STT02-007"):
    """Give card `cid` (an entity, cost 2, in deck STT02) exactly one ability; returns its index."""
    card = next(c for c in doc["cards"] if c["id"] == cid)
    card["abilities"] = [ability]
    return doc["cards"].index(card)


def _on_play(*effect):
    return {"kind": "triggered", "trigger": "on_play", "effect": list(effect)}


def _problem(doc):
    with pytest.raises(ConvertError) as ei:
        load_cardset("mem.json", text=json.dumps(doc))
    (p,) = ei.value.problems
    return p


NEGATIVE_COUNTS = [
    ({"draw": -1}, "effect[0].draw"),
    ({"mill": -2}, "effect[0].mill"),
    ({"look": -1}, "effect[0].look"),
    ({"untap_ikz": -1}, "effect[0].untap_ikz"),
    ({"deal_damage": {"to": "opponent_leader", "amount": -3}}, "effect[0].deal_damage.amount"),
    ({"repeat": {"times": -1, "do": [{"draw": 1}]}}, "effect[0].repeat.times"),
    ({"choose_number": {"as": "n", "max": -1}}, "effect[0].choose_number.max"),
    ({"if": {"condition": True, "then": [{"draw": -5}]}}, "effect[0].if.then[0].draw"),
]


@pytest.mark.parametrize("stmt,where", NEGATIVE_COUNTS, ids=[w for _, w in NEGATIVE_COUNTS])
def test_negative_literal_count_rejected(doc, stmt, where):
    """Negative counts used to compile and then do nothing (draw -1) or count
    down forever into the step limit (repeat -1)."""
    i = _with_ability(doc, _on_play(stmt))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].{where}"
    assert re.fullmatch(r"expected (a count|an amount) >= 0, got -\d", p.message), p.message


OVER_CAPACITY = [
    ({"look": 11}, "effect[0].look", r"look at most 10 cards at once .*AZK_LOOK_CAP.*got 11"),
    ({"draw": 51}, "effect[0].draw", r"draw at most 50 cards .*AZK_DECK_CAP.*got 51"),
    ({"mill": 60}, "effect[0].mill", r"mill at most 50 cards .*got 60"),
    ({"untap_ikz": 12}, "effect[0].untap_ikz", r"untap at most 11 IKZ cards .*AZK_IKZ_AREA_CAP.*got 12"),
    ({"choose_number": {"as": "n", "max": 64}}, "effect[0].choose_number.max",
     r"at most 63 .*AZK_MAX_OPTIONS.*got 64"),
    ({"deal_damage": {"to": "self", "amount": 128}}, "effect[0].deal_damage.amount",
     r"expected an integer in \[-128, 127\], got 128"),
]


@pytest.mark.parametrize("stmt,where,message", OVER_CAPACITY, ids=[w for _, w, _ in OVER_CAPACITY])
def test_literal_over_engine_capacity_rejected(doc, stmt, where, message):
    i = _with_ability(doc, _on_play(stmt))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].{where}" and re.search(message, p.message), p


@pytest.mark.parametrize("stmt", [{"look": 10}, {"draw": 50}, {"untap_ikz": 11}, {"draw": 0},
                                  {"choose_number": {"as": "n", "max": 63}},
                                  {"repeat": {"times": 0, "do": [{"draw": 1}]}}])
def test_counts_at_the_capacity_compile(doc, stmt):
    _with_ability(doc, _on_play(stmt))
    load_cardset("mem.json", text=json.dumps(doc))


def test_nested_for_each_rejected_at_compile_time(doc):
    """The VM's FOREACH does not nest: this used to pass the compiler and fail
    in C as a bare ERR_CARDSET."""
    inner = {"for_each": {"as": "b", "in": {"zone": "garden", "side": "self"}, "do": [{"tap": "b"}]}}
    outer = {"for_each": {"as": "a", "in": {"zone": "garden", "side": "opponent"},
                          "do": [{"if": {"condition": True, "then": [inner]}}]}}
    i = _with_ability(doc, _on_play(outer))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].effect[0].for_each.do[0].if.then[0].for_each"
    assert "cannot be nested" in p.message and f"cards[{i}].abilities[0].effect[0].for_each" in p.message


def test_sequential_for_each_still_compile(doc):
    loop = {"for_each": {"as": "a", "in": {"zone": "garden", "side": "opponent"}, "do": [{"tap": "a"}]}}
    _with_ability(doc, _on_play(loop, loop, {"repeat": {"times": 2, "do": [loop]}}))
    load_cardset("mem.json", text=json.dumps(doc))


def test_repeat_beyond_the_step_limit_rejected(doc):
    """127 x 127 iterations cannot finish within AZK_VM_STEP_LIMIT instructions:
    the engine would stop the program with an error at run time."""
    inner = {"repeat": {"times": 127, "do": [{"tap": "self"}]}}
    i = _with_ability(doc, _on_play({"repeat": {"times": 127, "do": [inner]}}))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].effect[0].repeat.times"
    assert "AZK_VM_STEP_LIMIT" in p.message and "4096" in p.message


def test_repeat_within_the_step_limit_compiles(doc):
    _with_ability(doc, _on_play({"repeat": {"times": 127, "do": [{"tap": "self"}]}},
                                {"if": {"condition": True, "then": [{"draw": 1}], "else": [{"draw": 2}]}}))
    load_cardset("mem.json", text=json.dumps(doc))


@pytest.mark.parametrize("sel,where,message", [
    ({"zone": "garden", "cost_min": 3, "cost_max": 2}, "cost_min", r"cost_min 3 is greater than cost_max 2"),
    ({"zone": "garden", "tapped": True, "untapped": True}, "untapped", r"tapped and untapped together"),
])
def test_selector_that_can_never_match_rejected(doc, sel, where, message):
    i = _with_ability(doc, _on_play({"choose": {"as": "x", "from": sel}}, {"tap": "x"}))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].effect[0].choose.from.{where}" and re.search(message, p.message)


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_choose_optional_must_be_boolean(doc, bad):
    """"optional": "no" used to compile as optional (any truthy value)."""
    i = _with_ability(doc, _on_play({"choose": {"as": "x", "from": {"zone": "garden"}, "optional": bad}},
                                    {"tap": "x"}))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].effect[0].choose.optional" and "true or false" in p.message


def test_activated_ikz_cost_over_capacity_rejected():
    """compile_abilities (used without the schema, e.g. by tools) bounds the IKZ
    cost by what a player can have (AZK_IKZ_AREA_CAP), not a retyped 20."""
    from azuki.convert.abilities import AbilityError, compile_abilities
    card = {"id": "X", "card_type": "entity", "abilities": [
        {"kind": "activated", "cost": {"ikz": 12}, "effect": [{"draw": 1}]}]}
    with pytest.raises(AbilityError) as ei:
        compile_abilities([card], {})
    assert ei.value.path == "cards[0].abilities[0].cost.ikz" and "[0, 11]" in ei.value.message
    card["abilities"][0]["cost"]["ikz"] = 11
    compile_abilities([card], {})


# Self-replay: an on-play ability that returns its own card to hand and plays
# it (or a copy) again triggers itself forever. Patterns a, b and e made
# `python -m azuki simulate` hang before this check (never-ending games).
RETURN_SELF = {"return_to_hand": "self"}
FROM_HAND = {"zone": "hand", "side": "self"}
SELF_REPLAY = [
    ("return_then_play_self", [RETURN_SELF, {"play_free": {"card": "self"}}], 1, "plays it again"),
    ("play_copy_by_id", [RETURN_SELF, {"choose": {"as": "c", "from": dict(FROM_HAND, card="STT02-007")}},
                         {"play_free": {"card": "c"}}], 2, "'c' can be that card"),
    ("play_any_entity", [RETURN_SELF, {"choose": {"as": "c", "from": dict(FROM_HAND, type="entity")}},
                         {"play_free": {"card": "c"}}], 2, "cost_max below 2"),
    ("return_as_cost_optional", [{"return_as_cost": "self"},
                                 {"choose": {"as": "c", "from": FROM_HAND, "optional": True}},
                                 {"if": {"condition": {"chosen": "c"}, "then": [{"play_free": {"card": "c"}}]}}],
     "2].if.then[0", "STT02-007"),
    ("play_first_then_return", [{"choose": {"as": "c", "from": dict(FROM_HAND, another=True)}},
                                {"may": [{"play_free": {"card": "c", "to": "alley"}}]}, RETURN_SELF],
     "1].may[0", "returns its own card"),
    ("return_a_chosen_own_entity", [{"choose": {"as": "r", "from": {"zone": "garden", "side": "self"}}},
                                    {"return_to_hand": "r"},
                                    {"choose": {"as": "c", "from": dict(FROM_HAND, cost_max=2)}},
                                    {"play_free": {"card": "c"}}], 3, "effect[1].return_to_hand"),
]


@pytest.mark.parametrize("label,effect,at,message", SELF_REPLAY, ids=[s[0] for s in SELF_REPLAY])
def test_self_replay_rejected(doc, label, effect, at, message):
    i = _with_ability(doc, _on_play(*effect))
    p = _problem(doc)
    assert p.path == f"cards[{i}].abilities[0].effect[{at}].play_free.card", p
    assert p.message.startswith("self-replay loop: this on_play ability returns its own card to hand")
    assert message in p.message


SELF_REPLAY_OK = [
    # the returned card is a stale reference after it moves: play_free does nothing
    ("return_and_play_same_variable", "on_play",
     [{"choose": {"as": "x", "from": {"zone": "garden", "side": "self", "another": True}}},
      {"return_to_hand": "x"}, {"play_free": {"card": "x"}}]),
    ("cannot_match_by_cost", "on_play",
     [RETURN_SELF, {"choose": {"as": "c", "from": dict(FROM_HAND, cost_max=1)}}, {"play_free": {"card": "c"}}]),
    ("cannot_match_by_type", "on_play",
     [RETURN_SELF, {"choose": {"as": "c", "from": dict(FROM_HAND, type="weapon")}}, {"play_free": {"card": "c"}}]),
    ("cannot_match_other_card", "on_play",
     [RETURN_SELF, {"choose": {"as": "c", "from": dict(FROM_HAND, card="STT02-004")}}, {"play_free": {"card": "c"}}]),
    ("garden_trigger_plays_to_alley", "on_play_garden", [RETURN_SELF, {"play_free": {"card": "self", "to": "alley"}}]),
    ("once_a_turn_blink", "start_of_turn", [RETURN_SELF, {"play_free": {"card": "self"}}]),
    ("play_without_return", "on_play",
     [{"choose": {"as": "c", "from": FROM_HAND, "optional": True}}, {"play_free": {"card": "c"}}]),
]


@pytest.mark.parametrize("label,trigger,effect", SELF_REPLAY_OK, ids=[s[0] for s in SELF_REPLAY_OK])
def test_self_replay_check_accepts(doc, label, trigger, effect):
    _with_ability(doc, {"kind": "triggered", "trigger": trigger, "effect": effect})
    load_cardset("mem.json", text=json.dumps(doc))


def test_self_replay_cli(tmp_path, doc):
    i = _with_ability(doc, _on_play(RETURN_SELF, {"play_free": {"card": "self"}}))
    stderr = assert_rejected(tmp_path, doc, f"cards[{i}].abilities[0].effect[1].play_free.card", r"^self-replay loop")
    assert len(stderr.splitlines()) == 1


def test_computed_negative_repeat_runs_zero_times(tmp_path, doc):
    """A computed repeat count below zero used to count down until the VM's
    step limit (an engine error in every game that played the card); the
    compiler now clamps it to zero."""
    azuki = pytest.importorskip("azuki._core")
    _with_ability(doc, _on_play({"repeat": {"times": {"sub": [0, 1]}, "do": [{"tap": "self"}]}}))
    f = tmp_path / "neg.json"
    f.write_text(json.dumps(doc))
    r = azuki.simulate(60, seed=1, decks=("STT02", "STT02"), cards=str(f))
    assert r["errors"] == 0


# ---- opcode declarations: operand kinds, COUNT_GE, derived statuses ------------

def test_opcodes_declare_operand_kinds():
    from azuki import spec_autogen as S
    from azuki.convert.defs import OPCODES, OPERAND_KINDS
    assert [o.name for o in OPCODES] == list(S.OP)            # numbers unchanged: append only
    cg = next(o for o in OPCODES if o.name == "COUNT_GE")   # later groups append after it
    assert cg.kinds == ("R", "SEL", "I8") and cg.pure
    for o in OPCODES:
        assert o.nbytes == sum(OPERAND_KINDS[k].nbytes for k in o.kinds)
    # the byte counts the VM used before kinds were declared (opcode numbers 0..36)
    # (GRANT, number 22, has 4 since its STATUS operand became 16 bits, docs/extending.md)
    old = (0, 2, 3, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 3, 2, 3, 1, 2, 2, 3, 4, 1, 1, 1, 1, 1, 1, 0, 2, 1, 1, 1, 4, 3, 1)
    assert tuple(o.nbytes for o in OPCODES[:len(old)]) == old


@pytest.mark.parametrize("line,message", [
    ('AZK_OP(X, (R, NOPE), PURE, "d")', "unknown operand kind"),
    ('AZK_OP(X, (R, R, R, R), PURE, "d")', "more than 3 operands"),
    ('AZK_OP(X, (R), SOMETIMES, "d")', "unknown property"),
    ('AZK_OP(X, 2, 1, "d")', "expected AZK_OP(NAME, (KIND, ...), PROPS"),
])
def test_opcode_declaration_errors(line, message):
    from azuki.convert.defs import DEF_FAMILIES, load_opcodes, parse_def_text
    fams = {"AZK_OPERAND": DEF_FAMILIES["AZK_OPERAND"], "AZK_OP": parse_def_text(line)}
    with pytest.raises(ValueError, match=re.escape(message)):
        load_opcodes(fams)


def test_statuses_are_keywords_then_conditions():
    from azuki import spec_autogen as S
    from azuki.convert.defs import parse_def_text
    assert S.STATUS == S.KEYWORD + S.CONDITION
    assert S.STATUS.index("FROZEN") == len(S.KEYWORD)
    # a status list of its own is refused: it is derived
    import azuki.convert.defs as defs
    text = "\n".join(p.read_text() for p in defs.def_files()) + '\nAZK_STATUS(EXTRA, "x")\n'
    fams = {}
    for e in parse_def_text(text):
        fams.setdefault(e.family, []).append(e)
    assert "AZK_STATUS" in fams     # what load_families() rejects:
    with pytest.raises(ValueError, match="derived"):
        orig = defs.def_files
        try:
            defs.def_files = lambda: [_TextFile(text)]
            defs.load_families()
        finally:
            defs.def_files = orig


class _TextFile:
    name = "test.def"

    def __init__(self, text):
        self.text = text

    def read_text(self):
        return self.text


def _program(cond):
    from azuki.convert.abilities import Compiler
    c = Compiler({}, {})
    pc = c.condition_program(cond, "x")
    return bytes(c.out.bytecode[pc:])


@pytest.mark.parametrize("cond,k", [
    ({"ge": [{"count": {"zone": "hand"}}, 3]}, 3),
    ({"le": [3, {"count": {"zone": "hand"}}]}, 3),
    ({"gt": [{"count": {"zone": "hand"}}, 3]}, 4),
    ({"lt": [3, {"count": {"zone": "hand"}}]}, 4),
    ({"ge": [{"count": {"zone": "hand"}}, -2]}, -2),
])
def test_count_at_least_compiles_to_count_ge(cond, k):
    from azuki.convert.abilities import OPS
    assert _program(cond) == bytes([OPS["COUNT_GE"].code, 0, 0, k & 0xFF, OPS["END"].code])


@pytest.mark.parametrize("cond", [
    {"eq": [{"count": {"zone": "hand"}}, 3]},
    {"ge": [3, {"count": {"zone": "hand"}}]},                 # count <= 3
    {"ge": [{"count": {"zone": "hand"}}, {"context": "hand_size"}]},
    {"gt": [{"count": {"zone": "hand"}}, 127]},               # 128 does not fit an int8
])
def test_other_comparisons_keep_the_general_code(cond):
    from azuki.convert.abilities import OPS
    assert OPS["COUNT_GE"].code not in _program(cond)[:1]


def test_count_ge_inside_and_or():
    from azuki.convert.abilities import OPS
    p = _program({"and": [{"ge": [{"count": {"zone": "hand"}}, 1]}, {"le": [2, {"count": {"zone": "garden"}}]}]})
    assert p.count(bytes([OPS["COUNT_GE"].code])) == 2


def test_emit_checks_operand_kinds():
    from azuki.convert.abilities import Compiler
    c = Compiler({}, {})
    c._emit("x", "SETI", 7, 0xFF)
    for op, operands in [("SETI", (8, 0)), ("LOAD", (4, 0)), ("LOAD", (0, 99)), ("COUNT", (0, 0)),
                         ("GRANT", (0, 0, 0)), ("CHOOSE", (0, 0, 2)), ("PLAY_FREE", (0, 0)), ("SETI", (0,))]:
        with pytest.raises(AssertionError):
            c._emit("x", op, *operands)
