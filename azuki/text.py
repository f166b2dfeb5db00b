"""Text of actions in a position (Game.action_str).

Built from a :class:`azuki.state.Position` (the engine's flat export) and
the action's decoded (type name, p0, p1); the places named are locations
(azuki/locations.py), e.g. "ATTACK p0.garden[0] Crate Rat Kurobo -> p1.leader".
Action type names come from spec_autogen.ACTION (csrc/azk_actions.def).
"""
from __future__ import annotations


def action_str(pos, t, p0, p1, prompt=None):
    """Text of the action (t, p0, p1) in position `pos`. `prompt` is a
    callable returning the pending prompt dict (only CHOOSE needs it)."""
    a, X = pos.a, pos.X
    p = a[X.CURRENT_PLAYER]
    me = p if p >= 0 else a[X.ACTIVE]

    def slot(who, zone, s):
        c = pos.slot_card(who, zone, s)
        return f"p{who}.{zone}[{s}]" + (f" {pos.name_of(c)}" if c >= 0 else "")

    def holder(who, code):
        return f"p{who}.leader" if code == 0 else slot(who, "garden", code - 1)

    def hand(i):
        if i < a[X.HAND_N + me]:
            return f"p{me}.hand[{i}] {pos.name_of(a[X.HAND + me * X.cap('HAND') + i])}"
        return f"p{me}.hand[{i}]"

    if t in ("PLAY_ENTITY_TO_GARDEN", "PLAY_ENTITY_TO_ALLEY"):
        zone = "garden" if t.endswith("GARDEN") else "alley"
        return f"{t} {hand(p0)} -> {slot(me, zone, p1)}"
    if t == "PLAY_WEAPON":
        return f"{t} {hand(p0)} -> {holder(me, p1)}"
    if t in ("PLAY_SPELL_MAIN", "PLAY_SPELL_RESPONSE"):
        return f"{t} {hand(p0)}"
    if t == "ATTACK":
        return f"ATTACK {holder(me, p0)} -> {holder(1 - me, p1)}"
    if t == "DECLARE_DEFENDER":
        return f"{t} {slot(me, 'garden', p0)}"
    if t == "PORTAL_GATE":
        return f"{t} {slot(me, 'alley', p0)} -> p{me}.garden[{p1}]"
    if t == "ACTIVATE_ABILITY":
        row = X.cap("GARDEN")
        src = holder(me, p0) if p0 <= row else slot(me, "alley", p0 - row - 1)
        return f"{t} {src} ability {p1}"
    if t == "CHOOSE":
        pr = prompt() if prompt is not None else None
        if pr is not None and p0 < len(pr["options"]):
            return f"CHOOSE {p0}: {pr['options'][p0]['label']}"
        return f"CHOOSE {p0}"
    return t
