/* cardset.h — a complete card set: definitions, decklists, abilities,
 * selectors and bytecode (DESIGN §2, §6).
 *
 * The set is plain fixed-size data so it can be built in C (the embedded
 * default, generated/cards_autogen.c) or filled at run time from the Python
 * compiler (azuki.convert) and then verified. Games refer to it by pointer at
 * call time only; a game struct never stores a pointer into it, and records
 * the set's hash so state bytes cannot be replayed against a different set.
 *
 * Invariant after azk_cardset_verify() == AZK_OK: every index is in range,
 * every program (ability body, condition, requirement) passes the bytecode
 * verifier, and every decklist is well formed. The engine trusts a verified
 * set and checks nothing again in the hot path.
 */
#ifndef AZK_CARDSET_H
#define AZK_CARDSET_H

#include <stddef.h>
#include <stdint.h>

#include "card_def.h"

#define AZK_MAX_ABILITIES 254      /* abilities in one set (index fits a byte, 0xFF = none) */
#define AZK_MAX_SELECTORS 255      /* selectors in one set (the SEL operand is a byte) */
#define AZK_MAX_BYTECODE 24576     /* bytes of bytecode in one set (jump targets are u16) */
#define AZK_MAX_ACTIVATED 2        /* activated abilities per card (action head) */
#define AZK_NO_PC 0xFFFF           /* "no program" */

/* Card-set bytes (azk_cardset_load, azuki/convert/pack.py): an 8-byte header
 * (uint32 magic, uint32 format version, native byte order) followed by the
 * AZK_CARDSET_HASHED_BYTES of the data part of azk_cardset, laid out as the
 * compiler lays out the records of azk_cardset.def. */
#define AZK_CARDSET_MAGIC 0x53435a41u   /* "AZCS" as a little-endian uint32 */
#define AZK_CARDSET_FORMAT_VERSION 3    /* bump when azk_cardset.def changes (2: 16-bit keywords; 3: 127 definitions, aura and cost fields) */
#define AZK_CARDSET_HEADER_BYTES 8

#define AZK_TRIGGER(name, doc) AZK_TRIG_##name,
enum azk_trigger {
#include "azk_enums.def"
    AZK_TRIG_COUNT
};
#undef AZK_TRIGGER
_Static_assert(AZK_TRIG_COUNT <= 32, "per-definition trigger mask (and the listen hint) is 32 bits");

#define AZK_STATUS(name, doc) AZK_STI_##name,
enum azk_status_index {
#include "azk_enums.def"
    AZK_STI_COUNT
};
#undef AZK_STATUS
#define AZK_STATUS(name, doc) AZK_ST_##name = 1u << AZK_STI_##name,
enum azk_status_bit {
#include "azk_enums.def"
    AZK_ST_NONE_ = 0
};
#undef AZK_STATUS
/* Statuses are generated as keywords then conditions (azk_enums.def), so
 * each keyword's status bit is its keyword bit; checked per keyword anyway.
 * 16 bits: azk_card_def.keywords, azk_effect.status and GRANT's operand
 * (docs/extending.md, "Status bits"). */
