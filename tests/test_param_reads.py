"""How an action parameter reads is declared once (issue 31 item 4):
csrc/azk_actions.def's AZK_ACTION_PARAM_READ gives each AZK_ACTION_PARAM kind
a form (INDEX, PLACE, ABILITY, OPTION, NONE), a side and a zone; azuki/text.py
(Game.describe's places, Game.action_str), azuki/web/words.py and the static
site's words.js (fed the table through site.json) interpret that table and
name no kind themselves. The card flags and effect kinds words.js reads come
from the declared AZK_CARD_FLAG and AZK_EFFECT_KIND families the same way.

These tests fail when a declared kind is not rendered by both readers, when
the two disagree, or when a hand copy of the grammar or of the flag bits comes
back (a reader that ignores a changed table)."""
import json
import os
import re
import shutil
import subprocess

import pytest

import azuki
from azuki import spec_autogen as S
from azuki import text as TX
from azuki.convert import defs
from azuki.web import words as W

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORDS_JS = os.path.join(ROOT, "azuki", "web", "static", "words.js")
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="needs node (Debian: apt-get install nodejs)")
ROW = S.CAPS["AZK_ROW"]

# a table changed the way a newcomer would change it: sides and zones moved,
# and a new kind appended (the readers must follow every change)
MUTATED = dict(TX.READ)
MUTATED.update(HAND=("INDEX", "ENEMY", "DISCARD"), GARDEN=("INDEX", "SELF", "ALLEY"),
               HOLDER=("PLACE", "ENEMY", "NONE"), NEW_KIND=("INDEX", "SELF", "LOOK"))


# one made-up kind per declared form: a form added to AZK_ACTION_PARAM_FORM
# that a reader does not render fails the tests below
EVERY_FORM = dict(TX.READ, **{f"FORM_{f}": {"INDEX": (f, "SELF", "DISCARD"), "PLACE": (f, "ENEMY", "NONE")}.get(
    f, (f, "NONE", "NONE")) for f in S.ACTION_PARAM_FORM})


def _values(form):
    return (0, 1, ROW, ROW + 1, 2 * ROW) if form == "PLACE" else (0, 3)


def _cases(read):
    """One description per (kind, value, acting player): a parameter alone
    under an action type no reader knows (so only the kind decides)."""
    out = []
    for kind, (form, _, _) in read.items():
        if form == "NONE":
            continue
        for v in _values(form):
            for me in (0, 1):
                d = {"param": 0, "kind": kind, "value": v}
                if form == "OPTION":
                    d["label"] = f"option {v}"
                out.append({"kind": kind, "value": v, "me": me, "param": d})
    return out


def _python(read, monkeypatch):
    monkeypatch.setattr(TX, "READ", read)
    out = []
    words = W.Words({})
    for c in _cases(read):
        p = dict(c["param"])
        where = TX.param_location(c["kind"], c["value"], c["me"])
        if where is not None:
            p.update(where=where, name="Some Card")
        desc = {"type": "X_TEST", "player": c["me"], "params": [p], "ability": None, "option": None}
        out.append({"where": where, "text": TX.describe_str(desc), "label": words.action(desc, 0),
                    "places": W.action_places(desc)})
    return out


def _tables(read, **extra):
    from azuki.web.static_site import site_tables
    t = site_tables(azuki.CardSet.default())
    t["ACTION_PARAM_READ"] = list(read)
    t["ACTION_PARAM_READ_ARGS"] = [list(v) for v in read.values()]
    t.update(extra)
    return t


SCRIPT = r"""
import fs from "fs";
import { setTables, paramLocation, describeStr, actionPlaces, Words, Position, tables } from "WORDS";
const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
setTables(job.tables);
const words = new Words({});
const out = { cases: [], flags: {} };
for (const c of job.cases) {
  const p = { ...c.param };
  const where = paramLocation(c.kind, c.value, c.me);
  if (where !== null) Object.assign(p, { where, name: "Some Card" });
  const desc = { type: "X_TEST", player: c.me, params: [p], ability: null, option: null };
  out.cases.push({ where, text: describeStr(desc), label: words.action(desc, 0), places: actionPlaces(desc) });
}
const T = tables(), X = T.export.fields;
for (const [i, name] of T.CARD_FLAG.entries()) {
  const a = new Int32Array(T.export.size);
  a[X.CARD_FLAGS[0]] = 1 << i;
  const d = new Position(a).cardDict(0, true);
  out.flags[name] = { tapped: d.tapped, cooldown: d.cooldown, shocked: d.shocked, exposed: !!d.exposed };
}
out.effects = {};
for (const [i, name] of T.EFFECT_KIND.entries()) {
  const a = new Int32Array(T.export.size);
  a[X.EFFECTS_N[0]] = 1; a[X.FX_LIVE[0]] = 1; a[X.FX_KIND[0]] = i;
  out.effects[name] = Object.keys(new Position(a).effects()[0]).filter((k) => ["attack", "statuses", "removes"].includes(k));
}
fs.writeFileSync(process.argv[3], JSON.stringify(out));
"""


