/* cardset.c — the embedded default card set and card-set verification.
 *
 * azk_cardset_finish() is the gate every card set passes before a game may
 * use it (the default one in tests, run-time sets from azuki.convert on
 * load): it checks every count, index and enum, and runs the bytecode
 * verifier over every program, so the engine can trust the set afterwards.
 * azk_cardset_load() is how a run-time set's bytes (azuki/convert/pack.py)
 * become a set; azk_cardset_layout() reports the compiled layout of the
 * records declared in azk_cardset.def.
 *
 * Layer (csrc/layers.def): above the VM, whose verifier it runs; it reads
 * no game.
 */
#include "cards_autogen.h"
#include "game.h"

#include <stdatomic.h>

/* The embedded set is generated constant data without the derived tables
 * (cardset.h); the first call copies and finishes it once. The atomic state
 * (0 not started, 1 being built, 2 ready) makes concurrent first calls safe:
 * one thread builds, the others wait for the release store. */
static azk_cardset default_set;
static atomic_int default_state;

const azk_cardset *azk_default_cardset(void) {
    if (atomic_load_explicit(&default_state, memory_order_acquire) != 2) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&default_state, &expected, 1)) {
            memcpy(&default_set, &azk_default_cardset_data, sizeof default_set);
            azk_cardset_derive(&default_set);
            atomic_store_explicit(&default_state, 2, memory_order_release);
        } else {
            while (atomic_load_explicit(&default_state, memory_order_acquire) != 2) {
            }
        }
    }
    return &default_set;
}

_Static_assert(sizeof(((azk_card *)0)->once_used) * 8 >= AZK_MAX_CARD_ABILITIES,
               "a card's once_used has a bit per ability of its definition");

azk_status azk_cardset_load(azk_cardset *cs, const uint8_t *bytes, size_t len) {
    if (!cs || !bytes) return AZK_ERR_ARG;
    if (len != AZK_CARDSET_HEADER_BYTES + AZK_CARDSET_HASHED_BYTES) return AZK_ERR_CORRUPT;
    uint32_t magic, version;
    memcpy(&magic, bytes, 4);
    memcpy(&version, bytes + 4, 4);
    if (magic != AZK_CARDSET_MAGIC || version != AZK_CARDSET_FORMAT_VERSION) return AZK_ERR_CORRUPT;
    memset(cs, 0, sizeof *cs);
    memcpy(cs, bytes + AZK_CARDSET_HEADER_BYTES, AZK_CARDSET_HASHED_BYTES);
    return azk_cardset_finish(cs);
}

/* The layout table, one row per line of azk_cardset.def. */
#define AZK_LAYOUT_ROW_(rec, name) {#rec, #name, (uint32_t)offsetof(rec, name), (uint32_t)sizeof(((rec *)0)->name)},
static const azk_field_layout cardset_layout[] = {
    {"azk_card_def", "", 0, (uint32_t)sizeof(azk_card_def)},
#define AZK_CARD_DEF_FIELD(name, type, dims, doc) AZK_LAYOUT_ROW_(azk_card_def, name)
#include "azk_cardset.def"
#undef AZK_CARD_DEF_FIELD
    {"azk_decklist", "", 0, (uint32_t)sizeof(azk_decklist)},
#define AZK_DECKLIST_FIELD(name, type, dims, doc) AZK_LAYOUT_ROW_(azk_decklist, name)
#include "azk_cardset.def"
#undef AZK_DECKLIST_FIELD
    {"azk_ability", "", 0, (uint32_t)sizeof(azk_ability)},
#define AZK_ABILITY_FIELD(name, type, dims, doc) AZK_LAYOUT_ROW_(azk_ability, name)
#include "azk_cardset.def"
#undef AZK_ABILITY_FIELD
    {"azk_selector", "", 0, (uint32_t)sizeof(azk_selector)},
#define AZK_SELECTOR_FIELD(name, type, dims, doc) AZK_LAYOUT_ROW_(azk_selector, name)
#include "azk_cardset.def"
#undef AZK_SELECTOR_FIELD
    {"azk_cardset", "", 0, (uint32_t)AZK_CARDSET_HASHED_BYTES},
#define AZK_CARDSET_FIELD(name, type, dims, doc) AZK_LAYOUT_ROW_(azk_cardset, name)
#include "azk_cardset.def"
#undef AZK_CARDSET_FIELD
};
#undef AZK_LAYOUT_ROW_

