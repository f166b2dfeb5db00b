"""Validation and planning for Game.from_setup (format: docs/state_format.md).

Turns a dict in state_dict() form into a plan of physical card indices
(``build_setup``), then into the flat int32 plan of the C API
(``pack_plan``; layout: the AZK_PLAN entries of csrc/azk_export.def,
docs/state_format.md "Setup plan") that the binding hands to
``azk_game_setup``. Every problem of the dict is a ValueError naming the
offending key (e.g. ``players[0].garden[2]: ...``); the C side validates the
plan again, word by word and with the engine's invariant checker, and leaves
the game untouched when anything is wrong.

Physical cards: player p owns indices p*63 .. p*63+62: leader, gate, 50 main
deck cards, 10 IKZ cards, the IKZ token (csrc/game.h). Placed cards take main
indices in order; main cards not placed anywhere fill the deck (shuffled with
the engine's pcg32 from the setup seed) unless the deck is given in full, in
which case the rest are out of the game.
"""
from __future__ import annotations

from . import spec_autogen as S
from ._util import excerpt
from .locations import parse_location

_MAX_TURN_CAP = S.CAPS["AZK_MAX_TURN_CAP"]
_CARD_ABILITIES = S.CAPS["AZK_MAX_CARD_ABILITIES"]     # a card's once_used: a bit per ability

ROW = S.CAPS["AZK_ROW"]
DECK_MAIN = S.CAPS["AZK_DECK_MAIN"]
DECK_IKZ = S.CAPS["AZK_DECK_IKZ"]
CARDS_PER_PLAYER = 1 + 1 + DECK_MAIN + DECK_IKZ + 1   # leader, gate, main deck, IKZ, token (csrc/game.h)

ZONE = {n.lower(): i for i, n in enumerate(S.ZONE)}
STATUS = {n.lower(): i for i, n in enumerate(S.STATUS)}
DURATION = {n.lower(): i for i, n in enumerate(S.DURATION)}
# card flags (the export's CARD_FLAGS): bits of AZK_CARD_FLAG (csrc/azk_enums.def, via spec_autogen)
CF_TAPPED, CF_COOLDOWN, CF_SHOCKED, CF_REVEALED, CF_EXPOSED = (
    1 << i for i in (S.CARD_FLAG_TAPPED, S.CARD_FLAG_COOLDOWN, S.CARD_FLAG_SHOCKED, S.CARD_FLAG_REVEALED,
                     S.CARD_FLAG_EXPOSED))   # EXPOSED: has attacked, stealth no longer protects it (rules §15.4)

TOP_KEYS = {"players", "turn", "active", "first_player", "turn_cap", "decision_cap", "decisions", "end_reason", "decks", "seed", "effects", "cards",
            # derived keys that state_dict() emits; accepted and checked or ignored
            "format", "cardset", "phase", "result", "current_player", "rng", "combat", "prompt",
            "pending_triggers", "hash"}
PLAYER_KEYS = {"leader", "gate", "hand", "deck", "deck_top", "discard", "garden", "alley", "ikz_area",
               "ikz_pile", "token", "played_entities", "look", "out", "mulligan_done",
               "hand_revealed", "deck_known"}   # what the players know (docs/state_format.md)
FIELD_KEYS = {"card", "tapped", "damage", "cooldown", "shocked", "exposed", "once_used", "weapons",
              "index", "attack", "health", "statuses"}   # the last four are derived, ignored


def _int(v, path, lo, hi):
    """An int (not a bool) in [lo, hi]."""
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{path}: expected an integer in [{lo}, {hi}], got {excerpt(v)}")
    return v


def _bool(v, path):
    """A bool (not 0/1, not "", not [])."""
    if not isinstance(v, bool):
        raise ValueError(f"{path}: expected true or false, got {excerpt(v)}")
    return v


def _flag(e, key, path):
    """Optional bool field `key` of dict e (absent: False)."""
    return _bool(e[key], f"{path}.{key}") if key in e else False


