"""The plain-Python half of azuki.Game (the C half: azuki/_game.pxi).

GameMixin holds the methods that make no C call of their own: they read the
position through the engine's flat export (Game._position, azuki/state.py)
or combine the C-backed methods (locations, describe's text, the prompt,
state_dict, from_setup's plan, copies and pickling). Imports azuki._core
only inside functions: _core imports this module while it initialises.
"""
from __future__ import annotations

import numpy as np

from . import locations as L
from . import spec_autogen as S
from . import text as _text
from ._cardset_py import deck_pair
from ._util import excerpt
from .errors import AzukiError, IllegalActionError, StateError, invariant_text
from .state import status_names


def _prompt_of(pos):
    from ._core import _encode, encode
    return pos.prompt(lambda i: _encode(S.ACTION_CHOOSE, i, 0), encode(S.ACTION_NO_OP))


class GameMixin:
    """Methods of azuki.Game that make no C call (base of the cdef class)."""
    __slots__ = ()

    def export(self):
        """The engine's flat export of the position (numpy int32, layout
        azuki._core.EXPORT_LAYOUT; docs/state_format.md "Flat export")."""
        return np.frombuffer(self._position().a, dtype=np.int32).copy()

    # ---- copy / pickle -------------------------------------------------------
    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()   # the card set is immutable and shared

    def __reduce__(self):
        """Pickles carry the card set (the default one by hash, a run-time one
        as its JSON text), the deck names and the state bytes."""
        return (restore_game, (self.cards, self.decks, self.to_bytes()))

    def __repr__(self):
        if self.cards is None:
            return "<azuki.Game (not initialised)>"
        return f"<azuki.Game turn {self.turn} {self.phase} to act P{self.current_player} {self.result}>"

    # ---- facts (one _facts() call each) -------------------------------------------
    @property
    def phase(self):
        return S.PHASE[self._facts()[0]]

    @property
    def turn(self):
        return self._facts()[1]

    @property
    def active_player(self):
        return self._facts()[2]

    @property
    def first_player(self):
        return self._facts()[3]

    @property
    def result(self):
        return S.RESULT[self._facts()[4]]

    @property
    def winner(self):
        """The winning player, None for none (yet)."""
        w = self._facts()[5]
        return None if w < 0 else w

    @property
    def end_reason(self):
        """Why the game ended (azuki.END_REASONS): None while it goes on; "LEADER", "DECK_OUT"; for
        TRUNCATED games the cap or engine bound reached ("TURN_CAP", "DECISION_CAP", "VM_STEPS", ...;
        docs/rules.md §13)."""
        r = self._facts()[6]
        return None if r == 0 else S.END[r]

    @property
    def decisions(self):
        """Decisions applied so far (steps; one-answer choices do not count)."""
        return self._facts()[7]

    @property
    def turn_cap(self):
        return self._facts()[8]

    @property
    def decision_cap(self):
        """The step that applies the cap-th decision ends a still-ongoing game as TRUNCATED with
        end_reason "DECISION_CAP" (set_decision_cap)."""
        return self._facts()[9]

    # ---- the card at a location ------------------------------------------------
    def attack_of(self, where):
        """Current attack of the card at `where` ("p0.garden[1]", "p1.leader")."""
        return self._card_facts(where)[0]

    def health_of(self, where):
        """Current maximum health of the card at `where`."""
        return self._card_facts(where)[1]

    def statuses_of(self, where):
        """Sorted status names of the card at `where`."""
        return sorted(status_names(self._card_facts(where)[2]))

    def cost_of(self, where):
        """What the card at `where` ("p0.hand[2]") costs to play now: its printed cost plus the cost
        modifiers on the field, at least 0 (docs/rules.md §18.4); the printed cost outside a hand."""
        return self._card_facts(where)[3]

    # ---- actions -------------------------------------------------------------
    def decode(self, a):
        """(type name, p0, p1, p2) of a flat action id (azuki.decode)."""
        from ._core import decode
        self._check_ready()
        return decode(a)

    def encode(self, t, p0=0, p1=0, p2=0):
        """Flat action id of (type, p0, p1, p2) (azuki.encode)."""
        from ._core import encode
        self._check_ready()
        return encode(t, p0, p1, p2)

    def action_str(self, a):
        """Text of action `a` in the current position; the places it names
        are locations (docs/python_api.md), e.g.
        "ATTACK p0.garden[0] Crate Rat Kurobo -> p1.leader"."""
        return _text.describe_str(self.describe(a))

    def describe(self, a):
        """What action `a` names in the current position, resolved from the
        parameter kinds csrc/azk_actions.def declares (docs/python_api.md):
        {"type", "p0", "p1", "player" (who would take it), "params" (per
        parameter: kind, value, and the location / card / option label it
        names), "places" (their locations, in click order), "cards" (card ids
        named), "hand_index", "option" (a CHOOSE's prompt option), "ability"
        (the ability used or answered: index, card, number within the card)}.
        Legal or not; ValueError for an action out of range."""
        fields, owner = self._describe_fields(a)
        pos = self._position()
        return _text.describe(pos, fields, owner, lambda: _prompt_of(pos))

    # ---- locations (one grammar: azuki/locations.py) ---------------------------
    def locate(self, where):
        """Physical card index (0..125) at a location string (or
        azuki.locations.Location). TypeError for a non-location type,
        ValueError for a malformed location or an empty place."""
        return _locate(self._position(), where)

    def where(self, c):
        """The location string of physical card index c (= card_info(c)["where"])."""
        from ._core import NUM_CARDS, _int_in
        self._check_ready()
        return self._position().where(_int_in(c, "card index", 0, NUM_CARDS - 1))

    def card_info(self, c):
        """Id, name, owner, zone and location of a card given by physical
        index (0..125) or by location string."""
        from ._core import NUM_CARDS, _int_in
        pos = self._position()
        if isinstance(c, (str, L.Location)):
            return pos.card_info(_locate(pos, c))
        return pos.card_info(_int_in(c, "card index", 0, NUM_CARDS - 1))

    # ---- prompt and state ----------------------------------------------------
    def prompt(self):
        """None, or the pending choice: kind, chooser, optional, source and the
        options (each with its CHOOSE action id and what it names). CARD,
        BOTTOM_ORDER, SEARCH, TOP_ORDER, SLOT and HOLDER options carry a
        location `where`."""
        if self.phase != S.PHASE[S.PHASE_PROMPT]:
            return None
        return _prompt_of(self._position())

    def state_dict(self):
        """The whole position as plain JSON-able data (docs/state_format.md)."""
        pos = self._position()
        return pos.state_dict(self.decks, self.state_hash(), _prompt_of(pos))

    def _recover_decks(self):
        """Deck names from the position (azuki.state.Position.recover_decks)."""
        return self._position().recover_decks()

    @staticmethod
    def from_bytes(data, cards=None, decks=None):
        """Rebuild a game from to_bytes() output (the engine's own format,
        unchanged). `cards` must be the card set the bytes were made with.
        The deck names are not part of the bytes: give them as `decks`, or
        they are recovered from the position (each player's leader, gate,
        IKZ and main-deck composition matched against the card set's
        decklists - exact for every game built by Game(); see
        docs/python_api.md). Raises StateError, TypeError, ValueError."""
        from ._core import Game, _resolve_cards
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"state bytes must be bytes-like, got {type(data).__name__}")
        b = bytes(data)
        cs = _resolve_cards(cards)
        names = None if decks is None else tuple(cs.decks[d] for d in deck_pair(cs, decks))
        return Game._from_state(cs, b, names)

    @staticmethod
    def from_setup(d, cards=None, seed=None):
        """Build a position at the start of `active`'s main phase from a dict in
        state_dict() form (missing parts get defaults; docs/state_format.md).
        Raises ValueError on anything that cannot be a legal position."""
        from ._core import PLAN_LAYOUT, Game, _resolve_cards, _seed
        from ._setup import build_setup, pack_plan
        if not isinstance(d, dict):
            raise ValueError(f"setup must be a dict, got {type(d).__name__}")
        cs = _resolve_cards(cards if cards is not None else d.get("cards"))
        s = None if seed is None else _seed(seed, "seed")
        plan = build_setup(d, cs)
        words = np.array(pack_plan(plan, PLAN_LAYOUT), dtype=np.int32)
        return Game._from_plan(cs, plan["seed"] if s is None else s, *plan["deck_index"], words,
                               tuple(plan["decks"]))