const azk_field_layout *azk_cardset_layout(int *n) {
    if (n) *n = (int)(sizeof cardset_layout / sizeof cardset_layout[0]);
    return cardset_layout;
}

/* Does some aura of the set lower health (rules §18.2)? Then no card's
 * health has a bound a definition can know (any number of such auras may
 * stand on the field), and every min_health is AZK_HEALTH_UNBOUNDED: state
 * checks look at every row entity and both leaders, exactly. Sets without
 * such an aura (the starter set) keep their per-definition bounds. */
static int set_lowers_health(const azk_cardset *cs) {
    for (int i = 0; i < cs->num_abilities && i < AZK_MAX_ABILITIES; i++)
        if (cs->abilities[i].kind == AZK_AB_STATIC && cs->abilities[i].static_target == AZK_STT_AURA &&
            cs->abilities[i].health < 0)
            return 1;
    return 0;
}

static void derive_def(const azk_cardset *cs, int d, int lowers_health, azk_def_facts *f) {
    const azk_card_def *def = &cs->defs[d];
    memset(f, 0, sizeof *f);
    f->min_health = def->health;
    f->spell_ability = AZK_NO_ABILITY;
    for (int i = 0; i < def->ability_count; i++) {
        int idx = def->ability_first + i;
        const azk_ability *ab = &cs->abilities[idx];
        switch (ab->kind) {
        case AZK_AB_TRIGGERED: f->trigger_mask |= 1u << ab->trigger; break;
        case AZK_AB_REPLACEMENT: f->flags |= AZK_DF_REPLACE; break;
        case AZK_AB_ACTIVATED: f->flags |= AZK_DF_ACTIVATED; break;
        case AZK_AB_SPELL:
            if (f->spell_ability == AZK_NO_ABILITY) f->spell_ability = (uint8_t)idx; /* the verifier allows one */
            break;
        case AZK_AB_STATIC:
            if (ab->health < 0) f->min_health = (int16_t)(f->min_health + ab->health);
            if (ab->static_target == AZK_STT_SELF && (ab->attack || ab->health)) f->flags |= AZK_DF_SELF_STAT;
            if (ab->static_target == AZK_STT_SELECTOR && ab->set_bonus) f->flags |= AZK_DF_SET_BONUS;
            if (ab->static_target == AZK_STT_AURA) f->flags |= AZK_DF_AURA;
            if (ab->static_target == AZK_STT_COST) f->flags |= AZK_DF_COST;
            break;
        default: break;
        }
    }
    if (lowers_health) f->min_health = AZK_HEALTH_UNBOUNDED;
}

/* Set-wide facts (events): which of the new mechanics any card can use,
 * printed, granted by an effect or given by an aura. Needs verified programs. */
static uint32_t derive_set(const azk_cardset *cs) {
    unsigned st = 0;
    uint32_t f = 0;
    for (int d = 0; d < cs->num_defs && d < AZK_MAX_CARD_DEFS; d++) {
        st |= cs->defs[d].keywords;
        if (cs->facts[d].flags & AZK_DF_REPLACE) f |= AZK_SETF_REPLACE;
        if (cs->facts[d].flags & AZK_DF_AURA) f |= AZK_SETF_AURA;
    }
    for (int i = 0; i < cs->num_abilities && i < AZK_MAX_ABILITIES; i++) {
        if (cs->abilities[i].program != AZK_NO_PC) st |= azk_program_grants(cs, cs->abilities[i].program);
        if (cs->abilities[i].kind == AZK_AB_STATIC) st |= cs->abilities[i].grant; /* auras give keywords too (§18.3) */
    }
    if (st & (AZK_ST_LIFESTEAL | AZK_ST_POISONOUS)) f |= AZK_SETF_DAMAGE_KW;
    if (st & AZK_ST_STEALTH) f |= AZK_SETF_STEALTH;
    return f;
}

