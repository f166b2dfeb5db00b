"""Compiler for the card ability language (JSON) to effect-VM bytecode.

The language is documented in docs/abilities.md. In short, a card's
``abilities`` list holds objects of four kinds:

* ``triggered``: ``trigger`` (on_play, when_attacking, ...) and an ``effect``
  (a list of statements);
* ``activated``: automatic ``cost`` (ikz, tap, sacrifice), ``timing`` (main or
  response), optional ``requires`` (a condition), and an ``effect``;
* ``spell``: the effect of a spell card, with ``timing`` and ``requires``;
* ``static``: ``attack`` / ``health`` changes, or ``weapon_bonus_becomes``,
  applying to ``self`` or to the cards of an ``applies_to`` selector, while an
  optional ``condition`` holds.

Statements, values, conditions and selectors are plain JSON objects; authors
name chosen cards and numbers with strings (``"as": "target"``) and never see
registers or jump offsets. Errors raise :class:`AbilityError` carrying the JSON
path of the offending node.

The opcode table, enums and operand kinds are read from the C declarations
(csrc/azk_opcodes.def, csrc/azk_enums.def), so the compiler and the VM cannot
drift apart: every operand the compiler emits is checked against its declared
kind (register, selector, duration, ...) as the C verifier will check it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .defs import CAPS, DEF_FAMILIES, OPCODES, OPERAND_KINDS

# Engine capacities, read from the C headers (defs.CAPS), never retyped.
NO_PC = CAPS["AZK_NO_PC"]
NONE = CAPS["AZK_NONE"]
NUM_REGS = CAPS["AZK_REGS"]
NUM_TREGS = CAPS["AZK_TREGS"]
MAX_BYTECODE = CAPS["AZK_MAX_BYTECODE"]
MAX_SELECTORS = CAPS["AZK_MAX_SELECTORS"]
MAX_ABILITIES = CAPS["AZK_MAX_ABILITIES"]
MAX_EACH = CAPS["AZK_MAX_EACH"]            # cards one for_each snapshot holds
LOOK_CAP = CAPS["AZK_LOOK_CAP"]            # cards one effect looks at
STEP_LIMIT = CAPS["AZK_VM_STEP_LIMIT"]     # instructions one program run may execute
MAX_NUMBER = CAPS["AZK_MAX_OPTIONS"] - 1   # choose_number offers 0..MAX_NUMBER at most
DECK_CAP = CAPS["AZK_DECK_CAP"]            # cards a deck holds (draw / mill)
IKZ_AREA_CAP = CAPS["AZK_IKZ_AREA_CAP"]    # IKZ cards a player can have (untap, IKZ cost)
NUM_VARS = 3                               # named numbers: R1..R3 (R0: condition result)
NUM_TEMPS = NUM_REGS - 1 - NUM_VARS        # expression temporaries: R4..R7


def _family(name):
    return {entry.name: i for i, entry in enumerate(DEF_FAMILIES[name])}


OPS = {o.name: o for o in OPCODES}        # name -> defs.OpDecl (code, kinds, props, nbytes)
TRIGGERS = _family("AZK_TRIGGER")
STATUSES = _family("AZK_STATUS")
DURATIONS = _family("AZK_DURATION")
REFS = _family("AZK_REF")
CTX = _family("AZK_CTX")
STATS = _family("AZK_STAT")                 # {"stat": {"of": ...}}
# Statistics computed through the statics (azk_attack_of / azk_health_of): a
# static condition reading them would recurse (docs/abilities.md, auras).
STATIC_UNSAFE_STATS = frozenset({"ATTACK", "HEALTH", "REMAINING"})
MAX_MODES = CAPS["AZK_MAX_MODES"]           # modes of one choose_mode
TRIG_NTH_SHIFT = CAPS["AZK_TRIG_NTH_SHIFT"]  # trigger_ability's nth, above the kind code
MAX_CARD_ABILITIES = CAPS["AZK_MAX_CARD_ABILITIES"]
CARD_TYPES = _family("AZK_CARD_TYPE")
ELEMENTS = _family("AZK_ELEMENT")
KEYWORDS = _family("AZK_KEYWORD")   # aura grant / remove
# "all_keywords": one word for every keyword of the table (statuses list the
# keywords first, csrc/azk_enums.def, so a keyword's status bit is its index)
ALL_KEYWORDS = "all_keywords"
ALL_KEYWORD_BITS = sum(1 << STATUSES[k] for k in KEYWORDS)
assert all(STATUSES[k] == i for k, i in KEYWORDS.items()), "statuses start with the keywords"
_STT = _family("AZK_STATIC_TARGET")         # enum azk_static_target (csrc/cardset.h, from the .def)
STT_SELF, STT_SELECTOR, STT_AURA, STT_COST = _STT["SELF"], _STT["SELECTOR"], _STT["AURA"], _STT["COST"]
AURA_ZONES = ("leader", "garden", "alley")   # the places an aura changes (rules §18.1)

# JSON "kind": the lower-case names of AZK_ABILITY_KIND (csrc/azk_enums.def)
ABILITY_KINDS = {name.lower(): v for name, v in _family("AZK_ABILITY_KIND").items()}
# events (docs/rules.md §15.5): the events a replacement ability can replace (enum azk_trigger)
REPLACE_EVENTS = {"destroyed": "ON_DESTROYED", "damaged": "ON_DAMAGED"}
# triggers that fire on the card after it left the field (it runs from the discard pile)
LEAVE_TRIGGERS = ("on_destroyed", "on_discarded")


def _bits(name):
    """A bit family of csrc/azk_enums.def: C name -> 1 << its index."""
    return {entry: 1 << i for entry, i in _family(name).items()}


_ABF = _bits("AZK_ABILITY_FLAG")
FLAG_ONCE, FLAG_ALLEY, FLAG_GARDEN, FLAG_RESPONSE, FLAG_TAP, FLAG_SACRIFICE, FLAG_NO_COOLDOWN = (
    _ABF[n] for n in ("ONCE_PER_TURN", "ALLEY_ONLY", "GARDEN_ONLY", "RESPONSE", "TAP_COST", "SACRIFICE_COST",
                      "IGNORES_COOLDOWN"))
# The JSON words of the selector vocabularies -> their C names (bits from csrc/azk_enums.def).
# tests/test_def_families.py: every C name is named here (or listed as unused) and C agrees.
ZONE_WORDS = {"leader": "LEADER", "garden": "GARDEN", "alley": "ALLEY", "hand": "HAND", "discard": "DISCARD",
              "weapon": "WEAPON", "looked": "LOOK", "ikz_area": "IKZ_AREA"}
SIDE_WORDS = {"self": ("SELF",), "opponent": ("OPP",), "any": ("SELF", "OPP")}
SEL_FLAG_WORDS = {"another": "NOT_SELF", "has_weapon": "HAS_WEAPON", "tapped": "TAPPED", "untapped": "UNTAPPED",
                  "attached_to_self": "ATTACHED_TO_SELF"}
SEL_FLAGS_UNUSED = ("IN_RESPONSE_OK",)      # reserved in C, no JSON word
_SZ, _SIDE, _SF = _bits("AZK_SEL_ZONE"), _bits("AZK_SEL_SIDE"), _bits("AZK_SEL_FLAG")
ZONE_BITS = {w: _SZ[c] for w, c in ZONE_WORDS.items()}
# Most cards one player can have in each selector zone (RULES §2; a weapon
# zone and the discard pile can hold the whole 50-card main deck).
ZONE_MAX = {"leader": 1, "garden": CAPS["AZK_ROW"], "alley": CAPS["AZK_ROW"], "hand": CAPS["AZK_HAND_CAP"],
            "discard": CAPS["AZK_DISCARD_CAP"], "weapon": CAPS["AZK_WEAPON_CAP"], "looked": LOOK_CAP,
            "ikz_area": IKZ_AREA_CAP}
SIDES = {w: sum(_SIDE[c] for c in cs) for w, cs in SIDE_WORDS.items()}
SEL_FLAGS = {w: _SF[c] for w, c in SEL_FLAG_WORDS.items()}
_ROW = _bits("AZK_PLACE_ROW")               # PLACE operands (PLAY_FREE, MOVE): a bit per row
PLACES = {"garden": _ROW["GARDEN"], "alley": _ROW["ALLEY"], "either": _ROW["GARDEN"] | _ROW["ALLEY"]}
REF_NAMES = {
    "self": "SELF", "holder": "HOLDER", "subject": "SUBJECT", "own_leader": "OWN_LEADER",
    "opponent_leader": "OPP_LEADER", "attacker": "ATTACKER", "target_of_attack": "TARGET",
}


def _names(v, path, what):
    """A name or a list of names (strings), each with its JSON path."""
    if isinstance(v, str):
        return [(path, v)]
    if not isinstance(v, list):
        raise AbilityError(path, f"expected a {what} name or a list of them, got {v!r}")
    out = []
    for i, x in enumerate(v):
        if not isinstance(x, str):
            raise AbilityError(f"{path}[{i}]", f"expected a {what} name (a string), got {x!r}")
        out.append((f"{path}[{i}]", x))
    return out


def _variable(table, name, path, create, what, cap, first, hint):
    """The register of variable `name` in `table` (name -> register): an
    existing one; with `create`, the next free one (first + how many exist),
    at most `cap` of them."""
    _name(name, path, what)
    if name in table:
        return table[name]
    if not create:
        raise AbilityError(path, f"unknown {what} {name!r}{hint}")
    if len(table) >= cap:
        raise AbilityError(path, f"too many {what}s (at most {cap})")
    table[name] = first + len(table)
    return table[name]


def _name(v, path, what):
    if not isinstance(v, str):
        raise AbilityError(path, f"expected a {what} name (a string), got {v!r}")
    return v


class AbilityError(Exception):
    """A bad ability program: `path` is the JSON path of the offending node."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def _one_key(v, path, what):
    """(key, argument, the key's path) of `v`, an object with exactly one key (a value, condition or
    statement of the ability language); anything else is an AbilityError at `path` saying `what`."""
    if not isinstance(v, dict) or len(v) != 1:
        raise AbilityError(path, what)
    (k, arg), = v.items()
    return k, arg, f"{path}.{k}"