_Static_assert(AZK_STI_COUNT <= 16, "statuses are a uint16_t mask");
#define AZK_KEYWORD(name, doc) \
    _Static_assert((int)AZK_STI_##name == (int)AZK_KWI_##name, "keyword " #name " is status bit " #name);
#include "azk_enums.def"
#undef AZK_KEYWORD
#define AZK_CONDITION(name, doc) \
    _Static_assert((int)AZK_STI_##name >= (int)AZK_KWI_COUNT, "condition " #name " follows the keywords");
#include "azk_enums.def"
#undef AZK_CONDITION

#define AZK_DURATION(name, doc) AZK_DUR_##name,
enum azk_duration {
#include "azk_enums.def"
    AZK_DUR_COUNT
};
#undef AZK_DURATION

/* What an ability is (azk_enums.def AZK_ABILITY_KIND). */
#define AZK_ABILITY_KIND(name, doc) AZK_AB_##name,
enum azk_ability_kind {
#include "azk_enums.def"
    AZK_AB_KIND_COUNT
};
#undef AZK_ABILITY_KIND

/* Ability flags (azk_enums.def AZK_ABILITY_FLAG): a bit each. */
#define AZK_ABILITY_FLAG(name, doc) AZK_ABFI_##name,
enum azk_ability_flag_index {
#include "azk_enums.def"
    AZK_ABFI_COUNT
};
#undef AZK_ABILITY_FLAG
#define AZK_ABILITY_FLAG(name, doc) AZK_ABF_##name = 1u << AZK_ABFI_##name,
enum azk_ability_flag {
#include "azk_enums.def"
    AZK_ABF_NONE_ = 0
};
#undef AZK_ABILITY_FLAG

/* Where a static ability's modification applies (azk_enums.def AZK_STATIC_TARGET). */
#define AZK_STATIC_TARGET(name, doc) AZK_STT_##name,
enum azk_static_target {
#include "azk_enums.def"
    AZK_STT_COUNT
};
#undef AZK_STATIC_TARGET

/* One ability; fields in azk_cardset.def. */
typedef struct azk_ability {
#define AZK_ABILITY_FIELD AZK_RECORD_FIELD_
#include "azk_cardset.def"
#undef AZK_ABILITY_FIELD
} azk_ability;
_Static_assert(AZK_AB_KIND_COUNT <= 256 && AZK_STT_COUNT <= 256, "ability kinds and static targets fit a byte");
_Static_assert(AZK_ABFI_COUNT <= 8 * sizeof(((azk_ability *)0)->flags), "ability flags fit azk_ability.flags");

/* Selector zones, sides and flags (azk_enums.def AZK_SEL_ZONE, AZK_SEL_SIDE,
 * AZK_SEL_FLAG): a bit each; a zone is relative to the selector's side. */
#define AZK_SEL_ZONE(name, doc) AZK_SZI_##name,
enum azk_sel_zone_index {
#include "azk_enums.def"
    AZK_SZI_COUNT
};
#undef AZK_SEL_ZONE
#define AZK_SEL_ZONE(name, doc) AZK_SZ_##name = 1u << AZK_SZI_##name,
enum azk_sel_zone {
#include "azk_enums.def"
    AZK_SZ_NONE_ = 0
};
#undef AZK_SEL_ZONE
#define AZK_SEL_SIDE(name, doc) AZK_SIDEI_##name,
enum azk_sel_side_index {
#include "azk_enums.def"
    AZK_SIDEI_COUNT
};
#undef AZK_SEL_SIDE
#define AZK_SEL_SIDE(name, doc) AZK_SIDE_##name = 1u << AZK_SIDEI_##name,
enum azk_sel_side {
#include "azk_enums.def"
    AZK_SIDE_ANY = (1u << AZK_SIDEI_COUNT) - 1 /* every side */
};
#undef AZK_SEL_SIDE
#define AZK_SEL_FLAG(name, doc) AZK_SFI_##name,
enum azk_sel_flag_index {
#include "azk_enums.def"
    AZK_SFI_COUNT
};
#undef AZK_SEL_FLAG
#define AZK_SEL_FLAG(name, doc) AZK_SF_##name = 1u << AZK_SFI_##name,
enum azk_sel_flag {
#include "azk_enums.def"
    AZK_SF_NONE_ = 0
};
#undef AZK_SEL_FLAG

/* One card selector; fields in azk_cardset.def. */
typedef struct azk_selector {
#define AZK_SELECTOR_FIELD AZK_RECORD_FIELD_
#include "azk_cardset.def"
#undef AZK_SELECTOR_FIELD
} azk_selector;

/* The rows of a PLACE operand (azk_enums.def AZK_PLACE_ROW): bit z names
 * row z; AZK_PLACE_ANY every row (the verifier's bound). */
#define AZK_PLACE_ROW(name, doc) AZK_PRI_##name,
enum azk_place_row {
#include "azk_enums.def"
    AZK_PRI_COUNT
};
#undef AZK_PLACE_ROW
#define AZK_PLACE_ANY ((1 << AZK_PRI_COUNT) - 1)
_Static_assert(AZK_PRI_GARDEN == 0 && AZK_PRI_ALLEY == 1 && AZK_PRI_COUNT == 2,
               "PLACE bit z is row z (garden 0, alley 1): the VM's slot codes are z * 8 + slot");
_Static_assert(AZK_SZI_COUNT <= 8 * sizeof(((azk_selector *)0)->zones), "selector zones fit azk_selector.zones");
_Static_assert(AZK_SIDEI_COUNT <= 8 * sizeof(((azk_selector *)0)->side), "selector sides fit azk_selector.side");
_Static_assert(AZK_SFI_COUNT <= 8 * sizeof(((azk_selector *)0)->flags), "selector flags fit azk_selector.flags");

/* Facts about one definition that the hot path would otherwise recompute by
 * walking the definition's abilities on every query. Derived from the set by
 * azk_cardset_finish (never written by hand); not part of the set's identity. */
enum azk_def_fact_flag {
    AZK_DF_ACTIVATED = 1u << 0,   /* has an ACTIVATED ability */
    AZK_DF_SELF_STAT = 1u << 1,   /* has a STATIC, target SELF, attack or health != 0 */
    AZK_DF_SET_BONUS = 1u << 2,   /* has a STATIC, target SELECTOR, set_bonus != 0 */
    AZK_DF_AURA = 1u << 3,        /* has a STATIC, target AURA (the aura_src hint, game.h) */
    AZK_DF_COST = 1u << 4,        /* has a STATIC, target COST (the cost_src hint, game.h) */
    AZK_DF_REPLACE = 1u << 5      /* has a REPLACEMENT ability */
};
/* Set-wide facts (azk_cardset.set_facts): mechanics no card of the set can
 * use cost nothing (the hot paths test one bit). */
enum azk_set_fact_flag {
    AZK_SETF_REPLACE = 1u << 0,   /* some definition has a REPLACEMENT ability */
    AZK_SETF_DAMAGE_KW = 1u << 1, /* lifesteal or poisonous is printed or granted somewhere */
    AZK_SETF_STEALTH = 1u << 2,   /* stealth is printed or granted somewhere */
    AZK_SETF_AURA = 1u << 3       /* some definition has an aura (cont, rules §18): azk_status_of looks */
};
#define AZK_NO_ABILITY 0xFF
#define AZK_HEALTH_UNBOUNDED INT16_MIN /* min_health when auras can lower any card's health */
typedef struct azk_def_facts {
    int16_t min_health;      /* printed health plus every negative static health change; AZK_HEALTH_UNBOUNDED
                              * in a set with an aura that lowers health (cardset.c) */
    uint8_t spell_ability;   /* absolute index of the SPELL ability, AZK_NO_ABILITY if none */
    uint8_t flags;           /* enum azk_def_fact_flag */
    uint32_t trigger_mask;   /* bit t: a TRIGGERED ability on enum azk_trigger t */
} azk_def_facts;
_Static_assert(AZK_MAX_ABILITIES <= AZK_NO_ABILITY, "ability indices fit a byte");

typedef struct azk_cardset {
    /* ---- the set's data, declared in azk_cardset.def: the bytes that
     * identify it (AZK_CARDSET_HASHED_BYTES) and that azk_cardset_load reads */
#define AZK_CARDSET_FIELD AZK_RECORD_FIELD_
#include "azk_cardset.def"
#undef AZK_CARDSET_FIELD
    /* ---- derived by azk_cardset_finish; outside the hashed part ---- */
    azk_def_facts facts[AZK_MAX_CARD_DEFS];
    uint32_t set_facts;      /* enum azk_set_fact_flag (events) */
} azk_cardset;

/* The bytes that identify a set: everything before the derived tables. */
#define AZK_CARDSET_HASHED_BYTES offsetof(azk_cardset, facts)
_Static_assert(offsetof(azk_cardset, facts) == offsetof(azk_cardset, bytecode) + AZK_MAX_BYTECODE,
               "no padding between the data and the derived tables: the identity hash covers exactly the data");

/* Fill cs->facts from the definitions and abilities (cardset.c). */
void azk_cardset_derive(azk_cardset *cs);
/* 1 when cs->facts is exactly what azk_cardset_derive would write. */
int azk_cardset_facts_ok(const azk_cardset *cs);
/* The statuses whose engine paths the set's facts switch off (stealth,
 * lifesteal, poisonous where no card has or gives them): a setup may not grant them. */
unsigned azk_cardset_untracked_statuses(const azk_cardset *cs);

#endif /* AZK_CARDSET_H */
