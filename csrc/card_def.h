/* card_def.h — the static facts of a card set, as the engine reads them.
 *
 * A card set is immutable data: card definitions, decklists and (from the
 * effect VM on) ability bytecode. It is produced by `python -m azuki.convert`
 * either as C source (generated/cards_autogen.c, the embedded default set) or
 * at run time from JSON. Games never point into it; they refer to card
 * definitions by index (uint8_t), so a game struct stays pointer-free and a
 * clone is a memcpy.
 *
 * Invariants (checked by the converter, and by azk_cardset_verify in C):
 *  - every index stored here is < the matching count;
 *  - every decklist has exactly AZK_DECK_MAIN main-deck cards, AZK_DECK_IKZ IKZ
 *    cards and one token, each a definition of the right card type.
 */
#ifndef AZK_CARD_DEF_H
#define AZK_CARD_DEF_H

#include <stdint.h>

/* ---- vocabularies, generated from azk_enums.def -------------------------- */
#define AZK_CARD_TYPE(name, doc) AZK_CT_##name,
enum azk_card_type {
#include "azk_enums.def"
    AZK_CT_COUNT
};
#undef AZK_CARD_TYPE

#define AZK_ELEMENT(name, doc) AZK_EL_##name,
enum azk_element {
#include "azk_enums.def"
    AZK_EL_COUNT
};
#undef AZK_ELEMENT

#define AZK_RARITY(name, doc) AZK_RAR_##name,
enum azk_rarity {
#include "azk_enums.def"
    AZK_RAR_COUNT
};
#undef AZK_RARITY

#define AZK_KEYWORD(name, doc) AZK_KWI_##name,
enum azk_keyword_index {
#include "azk_enums.def"
    AZK_KWI_COUNT
};
#undef AZK_KEYWORD
#define AZK_KEYWORD(name, doc) AZK_KW_##name = 1u << AZK_KWI_##name,
enum azk_keyword_bit {
#include "azk_enums.def"
    AZK_KW_NONE_ = 0
};
#undef AZK_KEYWORD

/* ---- capacities ----------------------------------------------------------- */
#define AZK_MAX_CARD_DEFS 127    /* distinct definitions in one card set (starter + expansion: docs/cards.md) */
/* Observation identity (layout v4, azk_obs.def kind ID) = def + 1 in one byte, 1..127;
 * 0 means no card / unknown. The bound also keeps a definition in obs.c's 128-bit set. */
#define AZK_CARD_ID_SCALE 127
#define AZK_MAX_SUBTYPES 64      /* subtype names per set (bitmask width) */
#define AZK_MAX_DECKS 8          /* decklists per set */
#define AZK_DECK_MAIN 50         /* main-deck cards per deck (RULES §1) */
#define AZK_DECK_IKZ 10          /* IKZ cards per deck (RULES §1) */
#define AZK_CARD_ID_LEN 12       /* "STT01-001" + NUL, padded */
#define AZK_CARD_NAME_LEN 32     /* longest starter name is 22 chars */
#define AZK_SUBTYPE_NAME_LEN 24
#define AZK_DECK_NAME_LEN 16
#define AZK_MAX_CARD_ABILITIES 8 /* abilities of one definition (a card's once_used is a bit per ability) */
#define AZK_NO_CARD_DEF 0xFF

_Static_assert(AZK_MAX_CARD_DEFS < AZK_NO_CARD_DEF, "def index must fit a byte");
_Static_assert(AZK_MAX_CARD_DEFS <= AZK_CARD_ID_SCALE, "every definition has an exact observation identity");
_Static_assert(AZK_MAX_SUBTYPES <= 64, "subtypes are a uint64_t bitmask");
_Static_assert(AZK_KWI_COUNT <= 16, "keywords are a uint16_t bitmask");
_Static_assert(AZK_MAX_CARD_ABILITIES <= 8, "a card's once_used is a uint8_t bit per ability");

/* The card-set records are declared once, field by field, in azk_cardset.def
 * (which also documents every field); the structs below are generated from it,
 * as are azk_cardset_layout() (cardset.c) and the Python packer
 * (azuki/convert/pack.py). */
#define AZK_RECORD_FIELD_(name, type, dims, doc) type name dims;

/* One card definition. */
typedef struct azk_card_def {
#define AZK_CARD_DEF_FIELD AZK_RECORD_FIELD_
#include "azk_cardset.def"
#undef AZK_CARD_DEF_FIELD
} azk_card_def;

/* One decklist: definition indices. */
typedef struct azk_decklist {
#define AZK_DECKLIST_FIELD AZK_RECORD_FIELD_
#include "azk_cardset.def"
#undef AZK_DECKLIST_FIELD
} azk_decklist;

#endif /* AZK_CARD_DEF_H */