class CapacityError(AbilityError):
    """A set-wide capacity is exceeded (bytecode, selectors, abilities): every
    later ability would report it again, so compiling stops here."""


class AbilityErrors(AbilityError):
    """Every problem of a card set's abilities (compile_abilities reports them
    all in one run, docs/cards.md); path and message are the first one's."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__(self.errors[0].path, self.errors[0].message)
        self.args = ("\n".join(str(e) for e in self.errors),)


@dataclass
class Selector:
    """Numeric fields of azk_selector (csrc/cardset.h), in order."""
    zones: int = 0
    side: int = 3
    types: int = 0
    flags: int = 0
    cost_min: int = -128
    cost_max: int = 127
    cost_max_reg: int = NONE
    element: int = NONE
    def_index: int = NONE
    exclude_t: int = NONE
    subtypes: int = 0

    def key(self):
        return tuple(self.__dict__.values())


@dataclass
class Ability:
    """Numeric fields of azk_ability (csrc/cardset.h)."""
    kind: int
    trigger: int = 0
    flags: int = 0
    ikz_cost: int = 0
    program: int = NO_PC
    requirement: int = NO_PC
    condition: int = NO_PC
    static_target: int = 0
    selector: int = 0
    attack: int = 0
    health: int = 0
    set_bonus: int = 0
    grant: int = 0          # aura: keyword bits the matching cards gain
    remove: int = 0         # aura: keyword bits they lose
    cost_change: int = 0    # cost modifier: added to matching hand cards' cost
    amount: int = 0           # replacement: damage prevented (events)


@dataclass
class CompiledAbilities:
    """Everything the engine's card set needs beyond card facts."""
    abilities: list = field(default_factory=list)      # [Ability]
    selectors: list = field(default_factory=list)      # [Selector]
    bytecode: bytearray = field(default_factory=bytearray)
    ranges: list = field(default_factory=list)         # per card: (ability_first, ability_count)
    # pc of each CHOOSE_MODE -> its modes' labels (the MODE
    # prompt's option i is mode i: Game.prompt() names it by these)
    mode_labels: dict = field(default_factory=dict)


class _Scope:
    """Names -> registers for one program. R0 is the condition result; named
    numbers take R1..R3 and temporaries R4..R7; T registers hold named cards."""

    def __init__(self, path):
        self.path = path
        self.cards = {}
        self.nums = {}
        self.temps_in_use = 0
        self.card_sel = {}        # card variable -> the Selector it was chosen from
        self.each_path = None     # path of the enclosing for_each, if any
        self.returns_self = []    # paths of statements that may return the source to hand
        self.plays_self = []      # (path, how) of play_free statements that may play the source again

    def card(self, name, path, create=False):
        """The T register of card variable `name` (0.., at most NUM_TREGS)."""
        return _variable(self.cards, name, path, create, "card variable", NUM_TREGS, 0,
                         ' (choose it first with "as")')

    def num(self, name, path, create=False):
        """The R register of number variable `name` (R1..: R0 is the condition result)."""
        return _variable(self.nums, name, path, create, "number variable", NUM_VARS, 1, "")

    def temp(self, path):
        if self.temps_in_use >= NUM_TEMPS:
            raise AbilityError(path, "expression too deep")
        self.temps_in_use += 1
        return 3 + self.temps_in_use

    def release(self):
        self.temps_in_use -= 1