void azk_cardset_derive(azk_cardset *cs) {
    memset(cs->facts, 0, sizeof cs->facts);
    int lowers = set_lowers_health(cs);
    for (int d = 0; d < cs->num_defs && d < AZK_MAX_CARD_DEFS; d++) derive_def(cs, d, lowers, &cs->facts[d]);
    cs->set_facts = derive_set(cs);
}

unsigned azk_cardset_untracked_statuses(const azk_cardset *cs) {
    unsigned u = 0;
    if (!(cs->set_facts & AZK_SETF_STEALTH)) u |= AZK_ST_STEALTH;
    if (!(cs->set_facts & AZK_SETF_DAMAGE_KW)) u |= AZK_ST_LIFESTEAL | AZK_ST_POISONOUS;
    return u;
}

int azk_cardset_facts_ok(const azk_cardset *cs) {
    if (cs->set_facts != derive_set(cs)) return 0;
    int lowers = set_lowers_health(cs);
    for (int d = 0; d < cs->num_defs && d < AZK_MAX_CARD_DEFS; d++) {
        azk_def_facts f;
        derive_def(cs, d, lowers, &f);
        if (memcmp(&f, &cs->facts[d], sizeof f) != 0) return 0;
    }
    return 1;
}

int azk_cardset_find_deck(const azk_cardset *cs, const char *name) {
    if (!cs || !name) return -1;
    for (int i = 0; i < cs->num_decks && i < AZK_MAX_DECKS; i++)
        if (strncmp(cs->decks[i].name, name, AZK_DECK_NAME_LEN) == 0) return i;
    return -1;
}

static int def_ok(const azk_cardset *cs, int d, int type) {
    return d < cs->num_defs && cs->defs[d].card_type == type;
}

static int selector_ok(const azk_cardset *cs, const azk_selector *s) {
    if (s->side < AZK_SIDE_SELF || s->side > AZK_SIDE_ANY) return 0;
    if (s->types >= (1u << AZK_CT_COUNT)) return 0;
    if (s->cost_max_reg != AZK_NONE && s->cost_max_reg >= AZK_REGS) return 0;
    if (s->element != AZK_NONE && s->element >= AZK_EL_COUNT) return 0;
    if (s->def != AZK_NONE && s->def >= cs->num_defs) return 0;
    if (s->exclude_t != AZK_NONE && s->exclude_t >= AZK_TREGS) return 0;
    if (cs->num_subtypes < 64 && (s->subtypes >> cs->num_subtypes)) return 0;
    return 1;
}

/* Auras and cost modifiers (rules §18): the engine's fast paths rely on
 * these shapes. An aura changes field cards only (leader, garden, alley:
 * the places the aura hint and azk_attack_of / azk_status_of look at),
 * grants and removes keywords only (never a condition); one that lowers
 * health unbounds every min_health (set_lowers_health). A cost modifier
 * changes hand cards only. The
 * new fields are zero on every other ability. */
