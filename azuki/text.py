"""Structured descriptions of actions (Game.describe) and their text
(Game.action_str).

The engine resolves each action parameter by the kind csrc/azk_actions.def
declares for it (azk_describe: the card a hand index, a place or a prompt
option names; the ability used or answered); this module adds what only the
Python side has: locations (azuki/locations.py), card names, the prompt's
option labels. Nothing here lists action types or parameter kinds: a
parameter is described by how its kind reads (AZK_ACTION_PARAM_READ in the
same file: its form, side and zone), e.g. "ATTACK p0.garden[0] Crate Rat
Kurobo -> p1.leader".
"""
from __future__ import annotations

from . import spec_autogen as S

ROW = S.CAPS.get("AZK_ROW", 5)
PARAM = S.ACTION_PARAM             # parameter kinds, in azk_actions.def order
# how each kind reads (AZK_ACTION_PARAM_READ): kind -> (form, side, zone);
# every reader (this module, azuki/web/words.py, words.js via site.json)
# interprets this table and names no kind itself
READ = dict(zip(S.ACTION_PARAM_READ, S.ACTION_PARAM_READ_ARGS))
PLACE_FORMS = ("INDEX", "PLACE")   # the forms that name a place a player clicks

# action_str's text omits the card name where it never did (a leader; a
# portal's garden slot): scripts and tests match the text. Game.describe
# always has the card. (The static site reads this table from site.json.)
UNNAMED = {("PORTAL_GATE", 1)}


def param_form(kind):
    """The declared form of parameter kind `kind` (AZK_ACTION_PARAM_FORM)."""
    return READ[kind][0]


def is_place(kind):
    """Does a parameter of this kind name a place (a card a player clicks)?"""
    return READ[kind][0] in PLACE_FORMS


def param_zone(kind):
    """The AZK_ZONE an INDEX kind indexes (e.g. "HAND"), else None."""
    form, _, zone = READ[kind]
    return zone if form == "INDEX" else None


def param_location(kind, v, me):
    """The location a parameter of place kind `kind` with value v names for
    acting player `me`; None for the other kinds."""
    form, side, zone = READ[kind]
    if form not in PLACE_FORMS:
        return None
    who = 1 - me if side == "ENEMY" else me
    if form == "INDEX":
        return f"p{who}.{zone.lower()}[{v}]"
    if v == 0:                          # PLACE: azk_place_card's code
        return f"p{who}.leader"
    return f"p{who}.garden[{v - 1}]" if v <= ROW else f"p{who}.alley[{v - ROW - 1}]"


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
        if param_form(kind) == "NONE":
            continue
        d = {"param": i, "kind": kind, "value": v}
        where = param_location(kind, v, me)
        if param_form(kind) == "OPTION":
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
           "hand_index": next((d["value"] for d in params if param_zone(d["kind"]) == "HAND"), None),
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
        form = param_form(d["kind"])
        if form == "ABILITY":
            parts.append(f" ability {d['value']}")
            continue
        if form == "OPTION":
            parts.append(f" {d['value']}" + (f": {d['label']}" if d.get("label") is not None else ""))
            continue
        if form not in PLACE_FORMS:
            raise ValueError(f"parameter kind {d['kind']}: no text for form {form} (azuki/text.py)")
        txt = d["where"]
        if "name" in d and (t, d["param"]) not in UNNAMED and not txt.endswith(".leader"):
            txt += f" {d['name']}"
        parts.append(sep + " " + txt)
        sep = " ->"
    return "".join(parts)