def _js(tmp_path, tables, cases):
    (tmp_path / "t.mjs").write_text(SCRIPT.replace("WORDS", WORDS_JS))
    (tmp_path / "job.json").write_text(json.dumps({"tables": tables, "cases": cases}))
    r = subprocess.run([NODE, str(tmp_path / "t.mjs"), str(tmp_path / "job.json"), str(tmp_path / "out.json")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads((tmp_path / "out.json").read_text())


def test_the_table_reads_every_declared_kind():
    assert tuple(TX.READ) == S.ACTION_PARAM
    assert {f for f, _, _ in TX.READ.values()} <= set(S.ACTION_PARAM_FORM)
    # a table that forgets a kind, or names an unknown form / zone, is refused where the .def is read
    fams = {k: list(v) for k, v in defs.DEF_FAMILIES.items()}
    fams["AZK_ACTION_PARAM_READ"] = fams["AZK_ACTION_PARAM_READ"][:-1]
    with pytest.raises(ValueError, match="every AZK_ACTION_PARAM kind"):
        defs.check_param_reads(fams)
    for args, msg in ((("SIDEWAYS", "SELF", "HAND"), "unknown form"), (("INDEX", "SELF", "NOWHERE"), "zone"),
                      (("INDEX", "UP", "HAND"), "unknown side"), (("ABILITY", "SELF", "NONE"), "side")):
        fams = {k: list(v) for k, v in defs.DEF_FAMILIES.items()}
        e = fams["AZK_ACTION_PARAM_READ"][1]
        fams["AZK_ACTION_PARAM_READ"][1] = defs.DefEntry(e.family, e.name, args, e.doc)
        with pytest.raises(ValueError, match=msg):
            defs.check_param_reads(fams)


def test_every_form_is_rendered_by_python(monkeypatch):
    """Each declared kind and form has a text and, for places, a location; a
    form the readers do not know is refused loudly, never rendered as nothing."""
    got = _python(EVERY_FORM, monkeypatch)
    for c, g in zip(_cases(EVERY_FORM), got):
        form, side, zone = EVERY_FORM[c["kind"]]
        assert g["text"].startswith("X_TEST "), g
        if form in TX.PLACE_FORMS:
            who = c["me"] if side == "SELF" else 1 - c["me"]
            assert g["where"].startswith(f"p{who}."), (c, g)
            assert g["places"] == [g["where"]] and "Some Card" in g["label"]
        else:
            assert g["where"] is None and g["places"] == []
    monkeypatch.setattr(TX, "READ", dict(TX.READ, HAND=("TELEPATHY", "SELF", "HAND")))
    with pytest.raises(ValueError, match="no text for form TELEPATHY"):
        TX.describe_str({"type": "X_TEST", "params": [{"param": 0, "kind": "HAND", "value": 0, "where": "p0.hand[0]"}]})


def test_python_follows_a_changed_table(monkeypatch):
    got = _python(MUTATED, monkeypatch)
    where = {(c["kind"], c["value"], c["me"]): g["where"] for c, g in zip(_cases(MUTATED), got)}
    assert where["HAND", 3, 0] == "p1.discard[3]"
    assert where["GARDEN", 3, 1] == "p1.alley[3]"
    assert where["HOLDER", 0, 0] == "p1.leader" and where["HOLDER", 1, 1] == "p0.garden[0]"
    assert where["NEW_KIND", 3, 0] == "p0.look[3]"
    assert where["SOURCE", ROW + 1, 0] == "p0.alley[0]"


@needs_node
@pytest.mark.parametrize("read", [TX.READ, EVERY_FORM, MUTATED], ids=["declared", "every_form", "changed"])
def test_words_js_reads_the_same_table(tmp_path, monkeypatch, read):
    """words.js gives Python's locations, texts, labels and places for every
    kind of the table site.json carries, the declared one and a changed one
    (a JS copy of the grammar would miss the change)."""
    want = _python(read, monkeypatch)
    got = _js(tmp_path, _tables(read), _cases(read))["cases"]
    assert got == want


@needs_node
def test_words_js_reads_card_flags_from_the_declared_family(tmp_path):
    """words.js's flag bits are bit i = CARD_FLAG[i] of site.json's table: with
    the family reordered, each field still follows its named bit."""
    flags = list(S.CARD_FLAG)
    moved = flags[::-1]
    for order in (flags, moved):
        got = _js(tmp_path, _tables(TX.READ, CARD_FLAG=order), [])["flags"]
        for name in order:
            want = {"tapped": name == "TAPPED", "cooldown": name == "COOLDOWN", "shocked": name == "SHOCKED",
                    "exposed": name == "EXPOSED"}
            assert got[name] == want, (order, name)


@needs_node
def test_words_js_reads_effect_kinds_from_the_declared_family(tmp_path):
    """An effect's kind (the export's FX_KIND) is read by its AZK_EFFECT_KIND
    name from site.json's table: reordered, each kind keeps its field."""
    field = {"ATTACK": ["attack"], "STATUS": ["statuses"], "REMOVE": ["removes"]}
    assert set(field) == set(S.EFFECT_KIND)
    for order in (list(S.EFFECT_KIND), list(S.EFFECT_KIND)[::-1]):
        got = _js(tmp_path, _tables(TX.READ, EFFECT_KIND=order), [])["effects"]
        assert got == {k: field[k] for k in order}, order


def test_no_copy_of_the_grammar_or_the_flags_comes_back():
    """No reader compares a parameter kind with a literal name, and words.js
    keeps no numbers for the card flags."""
    kinds = "|".join(S.ACTION_PARAM)
    cmp_py = re.compile(r"""kind["'\]]*\s*(?:==|!=|not in|in)\s*[(\[{]?\s*["'](?:%s)["']""" % kinds)
    cmp_js = re.compile(r"""kind\s*(?:===|!==|==|!=)\s*["'](?:%s)["']|\.(?:%s)\.value|\bps\[""" % (kinds, kinds))
    for rel, pat in (("azuki/text.py", cmp_py), ("azuki/web/words.py", cmp_py),
                     ("azuki/web/static/words.js", cmp_js)):
        src = open(os.path.join(ROOT, rel), encoding="utf-8").read()
        # prompt kinds share a name or two (HOLDER); a prompt's kind is read as pr["kind"] / pr.kind
        hits = [m.group(0) for m in pat.finditer(src)
                if not re.search(r"pr(?:\.get\()?\W*kind|kind = pr", src[max(0, m.start() - 40):m.end()])]
        assert not hits, f"{rel}: a parameter kind named by hand: {hits}"
    js = open(WORDS_JS, encoding="utf-8").read()
    flags = "|".join(S.CARD_FLAG)
    assert not re.search(r"\b(?:CF_)?(?:%s)\s*=\s*\d" % flags, js), "words.js: card flag bits retyped"
    assert "T.CARD_FLAG" in js and "T.ACTION_PARAM_READ" in js
    assert not re.search(r"FX_KIND \+ i\] *===? *\d", js), "words.js: effect kinds retyped as numbers"


def test_describe_in_c_reads_the_same_table():
    """azk_describe (csrc/actions.c) finds the card a parameter names by
    interpreting AZK_ACTION_PARAM_READ, expanded from the .def into its
    table: no hand switch over the kinds (case AZK_PARAM_<KIND>) is left for
    a new kind to miss (tests/test_describe.py checks the cards it finds)."""
    src = open(os.path.join(ROOT, "csrc", "actions.c"), encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", src, flags=re.S)
    assert "#define AZK_ACTION_PARAM_READ(" in code and "PARAM_READ[" in code
    kinds = "|".join(S.ACTION_PARAM)
    hits = re.findall(r"AZK_PARAM_(?:%s)\b" % kinds, code)
    assert not hits, f"csrc/actions.c names parameter kinds by hand: {hits}"