static int cont_ability_ok(const azk_cardset *cs, const azk_ability *ab) {
    int aura = ab->kind == AZK_AB_STATIC && ab->static_target == AZK_STT_AURA;
    int cost = ab->kind == AZK_AB_STATIC && ab->static_target == AZK_STT_COST;
    if (ab->kind != AZK_AB_STATIC && ab->static_target >= AZK_STT_AURA) return 0;
    if (!aura && (ab->grant || ab->remove)) return 0;
    if (!cost && ab->cost_change) return 0;
    if (ab->pad_cont_) return 0;
    if (!aura && !cost) return 1;
    if (ab->selector >= cs->num_selectors) return 0;
    unsigned zones = cs->selectors[ab->selector].zones;
    if (aura) {
        if (!zones || (zones & ~(unsigned)(AZK_SZ_LEADER | AZK_SZ_GARDEN | AZK_SZ_ALLEY))) return 0;
        if (ab->set_bonus) return 0;
        if ((ab->grant | ab->remove) >= (1u << AZK_KWI_COUNT)) return 0;
        if (!(ab->attack || ab->health || ab->grant || ab->remove)) return 0;
    } else {
        if (zones != AZK_SZ_HAND || !ab->cost_change || ab->attack || ab->health || ab->set_bonus) return 0;
    }
    return 1;
}

static int program_ok(const azk_cardset *cs, uint16_t pc, int pure) {
    return pc == AZK_NO_PC || azk_verify_program(cs, pc, pure) == 0;
}