def _list(v, path, cap=None):
    if not isinstance(v, (list, tuple)):
        raise ValueError(f"{path}: expected a list, got {type(v).__name__}")
    if cap is not None and len(v) > cap:
        raise ValueError(f"{path}: at most {cap} entries, got {len(v)}")
    return list(v)


def _dict(v, path):
    if not isinstance(v, dict):
        raise ValueError(f"{path}: expected an object, got {type(v).__name__}")
    return v


def _keys(d, allowed, path):
    bad = [k for k in d if k not in allowed]
    if bad:
        shown = ", ".join(excerpt(k, 30) for k in bad[:5]) + (f" (+{len(bad) - 5} more)" if len(bad) > 5 else "")
        raise ValueError(f"{path}: unknown keys {shown} (known: {', '.join(sorted(allowed))})")


class _Player:
    def __init__(self, p, cs, deck_index):
        self.p = p
        self.cs = cs
        self.base = p * CARDS_PER_PLAYER
        self.deck = cs.deck_list(deck_index)
        self.cards = {}
        self.next_main = self.base + 2
        self.placed_defs = []
        self.out = {"cards": self.cards, "deck": [], "hand": [], "discard": [], "garden": {}, "alley": {},
                    "weapons": [], "ikz_area": [], "ikz_pile": [], "played_entities": 0}

    def def_of(self, cid, path, types):
        if not isinstance(cid, str):
            raise ValueError(f"{path}: expected a card id, got {excerpt(cid)}")
        try:
            k = self.cs.ids.index(cid)
        except ValueError:
            raise ValueError(f"{path}: unknown card id {excerpt(cid)}") from None
        t = self.cs.card_types[k]
        if t not in types:
            raise ValueError(f"{path}: {cid} is a {t}; expected {' or '.join(types)}")
        return k

    def main_card(self, cid, path, types, zone):
        k = self.def_of(cid, path, types)
        if self.next_main >= self.base + 2 + DECK_MAIN:
            raise ValueError(f"{path}: player {self.p} has more than {DECK_MAIN} main-deck cards in this setup")
        c = self.next_main
        self.next_main += 1
        self.cards[c] = {"def": k, "zone": ZONE[zone]}
        self.placed_defs.append(k)
        return c

    def fields(self, c, e, path, on_field=True):
        if isinstance(e, str):
            return
        flags = 0
        if _flag(e, "tapped", path):
            flags |= CF_TAPPED
        if _flag(e, "cooldown", path):
            flags |= CF_COOLDOWN
        if _flag(e, "shocked", path):
            flags |= CF_SHOCKED
        if _flag(e, "exposed", path):
            flags |= CF_EXPOSED
        self.cards[c]["flags"] = flags
        self.cards[c]["damage"] = _int(e.get("damage", 0), f"{path}.damage", 0, 99)
        used = 0
        for i, a in enumerate(_list(e.get("once_used", []), f"{path}.once_used", _CARD_ABILITIES)):
            used |= 1 << _int(a, f"{path}.once_used[{i}]", 0, _CARD_ABILITIES - 1)
        self.cards[c]["once_used"] = used

    @staticmethod
    def entry(e, path):
        if isinstance(e, str):
            return e
        if not isinstance(e, dict) or "card" not in e:
            raise ValueError(f"{path}: expected a card id or an object with \"card\", got {excerpt(e)}")
        _keys(e, FIELD_KEYS, path)
        return e["card"]

    def weapons(self, holder, ws, path):
        for j, w in enumerate(_list(ws, path, DECK_MAIN)):
            wp = f"{path}[{j}]"
            c = self.main_card(self.entry(w, wp), wp, ("weapon",), "weapon")
            self.out["weapons"].append((c, holder))