def _locate(pos, where):
    loc = where if isinstance(where, L.Location) else L.parse_location(where)
    if isinstance(where, L.Location):
        L.format_location(loc)   # validates
    c = pos.card_at(loc)
    if c < 0:
        raise ValueError(f"no card at {excerpt(str(loc))}")
    return c


def head_mask_args(type, p0, out):
    """Game.head_masks' arguments checked: (type index or -1, p0 or -1, the three uint8 arrays to fill)."""
    from ._core import HEAD_SIZES, _as_int, _out_array, _type_index
    ti = pi = -1
    if type is not None:
        ti = _type_index(type)
        if not 0 <= ti < HEAD_SIZES[0]:
            raise ValueError(f"no action type {excerpt(type)}")
    if p0 is not None:
        if type is None:
            raise ValueError("p0 needs a type")
        pi = _as_int(p0, "p0")
        if not 0 <= pi < HEAD_SIZES[1]:
            raise ValueError(f"p0 {excerpt(pi)} out of range [0, {HEAD_SIZES[1]})")
    if out is not None and (not isinstance(out, (tuple, list)) or len(out) != 3):
        raise TypeError(f"out must be a sequence of three arrays, got {excerpt(out)}")
    return ti, pi, [_out_array(None if out is None else out[h], np.uint8, (HEAD_SIZES[h],), f"out[{h}]")
                    for h in range(3)]


