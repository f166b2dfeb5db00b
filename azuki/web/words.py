"""What the page shows besides the view: each legal action with the places
it involves (so the page can offer it by clicks), and the engine's events in
words, as one seat may know them.

Everything is derived from the engine's tables (azuki.spec_autogen, the
event-type names of the C library); an action or event type this module
does not know still appears: an action with no places becomes a button
named by its type, an event a generic line naming its type.
"""
from __future__ import annotations

from .. import spec_autogen as S

ROW = S.CAPS.get("AZK_ROW", 5)

# Friendlier button names for a few action types; any other type is named
# from its identifier ("SOME_NEW_ACTION" -> "Some new action").
_BUTTON = {"NO_OP": "Pass", "END_TURN": "End turn", "MULLIGAN_KEEP": "Keep hand",
           "MULLIGAN_SHUFFLE": "Mulligan (shuffle back, draw again)"}


def humanize(name):
    return str(name).replace("_", " ").capitalize()


def action_doc(t):
    try:
        return S.ACTION_DOC[S.ACTION.index(t)]
    except ValueError:
        return ""


def action_places(game, a, me):
    """(type name, places) of flat action `a` for player `me`: the locations
    the action involves, in the order a player clicks them (the card first,
    then where it goes / what it attacks). [] for actions made by a button
    (pass, end turn, mulligan, types this function does not know) and for
    CHOOSE (the prompt dialog offers those)."""
    t, p0, p1 = game.decode(a)[:3]

    def holder(who, code):
        return f"p{who}.leader" if code == 0 else f"p{who}.garden[{code - 1}]"

    if t == "PLAY_ENTITY_TO_GARDEN":
        return t, [f"p{me}.hand[{p0}]", f"p{me}.garden[{p1}]"]
    if t == "PLAY_ENTITY_TO_ALLEY":
        return t, [f"p{me}.hand[{p0}]", f"p{me}.alley[{p1}]"]
    if t == "PLAY_WEAPON":
        return t, [f"p{me}.hand[{p0}]", holder(me, p1)]
    if t in ("PLAY_SPELL_MAIN", "PLAY_SPELL_RESPONSE"):
        return t, [f"p{me}.hand[{p0}]"]
    if t == "ATTACK":
        return t, [holder(me, p0), holder(1 - me, p1)]
    if t == "DECLARE_DEFENDER":
        return t, [f"p{me}.garden[{p0}]"]
    if t == "PORTAL_GATE":
        return t, [f"p{me}.alley[{p0}]", f"p{me}.garden[{p1}]"]
    if t == "ACTIVATE_ABILITY":
        src = holder(me, p0) if p0 <= ROW else f"p{me}.alley[{p0 - ROW - 1}]"
        return t, [src]
    return t, []


def _label(t, places, text):
    if t in _BUTTON:
        return _BUTTON[t]
    if t == "ACTIVATE_ABILITY":
        return "Activate ability " + text.rsplit(" ", 1)[-1]
    if t == "PLAY_SPELL_MAIN" or t == "PLAY_SPELL_RESPONSE":
        return "Cast this spell"
    if t == "DECLARE_DEFENDER":
        return "Defend with this entity"
    if t == "CHOOSE":
        return text.split(": ", 1)[-1] if ": " in text else text
    return humanize(t)


def legal_entries(game, view):
    """The legal list of a view ([[id, text], ...]) with type, places and a short label."""
    me = game.current_player
    out = []
    for a, text in view.get("legal", []):
        t, places = action_places(game, a, me)
        out.append({"id": a, "type": t, "text": text, "label": _label(t, places, text), "places": places,
                    "doc": action_doc(t)})
    return out


# ---- events in words --------------------------------------------------------------------

_TEMPLATES = {
    "TURN_START": "{P} starts turn {turn}",
    "TURN_END": "{P} ends the turn",
    "DRAWN": "{P} draws {card}",
    "MULLIGAN": "{P} {mulligan}",
    "PLAYED": "{P} plays {card}",
    "PAID": "{P} pays {value} IKZ",
    "DAMAGE": "{card} takes {value} damage",
    "DESTROYED": "{card} is destroyed",
    "RETURNED": "{card} returns to {P}'s hand",
    "DISCARDED": "{P} discards {card}",
    "MILLED": "{P} mills {card}",
    "ATTACK_DECLARED": "{card} attacks {target}",
    "RESPONSE_REQUESTED": "{P} may respond",
    "DEFENDER_DECLARED": "{card} steps in as defender",
    "ATTACK_ENDED": "the attack ends",
    "PORTALED": "{P} portals {card} into the garden",
    "ABILITY": "{card}'s ability",
    "PROMPT": "{P} is asked to {prompt}",
    "IKZ_GAINED": "{P} gains an IKZ",
    "REPLACED": "{card} is replaced",
    "GAME_OVER": "game over",
    "LOOKED": "{P} looks at {card}",
    "TO_HAND": "{card} goes to {P}'s hand",
    "UNTAPPED_IKZ": "{P} untaps IKZ",
    "EFFECT": "{card}: an effect applies",
}


def event_entries(game, events, names, turn):
    """[(type, player, text for seat 0, text for seat 1, text for the full view)]
    for the events just drained from `game` (the position right after them).
    A card is named to a seat only when that seat may know it now
    (Game.card_known); else "a card"."""
    out = []
    for ev in events:
        t, p = ev["type"], ev.get("player")
        c = ev.get("card_index")
        texts = []
        for seat in (0, 1, None):
            if c is None:
                card = None
            elif seat is None or _known(game, seat, c):
                card = names.get(ev.get("card"), ev.get("card"))
            else:
                card = "a card"
            target = "a target"
            if t == "ATTACK_DECLARED":   # its value is the target's physical card index
                target = _card_name(game, ev.get("value"), seat, names)
            v = ev.get("value")
            fields = {"P": f"P{p}" if p is not None else "", "card": card or "", "value": v,
                      "target": target, "turn": game.turn,
                      "mulligan": "mulligans (shuffles the hand back, draws again)" if v else "keeps the hand",
                      # the PROMPT event's value is the prompt kind (the engine's table)
                      "prompt": S.PROMPT_DOC[v] if isinstance(v, int) and 0 <= v < len(S.PROMPT_DOC) else "choose"}
            tpl = _TEMPLATES.get(t)
            if tpl is None or (card is None and "{card}" in tpl):
                txt = humanize(t) + (f" ({fields['P']})" if p is not None else "") + (f": {card}" if card else "")
            else:
                txt = tpl.format(**fields)
            texts.append(txt)
        out.append({"type": t, "player": p, "texts": texts, "turn": turn})
    return out


def _known(game, seat, c):
    try:
        return bool(game.card_known(seat, c))
    except (ValueError, TypeError):
        return False


def _card_name(game, c, seat, names):
    if not isinstance(c, int) or c < 0:
        return "a target"
    try:
        if seat is not None and not _known(game, seat, c):
            return "a card"
        info = game.card_info(c)
    except (ValueError, TypeError):
        return "a target"
    return info.get("name") or names.get(info.get("id"), "a target")
