"""What the page shows besides the view, in plain game words: each legal
action with the places it involves (so the page can offer it by clicks) and
a label, the banner over the board, the title and option labels of a pending
prompt, and the engine's events, as one seat may know them.

Everything is generated from the engine's tables and the card data: an
action is read through Game.describe (the parameter kinds of
csrc/azk_actions.def, read as its AZK_ACTION_PARAM_READ declares: azuki.text's
is_place / param_form / param_zone; no kind is named here), a prompt through
Game.prompt and the ability asking it (Game.describe of its answers: the
ability's printed text from the card data), a place through its location. An action, prompt or event type this
module has no verb for still gets words: the card and places it names.
No text made here contains an engine identifier, a location string or an
option number (tests/test_web_words.py checks it over seeded games).
"""
from __future__ import annotations

from .. import locations as L
from .. import spec_autogen as S
from .. import text as TX


def humanize(name):
    return str(name).replace("_", " ").lower()


def action_doc(t):
    try:
        return S.ACTION_DOC[S.ACTION.index(t)]
    except ValueError:
        return ""


class Words:
    """Words over one card table: id -> printed record (name, card_type, text,
    abilities: the printed text of each ability, in the card's order)."""

    def __init__(self, cards=None):
        self.cards = cards or {}

    # ---- cards, abilities, places ----------------------------------------------------------
    def name(self, cid):
        if cid is None:
            return "a card"
        rec = self.cards.get(cid)
        return (rec or {}).get("name") or str(cid)

    def ability_text(self, ab):
        """The printed text of a described ability ({"card", "number"}), else ""."""
        if not ab or "card" not in ab:
            return ""
        rec = self.cards.get(ab["card"]) or {}
        texts = rec.get("abilities") or []
        n = ab.get("number", -1)
        t = texts[n] if 0 <= n < len(texts) and texts[n] else rec.get("text") or ""
        return _clean(t)

    @staticmethod
    def whose(p, seat):
        if seat is None:
            return f"Player {p}'s"
        return "your" if p == seat else "the opponent's"

    def place(self, where, seat):
        """A location in words, from `seat`'s side: "your garden, slot 2",
        "the opponent's leader"."""
        try:
            loc = L.parse_location(where)
        except (TypeError, ValueError):
            return "a place"
        if loc.place == "weapons":
            return f"a weapon of {self.place(L.format_location(loc.holder), seat)}"
        z = self.zone(loc.player, loc.place, seat)
        return f"{z}, slot {loc.index + 1}" if loc.place in ("garden", "alley") else z

    def zone(self, p, place, seat):
        """"your discard pile", "the opponent's garden"."""
        zone = {"ikz_area": "IKZ area", "ikz_pile": "IKZ pile", "discard": "discard pile",
                "look": "looked-at cards"}.get(place, place.replace("_", " "))
        return f"{self.whose(p, seat)} {zone}"

    def card_at(self, name, where, seat):
        """"Crate Rat Kurobo (your garden, slot 1)"."""
        return f"{name} ({self.place(where, seat)})" if where else name

    # ---- actions -------------------------------------------------------------------------------
    def action(self, d, seat, prompt_labels=None):
        """The label of a described action (Game.describe) for `seat` (None:
        the full view). `prompt_labels`: option index -> words (CHOOSE)."""
        t = d["type"]
        named = [p for p in d["params"] if TX.is_place(p["kind"])]

        def nm(p):
            return p.get("name") or "a card"

        def at(p):
            return self.place(p["where"], seat)

        ab = self.ability_text(d.get("ability"))
        if t == "NO_OP":
            return "Decline" if prompt_labels is not None else "Pass (do nothing)"
        if t in _ACTION_WORDS:
            return _ACTION_WORDS[t]
        if t == "CHOOSE":
            v = next(p["value"] for p in d["params"] if TX.param_form(p["kind"]) == "OPTION")
            if prompt_labels and v in prompt_labels:
                return prompt_labels[v]
            o = d.get("option") or {}
            return o.get("label") if o.get("label") and "card" not in o else f"Choice {v + 1}"
        if t in ("PLAY_ENTITY_TO_GARDEN", "PLAY_ENTITY_TO_ALLEY"):
            card, slot = named[0], named[1]
            s = f"Play {nm(card)} to {at(slot)}"
            return s + (f", replacing {slot['name']}" if slot.get("name") else "")
        if t == "PLAY_WEAPON":
            return f"Equip {nm(named[0])} to {named[1].get('name') or at(named[1])}"
        if t in ("PLAY_SPELL_MAIN", "PLAY_SPELL_RESPONSE"):
            return f"Cast {nm(named[0])}" + (f": {ab}" if ab else "")
        if t == "ATTACK":
            return f"Attack {named[1].get('name') or at(named[1])} with {nm(named[0])}"
        if t == "DECLARE_DEFENDER":
            return f"Defend with {nm(named[0])}"
        if t == "PORTAL_GATE":
            s = f"Portal {nm(named[0])} from the alley to {at(named[1])}"
            return s + (f", replacing {named[1]['name']}" if named[1].get("name") else "")
        if t == "ACTIVATE_ABILITY":
            return f"Use {nm(named[0])}'s ability" + (f": {ab}" if ab else "")
        # a type this module has no verb for: its name and what it names
        return (humanize(t).capitalize() + " " + ", ".join(f"{nm(p)} ({at(p)})" for p in named)).strip()

    # ---- prompts ---------------------------------------------------------------------------------
    def option_label(self, pr, o, seat):
        kind = pr.get("kind")
        if kind == "YES_NO":
            return "Yes" if o.get("value") else "No"
        if kind == "NUMBER":
            return str(o.get("value"))
        if kind == "MODE":
            lab = o.get("label") or ""
            return _clean(lab) if lab and not lab.startswith("mode ") else f"Choice {o.get('index', 0) + 1}"
        if "card" in o:
            if o["card"] is None:
                return f"a card you cannot see ({self.place(o.get('where'), seat)})"
            return self.card_at(self.name(o["card"]), o.get("where"), seat)
        if "where" in o:       # SLOT / HOLDER: a place, and who stands there
            w = self.place(o["where"], seat)
            lab = o.get("label") or ""
            who = lab[len(o["where"]):].strip() if lab.startswith(o["where"]) else ""
            if kind == "SLOT":
                return f"Replace {who} ({w})" if who else w[:1].upper() + w[1:] + " (empty)"
            return f"{who} ({w})" if who else w[:1].upper() + w[1:]
        return "this"

    def _what(self, pr, seat):
        """What the chooser picks, from the options: "an entity in the
        opponent's garden", "a card in your hand"."""
        kind = pr.get("kind")
        if kind in _WHAT_WORDS:
            return _WHAT_WORDS[kind]
        if kind in ("TOP_ORDER", "BOTTOM_ORDER"):
            return f"the next card to put on the {'top' if kind == 'TOP_ORDER' else 'bottom'} of the deck"
        opts = pr.get("options") or []
        zones, types = set(), set()
        for o in opts:
            try:
                loc = L.parse_location(o.get("where"))
                if loc.place == "weapons":
                    loc = loc.holder
                zones.add((loc.player, loc.place))
            except (TypeError, ValueError):
                zones.add(None)
            rec = self.cards.get(o.get("card")) if o.get("card") else None
            types.add((rec or {}).get("card_type"))
        noun = next(iter(types)) if len(types) == 1 and None not in types else "card"
        players = {z[0] for z in zones if z}
        places = {z[1] for z in zones if z}
        if zones and None not in zones and len(players) == 1:
            p = next(iter(players))
            if places <= {"leader", "garden"}:
                if places == {"leader"}:
                    noun = "leader"
                elif "leader" in places:
                    noun = "entity or leader"
                if seat is None:
                    return f"{_a(noun)} of Player {p}"
                return _a("enemy " + noun) if p != seat else _a(noun) + " of yours"
            if len(places) == 1:
                return f"{_a(noun)} in {self.zone(p, next(iter(places)), seat)}"
        return _a(noun)

    def prompt(self, game, pr, seat, source_ability=None):
        """Title and option labels of a view's pending prompt, for `seat`."""
        if pr is None:
            return None
        src = pr.get("source")
        source = self.name(src) if src else "an effect"
        mine = seat is None or pr.get("chooser") == seat
        # the ability's text only as far as the view shows its card: the chooser's view names the
        # source; the other seat reads an ability another card runs (RUN_ABILITY: a spell resolved
        # from the hand) only as the source's own printed text
        does = ""
        if source_ability and src and (mine or source_ability.get("card") == src):
            does = self.ability_text(source_ability)
        if not does and src:
            does = _clean((self.cards.get(src) or {}).get("text") or "")
        what = self._what(pr, seat if seat is not None else pr.get("chooser"))
        who = "" if mine else ("The opponent is choosing" if seat is not None else f"Player {pr.get('chooser')} is choosing")
        kind = pr.get("kind")
        if kind == "YES_NO":
            core = f"{source}: do it?"
        elif kind == "MODE":
            core = f"{source}: choose one"
        else:
            core = f"Choose {what} for {source}"
        if not mine:
            core = f"{who} for {source}"
        elif seat is None:            # the full view (replays): whose choice it is
            core = f"Player {pr.get('chooser')}: " + ("c" + core[1:] if core.startswith("Choose") else core)
        title = core + (f" — {does}" if does else "")
        labels = {o["index"]: self.option_label(pr, o, seat) for o in pr.get("options") or []}
        return {"title": title, "source": source, "does": does, "options": labels,
                "decline": "Decline (choose nothing)" if pr.get("optional") else None}

    # ---- banner -----------------------------------------------------------------------------------
    def banner(self, game, view, seat, over):
        if over:
            return "Game over"
        cp = view.get("current_player")
        phase = view.get("phase")
        mine = seat is not None and cp == seat
        who = "You" if mine else ("The opponent" if seat is not None else f"Player {cp}")
        combat = view.get("combat") or {}
        if phase == "MULLIGAN":
            return "Keep this hand or mulligan?" if mine else f"{who} decides whether to keep their hand"
        if phase == "MAIN":
            return ("Your turn: play cards, attack, use abilities, or end the turn" if mine
                    else f"{who}'s turn" if seat is None else "The opponent's turn")
        if phase == "RESPONSE":
            tgt = combat.get("target")
            return ("Respond to the attack? Cast a response spell, use a response ability, or pass" if mine
                    else f"{who} may respond to the attack" + (f" on {self.place(tgt, seat)}" if tgt else ""))
        if phase == "DEFENDER":
            return "Declare a defender, or pass" if mine else f"{who} may declare a defender"
        if phase == "PROMPT":
            return "Your choice (see the panel on the right)" if mine else f"{who} is making a choice"
        return f"{who} decide{'' if mine else 's'}"


