"""Event dicts (Game.events).

The binding drains the engine's event log and unpacks each packed event with
the C library's ``azk_event_unpack`` into (type, player, card, value, def)
integers; this module turns those into the documented dicts. Event type
names come from the C library (``azk_event_name``, passed in as
``type_names``), never retyped here.
"""
from __future__ import annotations


def event_dicts(rows, type_names, card_ids):
    """rows: (type, player, card, value, def) tuples, player/card/def -1 for
    none; type_names: EVENT_TYPES; card_ids: the card set's ids."""
    out = []
    n_types = len(type_names)
    for t, pl, c, val, d in rows:
        ev = {"type": type_names[t] if t < n_types else str(t), "player": None if pl < 0 else pl, "value": val}
        if c >= 0 and d >= 0:
            ev["card"] = card_ids[d]
            ev["card_index"] = c
        out.append(ev)
    return out
