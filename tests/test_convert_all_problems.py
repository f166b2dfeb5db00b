"""The compiler reports every problem of a file in one run (python -m azuki.convert
--help: "every problem printed as `error: file: json.path: message`"), one line
each with its JSON path (issue 25): independent bad abilities on different
cards, a bad deck beside them, and problems in two included files."""
import json
import subprocess
import sys

import pytest

from azuki.convert import DEFAULT_CARDS, ConvertError, load_cardset


def _starter():
    return json.loads(DEFAULT_CARDS.read_text())


def _broken_set():
    doc = _starter()
    cards = doc["cards"]
    idx = {c["id"]: i for i, c in enumerate(cards)}
    # three independent ability problems on three cards, and one in a second ability of the same card
    cards[idx["STT02-014"]]["abilities"][0]["effect"][0]["choose"]["from"]["zone"] = "moon"
    cards[idx["STT02-015"]]["abilities"][0]["effect"].append({"teleport": "t"})
    shao = cards[idx["STT02-001"]]
    shao["abilities"][0]["effect"][1]["modify_attack"]["duration"] = "forever"
    cards[idx["STT01-017"]]["abilities"][0]["effect"][1]["if"]["then"][0]["choose"]["from"]["exclude"] = "zz"
    doc["decks"][1]["main"]["STT02-003"] += 1          # a 51-card deck: a semantic problem beside them
    return doc, idx


def test_every_problem_of_a_file_in_one_run(tmp_path):
    doc, idx = _broken_set()
    p = tmp_path / "broken.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(ConvertError) as ei:
        load_cardset(p)
    paths = {q.path for q in ei.value.problems}
    assert {f"cards[{idx['STT02-014']}].abilities[0].effect[0].choose.from.zone",
            f"cards[{idx['STT02-015']}].abilities[0].effect[2].teleport",
            f"cards[{idx['STT02-001']}].abilities[0].effect[1].modify_attack.duration",
            f"cards[{idx['STT01-017']}].abilities[0].effect[1].if.then[0].choose.from.exclude",
            "decks[1].main"} <= paths, paths
    r = subprocess.run([sys.executable, "-m", "azuki.convert", str(p)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == len(ei.value.problems) >= 5
    assert all(line.startswith(f"error: {p}: cards[") or line.startswith(f"error: {p}: decks[") for line in lines)


def test_every_included_file_is_checked(tmp_path):
    doc, idx = _broken_set()
    (tmp_path / "a.json").write_text(json.dumps(doc))
    other = _starter()
    other["decks"][0]["ikz"] = {"IKZ-001": 3}
    (tmp_path / "b.json").write_text(json.dumps(other))
    top = tmp_path / "top.json"
    own = dict(_starter()["cards"][3], id="TOP-001")
    deck = dict(_starter()["decks"][0], name="TOP")
    top.write_text(json.dumps({"format": "azuki-cards/1", "name": "top", "include": ["a.json", "b.json"],
                               "cards": [own], "decks": [deck]}))
    with pytest.raises(ConvertError) as ei:
        load_cardset(top)
    files = {q.file for q in ei.value.problems}
    assert files == {"a.json", "b.json"}, ei.value.problems


def test_a_set_wide_capacity_problem_is_reported_once():
    """Past a set-wide capacity (distinct selectors) every later ability would
    fail the same way: reported once, and compiling stops there."""
    from azuki.convert.abilities import MAX_SELECTORS, AbilityError, compile_abilities
    def tap_all(k):
        return {"for_each": {"as": "e", "in": {"zone": "garden", "side": "opponent", "cost_max": k % 100,
                                               "cost_min": -(k // 100)}, "do": [{"tap": "e"}]}}
    cards = [{"id": f"C{i}", "card_type": "spell", "cost": 1, "element": "fire",
              "abilities": [{"kind": "spell", "effect": [tap_all(5 * i + j) for j in range(5)]}]}
             for i in range(MAX_SELECTORS // 5 + 10)]
    with pytest.raises(AbilityError) as ei:
        compile_abilities(cards, {})
    errs = getattr(ei.value, "errors", [ei.value])
    assert sum("distinct selectors" in e.message for e in errs) == 1