def _a(noun):
    noun = noun.strip()
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _clean(text):
    """Printed text without the card file's markup (*Pay 1 IKZ* -> Pay 1 IKZ)."""
    return str(text).replace("*", "").strip()


def action_places(d):
    """The places a described action involves, in the order a player clicks
    them (the card first, then where it goes / what it attacks); [] for
    actions made by a button or a prompt option."""
    if d["type"] == "CHOOSE":
        return []
    return [p["where"] for p in d["params"] if TX.is_place(p["kind"]) and "where" in p]


def legal_entries(game, view, words=None):
    """The legal list of a view ([[id, text], ...]) with type, places and a label in words."""
    words = words or Words()
    seat = view.get("seat")
    pr = view.get("prompt")
    labels = None
    if pr is not None and "options" in pr:
        labels = {o["index"]: words.option_label(pr, o, seat) for o in pr["options"]}
    out = []
    for a, text in view.get("legal", []):
        d = game.describe(a)
        label = words.action(d, seat, labels if d["type"] in ("CHOOSE", "NO_OP") and pr is not None else None)
        out.append({"id": a, "type": d["type"], "text": text, "label": label, "places": action_places(d)})
    return out


def page_words(game, view, seat, over, words=None):
    """The banner and the prompt's title / option labels of a view."""
    words = words or Words()
    pr = view.get("prompt")
    ab = None
    if pr is not None:
        ab = _running_ability(game)
    return {"banner": words.banner(game, view, seat, over),
            "prompt": words.prompt(game, pr, seat, ab) if pr is not None else None}


