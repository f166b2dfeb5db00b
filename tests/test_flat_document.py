"""azuki.convert.flat_document: a card set file as one document, its
includes resolved — the public way to get what load_cardset compiles
(azuki.balance uses it; no module outside azuki/convert reaches for the
converter's private helpers)."""
import json
import pathlib
import re

import pytest

from azuki import convert

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "azuki" / "data"


def test_includes_come_first_and_the_key_goes():
    starter = json.loads((DATA / "cards.json").read_text())
    exp = json.loads((DATA / "expansion.json").read_text())
    flat = convert.flat_document(DATA / "expansion.json")
    assert "include" not in flat
    assert flat["cards"] == starter["cards"] + exp["cards"]
    assert flat["decks"] == starter["decks"] + exp["decks"]
    assert flat["name"] == exp["name"]
    # what the converter compiles: that very document
    cs = convert.load_cardset(DATA / "expansion.json")
    assert flat == cs.doc and [c["id"] for c in flat["cards"]] == cs.card_ids
    assert convert.flat_document(DATA / "cards.json")["cards"] == starter["cards"]


def test_bad_files_are_refused_with_every_problem(tmp_path):
    with pytest.raises(convert.ConvertError, match="cannot read"):
        convert.flat_document(tmp_path / "missing.json")
    exp = json.loads((DATA / "expansion.json").read_text())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(exp, include=["nope.json"])))
    with pytest.raises(convert.ConvertError, match=r"include\[0\].*nope\.json"):
        convert.flat_document(bad)
    cyc = tmp_path / "cyc.json"
    cyc.write_text(json.dumps(dict(exp, include=["cyc.json"])))
    with pytest.raises(convert.ConvertError, match="cycle"):
        convert.flat_document(cyc)
    dup = tmp_path / "dup.json"           # the combination's own problem (a card id defined twice)
    dup.write_text(json.dumps(dict(exp, include=["azuki:cards.json", "azuki:cards.json"])))
    with pytest.raises(convert.ConvertError, match=r"duplicate card id .*\(included by"):
        convert.flat_document(dup)


def test_no_module_imports_the_converters_private_helpers():
    bad = []
    for p in sorted((ROOT / "azuki").rglob("*.py")) + sorted((ROOT / "azuki").glob("*.px[ix]")):
        if "convert" in p.relative_to(ROOT / "azuki").parts[:1]:
            continue
        for m in re.finditer(r"from\s+\.?(?:azuki\.)?convert\S*\s+import\s+\(?([^)\n]+)|convert\.(_\w+)", p.read_text()):
            names = [n.strip().split(" as ")[0] for n in (m.group(1) or "").split(",")] + [m.group(2) or ""]
            bad += [f"{p.relative_to(ROOT)}: {n}" for n in names if n.startswith("_")]
    assert not bad, bad