class Compiler:
    """Compiles the abilities of a whole card set into one table."""

    def __init__(self, card_index: dict, subtype_bits: dict, stealth: bool = True):
        self.card_index = card_index          # card id -> definition index
        self.subtype_bits = subtype_bits      # subtype name -> bit index
        # can any card of the set have stealth (printed or granted, rules
        # §15.4)? Without it a choice's candidates are exactly the selector's
        # matches, and "a candidate exists" compiles to the COUNT_GE fast path
        self.stealth = stealth
        self.out = CompiledAbilities()
        self._sel_index = {}
        self._steps = 0           # worst-case instructions executed by the code emitted so far
        self._source = None       # the card whose abilities are being compiled (a JSON dict)
        self._trigger = None      # the trigger name of the ability being compiled
        self._in_condition = False  # compiling a condition program (requires, static condition)
        self._no_ask = None       # path of a replacement's "instead": its statements may not ask

    # ---- emission --------------------------------------------------------
    def _operand_range(self, kind):
        """[lo, hi] accepted for an operand of `kind` (as the C verifier's
        kind_ok in csrc/vm.c), or None for kinds checked elsewhere (OFF)."""
        return {
            "R": (0, NUM_REGS - 1), "T": (0, NUM_TREGS - 1), "SEL": (0, len(self.out.selectors) - 1),
            "REF": (0, len(REFS) - 1), "CTXV": (0, len(CTX) - 1), "DUR": (0, len(DURATIONS) - 1),
            "STATUS": (1, (1 << len(STATUSES)) - 1), "I8": (0, 255), "FLAG": (0, 1), "PLACE": (1, 3),
            "TRIG": (0, (MAX_CARD_ABILITIES - 1) << TRIG_NTH_SHIFT | (len(TRIGGERS) + 1)),   # kind | nth << shift
            "STAT": (0, len(STATS) - 1), "NMODES": (1, MAX_MODES),
        }.get(kind)

    def _emit(self, path, op, *operands):
        """Emit `op` with one value per declared operand kind (an OFF operand
        is one u16 pc). A value outside its kind's range is a compiler bug
        (user input is checked before it gets here), except a byte that does
        not fit, which is reported as an AbilityError."""
        d = OPS[op]
        if self._no_ask is not None and "ASK" in d.props:
            raise AbilityError(path, f"a replacement's statements ({self._no_ask}) run at once, in the middle of "
                                     "the event they replace, and cannot ask a player (no choose, may, "
                                     "choose_number, bottom_looked or play_free)")
        if len(operands) != len(d.kinds):
            raise AssertionError(f"{op} takes {len(d.kinds)} operands ({', '.join(d.kinds)})")
        code = [d.code]
        for kind, v in zip(d.kinds, operands):
            if kind == "OFF":
                if not 0 <= v <= 0xFFFF:
                    raise AssertionError(f"{op}: jump target {v} is not a u16")
                code += [v & 0xFF, v >> 8]
                continue
            width = OPERAND_KINDS[kind].nbytes
            if not 0 <= v < 1 << (8 * width):
                raise AbilityError(path, f"value {v} does not fit an operand of {width} byte(s)")
            lo, hi = self._operand_range(kind)
            if not lo <= v <= hi:
                raise AssertionError(f"{op}: operand {v} out of range for kind {kind} ([{lo}, {hi}], "
                                     f"{OPERAND_KINDS[kind].doc})")
            code += [(v >> (8 * k)) & 0xFF for k in range(width)]   # little-endian
        self.out.bytecode += bytes(code)
        self._steps += 1
        if len(self.out.bytecode) > MAX_BYTECODE:
            raise CapacityError(path, f"card set bytecode exceeds {MAX_BYTECODE} bytes")

    def _pc(self):
        return len(self.out.bytecode)

    def _emit_jump(self, path, op, *pre):
        """Emit a jump with a placeholder target; returns the patch position."""
        self._emit(path, op, *pre, 0)
        return self._pc() - 2

    def _patch(self, pos, target=None):
        target = self._pc() if target is None else target
        self.out.bytecode[pos] = target & 0xFF
        self.out.bytecode[pos + 1] = target >> 8

    @staticmethod
    def _i8(path, v):
        if not isinstance(v, int) or isinstance(v, bool) or not -128 <= v <= 127:
            raise AbilityError(path, f"expected an integer in [-128, 127], got {v!r}")
        return v & 0xFF

    # ---- selectors -------------------------------------------------------
    @staticmethod
    def _check_each_bound(spec, path):
        """A for_each snapshot holds MAX_EACH cards: reject selectors that could
        match more, rather than let the engine drop the rest silently."""
        zones = [z for _, z in _names(spec.get("zone", []), path, "zone")] or list(ZONE_MAX)
        sides = 2 if spec.get("side", "any") == "any" else 1
        most = sides * sum(ZONE_MAX[z] for z in zones)
        if most > MAX_EACH:
            raise AbilityError(f"{path}.zone", f"for_each can match up to {most} cards here ({', '.join(zones)} "
                               f"x {sides} side(s)); the engine iterates at most {MAX_EACH}: narrow the zones "
                               f"or the side")
        return most

    def selector(self, spec, path, scope=None):
        """Compile selector `spec`: its index in the set's selector table."""
        return self._register(self._build_selector(spec, path, scope), path)

    def _register(self, s, path):
        key = s.key()
        if key not in self._sel_index:
            if len(self.out.selectors) >= MAX_SELECTORS:
                raise CapacityError(path, f"more than {MAX_SELECTORS} distinct selectors in the set")
            self._sel_index[key] = len(self.out.selectors)
            self.out.selectors.append(s)
        return self._sel_index[key]

    def _build_selector(self, spec, path, scope=None):
        """The Selector `spec` describes, checked, not yet in the table."""
        if not isinstance(spec, dict):
            raise AbilityError(path, "a selector must be an object")
        s = Selector()
        known = {"zone", "side", "type", "cost_min", "cost_max", "cost_max_var", "element", "subtype", "card",
                 "another", "has_weapon", "tapped", "untapped", "attached_to_self", "exclude"}
        for k in spec:
            if k not in known:
                raise AbilityError(f"{path}.{k}", f"unknown selector field (known: {', '.join(sorted(known))})")
        for zp, z in _names(spec.get("zone", []), f"{path}.zone", "zone"):
            if z not in ZONE_BITS:
                raise AbilityError(zp, f"unknown zone {z!r} (known: {', '.join(ZONE_BITS)})")
            s.zones |= ZONE_BITS[z]
        side = _name(spec.get("side", "any"), f"{path}.side", "side")
        if side not in SIDES:
            raise AbilityError(f"{path}.side", f"unknown side {side!r} (self, opponent, any)")
        s.side = SIDES[side]
        for tp, t in _names(spec.get("type", []), f"{path}.type", "card type"):
            if t.upper() not in CARD_TYPES:
                raise AbilityError(tp, f"unknown card type {t!r}")
            s.types |= 1 << CARD_TYPES[t.upper()]
        if "cost_min" in spec:
            s.cost_min = self._i8(f"{path}.cost_min", spec["cost_min"]) - (256 if spec["cost_min"] < 0 else 0)
        if "cost_max" in spec:
            s.cost_max = spec["cost_max"]
            self._i8(f"{path}.cost_max", s.cost_max)
        if "cost_max_var" in spec:
            if scope is None:
                raise AbilityError(f"{path}.cost_max_var", "not available here")
            s.cost_max_reg = scope.num(spec["cost_max_var"], f"{path}.cost_max_var")
        if "element" in spec:
            e = _name(spec["element"], f"{path}.element", "element").upper()
            if e not in ELEMENTS:
                raise AbilityError(f"{path}.element", f"unknown element {spec['element']!r}")
            s.element = ELEMENTS[e]
        for sp, name in _names(spec.get("subtype", []), f"{path}.subtype", "subtype"):
            if name not in self.subtype_bits:
                raise AbilityError(sp, f"no card in this set has subtype {name!r}")
            s.subtypes |= 1 << self.subtype_bits[name]
        if "card" in spec:
            if _name(spec["card"], f"{path}.card", "card id") not in self.card_index:
                raise AbilityError(f"{path}.card", f"unknown card id {spec['card']!r}")
            s.def_index = self.card_index[spec["card"]]
        for flag, bit in SEL_FLAGS.items():
            if spec.get(flag) is True:
                s.flags |= bit
            elif flag in spec and spec[flag] is not False:
                raise AbilityError(f"{path}.{flag}", "expected true or false")
        if "exclude" in spec:
            if scope is None:
                raise AbilityError(f"{path}.exclude", "not available here")
            s.exclude_t = scope.card(spec["exclude"], f"{path}.exclude")
        if s.cost_min > s.cost_max:
            raise AbilityError(f"{path}.cost_min", f"cost_min {s.cost_min} is greater than cost_max {s.cost_max}: "
                                                   "the selector can never match")
        both = SEL_FLAGS["tapped"] | SEL_FLAGS["untapped"]
        if s.flags & both == both:
            raise AbilityError(f"{path}.untapped", "tapped and untapped together: the selector can never match")
        return s

    # ---- values and conditions -------------------------------------------
    def value(self, v, path, scope, reg):
        """Compile value expression `v` into register `reg`."""
        if isinstance(v, bool):
            raise AbilityError(path, "expected a number, got a boolean")
        if isinstance(v, int):
            self._emit(path, "SETI", reg, self._i8(path, v))
            return
        k, arg, p = _one_key(v, path, "a value is an integer or an object with exactly one key "
                                      "(count, context, var, min, add, sub, mul, max, abs, stat, random)")
        if k == "count":
            self._emit(p, "COUNT", reg, self.selector(arg, p, scope))
        elif k == "context":
            if not isinstance(arg, str) or arg.upper() not in CTX:
                raise AbilityError(p, f"unknown context value {arg!r} (known: {', '.join(n.lower() for n in CTX)})")
            self._emit(p, "CTX", reg, CTX[arg.upper()])
        elif k == "var":
            src = scope.num(arg, p)
            self._emit(p, "SETI", reg, 0)
            self._emit(p, "ADD", reg, src)
        elif k in ("min", "add", "sub"):
            if not isinstance(arg, list) or len(arg) != 2:
                raise AbilityError(p, f"{k} takes a list of two values")
            self.value(arg[0], f"{p}[0]", scope, reg)
            t = scope.temp(p)
            self.value(arg[1], f"{p}[1]", scope, t)
            self._emit(p, {"min": "MIN", "add": "ADD", "sub": "SUB"}[k], reg, t)
            scope.release()
        elif k in ("mul", "max"):
            if not isinstance(arg, list) or len(arg) != 2:
                raise AbilityError(p, f"{k} takes a list of two values")
            self.value(arg[0], f"{p}[0]", scope, reg)
            t = scope.temp(p)
            self.value(arg[1], f"{p}[1]", scope, t)
            self._emit(p, {"mul": "MUL", "max": "MAX"}[k], reg, t)
            scope.release()
        elif k == "abs":
            self.value(arg, p, scope, reg)
            self._emit(p, "ABS", reg)
        elif k == "stat":
            a = self._fields(arg, p, ("card", "of"))
            of = a["of"]
            if not isinstance(of, str) or of.upper() not in STATS:
                raise AbilityError(f"{p}.of", f"unknown statistic {of!r} (known: {', '.join(n.lower() for n in STATS)})")
            if self._in_condition == "static" and of.upper() in STATIC_UNSAFE_STATS:
                raise AbilityError(f"{p}.of", f"a static ability's condition cannot read {of!r}: attack and health "
                                              "are computed from the statics themselves (it would never finish); "
                                              f"readable here: {', '.join(sorted(n.lower() for n in set(STATS) - STATIC_UNSAFE_STATS))}")
            t = self.card_ref(a["card"], f"{p}.card", scope)
            self._emit(p, "STAT", reg, t, STATS[of.upper()])
        elif k == "random":
            if self._in_condition:
                raise AbilityError(p, "random is not allowed in a condition program (requires, static condition): "
                                      "legality and statics must not draw from the game's random numbers")
            if not isinstance(arg, list) or len(arg) != 2:
                raise AbilityError(p, "random takes a list of two values [low, high] (both included)")
            lo, hi = arg
            if isinstance(lo, int) and isinstance(hi, int) and not isinstance(lo, bool) \
                    and not isinstance(hi, bool) and hi < lo:
                raise AbilityError(p, f"random: high {hi} is below low {lo}")
            self.value(lo, f"{p}[0]", scope, reg)
            t = scope.temp(p)
            self.value(hi, f"{p}[1]", scope, t)
            self._emit(p, "RANDOM", reg, t)
            scope.release()
        else:
            raise AbilityError(p, f"unknown value kind {k!r}")

    def card_ref(self, ref, path, scope, treg_hint=None):
        """A card operand: a variable name or a reference (self, holder, ...)."""
        if not isinstance(ref, str):
            raise AbilityError(path, "expected a card variable or reference name")
        if ref in scope.cards:
            return scope.cards[ref]
        if ref in REF_NAMES:
            t = scope.card(f"<{ref}>", path, create=True)
            self._emit(path, "LOAD", t, REFS[REF_NAMES[ref]])
            return t
        raise AbilityError(path, f"unknown card {ref!r} (a chosen variable or one of {', '.join(REF_NAMES)})")

    def condition(self, c, path, scope, reg):
        """Compile boolean condition `c` into register `reg` (1 true, 0 false)."""
        if c is True or c is False:
            self._emit(path, "SETI", reg, int(c))
            return
        k, arg, p = _one_key(c, path, "a condition is an object with exactly one key "
                                      "(ge, le, eq, gt, lt, not, and, or, chosen, matches, can_choose)")
        if k in ("ge", "le", "eq", "gt", "lt"):
            if not isinstance(arg, list) or len(arg) != 2:
                raise AbilityError(p, f"{k} takes a list of two values")
            a, b = arg
            if k in ("le", "lt"):
                a, b = b, a          # a <= b  <=>  b >= a
            if self._count_at_least(a, b, k, p, scope, reg):
                return
            self.value(a, f"{p}[0]", scope, reg)
            t = scope.temp(p)
            self.value(b, f"{p}[1]", scope, t)
            if k in ("gt", "lt"):
                self._emit(p, "ADDI", t, 1)
            if k == "eq":            # a == b  <=>  a >= b and b >= a
                t2 = scope.temp(p)
                self._emit(p, "SETI", t2, 0)
                self._emit(p, "ADD", t2, t)
                self._emit(p, "SUB", t2, reg)      # t2 = b - a
                self._emit(p, "SUB", reg, t)       # reg = a - b
                self._emit(p, "SETI", t, 0)
                self._emit(p, "GE", reg, t)        # a - b >= 0
                self._emit(p, "GE", t2, t)         # b - a >= 0
                self._emit(p, "ADD", reg, t2)
                self._emit(p, "GEI", reg, 2)
                scope.release()
            else:
                self._emit(p, "GE", reg, t)
            scope.release()
        elif k == "not":
            self.condition(arg, p, scope, reg)
            self._emit(p, "NOT", reg)
        elif k in ("and", "or"):
            if not isinstance(arg, list) or not arg:
                raise AbilityError(p, f"{k} takes a non-empty list of conditions")
            exits = []
            for i, sub in enumerate(arg):
                self.condition(sub, f"{p}[{i}]", scope, reg)
                if i + 1 < len(arg):
                    if k == "or":
                        self._emit(p, "NOT", reg)
                    exits.append(self._emit_jump(p, "JZ", reg))
                    if k == "or":
                        self._emit(p, "NOT", reg)
            end = self._pc()
            if k == "or":            # a short-circuit exit means "true": fix up the flag
                skip = self._emit_jump(p, "JMP")
                fix = self._pc()
                self._emit(p, "SETI", reg, 1)
                self._patch(skip)
                for e in exits:
                    self._patch(e, fix)
            else:
                for e in exits:
                    self._patch(e, end)
        elif k == "chosen":
            self._emit(p, "VALID", reg, scope.card(arg, p))
        elif k == "can_choose":
            self._can_choose(arg, p, scope, reg)
        elif k == "matches":
            if not isinstance(arg, dict) or set(arg) != {"card", "selector"}:
                raise AbilityError(p, "matches takes {\"card\": ..., \"selector\": {...}}")
            t = self.card_ref(arg["card"], f"{p}.card", scope)
            self._emit(p, "MATCH", reg, t, self.selector(arg["selector"], f"{p}.selector", scope))
        else:
            raise AbilityError(p, f"unknown condition kind {k!r}")

    def _count_at_least(self, a, b, k, p, scope, reg):
        """`count(SEL) >= k` with a literal k (ge, le swapped; gt, lt: k + 1):
        one COUNT_GE, the instruction the engine's condition fast path runs
        without the interpreter. Same result as COUNT; SETI; GE (the count
        saturates to int16, k is an int8). Returns False when it does not apply."""
        if not (isinstance(a, dict) and len(a) == 1 and "count" in a):
            return False
        if isinstance(b, bool) or not isinstance(b, int):
            return False
        at_least = b + (1 if k in ("gt", "lt") else 0)
        if k == "eq" or not -128 <= b <= 127 or not -128 <= at_least <= 127:
            return False         # the general path reports (or handles) these
        sel = self.selector(a["count"], f"{p}[0].count", scope)
        self._emit(p, "COUNT_GE", reg, sel, at_least & 0xFF)
        return True

    def count(self, v, path, scope, reg, hi=None, what_hi="", what="a count"):
        """A count operand (draw 2, repeat 3 times, 1 damage) into `reg`. A
        literal must not be negative (the engine would silently do nothing, or
        count down forever) nor exceed the engine's capacity `hi`; a computed
        value is checked at run time (clamped by the VM)."""
        if isinstance(v, int) and not isinstance(v, bool):
            if v < 0:
                raise AbilityError(path, f"expected {'an amount' if what == 'damage' else 'a count'} >= 0, got {v}")
            if hi is not None and v > hi:
                raise AbilityError(path, f"{what_hi}, got {v}")
        self.value(v, path, scope, reg)

    def _check_steps(self, path, what):
        if self._steps > STEP_LIMIT:
            raise AbilityError(path, f"{what} can run {self._steps} VM instructions, more than the engine's "
                                     f"limit of {STEP_LIMIT} per program run (AZK_VM_STEP_LIMIT): "
                                     "fewer repetitions or a shorter body")

    # ---- self-replay detection ------------------------------------------------
    # A card whose on-play ability returns the card itself to hand and plays it
    # again triggers that ability again: a game that never ends. The patterns
    # visible in one program are rejected here; anything subtler (two cards
    # replaying each other, a loop through several abilities) is ended by the
    # engine's per-game decision cap (docs/abilities.md).
    REPLAY_TRIGGERS = {"on_play": ("garden", "alley", "either"), "on_play_garden": ("garden", "either"),
                       "on_play_alley": ("alley", "either")}

    def _could_match_source(self, sel: Selector, on_field: bool):
        """Can selector `sel` (relative to the source's controller) match the
        source card (on the field) or a copy of it (in hand)?"""
        c = self._source
        if c is None:
            return False
        zones = ZONE_BITS["garden"] | ZONE_BITS["alley"] if on_field else ZONE_BITS["hand"]
        if sel.zones and not sel.zones & zones:
            return False
        if sel.side not in (SIDES["self"], SIDES["any"]):
            return False
        ct = c.get("card_type")
        if sel.types and (not isinstance(ct, str) or ct.upper() not in CARD_TYPES
                          or not sel.types & (1 << CARD_TYPES[ct.upper()])):
            return False
        if sel.flags & SEL_FLAGS["attached_to_self"]:
            return False
        if on_field and sel.flags & SEL_FLAGS["another"]:
            return False
        if not on_field and sel.flags & (SEL_FLAGS["has_weapon"] | SEL_FLAGS["tapped"]):
            return False
        cost = c.get("cost", 0)
        if isinstance(cost, int) and not (sel.cost_min <= cost <= sel.cost_max):
            return False
        el = c.get("element")
        if sel.element != NONE and (not isinstance(el, str) or ELEMENTS.get(el.upper()) != sel.element):
            return False
        if sel.def_index != NONE and self.card_index.get(c.get("id")) != sel.def_index:
            return False
        if sel.subtypes:
            bits = 0
            for st in c.get("subtypes", []) if isinstance(c.get("subtypes"), list) else []:
                if st in self.subtype_bits:
                    bits |= 1 << self.subtype_bits[st]
            if not sel.subtypes & bits:
                return False
        return True

    def _may_be_source(self, ref, scope, on_field):
        """Does card operand `ref` possibly name this ability's own card (on the
        field, for a return) or that card or a copy of it (in hand, for a play)?"""
        if ref == "self":
            return True
        sel = scope.card_sel.get(ref) if isinstance(ref, str) else None
        return sel is not None and self._could_match_source(sel, on_field)

    def _check_self_replay(self, scope):
        places = self.REPLAY_TRIGGERS.get(self._trigger)
        if not places or not scope.returns_self:
            return
        for path, to, ref in scope.plays_self:
            if to not in places:
                continue
            cid = self._source.get("id")
            head = (f"self-replay loop: this {self._trigger} ability returns its own card to hand "
                    f"({scope.returns_self[0]}) and ")
            if ref == "self":
                raise AbilityError(path, head + "plays it again, which triggers the ability again, forever")
            hint = f"a cost_max below {self._source['cost']}" if isinstance(self._source.get("cost"), int) \
                else "a \"card\" naming another card"
            raise AbilityError(path, head + f"{ref!r} can be that card (or a copy of {cid}) played again, which "
                                            f"triggers the ability again, forever; narrow the selector so it cannot "
                                            f"match {cid} (e.g. {hint})")

    # ---- statements --------------------------------------------------------
    def block(self, stmts, path, scope, pure=False):
        if not isinstance(stmts, list):
            raise AbilityError(path, "expected a list of statements")
        for i, s in enumerate(stmts):
            self.statement(s, f"{path}[{i}]", scope)

    def _duration(self, d, path):
        if d is None:
            d = "end_of_turn"
        if not isinstance(d, str) or d.upper() not in DURATIONS:
            raise AbilityError(path, f"unknown duration {d!r} (known: {', '.join(n.lower() for n in DURATIONS)})")
        return DURATIONS[d.upper()]

    def _fields(self, arg, path, required, optional=()):
        if not isinstance(arg, dict):
            raise AbilityError(path, "expected an object")
        for k in arg:
            if k not in required and k not in optional:
                raise AbilityError(f"{path}.{k}", f"unknown field (expected {', '.join(list(required) + list(optional))})")
        for k in required:
            if k not in arg:
                raise AbilityError(path, f"missing field {k!r}")
        return arg

    def _place(self, a, p):
        """The `to` of play_free / move: garden, alley or either (default)."""
        to = _name(a.get("to", "either"), f"{p}.to", "place")
        if to not in PLACES:
            raise AbilityError(f"{p}.to", f"unknown place {to!r} (garden, alley, either)")
        return to

    def _card_amount(self, arg, p, scope, card_key, op):
        """{card_key: CARD, "amount": V} -> `op t, r` (deal_damage, heal): a
        count of damage (a negative literal is refused)."""
        a = self._fields(arg, p, (card_key, "amount"))
        t = self.card_ref(a[card_key], f"{p}.{card_key}", scope)
        r = scope.temp(p)
        self.count(a["amount"], f"{p}.amount", scope, r, what="damage")
        self._emit(p, op, t, r)
        scope.release()

    def statement(self, s, path, scope):
        k, arg, p = _one_key(s, path, "a statement is an object with exactly one key")
        if k == "choose":
            a = self._fields(arg, p, ("as", "from"), ("optional",))
            if not isinstance(a.get("optional", False), bool):
                raise AbilityError(f"{p}.optional", f"expected true or false, got {a['optional']!r}")
            sel = self.selector(a["from"], f"{p}.from", scope)
            t = scope.card(a["as"], f"{p}.as", create=True)
            scope.card_sel[a["as"]] = self.out.selectors[sel]
            self._emit(p, "CHOOSE", t, sel, 1 if a.get("optional") else 0)
        elif k == "may":
            r = scope.temp(p)
            self._emit(p, "MAY", r)
            j = self._emit_jump(p, "JZ", r)
            scope.release()
            self.block(arg, p, scope)
            self._patch(j)
        elif k == "if":
            a = self._fields(arg, p, ("condition", "then"), ("else",))
            r = scope.temp(p)
            self.condition(a["condition"], f"{p}.condition", scope, r)
            j = self._emit_jump(p, "JZ", r)
            scope.release()
            before = self._steps
            self.block(a["then"], f"{p}.then", scope)
            if "else" in a:
                j2 = self._emit_jump(p, "JMP")
                then_steps, self._steps = self._steps - before, before
                self._patch(j)
                self.block(a["else"], f"{p}.else", scope)
                self._patch(j2)
                self._steps = before + max(then_steps, self._steps - before)
            else:
                self._patch(j)
        elif k == "deal_damage":
            self._card_amount(arg, p, scope, "to", "DAMAGE")
        elif k == "modify_attack":
            a = self._fields(arg, p, ("target", "amount"), ("duration",))
            t = self.card_ref(a["target"], f"{p}.target", scope)
            self._emit(p, "MOD_ATTACK", t, self._i8(f"{p}.amount", a["amount"]),
                       self._duration(a.get("duration"), f"{p}.duration"))
        elif k == "grant":
            a = self._fields(arg, p, ("target", "status"), ("duration",))
            t = self.card_ref(a["target"], f"{p}.target", scope)
            names = a["status"] if isinstance(a["status"], list) else [a["status"]]
            bits = 0
            for i, n in enumerate(names):
                if n == ALL_KEYWORDS:
                    raise AbilityError(f"{p}.status[{i}]", f"{ALL_KEYWORDS!r} is for taking keywords away "
                                                           "(remove_status, an aura's remove); grant names the "
                                                           "statuses it gives")
                if str(n).upper() not in STATUSES:
                    raise AbilityError(f"{p}.status[{i}]", f"unknown status {n!r} (known: {', '.join(x.lower() for x in STATUSES)})")
                bits |= 1 << STATUSES[str(n).upper()]
            if not bits:
                raise AbilityError(f"{p}.status", "grant needs at least one status")
            self._emit(p, "GRANT", t, bits, self._duration(a.get("duration"), f"{p}.duration"))
        elif k in ("draw", "mill", "look", "untap_ikz"):
            r = scope.temp(p)
            self.count(arg, p, scope, r, *{
                "draw": (DECK_CAP, f"draw at most {DECK_CAP} cards (a deck holds {DECK_CAP}, AZK_DECK_CAP)"),
                "mill": (DECK_CAP, f"mill at most {DECK_CAP} cards (a deck holds {DECK_CAP}, AZK_DECK_CAP)"),
                "look": (LOOK_CAP, f"look at most {LOOK_CAP} cards at once (engine capacity AZK_LOOK_CAP)"),
                "untap_ikz": (IKZ_AREA_CAP, f"untap at most {IKZ_AREA_CAP} IKZ cards (a player has "
                                            f"{IKZ_AREA_CAP} at most, AZK_IKZ_AREA_CAP)"),
            }[k])
            self._emit(p, {"draw": "DRAW", "mill": "MILL", "look": "LOOK", "untap_ikz": "UNTAP_IKZ"}[k], r)
            scope.release()
        elif k in ("discard", "return_to_hand", "return_as_cost", "to_hand", "tap", "sacrifice"):
            t = self.card_ref(arg, p, scope)
            op = {"discard": "DISCARD", "return_to_hand": "RETURN", "return_as_cost": "RETURN_COST",
                  "to_hand": "TO_HAND", "tap": "TAP", "sacrifice": "SACRIFICE"}[k]
            self._emit(p, op, t)
            if k in ("return_to_hand", "return_as_cost") and self._may_be_source(arg, scope, on_field=True):
                scope.returns_self.append(p)
        elif k == "destroy":   # events (docs/rules.md §15.3)
            self._emit(p, "DESTROY", self.card_ref(arg, p, scope))
        elif k in ("win", "lose"):   # events (docs/rules.md §15.6)
            if arg is not True:
                raise AbilityError(p, f"write \"{k}\": true")
            self._emit(p, k.upper())
        elif k == "bottom_looked":
            if arg is not True:
                raise AbilityError(p, "write \"bottom_looked\": true")
            self._emit(p, "BOTTOM_LOOKED")
        elif k == "play_free":
            a = self._fields(arg, p, ("card",), ("to",))
            t = self.card_ref(a["card"], f"{p}.card", scope)
            to = self._place(a, p)
            self._emit(p, "PLAY_FREE", t, PLACES[to])
            if self._may_be_source(a["card"], scope, on_field=False):
                scope.plays_self.append((f"{p}.card", to, a["card"]))
        elif k == "choose_number":
            a = self._fields(arg, p, ("as", "max"))
            r = scope.num(a["as"], f"{p}.as", create=True)
            m = scope.temp(p)
            self.count(a["max"], f"{p}.max", scope, m, MAX_NUMBER,
                       f"choose a number of at most {MAX_NUMBER} (a prompt offers at most {MAX_NUMBER + 1} "
                       f"options, AZK_MAX_OPTIONS)")
            self._emit(p, "CHOOSE_NUM", r, m)
            scope.release()
        elif k == "set":
            a = self._fields(arg, p, ("var", "value"))
            r = scope.num(a["var"], f"{p}.var", create=True)
            self.value(a["value"], f"{p}.value", scope, r)
        elif k == "for_each":
            a = self._fields(arg, p, ("as", "in", "do"))
            if scope.each_path is not None:
                raise AbilityError(p, f"for_each cannot be nested inside another for_each ({scope.each_path}): "
                                      "the engine keeps one snapshot per program; use a separate ability or "
                                      "a choose inside the loop")
            sel = self.selector(a["in"], f"{p}.in", scope)
            most = self._check_each_bound(a["in"], f"{p}.in")
            t = scope.card(a["as"], f"{p}.as", create=True)
            scope.card_sel[a["as"]] = self.out.selectors[sel]
            j = self._emit_jump(p, "FOREACH", t, sel)
            body, before = self._pc(), self._steps
            scope.each_path = p
            self.block(a["do"], f"{p}.do", scope)
            scope.each_path = None
            self._emit(p, "NEXT", t, body)
            self._patch(j)
            self._steps = before + most * (self._steps - before)
            self._check_steps(p, "for_each")
        elif k == "repeat":
            a = self._fields(arg, p, ("times", "do"))
            r = scope.temp(p)
            times = a["times"]
            self.count(times, f"{p}.times", scope, r)
            literal = isinstance(times, int) and not isinstance(times, bool)
            if not literal:
                # A computed count below 0 would count down forever (until the
                # step limit ends the program with an engine error): R = max(R, 0).
                z = scope.temp(p)
                self._emit(p, "SETI", z, 0)
                self._emit(p, "MIN", z, r)
                self._emit(p, "SUB", r, z)
                scope.release()
            top, before = self._pc(), self._steps
            j = self._emit_jump(p, "JZ", r)
            self.block(a["do"], f"{p}.do", scope)
            self._emit(p, "ADDI", r, 0xFF)      # -1
            self._emit(p, "JMP", top)
            self._patch(j)
            scope.release()
            if literal:     # a computed count is bounded at run time only (the step limit)
                self._steps = before + times * (self._steps - before) + 1
                self._check_steps(f"{p}.times", "repeat")
        elif k == "choose_mode":
            self._choose_mode(arg, p, scope)
        elif k == "trigger_ability":
            a = self._fields(arg, p, ("card",), ("ability", "nth"))
            t = self.card_ref(a["card"], f"{p}.card", scope)
            which = _name(a.get("ability", "on_play"), f"{p}.ability", "ability")
            codes = {n.lower(): i for n, i in TRIGGERS.items()}
            codes.update(spell=len(TRIGGERS), activated=len(TRIGGERS) + 1)
            if which not in codes:
                raise AbilityError(f"{p}.ability", f"unknown ability {which!r} (a trigger name, \"spell\" or "
                                                   f"\"activated\": {', '.join(codes)})")
            nth = a.get("nth", 1)
            top = 1 if which == "spell" else MAX_CARD_ABILITIES
            if isinstance(nth, bool) or not isinstance(nth, int) or not 1 <= nth <= top:
                raise AbilityError(f"{p}.nth", f"expected an integer in [1, {top}] (the card's n-th "
                                               f"{which} ability; a card has at most one spell ability), got {nth!r}")
            self._emit(p, "RUN_ABILITY", t, codes[which] | (nth - 1) << TRIG_NTH_SHIFT)
        elif k == "heal":
            self._card_amount(arg, p, scope, "target", "HEAL")
        elif k in ("untap", "set_cooldown", "clear_cooldown", "portal", "attach"):
            t = self.card_ref(arg, p, scope)
            if k == "untap":
                self._emit(p, "UNTAP", t)
            elif k in ("set_cooldown", "clear_cooldown"):
                self._emit(p, "COOLDOWN", t, 1 if k == "set_cooldown" else 0)
            else:
                self._emit(p, k.upper(), t)
        elif k == "remove_status":
            a = self._fields(arg, p, ("target", "status"), ("duration",))
            t = self.card_ref(a["target"], f"{p}.target", scope)
            self._emit(p, "REMOVE_STATUS", t, self._status_bits(a["status"], f"{p}.status"),
                       self._duration(a.get("duration"), f"{p}.duration"))
        elif k == "swap":
            if not isinstance(arg, list) or len(arg) != 2:
                raise AbilityError(p, "swap takes a list of two cards")
            t1 = self.card_ref(arg[0], f"{p}[0]", scope)
            t2 = self.card_ref(arg[1], f"{p}[1]", scope)
            self._emit(p, "SWAP", t1, t2)
        elif k == "move":
            a = self._fields(arg, p, ("card",), ("to",))
            t = self.card_ref(a["card"], f"{p}.card", scope)
            to = self._place(a, p)
            self._emit(p, "MOVE", t, PLACES[to])
        # (docs/rules.md §17)
        elif k == "search":
            a = self._fields(arg, p, ("for",), ("as", "to"))
            spec = a["for"]
            if isinstance(spec, dict):
                for bad in ("zone", "side"):
                    if bad in spec:
                        raise AbilityError(f"{p}.for.{bad}", f"a search looks in your own deck only: leave out "
                                                            f"{bad!r} (the selector names the cards to find)")
            sel = self.selector(spec, f"{p}.for", scope)
            to = _name(a.get("to", "hand"), f"{p}.to", "place")
            if to != "hand" and to not in PLACES:
                raise AbilityError(f"{p}.to", f"unknown destination {to!r} (hand, garden, alley, either)")
            if to != "hand":
                types = self.out.selectors[sel].types
                playable = (1 << CARD_TYPES["ENTITY"]) | (1 << CARD_TYPES["WEAPON"])
                if not types or types & ~playable:
                    raise AbilityError(f"{p}.for.type", "a search that plays the card it finds needs \"type\": "
                                                        "[\"entity\"] and/or [\"weapon\"] (an effect plays no "
                                                        "other card, RULES §5.7)")
            name = a.get("as", "<search>")
            t = scope.card(name, f"{p}.as", create=True)
            scope.card_sel[name] = self.out.selectors[sel]
            self._emit(p, "SEARCH", t, sel)
            if to == "hand":
                self._emit(p, "TO_HAND", t)
            else:
                self._emit(p, "PLAY_FREE", t, PLACES[to])
            self._emit(p, "SHUFFLE", 0)
        elif k == "shuffle":
            side = "self" if arg is True else arg
            if side not in ("self", "opponent"):
                raise AbilityError(p, f"expected \"self\" or \"opponent\" (whose deck), got {arg!r}")
            self._emit(p, "SHUFFLE", 0 if side == "self" else 1)
        elif k == "order_top":
            r = scope.temp(p)
            self.count(arg, p, scope, r, LOOK_CAP,
                       f"order at most {LOOK_CAP} cards at once (they are looked at: engine capacity AZK_LOOK_CAP)")
            self._emit(p, "LOOK", r)
            self._emit(p, "TOP_LOOKED")
            scope.release()
        elif k == "top_looked":
            if arg is not True:
                raise AbilityError(p, "write \"top_looked\": true")
            self._emit(p, "TOP_LOOKED")
        elif k == "put_on_deck":
            a = self._fields(arg, p, ("card", "where"))
            t = self.card_ref(a["card"], f"{p}.card", scope)
            if a["where"] not in ("top", "bottom"):
                raise AbilityError(f"{p}.where", f"expected \"top\" or \"bottom\", got {a['where']!r}")
            self._emit(p, "PUT_ON_DECK", t, 0 if a["where"] == "top" else 1)
        else:
            raise AbilityError(p, f"unknown statement {k!r}")

    def _status_bits(self, status, path):
        """Status names -> their bit mask; "all_keywords" (alone or in the
        list) is every keyword of the keyword table (csrc/azk_enums.def), so
        a keyword added there is covered without touching a card."""
        names = status if isinstance(status, list) else [status]
        bits = 0
        for i, n in enumerate(names):
            if n == ALL_KEYWORDS:
                bits |= ALL_KEYWORD_BITS
                continue
            if str(n).upper() not in STATUSES:
                raise AbilityError(f"{path}[{i}]", f"unknown status {n!r} (known: {', '.join(x.lower() for x in STATUSES)})")
            bits |= 1 << STATUSES[str(n).upper()]
        if not bits:
            raise AbilityError(path, "needs at least one status")
        return bits

    def _choose_mode(self, arg, p, scope):
        """choose_mode: [{"label": L, "requires": C, "do": [...]}, ...]. The
        available modes (requires holds; without requires, a mode whose first
        statement is a mandatory choose needs a candidate) form a bit mask;
        CHOOSE_MODE asks (MODE prompt, option i = mode i) and JTAB jumps
        through a table of JMPs to the chosen branch (docs/rules.md §16.2)."""
        if not isinstance(arg, list) or not 2 <= len(arg) <= MAX_MODES:
            raise AbilityError(p, f"choose_mode takes a list of 2 to {MAX_MODES} modes (AZK_MAX_MODES)")
        m = scope.temp(p)
        self._emit(p, "SETI", m, 0)
        labels = []
        for i, mode in enumerate(arg):
            mp = f"{p}[{i}]"
            a = self._fields(mode, mp, ("label", "do"), ("requires",))
            if not isinstance(a["label"], str) or not a["label"].strip():
                raise AbilityError(f"{mp}.label", "expected the mode's printed text (a non-empty string)")
            labels.append(a["label"])
            if not isinstance(a["do"], list) or not a["do"]:
                raise AbilityError(f"{mp}.do", "expected a non-empty list of statements")
            first = a["do"][0]
            req = a.get("requires")
            t = scope.temp(mp)
            if req is not None:
                self.condition(req, f"{mp}.requires", scope, t)
            elif isinstance(first, dict) and len(first) == 1 and isinstance(first.get("choose"), dict) \
                    and not first["choose"].get("optional") and "from" in first["choose"]:
                # derived: a mode whose mandatory target is missing is not offered
                self._can_choose(first["choose"]["from"], f"{mp}.do[0].choose.from", scope, t)
            else:
                self._emit(mp, "SETI", t, 1)
            skip = self._emit_jump(mp, "JZ", t)
            self._emit(mp, "ADDI", m, 1 << i)
            self._patch(skip)
            scope.release()
        n = len(arg)
        self.out.mode_labels[self._pc()] = labels
        self._emit(p, "CHOOSE_MODE", m, m, n)
        table_at = self._emit_jump(p, "JTAB", m, n)
        scope.release()
        none = self._emit_jump(p, "JMP")          # no mode available: nothing happens
        self._patch(table_at)
        entries = [self._emit_jump(p, "JMP") for _ in range(n)]
        exits, before, most = [none], self._steps, 0
        for i, mode in enumerate(arg):
            self._patch(entries[i])
            self._steps = before
            self.block(mode["do"], f"{p}[{i}].do", scope)
            most = max(most, self._steps - before)
            if i + 1 < n:
                exits.append(self._emit_jump(p, "JMP"))
        for e in exits:
            self._patch(e)
        self._steps = before + most

    # ---- programs and abilities ---------------------------------------------
    def program(self, stmts, path):
        start = self._pc()
        self._steps = 0
        scope = _Scope(path)
        self.block(stmts, path, scope)
        self._emit(path, "END")
        self._check_steps(path, "this effect")
        self._check_self_replay(scope)
        return start

    def condition_program(self, cond, path, static=False):
        start = self._pc()
        scope = _Scope(path)
        self._in_condition = "static" if static else True
        try:
            self.condition(cond, path, scope, 0)
        finally:
            self._in_condition = False
        self._emit(path, "END")
        return start

    # ---- castability (docs/rules.md §5.4, §8.7; docs/rulings.md) -----------
    # A spell or activated ability whose effect must choose a card can only be
    # played / activated while such a choice exists. The compiler derives that
    # play condition from the effect itself, so an author cannot forget it; an
    # explicit `requires` adds other conditions (both must hold).
    def requirement_program(self, explicit, derived, path):
        """The play condition: `explicit` (the author's requires, or None) and
        "a candidate exists" for every derived choice ([(spec, path)]). With
        no derived choice left it is exactly the explicit condition's program."""
        start = self._pc()
        scope = _Scope(f"{path}.requires")
        self._in_condition = True
        try:
            exits = []
            if explicit is not None:
                self.condition(explicit, f"{path}.requires", scope, 0)
            for j, (spec, sp) in enumerate(derived):
                if explicit is not None or j:
                    exits.append(self._emit_jump(sp, "JZ", 0))    # and: false stays false
                self._can_choose(spec, sp, scope, 0)
            for e in exits:
                self._patch(e)
        finally:
            self._in_condition = False
        self._emit(path, "END")
        return start

    def _can_choose(self, spec, path, scope, reg):
        """reg = a choice from selector `spec` by the controller has a
        candidate: CAN_CHOOSE (the opponent's stealthed entities are no
        candidates, rules §15.4), or COUNT_GE sel 1 where stealth cannot hide a
        match (the same answer, and the engine's condition fast path)."""
        sel = self.selector(spec, path, scope)
        if self.stealth and self._stealth_may_hide(self.out.selectors[sel]):
            self._emit(path, "CAN_CHOOSE", reg, sel)
        else:
            self._emit(path, "COUNT_GE", reg, sel, 1)

    @staticmethod
    def _stealth_may_hide(sel):
        """Can stealth keep a match of `sel` from its chooser? Only the
        opponent's cards on the field (rules §15.4)."""
        field = ZONE_BITS["leader"] | ZONE_BITS["garden"] | ZONE_BITS["alley"]
        return bool(sel.side & SIDES["opponent"]) and (not sel.zones or bool(sel.zones & field))

    @staticmethod
    def _always_candidate(sel):
        """Does `sel` always match the controller's own leader (always on the
        field, never hidden from its own controller's effects)? Then the
        choice always has a candidate and needs no play condition."""
        return ((not sel.zones or sel.zones & ZONE_BITS["leader"]) and sel.side & SIDES["self"]
                and (not sel.types or sel.types & 1 << CARD_TYPES["LEADER"]) and sel.cost_min <= 0 <= sel.cost_max
                and sel.cost_max_reg == NONE and sel.element == NONE and sel.def_index == NONE
                and not sel.subtypes and not sel.flags and sel.exclude_t == NONE)

    @staticmethod
    def _subset(e, d):
        """Does every card matching selector `e` match selector `d`?
        (Conservative: False when unsure.)"""
        ze, zd = e.zones or 0xFF, d.zones or 0xFF
        return (not ze & ~zd and not e.side & ~d.side and (not d.types or (e.types and not e.types & ~d.types))
                and not d.flags & ~e.flags and d.cost_min <= e.cost_min and e.cost_max <= d.cost_max
                and e.cost_max_reg == d.cost_max_reg == NONE and e.exclude_t == d.exclude_t == NONE
                and (d.element == NONE or e.element == d.element) and (d.def_index == NONE or e.def_index == d.def_index)
                and (not d.subtypes or (e.subtypes and not e.subtypes & ~d.subtypes)))

    def _implied(self, explicit, sel):
        """Does the explicit condition already guarantee a candidate for a
        choice from `sel`? Yes when one of its top-level conjuncts is
        `count(S) >= k` (k >= 1; gt, le, lt alike) or `can_choose S` with
        every match of S a match of `sel`, and stealth cannot hide S's
        matches from a choice (a count sees stealthed cards, rules §15.4)."""
        stack = [explicit]
        while stack:
            c = stack.pop()
            if not isinstance(c, dict) or len(c) != 1:
                continue
            (k, arg), = c.items()
            if k == "and" and isinstance(arg, list):
                stack.extend(arg)
                continue
            spec, counts = None, True
            if k == "can_choose":
                spec, counts = arg, False
            elif k in ("ge", "gt", "le", "lt") and isinstance(arg, list) and len(arg) == 2:
                cnt, n = arg if k in ("ge", "gt") else arg[::-1]
                least = n + (k in ("gt", "lt")) if isinstance(n, int) and not isinstance(n, bool) else 0
                if isinstance(cnt, dict) and len(cnt) == 1 and "count" in cnt and least >= 1:
                    spec = cnt["count"]
            if not isinstance(spec, dict):
                continue
            try:
                e = self._build_selector(spec, "")
            except AbilityError:
                continue          # the explicit condition's own compile reports it
            if self._subset(e, sel) and not (counts and self.stealth and self._stealth_may_hide(e)):
                return True
        return False

    def _derived_choices(self, a, kind, path):
        """The mandatory choices of a spell's or activated ability's effect
        that make it unplayable without a candidate (docs/rulings.md): the
        `choose` statements without "optional" at the start of the effect,
        before any statement that changes the game (their candidates are the
        ones at play time), whose selector reads nothing the effect computes
        (no exclude, no cost_max_var). A choice of the source itself is left
        out where the source is gone by then (a spell resolves off the hand, a
        sacrificed entity is in the discard pile). Choices that always have a
        candidate, or that the explicit requires already guarantees, need no
        condition. Returns [(selector spec, JSON path)]."""
        eff = a.get("effect")
        if kind not in ("spell", "activated") or not isinstance(eff, list):
            return []
        cost = a.get("cost") if isinstance(a.get("cost"), dict) else {}
        out = []
        for i, st in enumerate(eff):
            if not (isinstance(st, dict) and len(st) == 1 and "choose" in st):
                break
            ch = st["choose"]
            if not isinstance(ch, dict) or ch.get("optional", False) is not False:
                continue
            spec = ch.get("from")
            if not isinstance(spec, dict) or "exclude" in spec or "cost_max_var" in spec:
                continue
            sp = f"{path}.effect[{i}].choose.from"
            sel = self._build_selector(spec, sp)
            leaves = (kind == "spell" and self._could_match_source(sel, on_field=False)) or \
                     (cost.get("sacrifice") is True and self._could_match_source(sel, on_field=True))
            if leaves and not sel.flags & SEL_FLAGS["another"]:
                spec = {**spec, "another": True}
                sel = self._build_selector(spec, sp)
            if self._always_candidate(sel) or ("requires" in a and self._implied(a["requires"], sel)):
                continue
            out.append((spec, sp))
        return out

    def ability(self, a, path):
        if not isinstance(a, dict):
            raise AbilityError(path, "an ability must be an object")
        kind = a.get("kind")
        if kind not in ABILITY_KINDS:
            raise AbilityError(f"{path}.kind", f"unknown ability kind {kind!r} (known: {', '.join(ABILITY_KINDS)})")
        common = ("kind", "text", "once_per_turn", "zone")
        allowed = {
            "triggered": common + ("trigger", "effect"),
            "activated": common + ("cost", "timing", "requires", "effect"),
            "spell": ("kind", "text", "timing", "requires", "effect"),
            "static": common + ("condition", "attack", "health", "applies_to", "weapon_bonus_becomes",
                                "affects", "grant", "remove", "cost_change"),
            "replacement": common + ("event", "applies_to", "instead", "prevent"),
        }[kind]
        for k in a:
            if k not in allowed:
                raise AbilityError(f"{path}.{k}", f"not a field of a {kind} ability (allowed: {', '.join(allowed)})")
        ab = Ability(kind=ABILITY_KINDS[kind])
        self._trigger = None
        if a.get("once_per_turn"):
            ab.flags |= FLAG_ONCE
        zone = a.get("zone")
        if zone is not None:
            if zone not in ("garden", "alley"):
                raise AbilityError(f"{path}.zone", "zone restriction must be \"garden\" or \"alley\"")
            ab.flags |= FLAG_GARDEN if zone == "garden" else FLAG_ALLEY
        if kind == "triggered":
            trig = str(a.get("trigger", "")).upper()
            if trig not in TRIGGERS:
                raise AbilityError(f"{path}.trigger", f"unknown trigger {a.get('trigger')!r} "
                                                      f"(known: {', '.join(t.lower() for t in TRIGGERS)})")
            ab.trigger = TRIGGERS[trig]
            self._trigger = trig.lower()
            if self._trigger in LEAVE_TRIGGERS and zone is not None:
                raise AbilityError(f"{path}.zone", f"{self._trigger} abilities run from the discard pile (the card "
                                                   "has left the field): a zone restriction would never hold")
            if self._trigger in LEAVE_TRIGGERS and a.get("once_per_turn"):
                raise AbilityError(f"{path}.once_per_turn", f"{self._trigger} abilities run from the discard pile, "
                                                            "where a card keeps no once-per-turn mark")
        if kind == "replacement":
            self._replacement(a, ab, path)
        if kind in ("activated", "spell"):
            timing = a.get("timing", "main")
            if timing not in ("main", "response"):
                raise AbilityError(f"{path}.timing", "timing must be \"main\" or \"response\"")
            if timing == "response":
                ab.flags |= FLAG_RESPONSE
            derived = self._derived_choices(a, kind, path)
            if "requires" in a or derived:
                ab.requirement = self.requirement_program(a.get("requires"), derived, path)
        if kind == "activated":
            cost = a.get("cost", {})
            if not isinstance(cost, dict):
                raise AbilityError(f"{path}.cost", "cost must be an object")
            for k in cost:
                if k not in ("ikz", "tap", "sacrifice", "ignores_cooldown"):
                    raise AbilityError(f"{path}.cost.{k}", "unknown cost (ikz, tap, sacrifice, ignores_cooldown)")
            ikz = cost.get("ikz", 0)
            if not isinstance(ikz, int) or isinstance(ikz, bool) or not 0 <= ikz <= IKZ_AREA_CAP:
                raise AbilityError(f"{path}.cost.ikz", f"IKZ cost must be an integer in [0, {IKZ_AREA_CAP}] "
                                                       "(a player has at most that many IKZ, AZK_IKZ_AREA_CAP)")
            ab.ikz_cost = ikz
            if cost.get("tap"):
                ab.flags |= FLAG_TAP
            if cost.get("sacrifice"):
                ab.flags |= FLAG_SACRIFICE
            if cost.get("ignores_cooldown"):
                ab.flags |= FLAG_NO_COOLDOWN
        if kind in ("triggered", "activated", "spell"):
            if "effect" not in a:
                raise AbilityError(path, "missing field 'effect'")
            ab.program = self.program(a["effect"], f"{path}.effect")
        if kind == "static":
            if "condition" in a:
                ab.condition = self.condition_program(a["condition"], f"{path}.condition", static=True)
            for k in ("attack", "health", "weapon_bonus_becomes"):
                if k in a:
                    self._i8(f"{path}.{k}", a[k])
            ab.attack = a.get("attack", 0)
            ab.health = a.get("health", 0)
            ab.set_bonus = a.get("weapon_bonus_becomes", 0)
            if "affects" in a:
                self._continuous(a, ab, path)
                return ab
            for k in ("grant", "remove", "cost_change"):
                if k in a:
                    raise AbilityError(f"{path}.{k}", f"{k} needs affects (the cards it changes, docs/abilities.md "
                                                      "\"Auras and cost modifiers\")")
            if "applies_to" in a:
                ab.static_target = STT_SELECTOR
                ab.selector = self.selector(a["applies_to"], f"{path}.applies_to")
                if (ab.attack or ab.health) and not ab.set_bonus:
                    raise AbilityError(f"{path}.applies_to", "applies_to names the weapons of weapon_bonus_becomes; "
                                                             "attack / health for other cards is an aura: use affects")
            if ab.set_bonus and not ab.static_target:
                raise AbilityError(path, "weapon_bonus_becomes needs applies_to (the weapons it changes)")
            if not (ab.attack or ab.health or ab.set_bonus):
                raise AbilityError(path, "a static ability must change attack, health or a weapon bonus")
        return ab

    def _keywords(self, v, path, allow_all=False):
        """A list of keyword names -> their bit mask (conditions such as
        frozen are not keywords: an aura cannot give or take them).
        allow_all (an aura's remove): "all_keywords" is every keyword."""
        if allow_all and (v == ALL_KEYWORDS or isinstance(v, list) and ALL_KEYWORDS in v):
            return ALL_KEYWORD_BITS
        if v == ALL_KEYWORDS or isinstance(v, list) and ALL_KEYWORDS in v:
            raise AbilityError(path, f"{ALL_KEYWORDS!r} is for taking keywords away (an aura's remove); "
                                     "grant names the keywords it gives")
        if not isinstance(v, list) or not v:
            raise AbilityError(path, f"expected a non-empty list of keyword names"
                                     f"{' or ' + repr(ALL_KEYWORDS) if allow_all else ''}, got {v!r}")
        mask = 0
        for kp, k in _names(v, path, "keyword"):
            if k.upper() not in KEYWORDS:
                raise AbilityError(kp, f"unknown keyword {k!r} (an aura grants or removes keywords: "
                                       f"{', '.join(n.lower() for n in KEYWORDS)})")
            mask |= 1 << KEYWORDS[k.upper()]
        return mask

    def _continuous(self, a, ab, path):
        """A static ability with `affects` (rules §18): an aura (attack,
        health, grant, remove for the matching field cards) or a cost modifier
        (cost, for the matching cards in hand)."""
        if "applies_to" in a:
            raise AbilityError(f"{path}.applies_to", "a static has either applies_to (weapon_bonus_becomes) or "
                                                     "affects (an aura or cost modifier), not both")
        if ab.set_bonus:
            raise AbilityError(f"{path}.weapon_bonus_becomes", "weapon_bonus_becomes takes applies_to, not affects")
        if self._source is not None and self._source.get("card_type") not in (None, "leader", "entity"):
            raise AbilityError(f"{path}.affects", f"auras and cost modifiers come from leaders and entities "
                                                  f"(this card is a {self._source.get('card_type')})")
        spec = a["affects"]
        if not isinstance(spec, dict):
            raise AbilityError(f"{path}.affects", "a selector must be an object")
        zones = [z for _, z in _names(spec.get("zone", []), f"{path}.affects.zone", "zone")]
        if "cost_change" in a:
            for k in ("attack", "health", "grant", "remove"):
                if k in a:
                    raise AbilityError(f"{path}.{k}", "a cost modifier changes only cost (write the aura as a "
                                                      "second static ability)")
            cost = a["cost_change"]
            self._i8(f"{path}.cost_change", cost)
            if cost == 0 or not -IKZ_AREA_CAP <= cost <= IKZ_AREA_CAP:
                raise AbilityError(f"{path}.cost_change", f"expected a non-zero cost change in [-{IKZ_AREA_CAP}, "
                                                   f"{IKZ_AREA_CAP}], got {cost!r}")
            if zones != ["hand"]:
                raise AbilityError(f"{path}.affects.zone", f"a cost modifier changes cards in hand: zone must be "
                                                           f"[\"hand\"], got {zones!r}")
            for k in ("tapped", "untapped", "has_weapon", "attached_to_self", "another"):
                if spec.get(k):
                    raise AbilityError(f"{path}.affects.{k}", "cannot be said of a card in hand")
            ab.static_target = STT_COST
            ab.cost_change = cost
        else:
            if not zones or any(z not in AURA_ZONES for z in zones):
                raise AbilityError(f"{path}.affects.zone", f"an aura changes cards on the field: zone must be "
                                                           f"some of {', '.join(AURA_ZONES)}, got {zones!r}")
            if "grant" in a:
                ab.grant = self._keywords(a["grant"], f"{path}.grant")
            if "remove" in a:
                ab.remove = self._keywords(a["remove"], f"{path}.remove", allow_all=True)
            if ab.grant & ab.remove:
                raise AbilityError(f"{path}.remove", "a keyword both granted and removed by one aura")
            if not (ab.attack or ab.health or ab.grant or ab.remove):
                raise AbilityError(path, "an aura must change attack, health or keywords (grant / remove), "
                                         "or be a cost modifier (cost_change)")
            ab.static_target = STT_AURA
        ab.selector = self.selector(spec, f"{path}.affects")

    def _replacement(self, a, ab, path):
        """A replacement ability (docs/rules.md §15.5): `event` destroyed or
        damaged; `applies_to` "self" or a selector (relative to the source's
        controller); `prevent` N (damaged only) and/or `instead` statements,
        which run at once and never ask."""
        ev = a.get("event")
        if ev not in REPLACE_EVENTS:
            raise AbilityError(f"{path}.event", f"expected one of {', '.join(REPLACE_EVENTS)}, got {ev!r}")
        ab.trigger = TRIGGERS[REPLACE_EVENTS[ev]]
        if "applies_to" not in a:
            raise AbilityError(path, "missing field 'applies_to' (\"self\" or a selector)")
        if a["applies_to"] != "self":
            ab.static_target = 1
            ab.selector = self.selector(a["applies_to"], f"{path}.applies_to")
        if "prevent" in a:
            n = a["prevent"]
            if ev != "damaged":
                raise AbilityError(f"{path}.prevent", "prevent applies to damage only (event \"damaged\")")
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 127:
                raise AbilityError(f"{path}.prevent", f"expected an amount in [1, 127], got {n!r}")
            ab.amount = n
        if "instead" in a:
            self._no_ask = f"{path}.instead"
            try:
                ab.program = self.program(a["instead"], f"{path}.instead")
            finally:
                self._no_ask = None
        if "instead" not in a and "prevent" not in a:
            raise AbilityError(path, "a replacement needs \"instead\" (statements) or \"prevent\" (an amount)")

    def _card_ability(self, a, path, card_type):
        try:
            ab = self.ability(a, path)
        except (TypeError, AttributeError, KeyError, ValueError, IndexError) as e:
            # A shape the precise checks above did not foresee: still a
            # clean error with the ability's path, never a traceback.
            raise AbilityError(path, f"malformed ability ({type(e).__name__}: {e})") from None
        finally:
            self._in_condition = False
            self._no_ask = None
        if ab.kind == ABILITY_KINDS["activated"] and card_type not in (None, "leader", "entity"):
            raise AbilityError(path, f"a {card_type} card cannot have an activated ability "
                                     "(only leaders and entities are activated)")
        if ab.flags & FLAG_SACRIFICE and card_type not in (None, "entity"):
            raise AbilityError(f"{path}.cost.sacrifice",
                               f"only an entity can sacrifice itself as a cost (this card is a {card_type})")
        return ab

    def card(self, abilities, path, card_type=None, source=None, errors=None):
        """Compile one card's abilities. `errors` (a list): a bad ability is
        appended there and the next one compiled; None: raise at once."""
        first = len(self.out.abilities)
        self._source = source if isinstance(source, dict) else None
        if not isinstance(abilities, list):
            raise AbilityError(path, "abilities must be a list")
        activated = 0
        for i, a in enumerate(abilities):
            try:
                ab = self._card_ability(a, f"{path}[{i}]", card_type)
            except CapacityError:
                raise
            except AbilityError as e:
                if errors is None:
                    raise
                errors.append(e)      # the other abilities are still checked (one run reports all)
                ab = Ability(kind=ABILITY_KINDS["static"])    # a placeholder: nothing is output
            activated += ab.kind == ABILITY_KINDS["activated"]
            self.out.abilities.append(ab)
        if len(abilities) > CAPS["AZK_MAX_CARD_ABILITIES"]:
            raise AbilityError(path, f"at most {CAPS['AZK_MAX_CARD_ABILITIES']} abilities per card")
        if activated > 2:
            raise AbilityError(path, "at most 2 activated abilities per card")
        if len(self.out.abilities) > MAX_ABILITIES:
            raise CapacityError(path, f"more than {MAX_ABILITIES} abilities in the set")
        self.out.ranges.append((first, len(abilities)))


