"""azuki.view — what one seat may see, as a JSON-able dict (plain Python).

`seat_view(game, seat)` is `Game.state_dict()` with everything the seat may
not know removed, by the same rule as the observation (`Game.card_known`,
docs/observation.md "Hidden information"): the opponent's hand shows only
the cards revealed into it, as a multiset (sorted, then one `None` per
unknown card), either deck only its count
and the positions the seat knows (`deck_known`, top first: positions it
chose, cards put there in public, docs/rules.md §17.5), looked-at cards
only to the one looking, the IKZ pile only its count; the engine's RNG state
and the state hash are dropped; a pending prompt shows its options only to
its chooser (the other seat sees its kind, chooser and public source; a
SEARCH prompt's options are the chooser's own deck cards: shown); the
legal actions (id and text) are listed only when the seat decides.

It is the one view a front end (issue: play in the browser), a replay
viewer's seat views and tests use. The property test: a position redrawn
from the seat's information set (`Game.resample`) gives the identical view
(tests/test_view.py).
"""
from __future__ import annotations

__all__ = ["seat_view", "full_view", "VIEW_FORMAT"]

VIEW_FORMAT = "azuki-view/1"
_PUBLIC = ("cardset", "decks", "turn", "turn_cap", "active", "first_player", "decisions", "decision_cap", "phase",
           "result", "end_reason", "current_player", "effects", "combat", "pending_triggers")


def _known(game, seat, where):
    try:
        return game.card_known(seat, game.locate(where))
    except (ValueError, TypeError):
        return False


def _zone(game, seat, p, name, cards):
    """Entries of a zone that may hold hidden cards: the card, or None when `seat` may not know it."""
    return [c if _known(game, seat, f"p{p}.{name}[{i}]") else None for i, c in enumerate(cards)]


# A player's public places and counters, the same in every view.
_PUBLIC_PLAYER = ("leader", "gate", "discard", "garden", "alley", "ikz_area", "token", "played_entities",
                  "mulligan_done")


def seat_view(game, seat):
    """The position as `seat` (0 or 1) may see it (module docstring)."""
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    d = game.state_dict()
    out = {"format": VIEW_FORMAT, "seat": seat, **{k: d[k] for k in _PUBLIC if k in d}}
    players = []
    for p, pd in enumerate(d["players"]):
        v = {k: pd[k] for k in _PUBLIC_PLAYER if k in pd}
        if p == seat:
            v["hand"] = list(pd["hand"])              # in hand order: the action ids name hand indices
        else:   # the opponent's hand as a multiset: the cards the seat knows (sorted), then one None per unknown card
            seen = _zone(game, seat, p, "hand", pd["hand"])
            v["hand"] = sorted(c for c in seen if c is not None) + [None] * seen.count(None)
        v["hand_count"] = len(pd["hand"])
        v["deck_count"] = len(pd["deck"])
        v["deck_known"] = [[i, c] for i, c in enumerate(pd["deck"]) if _known(game, seat, f"p{p}.deck[{i}]")]
        v["ikz_pile_count"] = pd["ikz_pile"] if isinstance(pd["ikz_pile"], int) else len(pd["ikz_pile"])
        v["look"] = _zone(game, seat, p, "look", pd.get("look", []))
        v["out"] = _zone(game, seat, p, "out", pd.get("out", []))
        players.append(v)
    out["players"] = players
    prompt = d.get("prompt")
    if prompt is not None:
        if prompt.get("chooser") == seat:
            pr = dict(prompt)
            opts = []
            for o in prompt["options"]:
                o = dict(o)
                # a searcher sees the matching cards of its own deck (docs/rules.md §17.1)
                if "card" in o and "where" in o and prompt.get("kind") != "SEARCH" and not _known(game, seat, o["where"]):
                    o.update(card=None, label=o["where"])   # an option naming a card the chooser may not know
                    o.pop("card_index", None)
                opts.append(o)
            pr["options"] = opts
        else:
            pr = {k: prompt[k] for k in ("kind", "chooser") if k in prompt}
            src = prompt.get("source_where")
            if src and _known(game, seat, src):
                pr["source"], pr["source_where"] = prompt.get("source"), src
        out["prompt"] = pr
    else:
        out["prompt"] = None
    if d.get("current_player") == seat and not game.is_terminal:
        # CHOOSE texts from the masked options (action_str would name a card the chooser may not know)
        labels = {o["action"]: f"CHOOSE {o['index']}: {o['label']}" for o in out["prompt"]["options"]} \
            if out["prompt"] is not None and "options" in out["prompt"] else {}
        out["legal"] = [[int(a), labels.get(int(a)) or game.action_str(int(a))] for a in game.legal_actions()]
    else:
        out["legal"] = []
    return out


def full_view(game):
    """Everything, in seat_view's shape (`seat` None): both hands in order,
    every deck position in `deck_known`, every prompt option, the legal
    actions of whoever decides. For spectators of a finished game and the
    replay viewer's full view, never for a live player."""
    d = game.state_dict()
    out = {"format": VIEW_FORMAT, "seat": None, **{k: d[k] for k in _PUBLIC if k in d}}
    players = []
    for p, pd in enumerate(d["players"]):
        v = {k: pd[k] for k in _PUBLIC_PLAYER if k in pd}
        v["hand"] = list(pd["hand"])
        v["hand_count"] = len(pd["hand"])
        v["deck_count"] = len(pd["deck"])
        v["deck_known"] = [[i, c] for i, c in enumerate(pd["deck"])]
        v["ikz_pile_count"] = pd["ikz_pile"] if isinstance(pd["ikz_pile"], int) else len(pd["ikz_pile"])
        v["look"] = list(pd.get("look", []))
        v["out"] = list(pd.get("out", []))
        players.append(v)
    out["players"] = players
    out["prompt"] = d.get("prompt")
    out["legal"] = [] if game.is_terminal else [[int(a), game.action_str(int(a))] for a in game.legal_actions()]
    return out