def _running_ability(game):
    """The ability asking the pending prompt (Game.describe of an answer)."""
    try:
        acts = game.legal_actions()
        return game.describe(int(acts[0]))["ability"] if len(acts) else None
    except (ValueError, TypeError):
        return None


def public_action(game, a, words=None):
    """An action as the other seat reads it (only what becomes public)."""
    words = words or Words()
    d = game.describe(a)
    t = d["type"]
    if t in ("ATTACK", "DECLARE_DEFENDER", "PORTAL_GATE", "ACTIVATE_ABILITY", "END_TURN", "NO_OP",
             "MULLIGAN_KEEP", "MULLIGAN_SHUFFLE"):
        return words.action(d, None)
    if t == "CHOOSE":
        return "makes a choice"
    if d["params"] and TX.param_zone(d["params"][0]["kind"]) == "HAND":
        return "plays a card from the hand"
    return humanize(t)


# ---- events in words --------------------------------------------------------------------

# actions whose words name nothing (action type -> button label)
_ACTION_WORDS = {"END_TURN": "End turn", "MULLIGAN_KEEP": "Keep this hand",
                 "MULLIGAN_SHUFFLE": "Mulligan (shuffle this hand away, draw a new one)"}
# what a prompt of these kinds asks for, whatever its options (None: a yes/no question)
_WHAT_WORDS = {"YES_NO": None, "NUMBER": "a number", "MODE": "one", "SLOT": "a slot",
               "HOLDER": "who holds the weapon", "SEARCH": "a card from your deck"}

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
    "ABILITY": "{card}'s ability is used",
    "PROMPT": "{P} must choose: {prompt}",
    "IKZ_GAINED": "{P} gains an IKZ",
    "REPLACED": "{card} is replaced",
    "GAME_OVER": "game over",
    "LOOKED": "{P} looks at {card}",
    "TO_HAND": "{card} goes to {P}'s hand",
    "UNTAPPED_IKZ": "{P} untaps IKZ",
    "EFFECT": "{card} is changed by a card's effect",
}