def stealth_possible(cards):
    """Can any card of the set have stealth: printed (keywords) or given by an
    effect or aura (a "grant" naming it)? As the engine's set facts
    (csrc/cardset.c, derive_set) decide, read from the JSON before compiling;
    when unsure it says yes (then a choice's candidates are only ever counted
    the stealth-aware way, which is always right)."""
    def names(v):
        if isinstance(v, str):
            yield v
        elif isinstance(v, (list, tuple)):
            for x in v:
                yield from names(x)
        elif isinstance(v, dict):
            for x in v.values():
                yield from names(x)

    def grants(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "grant" and any(n.lower() == "stealth" for n in names(x)):
                    return True
                if grants(x):
                    return True
        elif isinstance(v, list):
            return any(grants(x) for x in v)
        return False

    for c in cards:
        if not isinstance(c, dict):
            continue
        kw = c.get("keywords", [])
        if isinstance(kw, list) and any(isinstance(k, str) and k.lower() == "stealth" for k in kw):
            return True
        if grants(c.get("abilities", [])):
            return True
    return False


def compile_abilities(cards, subtype_bits, path_prefix="cards"):
    """Compile the `abilities` of every card (a list of dicts with "id" and
    "abilities") into one CompiledAbilities. Raises AbilityError: the one
    problem, or AbilityErrors listing every problem of the set (each bad
    ability is reported and the rest still compiled; a set-wide capacity
    error ends the run)."""
    index = {c["id"]: i for i, c in enumerate(cards)}
    comp = Compiler(index, subtype_bits, stealth=stealth_possible(cards))
    errors = []
    for i, c in enumerate(cards):
        try:
            comp.card(c.get("abilities", []), f"{path_prefix}[{i}].abilities", c.get("card_type"), c, errors)
        except CapacityError as e:
            errors.append(e)
            break
        except AbilityError as e:
            errors.append(e)
    if errors:
        raise errors[0] if len(errors) == 1 else AbilityErrors(errors)
    if not comp.out.bytecode:
        comp.out.bytecode = bytearray([OPS["END"].code])
    return comp.out