def build_setup(d, cs):
    from ._core import PLAN_LAYOUT, rng_shuffle

    _keys(d, TOP_KEYS, "setup")
    if d.get("phase", "MAIN") != "MAIN":
        raise ValueError("phase: from_setup builds main-phase positions only (use step() to reach others)")
    if d.get("result", "ONGOING") != "ONGOING":
        raise ValueError("result: a setup must be an ongoing game")
    if d.get("prompt") is not None or d.get("combat") is not None or d.get("pending_triggers", 0):
        raise ValueError("setup: pending prompts, combats and triggers cannot be set up")
    decks = _list(d.get("decks", ["STT01", "STT02"]), "decks")
    if len(decks) != 2:
        raise ValueError("decks: expected two deck names")
    deck_index = []
    for i, x in enumerate(decks):
        if not isinstance(x, str):
            raise ValueError(f"decks[{i}]: expected a deck name, got {excerpt(x)}")
        if x not in cs.decks:
            raise ValueError(f"decks[{i}]: unknown deck {excerpt(x)} (known: {', '.join(cs.decks)})")
        deck_index.append(cs.decks.index(x))
    seed = _int(d.get("seed", 0), "seed", 0, 2**64 - 1)
    turn = _int(d.get("turn", 3), "turn", 1, _MAX_TURN_CAP)
    active = _int(d.get("active", 0), "active", 0, 1)
    first = _int(d.get("first_player", active if turn % 2 == 1 else 1 - active), "first_player", 0, 1)
    turn_cap = _int(d.get("turn_cap", S.CAPS["AZK_DEFAULT_TURN_CAP"]), "turn_cap", 1, _MAX_TURN_CAP)
    decision_cap = _int(d.get("decision_cap", S.CAPS["AZK_DEFAULT_DECISION_CAP"]), "decision_cap", 1,
                        S.CAPS["AZK_MAX_DECISION_CAP"])
    players_in = _list(d.get("players", [{}, {}]), "players")
    if len(players_in) != 2:
        raise ValueError("players: expected two player objects")
    plan = {"decks": [cs.decks[i] for i in deck_index], "deck_index": deck_index, "seed": seed, "turn": turn,
            "active": active, "first_player": first, "turn_cap": turn_cap,
            "decision_cap": decision_cap, "players": [], "effects": []}
    players = []
    for p in range(2):
        pd = players_in[p]
        path = f"players[{p}]"
        _dict(pd, path)
        _keys(pd, PLAYER_KEYS, path)
        if "look" in pd and _list(pd["look"], f"{path}.look"):
            raise ValueError(f"{path}.look: looked-at cards cannot be set up")
        pl = _Player(p, cs, deck_index[p])
        players.append(pl)
        o = pl.out
        # leader and gate
        lead = pd.get("leader", {})
        lead = {"card": lead} if isinstance(lead, str) else lead
        _dict(lead, f"{path}.leader")
        _keys(lead, FIELD_KEYS, f"{path}.leader")
        lk = pl.def_of(lead["card"], f"{path}.leader.card", ("leader",)) if "card" in lead else pl.deck["leader"]
        pl.cards[pl.base] = {"def": lk, "zone": ZONE["leader"]}
        pl.fields(pl.base, lead, f"{path}.leader")
        gate = pd.get("gate", {})
        gate = {"card": gate} if isinstance(gate, str) else gate
        _dict(gate, f"{path}.gate")
        _keys(gate, {"card", "tapped"}, f"{path}.gate")
        gk = pl.def_of(gate["card"], f"{path}.gate.card", ("gate",)) if "card" in gate else pl.deck["gate"]
        pl.cards[pl.base + 1] = {"def": gk, "zone": ZONE["gate"],
                                 "flags": CF_TAPPED if _flag(gate, "tapped", f"{path}.gate") else 0}
        # rows
        for row in ("garden", "alley"):
            entries = _list(pd.get(row, []), f"{path}.{row}", ROW)
            for i, e in enumerate(entries):
                if e is None:
                    continue
                ep = f"{path}.{row}[{i}]"
                c = pl.main_card(pl.entry(e, ep), ep, ("entity",), row)
                pl.fields(c, e, ep)
                o[row][i] = c
                if isinstance(e, dict) and "weapons" in e and _list(e["weapons"], f"{ep}.weapons"):
                    if row == "alley":
                        raise ValueError(f"{ep}.weapons: only the leader and garden entities hold weapons")
                    pl.weapons(c, e["weapons"], f"{ep}.weapons")
        if "weapons" in lead and _list(lead["weapons"], f"{path}.leader.weapons"):
            pl.weapons(pl.base, lead["weapons"], f"{path}.leader.weapons")
        for zone in ("hand", "discard"):
            for i, e in enumerate(_list(pd.get(zone, []), f"{path}.{zone}", DECK_MAIN)):
                o[zone].append(pl.main_card(e, f"{path}.{zone}[{i}]", ("entity", "weapon", "spell"), zone))
        # hand cards the opponent knows (revealed into the hand or returned to it, docs/rules.md §8.9)
        if "hand_revealed" in pd:
            rev = _list(pd["hand_revealed"], f"{path}.hand_revealed", DECK_MAIN)
            if len(rev) != len(o["hand"]):
                raise ValueError(f"{path}.hand_revealed: one true/false per hand card ({len(o['hand'])}), "
                                 f"got {len(rev)}")
            for i, c in enumerate(o["hand"]):
                if _bool(rev[i], f"{path}.hand_revealed[{i}]"):
                    pl.cards[c]["flags"] = pl.cards[c].get("flags", 0) | CF_REVEALED
        o["played_entities"] = _int(pd.get("played_entities", 0), f"{path}.played_entities", 0, 255)
        # deck: explicit (top first), or deck_top + filler
        main_left = pl.base + 2 + DECK_MAIN - pl.next_main
        if "deck" in pd and "deck_top" in pd:
            raise ValueError(f"{path}: give either deck or deck_top, not both")
        explicit = "deck" in pd
        top = _list(pd.get("deck", pd.get("deck_top", [])), f"{path}.deck", DECK_MAIN)
        if len(top) > main_left:
            raise ValueError(f"{path}: more than {DECK_MAIN} main-deck cards in this setup")
        top_cards = [pl.main_card(e, f"{path}.deck[{i}]", ("entity", "weapon", "spell"), "deck")
                     for i, e in enumerate(top)]
        # who knows where each listed deck card lies (docs/rules.md §17.5): a list per card, top first
        if "deck_known" in pd:
            known = _list(pd["deck_known"], f"{path}.deck_known", DECK_MAIN)
            if len(known) != len(top_cards):
                raise ValueError(f"{path}.deck_known: one list of players per listed deck card "
                                 f"({len(top_cards)}), got {len(known)}")
            for i, (c, who) in enumerate(zip(top_cards, known)):
                kp = f"{path}.deck_known[{i}]"
                seen = 0
                for j, q in enumerate(_list(who, kp, 2)):
                    q = _int(q, f"{kp}[{j}]", 0, 1)
                    if seen & (1 << q):
                        raise ValueError(f"{kp}: player {q} listed twice")
                    seen |= 1 << q
                pl.cards[c]["seen"] = seen
        pool = list(pl.deck["main"])
        for k in pl.placed_defs:
            if k in pool:
                pool.remove(k)
        need = pl.base + 2 + DECK_MAIN - pl.next_main
        perm, _ = rng_shuffle(seed, 0x5E7 + p, len(pool))
        pool = [pool[i] for i in perm][:need]
        filler = []
        for k in pool:
            c = pl.next_main
            pl.next_main += 1
            pl.cards[c] = {"def": k, "zone": ZONE["out" if explicit else "deck"]}
            if not explicit:
                filler.append(c)
        o["deck"] = filler + list(reversed(top_cards))   # bottom first
        # IKZ
        ikz_base = pl.base + 2 + DECK_MAIN
        token = pl.base + CARDS_PER_PLAYER - 1
        area = pd.get("ikz_area", [])
        if isinstance(area, int) and not isinstance(area, bool):
            area = ["IKZ"] * _int(area, f"{path}.ikz_area", 0, DECK_IKZ)
        area = _list(area, f"{path}.ikz_area", DECK_IKZ + 1)
        regular = 0
        token_zone = pd.get("token", "aside")
        if not isinstance(token_zone, str) or token_zone not in ("aside", "out", "ikz_area"):
            raise ValueError(f"{path}.token: expected \"aside\", \"out\" or \"ikz_area\", got {excerpt(token_zone)}")
        token_in_area = False
        for i, e in enumerate(area):
            ep = f"{path}.ikz_area[{i}]"
            if isinstance(e, str):
                e = {"card": e}
            if not isinstance(e, dict):
                raise ValueError(f"{ep}: expected {{\"tapped\": bool, \"token\": bool}}, got {excerpt(e)}")
            _keys(e, {"card", "tapped", "token"}, ep)
            is_token = _flag(e, "token", ep)
            if is_token:
                if token_in_area:
                    raise ValueError(f"{ep}: only one IKZ token")
                token_in_area = True
                c = token
                k = pl.deck["token"]
            else:
                if regular >= DECK_IKZ:
                    raise ValueError(f"{ep}: more than {DECK_IKZ} IKZ cards")
                c = ikz_base + regular
                k = pl.deck["ikz"][regular]
                regular += 1
            pl.cards[c] = {"def": k, "zone": ZONE["ikz_area"],
                           "flags": CF_TAPPED if _flag(e, "tapped", ep) else 0}
            o["ikz_area"].append(c)
        if token_in_area and token_zone not in ("ikz_area", "aside") and "token" in pd:
            raise ValueError(f"{path}.token: the token is listed in ikz_area")
        if not token_in_area:
            if token_zone == "ikz_area":
                raise ValueError(f"{path}.token: \"ikz_area\" needs an ikz_area entry with \"token\": true")
            pl.cards[token] = {"def": pl.deck["token"], "zone": ZONE[token_zone]}
        pile = pd.get("ikz_pile", DECK_IKZ - regular)
        if _int(pile, f"{path}.ikz_pile", 0, DECK_IKZ) != DECK_IKZ - regular:
            raise ValueError(f"{path}.ikz_pile: {pile} + {regular} IKZ in the area must be {DECK_IKZ}")
        for j in range(regular, DECK_IKZ):
            c = ikz_base + j
            pl.cards[c] = {"def": pl.deck["ikz"][j], "zone": ZONE["ikz_pile"]}
            o["ikz_pile"].append(c)
        plan["players"].append(o)
    # temporary effects
    for i, fx in enumerate(_list(d.get("effects", []), "effects", PLAN_LAYOUT.count("FX_CARD"))):
        ep = f"effects[{i}]"
        if not isinstance(fx, dict):
            raise ValueError(f"{ep}: expected {{where, attack | statuses, duration, creator}}, got {excerpt(fx)}")
        _keys(fx, {"where", "card", "attack", "statuses", "removes", "duration", "creator"}, ep)
        c = _locate_planned(plan, fx.get("where"), ep)
        dur = fx.get("duration", "end_of_turn")
        if not isinstance(dur, str) or dur not in DURATION:
            raise ValueError(f"{ep}.duration: unknown duration {excerpt(dur)} (known: {', '.join(DURATION)})")
        e = {"card": c, "duration": DURATION[dur], "creator": _int(fx.get("creator", active), f"{ep}.creator", 0, 1),
             "amount": 0, "status": 0}
        if "attack" in fx:
            e["kind"] = 0
            e["amount"] = _int(fx["attack"], f"{ep}.attack", -99, 99)
        else:
            # "removes": a remove_status effect (kind 2, docs/rules.md §16.4)
            key = "removes" if "removes" in fx else "statuses"
            e["kind"] = 2 if key == "removes" else 1
            for j, s in enumerate(_list(fx.get(key, []), f"{ep}.{key}", len(STATUS))):
                if not isinstance(s, str) or s not in STATUS:
                    raise ValueError(f"{ep}.{key}[{j}]: unknown status {excerpt(s)} (known: {', '.join(STATUS)})")
                e["status"] |= 1 << STATUS[s]
            if not e["status"]:
                raise ValueError(f"{ep}: needs \"attack\", \"statuses\" or \"removes\"")
        plan["effects"].append(e)
    return plan


