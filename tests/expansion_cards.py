"""The expansion's cards by group, for the suites that test one group of the
ability language on the starter set plus that group's cards
(azuki/data/expansion.json is the one source; ids EXP01-001..019 events,
020..039 effects, 040..059 deck, 060..079 cont, 080.. leaders and gates)."""
import copy
import json
import pathlib

EXPANSION = pathlib.Path(__file__).resolve().parent.parent / "azuki" / "data" / "expansion.json"
RANGES = {"events": (1, 19), "effects": (20, 39), "deck": (40, 59), "cont": (60, 79), "lead": (80, 99)}


def group_cards(group):
    """The expansion's cards of one group (fresh copies), in id order."""
    lo, hi = RANGES[group]
    cards = json.loads(EXPANSION.read_text())["cards"]
    return [copy.deepcopy(c) for c in cards if lo <= int(c["id"].split("-")[1]) <= hi]


def fragment(group):
    """{"cards": group_cards(group)}: the shape of a card-set document's cards."""
    return {"cards": group_cards(group)}