def step_error(game, status, a):
    """The exception of Game.step's refusal of action `a` (status: the azk_status name; the game unchanged)."""
    if status == "TERMINAL":
        return IllegalActionError(f"the game is over ({game.result}); action {a} not applied")
    if status == "ILLEGAL":
        return IllegalActionError(f"illegal action {a} ({game.action_str(a)}) in phase {game.phase}")
    return AzukiError(f"engine error {status} on action {a}")


def state_error(status, n):
    """The StateError for state bytes (`n` of them) azk_deserialize refused with `status` (its name)."""
    reason = {"ERR_CARDSET": "the bytes belong to another card set",
              "ERR_CORRUPT": "corrupt, truncated or wrong-version state bytes"}.get(status, status)
    return StateError(f"cannot load state ({n} bytes): {reason}")


def setup_error(detail, words):
    """The ValueError for a plan azk_game_setup rejected at word `detail`
    (negative: the invariant the position breaks)."""
    from ._core import PLAN_LAYOUT
    if detail < 0:
        return ValueError(f"setup does not describe a valid position ({invariant_text(detail)})")
    fx = detail - PLAN_LAYOUT.FX_STATUS
    if 0 <= fx < PLAN_LAYOUT.count("FX_STATUS") and words[PLAN_LAYOUT.FX_KIND + fx] == 1:
        return ValueError(f"effects[{fx}].statuses: {', '.join(status_names(words[detail]))}: stealth, "
                          f"lifesteal and poisonous work only in card sets where some card has or gives "
                          f"them, and no card of this set does")
    name = "?"
    for field, (off, cnt) in PLAN_LAYOUT.fields.items():
        if off <= detail < off + cnt:
            name = field if cnt == 1 else f"{field}[{detail - off}]"
    return ValueError(f"setup plan rejected at word {detail} ({name})")


def restore_game(cards, decks, state):
    """Unpickle a Game (see GameMixin.__reduce__)."""
    from ._core import Game
    return Game.from_bytes(state, cards=cards, decks=decks)
