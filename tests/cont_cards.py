"""The card set the "cont" tests play (docs/rules.md §18): the starter cards
plus the auras-and-cost-modifiers cards of the expansion (tests/expansion_cards.py),
with two test decks that play the fragment's cards (CONTFIRE, CONTEARTH)."""
import copy
import json
import pathlib
import tempfile

from expansion_cards import fragment

ROOT = pathlib.Path(__file__).resolve().parent.parent
STARTER = json.loads((ROOT / "azuki" / "data" / "cards.json").read_text())
FRAGMENT = fragment("cont")

DECKS = [
    {"name": "CONTFIRE", "title": "cont test: Fire auras", "leader": "STT01-001", "gate": "STT01-002",
     "token": "IKZ-002", "ikz": {"IKZ-001": 10},
     "main": {"EXP01-060": 4, "EXP01-061": 4, "EXP01-062": 4, "EXP01-063": 4, "EXP01-064": 4, "EXP01-065": 4,
              "EXP01-066": 4, "EXP01-067": 2, "STT01-003": 4, "STT01-004": 4, "STT01-005": 4, "STT01-012": 4,
              "STT01-013": 4}},
    {"name": "CONTEARTH", "title": "cont test: Earth auras", "leader": "STT02-001", "gate": "STT02-002",
     "token": "IKZ-002", "ikz": {"IKZ-001": 10},
     "main": {"EXP01-068": 4, "EXP01-069": 4, "EXP01-070": 4, "EXP01-071": 4, "EXP01-072": 4, "EXP01-073": 4,
              "STT02-003": 4, "STT02-004": 4, "STT02-005": 4, "STT02-006": 4, "STT02-007": 4, "STT02-014": 2,
              "STT02-016": 2, "STT02-011": 2}},
]


def cont_doc():
    """The combined card-set document (a fresh copy)."""
    doc = copy.deepcopy(STARTER)
    doc["name"] = "starter+cont"
    doc["cards"] = doc["cards"] + copy.deepcopy(FRAGMENT["cards"])
    doc["decks"] = doc["decks"] + copy.deepcopy(DECKS)
    return doc


_PATH = None


def cont_path():
    """A file holding cont_doc() (written once per test session)."""
    global _PATH
    if _PATH is None:
        d = pathlib.Path(tempfile.mkdtemp(prefix="azk_cont_"))
        _PATH = str(d / "cont_cards.json")
        pathlib.Path(_PATH).write_text(json.dumps(cont_doc()))
    return _PATH