azk_status azk_cardset_finish(azk_cardset *cs) {
    if (!cs) return AZK_ERR_ARG;
    if (cs->num_defs == 0 || cs->num_defs > AZK_MAX_CARD_DEFS || cs->num_decks == 0 ||
        cs->num_decks > AZK_MAX_DECKS || cs->num_subtypes > AZK_MAX_SUBTYPES ||
        cs->num_abilities > AZK_MAX_ABILITIES || cs->num_selectors > AZK_MAX_SELECTORS ||
        cs->bytecode_len > AZK_MAX_BYTECODE)
        return AZK_ERR_CARDSET;
    for (int i = 0; i < cs->num_selectors; i++)
        if (!selector_ok(cs, &cs->selectors[i])) return AZK_ERR_CARDSET;
    for (int i = 0; i < cs->num_abilities; i++) {
        const azk_ability *ab = &cs->abilities[i];
        if (ab->kind >= AZK_AB_KIND_COUNT || ab->trigger >= AZK_TRIG_COUNT) return AZK_ERR_CARDSET;
        if (!program_ok(cs, ab->program, ab->kind == AZK_AB_REPLACEMENT ? AZK_VERIFY_NO_ASK : AZK_VERIFY_EFFECT) || !program_ok(cs, ab->requirement, AZK_VERIFY_CONDITION) ||
            !program_ok(cs, ab->condition, AZK_VERIFY_STATIC))
            return AZK_ERR_CARDSET;
        if (ab->kind == AZK_AB_STATIC && ab->static_target == AZK_STT_SELECTOR && ab->selector >= cs->num_selectors)
            return AZK_ERR_CARDSET;
        if (ab->static_target > AZK_STT_COST) return AZK_ERR_CARDSET;
        if (!cont_ability_ok(cs, ab)) return AZK_ERR_CARDSET;
        /* events (rules §15.5): a replacement names its event, what it applies to, and does something */
        if (ab->kind == AZK_AB_REPLACEMENT &&
            ((ab->trigger != AZK_TRIG_ON_DESTROYED && ab->trigger != AZK_TRIG_ON_DAMAGED) ||
             (ab->static_target == AZK_STT_SELECTOR && ab->selector >= cs->num_selectors) ||
             (ab->program == AZK_NO_PC && ab->amount == 0) || (ab->trigger == AZK_TRIG_ON_DESTROYED && ab->amount)))
            return AZK_ERR_CARDSET;
        if (ab->kind != AZK_AB_REPLACEMENT && ab->amount) return AZK_ERR_CARDSET;
        /* on_destroyed / on_discarded run from the discard pile: no zone restriction, and no
         * once-per-turn mark (marks live only on the field, azk_check_invariants) */
        if (ab->kind == AZK_AB_TRIGGERED && (ab->trigger == AZK_TRIG_ON_DESTROYED || ab->trigger == AZK_TRIG_ON_DISCARDED) &&
            (ab->flags & (AZK_ABF_ONCE_PER_TURN | AZK_ABF_GARDEN_ONLY | AZK_ABF_ALLEY_ONLY)))
            return AZK_ERR_CARDSET;
        /* an IKZ cost above the whole IKZ supply (10 cards + token) can never
         * be paid: a card-set mistake, not a rule (the compiler says so too) */
        if (ab->ikz_cost > AZK_DECK_IKZ + 1) return AZK_ERR_CARDSET;
        if ((ab->kind == AZK_AB_TRIGGERED || ab->kind == AZK_AB_SPELL) && ab->program == AZK_NO_PC)
            return AZK_ERR_CARDSET;
    }
    for (int d = 0; d < cs->num_defs; d++) {
        const azk_card_def *def = &cs->defs[d];
        if (def->card_type >= AZK_CT_COUNT || def->element >= AZK_EL_COUNT || def->rarity >= AZK_RAR_COUNT)
            return AZK_ERR_CARDSET;
        if (def->keywords >= (1u << AZK_KWI_COUNT)) return AZK_ERR_CARDSET;
        if (cs->num_subtypes < 64 && (def->subtypes >> cs->num_subtypes)) return AZK_ERR_CARDSET;
        if (def->ability_count > AZK_MAX_CARD_ABILITIES || def->ability_first + def->ability_count > cs->num_abilities)
            return AZK_ERR_CARDSET;
        int activated = 0, spells = 0;
        for (int i = 0; i < def->ability_count; i++) {
            const azk_ability *ab = &cs->abilities[def->ability_first + i];
            activated += ab->kind == AZK_AB_ACTIVATED;
            spells += ab->kind == AZK_AB_SPELL;
            /* only leaders and entities are ever activated (azk_apply's row
             * codes), and only an entity can pay "sacrifice this" (found by
             * fuzz_cards: a leader sacrificing itself landed in the discard) */
            if (ab->kind == AZK_AB_ACTIVATED && def->card_type != AZK_CT_LEADER && def->card_type != AZK_CT_ENTITY)
                return AZK_ERR_CARDSET;
            if ((ab->flags & AZK_ABF_SACRIFICE_COST) && def->card_type != AZK_CT_ENTITY) return AZK_ERR_CARDSET;
            /* auras and cost modifiers come from leaders and entities
             * (the aura_src / cost_src hints watch leader, garden and alley) */
            if (ab->kind == AZK_AB_STATIC && ab->static_target >= AZK_STT_AURA && def->card_type != AZK_CT_LEADER &&
                def->card_type != AZK_CT_ENTITY)
                return AZK_ERR_CARDSET;
        }
        if (activated > AZK_MAX_ACTIVATED || spells > 1) return AZK_ERR_CARDSET;
        if (spells && def->card_type != AZK_CT_SPELL) return AZK_ERR_CARDSET;
    }
    for (int k = 0; k < cs->num_decks; k++) {
        const azk_decklist *dl = &cs->decks[k];
        if (!def_ok(cs, dl->leader, AZK_CT_LEADER) || !def_ok(cs, dl->gate, AZK_CT_GATE) ||
            !def_ok(cs, dl->token, AZK_CT_IKZ))
            return AZK_ERR_CARDSET;
        for (int i = 0; i < AZK_DECK_IKZ; i++)
            if (!def_ok(cs, dl->ikz[i], AZK_CT_IKZ)) return AZK_ERR_CARDSET;
        for (int i = 0; i < AZK_DECK_MAIN; i++) {
            int d = dl->main[i];
            if (d >= cs->num_defs) return AZK_ERR_CARDSET;
            int t = cs->defs[d].card_type;
            if (t != AZK_CT_ENTITY && t != AZK_CT_WEAPON && t != AZK_CT_SPELL) return AZK_ERR_CARDSET;
        }
    }
    azk_cardset_derive(cs);
    return AZK_OK;
}
