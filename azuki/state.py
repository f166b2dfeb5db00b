"""Reading a position: the flat export of the C core, as Python data.

`Game` (azuki/_core.pyx) asks the engine for one flat int32 export
(``azk_export``, layout declared once in csrc/azk_export.def, names in
``spec_autogen.EXPORT``, offsets reported by the C library at import) and
hands it to :class:`Position`. Everything that describes a position -
``state_dict()``, ``prompt()``, locations of cards, the card at a location,
deck recovery - is built here from that export alone: this module never
sees the engine's struct, and every vocabulary (zones, phases, prompt kinds,
statuses, durations) comes from ``spec_autogen``.
"""
from __future__ import annotations

from array import array

from . import locations as L
from . import spec_autogen as S

ZONE_NAMES = tuple(z.lower() for z in S.ZONE)
DURATION_NAMES = tuple(d.lower() for d in S.DURATION)
STATUS_NAMES = tuple(s.lower() for s in S.STATUS)
# card flags (the export's CARD_FLAGS): bits of AZK_CARD_FLAG (csrc/azk_enums.def, via spec_autogen)
CF_TAPPED, CF_COOLDOWN, CF_SHOCKED, CF_REVEALED, CF_EXPOSED = (
    1 << i for i in (S.CARD_FLAG_TAPPED, S.CARD_FLAG_COOLDOWN, S.CARD_FLAG_SHOCKED, S.CARD_FLAG_REVEALED,
                     S.CARD_FLAG_EXPOSED))   # EXPOSED: has attacked, stealth no longer protects it (rules §15.4)
STATE_FORMAT = "azuki-state/1"


def status_names(mask):
    """Status names of a mask (bit i = spec_autogen.STATUS[i]), in declaration order."""
    if not mask:
        return []
    return [n for i, n in enumerate(STATUS_NAMES) if mask & (1 << i)]


# What a temporary effect of each kind (AZK_EFFECT_KIND, csrc/azk_enums.def; the export's FX_KIND)
# reports: its key in the state, the export column it reads and how. One entry per declared kind, in
# its order: a kind added in C without its entry here fails at import, not in a state dump.
FX_FIELDS = {
    "ATTACK": ("attack", "FX_AMOUNT", int),                 # an attack change
    "STATUS": ("statuses", "FX_STATUS", status_names),      # statuses granted
    "REMOVE": ("removes", "FX_STATUS", status_names),       # remove_status (docs/rules.md §16.4)
}
if tuple(FX_FIELDS) != S.EFFECT_KIND:
    raise ImportError(f"azuki.state.FX_FIELDS does not read every effect kind of csrc/azk_enums.def in its "
                      f"order: {tuple(FX_FIELDS)} vs {S.EFFECT_KIND}")