def _locate_planned(plan, where, path):
    """The planned card at an effect's `where` (azuki/locations.py grammar):
    a leader, a garden/alley card or a weapon (p0.garden[1].weapons[0])."""
    try:
        loc = parse_location(where)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{path}.where: {e}") from None
    return _planned_card(plan, loc, where, path)


def _planned_card(plan, loc, where, path):
    p = loc.player
    if loc.place == "weapons":
        holder = _planned_card(plan, loc.holder, where, path)
        ws = [c for c, h in plan["players"][p]["weapons"] if h == holder]
        if loc.index >= len(ws):
            raise ValueError(f"{path}.where: no weapon at {excerpt(where)}")
        return ws[loc.index]
    if loc.place == "leader":
        return p * CARDS_PER_PLAYER
    if loc.place in ("garden", "alley"):
        c = plan["players"][p][loc.place].get(loc.index)
        if c is None:
            raise ValueError(f"{path}.where: no card at {excerpt(where)}")
        return c
    raise ValueError(f"{path}.where: effects apply to the leader, a garden/alley card or a weapon "
                     f"(e.g. p0.garden[1].weapons[0]), got {excerpt(where)}")


def pack_plan(plan, X):
    """The flat int32 plan (a list) of a build_setup() plan, in layout X
    (azuki.state.Layout of the AZK_PLAN fields, from the C library)."""
    if X.cap("GARDEN") != ROW or X.count("CARD_DEF") != 2 * CARDS_PER_PLAYER:
        raise RuntimeError("azuki/_setup.py disagrees with the C core's plan layout")
    w = [-1] * X.size
    w[X.VERSION] = X.version
    w[X.TURN] = plan["turn"]
    w[X.ACTIVE] = plan["active"]
    w[X.FIRST_PLAYER] = plan["first_player"]
    w[X.TURN_CAP] = plan["turn_cap"]
    w[X.DECISION_CAP] = plan["decision_cap"]
    for p, pp in enumerate(plan["players"]):
        holder = dict(pp["weapons"])
        for c in range(p * CARDS_PER_PLAYER, (p + 1) * CARDS_PER_PLAYER):
            spec = pp["cards"].get(c)
            if spec is None:
                raise ValueError(f"players[{p}]: setup leaves physical card {c} unplaced")
            w[X.CARD_DEF + c] = spec["def"]
            w[X.CARD_ZONE + c] = spec["zone"]
            w[X.CARD_FLAGS + c] = spec.get("flags", 0)
            w[X.CARD_DAMAGE + c] = spec.get("damage", 0)
            w[X.CARD_ONCE_USED + c] = spec.get("once_used", 0)
            w[X.CARD_HOLDER + c] = holder.get(c, -1)
            w[X.CARD_SEEN + c] = spec.get("seen", 0)
        w[X.PLAYED_ENTITIES + p] = pp["played_entities"]
        for field, cards in (("DECK", pp["deck"]), ("HAND", pp["hand"]), ("DISCARD", pp["discard"]),
                             ("WEAPONS", [c for c, _ in pp["weapons"]]), ("IKZ_AREA", pp["ikz_area"]),
                             ("IKZ_PILE", pp["ikz_pile"])):
            cap = X.cap(field)
            if len(cards) > cap:
                raise ValueError(f"players[{p}]: more than {cap} cards in {field.lower()}")
            w[getattr(X, field + "_N") + p] = len(cards)
            off = getattr(X, field) + p * cap
            w[off:off + len(cards)] = cards
        for row in ("garden", "alley"):
            off = getattr(X, row.upper()) + p * ROW
            for i, c in pp[row].items():
                w[off + i] = c
    w[X.EFFECTS_N] = len(plan["effects"])
    for i, e in enumerate(plan["effects"]):
        w[X.FX_CARD + i] = e["card"]
        w[X.FX_KIND + i] = e["kind"]
        w[X.FX_DURATION + i] = e["duration"]
        w[X.FX_CREATOR + i] = e["creator"]
        w[X.FX_AMOUNT + i] = e["amount"]
        w[X.FX_STATUS + i] = e["status"]
    return w