# what a PROMPT event's chooser is asked, by prompt kind
_PROMPT_WORDS = {
    "CARD": "pick a card", "YES_NO": "yes or no", "NUMBER": "pick a number",
    "BOTTOM_ORDER": "order cards for the bottom of the deck", "SLOT": "pick a slot",
    "HOLDER": "pick who holds a weapon", "MODE": "pick one of a card's choices", "SEARCH": "search the deck",
    "TOP_ORDER": "order cards for the top of the deck",
}


def event_entries(game, events, names, turn):
    """[(type, player, text for seat 0, text for seat 1, text for the full view)]
    for the events just drained from `game` (the position right after them).
    `names`: card id -> name (or a Words). A card is named to a seat only
    when that seat may know it now (Game.card_known); else "a card"."""
    if isinstance(names, Words):
        names = {k: v.get("name") for k, v in names.cards.items()}
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
            kind = S.PROMPT[v] if t == "PROMPT" and isinstance(v, int) and 0 <= v < len(S.PROMPT) else None
            fields = {"P": f"Player {p}" if p is not None else "", "card": card or "", "value": v,
                      "target": target, "turn": game.turn,
                      "mulligan": "mulligans (shuffles the hand back, draws again)" if v else "keeps the hand",
                      "prompt": _PROMPT_WORDS.get(kind, "make a choice")}
            tpl = _TEMPLATES.get(t)
            if tpl is None or (card is None and "{card}" in tpl):
                txt = humanize(t).capitalize() + (f" ({fields['P']})" if p is not None else "") + (f": {card}" if card else "")
            else:
                txt = tpl.format(**fields)
            texts.append(txt[:1].upper() + txt[1:])
        out.append({"type": t, "player": p, "texts": texts, "turn": turn})
    return out


def mark_auto_end(entries, action_type):
    """Rules §12.2 (one answer is no question): when a player's only legal
    action is END_TURN the engine applies it itself. A TURN_END that no
    END_TURN action caused gets an AUTO_END_TURN line before it, so the turn
    never ends silently (the page shows it as a notice too). `action_type`:
    the type of the action whose events these are (None: none)."""
    out, explicit = [], action_type == "END_TURN"
    for e in entries:
        if e["type"] == "TURN_END":
            if explicit:
                explicit = False
            else:
                p = e["player"]
                texts = [("You" if seat == p else f"Player {p}") + " had nothing else to do: "
                         + ("your" if seat == p else "the") + " turn ended by itself" for seat in (0, 1)]
                texts.append(f"Player {p} had nothing else to do: the turn ended by itself")
                out.append({"type": "AUTO_END_TURN", "player": p, "texts": texts, "turn": e["turn"]})
        out.append(e)
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