class Layout:
    """A flat layout: field name -> (offset, count), with each field's offset
    also an attribute (``X.CARD_DEF``) and, for per-player arrays, the
    capacity (``X.cap("DECK")``)."""

    def __init__(self, version, size, fields, names, players=2):
        self.version = version
        self.size = size
        self.fields = dict(fields)
        self.players = players
        if tuple(self.fields) != tuple(names):
            raise ImportError("azuki/spec_autogen.py is stale against the C core's flat layout "
                              "(regenerate with `make regen`, then rebuild)")
        self.caps = {name: cnt // players for name, (off, cnt) in self.fields.items()}
        for name, (off, _) in self.fields.items():
            setattr(self, name, off)

    def count(self, name):
        return self.fields[name][1]

    def cap(self, name):
        """Per-player capacity of a per-player array field."""
        return self.caps[name]


class Position:
    """One export of a game, with the card set's names to read it by."""

    __slots__ = ("a", "X", "cards")

    def __init__(self, a, X, cards):
        # the export: an array('i') (what Game makes); any int sequence is copied into one
        self.a = a if isinstance(a, array) and a.typecode == "i" else array("i", [int(w) for w in a])
        self.X = X          # its Layout
        self.cards = cards  # the azuki.CardSet (ids, names)

    # ---- single words --------------------------------------------------------
    def word(self, field, i=0):
        return self.a[getattr(self.X, field) + i]

    def def_of(self, c):
        return self.a[self.X.CARD_DEF + c]

    def id_of(self, c):
        return self.cards.ids[self.a[self.X.CARD_DEF + c]]

    def name_of(self, c):
        return self.cards.names[self.a[self.X.CARD_DEF + c]]

    def zone_of(self, c):
        return ZONE_NAMES[self.a[self.X.CARD_ZONE + c]]

    def pl(self, field, p):
        """A per-player word (e.g. "DECK_N", "LEADER")."""
        return self.a[getattr(self.X, field) + p]

    def plist(self, field, p):
        """Player p's list `field` (DECK, HAND, ...), its count entries long."""
        X = self.X
        off, cnt = X.fields[field]
        off += p * X.caps[field]
        return self.a[off:off + self.a[X.fields[field + "_N"][0] + p]].tolist()

    def row(self, zone, p):
        """Player p's garden/alley slots: card index or -1 each."""
        off, cnt = self.X.fields[zone.upper()]
        cap = self.X.caps[zone.upper()]
        return self.a[off + p * cap:off + p * cap + cap].tolist()

    @property
    def cards_per_player(self):
        return self.a[self.X.CARDS_PER_PLAYER]

    # ---- locations (one grammar: azuki/locations.py) -------------------------
    def slot_card(self, p, zone, s):
        """Card in garden/alley slot s of player p, or -1."""
        if not 0 <= s < self.X.cap("GARDEN"):
            return -1
        return self.a[getattr(self.X, zone.upper()) + p * self.X.cap("GARDEN") + s]

    def out_cards(self, p):
        """p's out-of-game cards in physical order, the used IKZ token last."""
        a, X = self.a, self.X
        n = self.cards_per_player
        tok = a[X.TOKEN + p]
        out_zone = S.ZONE_OUT
        out = [c for c in range(p * n, (p + 1) * n) if a[X.CARD_ZONE + c] == out_zone and c != tok]
        if a[X.CARD_ZONE + tok] == out_zone:
            out.append(tok)
        return out

    def loc_of(self, c):
        """The Location of physical card c."""
        a, X = self.a, self.X
        p = a[X.CARD_OWNER + c]
        z = ZONE_NAMES[a[X.CARD_ZONE + c]]
        pos = a[X.CARD_POS + c]
        if z in ("leader", "gate", "aside", "resolving"):
            return L.Location(p, z)
        if z == "weapon":   # k-th weapon of its holder, in attachment order
            h = a[X.CARD_HOLDER + c]
            n = 0
            for w in self.plist("WEAPONS", p):
                if w == c:
                    break
                if a[X.CARD_HOLDER + w] == h:
                    n += 1
            return L.Location(p, "weapons", n, self.loc_of(h))
        if z == "deck":
            return L.Location(p, z, a[X.DECK_N + p] - 1 - pos)
        if z == "ikz_pile":
            return L.Location(p, z, a[X.IKZ_PILE_N + p] - 1 - pos)
        if z == "out":
            return L.Location(p, z, self.out_cards(p).index(c))
        return L.Location(p, z, pos)   # garden, alley (slot), hand, discard, ikz_area, look

    def where(self, c):
        return L.format_location(self.loc_of(c))

    def card_at(self, loc):
        """Physical card at a Location, or -1 when the place is empty."""
        a, X = self.a, self.X
        p, place, i = loc.player, loc.place, loc.index
        if place == "leader":
            return a[X.LEADER + p]
        if place == "gate":
            return a[X.GATE + p]
        if place in ("garden", "alley"):
            return self.slot_card(p, place, i)
        if place in ("hand", "discard", "ikz_area", "look"):
            lst = self.plist(place.upper(), p)
            return lst[i] if i < len(lst) else -1
        if place in ("deck", "ikz_pile"):   # index 0 = the top
            lst = self.plist(place.upper(), p)
            return lst[len(lst) - 1 - i] if i < len(lst) else -1
        if place == "out":
            out = self.out_cards(p)
            return out[i] if i < len(out) else -1
        if place == "aside":
            tok = a[X.TOKEN + p]
            return tok if a[X.CARD_ZONE + tok] == S.ZONE_ASIDE else -1
        if place == "resolving":
            n = self.cards_per_player
            for c in range(p * n, (p + 1) * n):
                if a[X.CARD_ZONE + c] == S.ZONE_RESOLVING:
                    return c
            return -1
        if place == "weapons":
            h = self.card_at(loc.holder)
            if h < 0:
                return -1
            n = 0
            for w in self.plist("WEAPONS", p):
                if a[X.CARD_HOLDER + w] == h:
                    if n == i:
                        return w
                    n += 1
            return -1
        return -1

    # ---- cards ---------------------------------------------------------------
    def card_info(self, c):
        return {"index": c, "id": self.id_of(c), "name": self.name_of(c), "owner": self.a[self.X.CARD_OWNER + c],
                "zone": self.zone_of(c), "where": self.where(c)}

    def card_dict(self, c, field):
        a, X = self.a, self.X
        d = {"card": self.id_of(c), "index": c}
        if field:
            flags = a[X.CARD_FLAGS + c]
            used = a[X.CARD_ONCE_USED + c]
            d["tapped"] = bool(flags & CF_TAPPED)
            d["damage"] = a[X.CARD_DAMAGE + c]
            d["cooldown"] = bool(flags & CF_COOLDOWN)
            d["shocked"] = bool(flags & CF_SHOCKED)
            if flags & CF_EXPOSED:
                d["exposed"] = True
            d["once_used"] = [i for i in range(S.CAPS["AZK_MAX_CARD_ABILITIES"]) if used & (1 << i)] if used else []
            d["attack"] = a[X.CARD_ATTACK + c]
            d["health"] = a[X.CARD_HEALTH + c]
            d["statuses"] = status_names(a[X.CARD_STATUSES + c])
        return d

    def weapons_of(self, p, h, weapons=None):
        """Card dicts of the weapons attached to h (weapons: p's WEAPONS list, if at hand)."""
        if weapons is None:
            weapons = self.plist("WEAPONS", p)
        hold = self.X.CARD_HOLDER
        return [{"card": self.id_of(w), "index": w} for w in weapons if self.a[hold + w] == h]

    # ---- the prompt ------------------------------------------------------------
    def prompt(self, choose_action, decline_action):
        """None, or the pending choice (Game.prompt()). choose_action(i) is the
        flat id of CHOOSE option i; decline_action the NO_OP id."""
        a, X = self.a, self.X
        if not a[X.PROMPT_PENDING]:
            return None
        kind = S.PROMPT[a[X.PROMPT_KIND]]
        owner = a[X.PROMPT_PLACING_OWNER]
        opts = []
        for i in range(a[X.PROMPT_N]):
            v = a[X.PROMPT_OPT + i]
            o = {"index": i, "action": choose_action(i)}
            if kind in ("CARD", "BOTTOM_ORDER", "SEARCH", "TOP_ORDER"):   # SEARCH, TOP_ORDER: deck prompts (docs/rules.md §17)
                w = self.where(v)
                o.update(card=self.id_of(v), card_index=v, where=w, label=f"{self.name_of(v)} @ {w}")
            elif kind == "YES_NO":
                o.update(value=v, label="yes" if v else "no")
            elif kind == "NUMBER":
                o.update(value=v, label=str(v))
            elif kind == "MODE":     # the mode index and its printed text
                labels = self.cards.mode_labels(a[X.PROMPT_PC])
                o.update(mode=v, label=labels[v] if labels and v < len(labels) else f"mode {v}")
            else:
                loc = L.slot_location(owner, v) if kind == "SLOT" else L.holder_location(owner, v)
                w = L.format_location(loc)
                c = self.card_at(loc)
                label = w + (f" {self.name_of(c)}" if c >= 0 else "")
                if kind == "SLOT":
                    o.update(slot=v, where=w, label=label)
                else:
                    o.update(holder=v, where=w, label=label)
            opts.append(o)
        optional = bool(a[X.PROMPT_OPTIONAL])
        d = {"kind": kind, "chooser": a[X.PROMPT_CHOOSER], "optional": optional, "options": opts,
             "decline_action": decline_action if optional else None}
        src = a[X.PROMPT_SOURCE]
        if src >= 0:
            d["source"] = self.id_of(src)
            d["source_where"] = self.where(src)
        return d

    # ---- the whole position ------------------------------------------------------
    def player_dict(self, p):
        a, X = self.a, self.X
        lead = a[X.LEADER + p]
        gate = a[X.GATE + p]
        tok = a[X.TOKEN + p]
        weapons = self.plist("WEAPONS", p)
        leader = self.card_dict(lead, True)
        leader["weapons"] = self.weapons_of(p, lead, weapons)
        garden, alley = [], []
        for c in self.row("garden", p):
            if c < 0:
                garden.append(None)
            else:
                e = self.card_dict(c, True)
                e["weapons"] = self.weapons_of(p, c, weapons)
                garden.append(e)
        for c in self.row("alley", p):
            alley.append(None if c < 0 else self.card_dict(c, True))
        n = self.cards_per_player
        ids = self.cards.ids
        defs = X.CARD_DEF
        out_zone = S.ZONE_OUT
        return {
            "leader": leader,
            "gate": {"card": self.id_of(gate), "tapped": bool(a[X.CARD_FLAGS + gate] & CF_TAPPED)},
            "hand": [ids[a[defs + c]] for c in self.plist("HAND", p)],
            # hand card i known to the opponent (revealed into the hand or returned to it, docs/rules.md §8.9)
            "hand_revealed": [bool(a[X.CARD_FLAGS + c] & CF_REVEALED) for c in self.plist("HAND", p)],
            "deck": [ids[a[defs + c]] for c in reversed(self.plist("DECK", p))],
            # deck card i (top first): the players who know where it lies (docs/rules.md §17.5)
            "deck_known": [[q for q in (0, 1) if a[X.CARD_SEEN + c] >> q & 1] for c in reversed(self.plist("DECK", p))],
            "discard": [ids[a[defs + c]] for c in self.plist("DISCARD", p)],
            "garden": garden,
            "alley": alley,
            "ikz_area": [{"card": ids[a[defs + c]], "tapped": bool(a[X.CARD_FLAGS + c] & CF_TAPPED), "token": c == tok}
                         for c in self.plist("IKZ_AREA", p)],
            "ikz_pile": a[X.IKZ_PILE_N + p],
            "token": self.zone_of(tok),
            "look": [ids[a[defs + c]] for c in self.plist("LOOK", p)],
            "out": [ids[a[defs + c]] for c, z in enumerate(a[X.CARD_ZONE + p * n:X.CARD_ZONE + (p + 1) * n], p * n)
                    if z == out_zone and c != tok],
            "played_entities": a[X.PLAYED_ENTITIES + p],
            "mulligan_done": bool(a[X.MULLIGAN_DONE + p]),
        }

    def effects(self):
        a, X = self.a, self.X
        out = []
        for i in range(a[X.EFFECTS_N]):
            if not a[X.FX_LIVE + i]:
                continue
            c = a[X.FX_CARD + i]
            fx = {"where": self.where(c), "card": self.id_of(c), "duration": DURATION_NAMES[a[X.FX_DURATION + i]],
                  "creator": a[X.FX_CREATOR + i]}
            key, col, read = FX_FIELDS[S.EFFECT_KIND[a[X.FX_KIND + i]]]
            fx[key] = read(a[getattr(X, col) + i])
            out.append(fx)
        return out

    def rng(self):
        r = [w & 0xFFFFFFFF for w in self.a[self.X.RNG:self.X.RNG + 4]]
        return [r[0] | r[1] << 32, r[2] | r[3] << 32]

    def state_dict(self, decks, state_hash, prompt):
        """The whole position as plain JSON-able data (docs/state_format.md)."""
        a, X = self.a, self.X
        combat = None
        if a[X.IN_ATTACK]:
            combat = {"attacker": self.where(a[X.ATTACKER]), "target": self.where(a[X.TARGET]),
                      "defender_used": bool(a[X.DEFENDER_USED])}
        er = a[X.END_REASON]
        return {
            "format": STATE_FORMAT,
            "cardset": f"{self.cards.hash:016x}",
            "decks": list(decks),
            "turn": a[X.TURN], "turn_cap": a[X.TURN_CAP], "active": a[X.ACTIVE], "first_player": a[X.FIRST_PLAYER],
            "decisions": a[X.DECISIONS], "decision_cap": a[X.DECISION_CAP],
            "phase": S.PHASE[a[X.PHASE]], "result": S.RESULT[a[X.RESULT]], "end_reason": None if er == 0 else S.END[er],
            "current_player": a[X.CURRENT_PLAYER],
            "rng": self.rng(),
            "players": [self.player_dict(p) for p in range(a[X.PLAYERS])],
            "effects": self.effects(),
            "combat": combat,
            "prompt": prompt,
            "pending_triggers": a[X.TRIGGERS_N],
            "hash": f"{state_hash:016x}",
        }

    # ---- decks ---------------------------------------------------------------------
    def recover_decks(self):
        """Deck names from the position: per player, the decklist whose
        leader, gate, token, IKZ and main cards match its physical cards
        exactly (the first such decklist), else the closest one. Physical
        cards of a player: leader, gate, the main deck, the IKZ cards, the
        token (docs/state_format.md)."""
        cs = self.cards
        lists = [cs.deck_list(k) for k in range(len(cs.decks))]
        n = self.cards_per_player
        names = []
        for p in range(self.a[self.X.PLAYERS]):
            defs = [self.def_of(c) for c in range(p * n, (p + 1) * n)]
            n_main, n_ikz = len(lists[0]["main"]), len(lists[0]["ikz"])
            lead, gate, tok = defs[0], defs[1], defs[n - 1]
            main = sorted(defs[2:2 + n_main])
            ikz = sorted(defs[2 + n_main:2 + n_main + n_ikz])
            best, best_score = 0, None
            for k, dl in enumerate(lists):
                dmain = sorted(dl["main"])
                common = 0
                for x in set(main):
                    common += min(main.count(x), dmain.count(x))
                exact = (dl["leader"] == lead and dl["gate"] == gate and dl["token"] == tok
                         and sorted(dl["ikz"]) == ikz and dmain == main)
                score = (exact, (dl["leader"] == lead) + (dl["gate"] == gate), common)
                if best_score is None or score > best_score:
                    best, best_score = k, score
            names.append(cs.decks[best])
        return tuple(names)
