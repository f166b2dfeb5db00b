"""Structured descriptions of actions (Game.describe) and their text
(Game.action_str).

The engine resolves each action parameter by the kind csrc/azk_actions.def
declares for it (azk_describe: the card a hand index, a place or a prompt
option names; the ability used or answered); this module adds what only the
Python side has: locations (azuki/locations.py), card names, the prompt's
option labels. Nothing here lists action types: a parameter is described by
its kind alone, e.g. "ATTACK p0.garden[0] Crate Rat Kurobo -> p1.leader".
"""
from __future__ import annotations

from . import spec_autogen as S

ROW = S.CAPS.get("AZK_ROW", 5)
PARAM = S.ACTION_PARAM             # parameter kinds, in azk_actions.def order
PLACE_KINDS = ("HAND", "GARDEN", "ALLEY", "HOLDER", "ENEMY_HOLDER", "SOURCE")

# action_str's text omits the card name where it never did (a leader; a
# portal's garden slot): scripts and tests match the text. Game.describe
# always has the card.
_UNNAMED = {("PORTAL_GATE", 1)}


def param_location(kind, v, me):
    """The location a parameter of place kind `kind` with value v names for
    acting player `me`; None for the other kinds."""
    if kind == "HAND":
        return f"p{me}.hand[{v}]"
    if kind == "GARDEN":
        return f"p{me}.garden[{v}]"
    if kind == "ALLEY":
        return f"p{me}.alley[{v}]"
    if kind in ("HOLDER", "ENEMY_HOLDER", "SOURCE"):
        who = 1 - me if kind == "ENEMY_HOLDER" else me
        if v == 0:
            return f"p{who}.leader"
        return f"p{who}.garden[{v - 1}]" if v <= ROW else f"p{who}.alley[{v - ROW - 1}]"
    return None


def describe(pos, raw, ability_owner, prompt=None):
    """The dict Game.describe returns. raw: azk_describe's nine fields;
    ability_owner: (definition index, number within the card) of raw[8], or
    None; prompt: a callable returning the pending prompt (for OPTION)."""
    t_i, p0, p1, k0, k1, me, c0, c1, ab = raw
    t = S.ACTION[t_i]
    params, places, cards = [], [], []
    option = None
    for i, (v, k, c) in enumerate(((p0, k0, c0), (p1, k1, c1))):
        kind = PARAM[k]
        if kind == "NONE":
            continue
        d = {"param": i, "kind": kind, "value": v}
        where = param_location(kind, v, me)
        if kind == "OPTION":
            pr = prompt() if prompt is not None else None
            if pr is not None and v < len(pr["options"]):
                option = dict(pr["options"][v])
                where = option.get("where")
                d["label"] = option.get("label")
        if where is not None:
            d["where"] = where
            places.append(where)
        if c >= 0:
            d.update(card=pos.id_of(c), card_index=c, name=pos.name_of(c))
            cards.append(pos.id_of(c))
        params.append(d)
    out = {"type": t, "p0": p0, "p1": p1, "player": me, "params": params, "places": places, "cards": cards,
           "hand_index": next((d["value"] for d in params if d["kind"] == "HAND"), None),
           "option": option, "ability": None}
    if ab >= 0:
        out["ability"] = {"index": ab}
        if ability_owner is not None:
            d, n = ability_owner
            out["ability"].update(card=pos.cards.ids[d], number=n)
    return out


def describe_str(desc):
    """Game.action_str's text of a description."""
    t = desc["type"]
    parts = [t]
    sep = ""
    for d in desc["params"]:
        kind = d["kind"]
        if kind == "ABILITY":
            parts.append(f" ability {d['value']}")
            continue
        if kind == "OPTION":
            parts.append(f" {d['value']}" + (f": {d['label']}" if d.get("label") is not None else ""))
            continue
        txt = d["where"]
        if "name" in d and (t, d["param"]) not in _UNNAMED and not txt.endswith(".leader"):
            txt += f" {d['name']}"
        parts.append(sep + " " + txt)
        sep = " ->"
    return "".join(parts)
