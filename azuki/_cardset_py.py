"""The plain-Python half of azuki.CardSet (the C half: azuki/_cardset.pxi).

CardSetMixin holds what needs no C: building from JSON or a compiled set
(packed here, loaded by CardSet._load), name and index look-ups, repr,
copies and pickling. File reading and the compiled-set cache are in
azuki/convert/cache.py. Imports azuki._core only inside functions: _core
imports this module while it initialises.
"""
from __future__ import annotations

import operator

import numpy as np

from ._util import excerpt
from .errors import CardSetError


class CardSetMixin:
    """Methods of azuki.CardSet that make no C call (base of the cdef class)."""
    __slots__ = ()

    @staticmethod
    def from_json(path=None, text=None):
        """Compile a JSON card set (raises azuki.convert.ConvertError with
        file/path/message problems) and verify it in C (CardSetError).
        Compiled sets are cached by (path, SHA-256 of the bytes) or by the
        text's hash, and the hashes of every file the set included: a second
        call with unchanged content costs a read and a hash per file; a
        changed file, the top one or an include, is recompiled. `text` with
        a `path`: the text of that file (its includes resolve beside it)."""
        from .convert import cache
        return cache.cached(path, text, load_compiled)

    @staticmethod
    def from_compiled(cs):
        """Verify and load an azuki.convert.CardSet (uncached): its bytes
        (azuki.convert.pack, laid out from csrc/azk_cardset.def) go to
        azk_cardset_load, which checks them and runs the verifier."""
        return load_compiled(cs, None)

    def deck_index(self, name):
        """Index of a deck given by name or index (ValueError / IndexError / TypeError)."""
        self._check_ready()
        if isinstance(name, str):
            if name in self.decks:
                return self.decks.index(name)
            raise ValueError(f"unknown deck {excerpt(name)} (known: {', '.join(self.decks)})")
        if name is None or isinstance(name, (bool, np.bool_)) or not hasattr(type(name), "__index__"):
            raise TypeError(f"a deck is a name or an index, got {type(name).__name__}")
        k = operator.index(name)
        if not 0 <= k < len(self.decks):
            raise IndexError(f"deck index {excerpt(k)} out of range [0, {len(self.decks)})")
        return k

    def def_index(self, card_id):
        """Definition index of a card id (TypeError / ValueError)."""
        self._check_ready()
        if not isinstance(card_id, str):
            raise TypeError(f"a card id is a str, got {type(card_id).__name__}")
        try:
            return self.ids.index(card_id)
        except ValueError:
            raise ValueError(f"unknown card id {excerpt(card_id)}") from None

    def mode_labels(self, pc):
        """The labels of the modes of the choose_mode whose CHOOSE_MODE
        instruction is at bytecode `pc` (a MODE prompt's PROMPT_PC), in mode
        order; None if no choose_mode is there. The embedded default set
        compiles azuki/data/cards.json once to know them."""
        self._check_ready()
        if self._labels is None:
            labels = {}
            if self._is_default:
                from .convert import load_cardset
                labels = dict(load_cardset().compiled.mode_labels)
            self._labels = labels
        return self._labels.get(pc)

    def __repr__(self):
        if self.source is None:
            return "<azuki.CardSet (not initialised)>"
        return (f"<azuki.CardSet {excerpt(self.source)} {len(self.ids)} cards, decks {', '.join(self.decks)}, "
                f"hash {self.hash:016x}>")

    # ---- copy / pickle: card sets are immutable ----------------------------------
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        """Pickles carry the JSON text (the default set: just its hash)."""
        self._check_ready()
        if self._is_default:
            return (restore_cardset, (None, None, self.hash))
        if self._json is None:
            raise TypeError("this CardSet was built from a compiled object without its JSON text; "
                            "build it with CardSet.from_json to pickle it")
        return (restore_cardset, (self.source, self._json, self.hash))


def load_compiled(cs, text):
    """An azuki.convert.CardSet packed and loaded into an azuki.CardSet (verified by azk_cardset_load);
    `text`: the JSON text it was compiled from (for pickling)."""
    from ._core import CardSet
    from .convert import CardSet as CompiledCardSet
    from .convert.pack import PackError, pack_cardset
    if not isinstance(cs, CompiledCardSet):
        raise TypeError(f"expected an azuki.convert.CardSet, got {type(cs).__name__}")
    try:
        data = pack_cardset(cs)
    except PackError as e:
        raise CardSetError(f"{excerpt(cs.source)}: the card set does not fit the engine's records: {e}") from None
    return CardSet._load(data, cs.source, text, dict(getattr(cs.compiled, "mode_labels", {}) or {}))


def deck_pair(cs, decks):
    """(d0, d1) deck indices in card set `cs` of a pair of deck names/indices."""
    if not isinstance(decks, (tuple, list)):
        raise TypeError(f"decks must be a pair (tuple or list), e.g. ('STT01', 'STT02'), got {type(decks).__name__}")
    if len(decks) != 2:
        raise ValueError(f"decks must be a pair, e.g. ('STT01', 'STT02'), got {len(decks)} entries")
    return cs.deck_index(decks[0]), cs.deck_index(decks[1])


def restore_cardset(source, text, h):
    """Unpickle a CardSet (see CardSetMixin.__reduce__); checks the hash."""
    from ._core import CardSet
    if text is None:
        c = CardSet.default()
    else:
        c = CardSet.from_json(source if isinstance(source, str) else None, text=text)
    if c.hash != h:
        raise CardSetError(f"the pickled card set (hash {h:016x}) compiles to {c.hash:016x} with this engine")
    return c
