/* game.h — the game state: one flat struct of plain values (DESIGN §2).
 *
 * Invariants (checked by azk_check_invariants, run after every step in debug
 * builds and by the property tests):
 *  - each of the AZK_NUM_CARDS physical cards is in exactly one zone, and its
 *    record's (zone, owner, pos) names the array slot that holds it;
 *  - zone arrays never exceed their capacities (hand holds the true maximum);
 *  - an attached weapon's holder is its owner's leader or garden entity;
 *  - the hand is in canonical order (definition index, then card index);
 *  - a prompt is pending iff phase == AZK_PHASE_PROMPT, and then the VM is
 *    suspended on it (vm.waiting).
 * The struct holds no pointers; clone is memcpy; the hash and serialization
 * cover every byte up to `events` (the event log is a side channel).
 */
#ifndef AZK_GAME_H
#define AZK_GAME_H

#include <stdint.h>
#include <string.h>

#include "azuki.h"
#include "cardset.h"
#include "rng.h"

/* ---- debug checks ------------------------------------------------------------
 * Debug builds (-DAZK_DEBUG: `make asan`, the soak, the fuzzers) check what
 * this header promises: AZK_ASSERT conditions, AZK_UNREACHABLE code, and the
 * whole invariant checker at the end of every azk_step. A failure reports
 * file and line on stderr and aborts, which the sanitizers and libFuzzer turn
 * into a stack trace and a saved input. Release builds (-DNDEBUG, setup.py,
 * `make bench`) compile all of it away and never print or abort. */
#ifdef AZK_DEBUG
_Noreturn void azk_assert_fail(const char *what, const char *file, int line);
#define AZK_ASSERT(cond) ((cond) ? (void)0 : azk_assert_fail(#cond, __FILE__, __LINE__))
#define AZK_UNREACHABLE() azk_assert_fail("unreachable code reached", __FILE__, __LINE__)
#else
#define AZK_ASSERT(cond) ((void)0)
#define AZK_UNREACHABLE() ((void)0) /* release: the caller's safe fallback follows */
#endif

/* ---- capacities ----------------------------------------------------------- */
#define AZK_PLAYERS 2
#define AZK_CARDS_PER_PLAYER (1 + 1 + AZK_DECK_MAIN + AZK_DECK_IKZ + 1) /* 63 */
#define AZK_NUM_CARDS (AZK_PLAYERS * AZK_CARDS_PER_PLAYER)             /* 126 */
#define AZK_ROW 5                       /* garden / alley slots (RULES 2) */
#define AZK_HAND_CAP AZK_DECK_MAIN      /* the hand can hold the whole main deck */
#define AZK_DECK_CAP AZK_DECK_MAIN
#define AZK_DISCARD_CAP AZK_DECK_MAIN   /* only main-deck cards are ever discarded */
#define AZK_WEAPON_CAP AZK_DECK_MAIN    /* any number of weapons per holder (D5) */
#define AZK_IKZ_AREA_CAP (AZK_DECK_IKZ + 1)
#define AZK_LOOK_CAP 10                 /* cards looked at by one effect */
#define AZK_MAX_OPTIONS 64              /* options of one prompt */
#define AZK_MAX_EFFECTS 48              /* live temporary effects */
#define AZK_MAX_TRIGGERS 32             /* queued triggers */
#define AZK_MAX_EACH 16                 /* FOREACH snapshot */
#define AZK_REGS 8
#define AZK_TREGS 4
#define AZK_EVENT_CAP 128               /* a ring: the newest are kept, drops counted */
#define AZK_VM_STEP_LIMIT 4096          /* instructions per program run */
#define AZK_TRIGGER_LIMIT 256           /* triggers resolved per azk_step */
#define AZK_DEFAULT_TURN_CAP 200        /* RULES 9 */
#define AZK_MAX_TURN_CAP 60000
#define AZK_DEFAULT_DECISION_CAP 10000  /* per game (rules 13); a starter game takes ~176 */
#define AZK_MAX_DECISION_CAP 60000
#define AZK_MAX_DAMAGE 30000            /* damage on a card saturates here (int16_t) */
#define AZK_GAME_RNG_STREAM 0xa2b1c0d5ULL /* PCG stream (initseq) of a game's rng (azk_game_init) */
#define AZK_SIM_RNG_STREAM 0x5eed5eedULL  /* PCG stream of azuki.simulate's seed picker */
#define AZK_STARTING_HAND 7
#define AZK_LEADER_HEALTH 20
#define AZK_NONE 0xFF
/* Hot helpers called once from a large (or recursive) caller, which GCC's
 * heuristics would otherwise leave out of line (bench/README.md). */
#if defined(__GNUC__)
#define AZK_ALWAYS_INLINE __attribute__((always_inline))
#else
#define AZK_ALWAYS_INLINE
#endif
#define AZK_VM_DEPTH 3                  /* VM frames: one ability + 2 nested trigger_ability runs */
#define AZK_MAX_MODES 7                 /* modes of one choose_mode (a 7-bit availability mask) */
#define AZK_TRIG_NTH_SHIFT 5            /* RUN_ABILITY's TRIG operand: kind code below, 0-based n-th above */
_Static_assert(AZK_VM_DEPTH >= 2 && AZK_VM_DEPTH <= 8, "trigger_ability needs a nested frame; the stack stays small");
_Static_assert(AZK_MAX_MODES <= 7 && AZK_MAX_MODES <= AZK_MAX_OPTIONS, "mode bits are built with int8 ADDI; one prompt");

_Static_assert(AZK_NUM_CARDS < AZK_NONE, "card indices fit a byte");
_Static_assert((AZK_EVENT_CAP & (AZK_EVENT_CAP - 1)) == 0, "the event ring indexes with a mask");
_Static_assert(AZK_MAX_TURN_CAP <= UINT16_MAX && AZK_MAX_DECISION_CAP <= UINT16_MAX, "caps are uint16_t");
_Static_assert(AZK_MAX_DAMAGE <= INT16_MAX, "damage is int16_t");

/* Size of the flat action space, from the one declaration in azk_actions.def. */
#define AZK_ACTION(name, n0, n1, k0, k1, doc) +(n0) * (n1)
enum { AZK_NUM_ACTIONS_ = 0
#include "azk_actions.def"
};
#undef AZK_ACTION
#define AZK_LEGAL_WORDS ((AZK_NUM_ACTIONS_ + 63) / 64)
_Static_assert(AZK_LEGAL_WORDS <= 32, "legal_words is a 32-bit summary");
_Static_assert(AZK_MAX_OPTIONS >= 2 * (AZK_ROW + 1), "both leaders and gardens fit one prompt");
_Static_assert(AZK_LOOK_CAP <= AZK_MAX_OPTIONS, "look zone fits one prompt");

/* ---- vocabularies ---------------------------------------------------------- */
#define AZK_ZONE(name, doc) AZK_Z_##name,
enum azk_zone {
#include "azk_enums.def"
    AZK_Z_COUNT
};
#undef AZK_ZONE
#define AZK_PHASE(name, doc) AZK_PHASE_##name,
enum azk_phase {
#include "azk_enums.def"
    AZK_PHASE_COUNT
};
#undef AZK_PHASE
#define AZK_PROMPT(name, doc) AZK_PK_##name,
enum azk_prompt_kind {
#include "azk_enums.def"
    AZK_PK_COUNT
};
#undef AZK_PROMPT
#define AZK_RESULT(name, doc) AZK_RES_##name,
enum azk_result {
#include "azk_enums.def"
    AZK_RES_COUNT
};
#undef AZK_RESULT
#define AZK_END(name, doc) AZK_END_##name,
enum azk_end_reason {
#include "azk_enums.def"
    AZK_END_COUNT
};
#undef AZK_END
#define AZK_ACTION(name, n0, n1, k0, k1, doc) AZK_ACT_##name,
enum azk_action_type {
#include "azk_actions.def"
    AZK_ACT_COUNT
};
#undef AZK_ACTION
#define AZK_OP(name, ops, props, doc) AZK_OP_##name,
enum azk_opcode {
#include "azk_opcodes.def"
    AZK_NUM_OPCODES
};
#undef AZK_OP

/* Invariant codes of the state checker (azk_invariants.def). */
#define AZK_INV(name, code, doc) AZK_INV_##name = (code),
enum azk_invariant {
#include "azk_invariants.def"
    AZK_INV_OK_ = 0
};
#undef AZK_INV

/* Event types (the event log, DESIGN §2). Packed as
 * type:8 | player:2 (3 = none) | card:8 | value:14 (two's complement).
 * ABILITY: one per use of an ability, card = its source, value = the ability's
 * index in the card set (cs->abilities), whatever started it. */
#define AZK_EVENT_LIST(X) \
    X(TURN_START) X(TURN_END) X(DRAWN) X(MULLIGAN) X(PLAYED) X(PAID) X(DAMAGE) \
    X(DESTROYED) X(RETURNED) X(DISCARDED) X(MILLED) X(ATTACK_DECLARED) \
    X(RESPONSE_REQUESTED) X(DEFENDER_DECLARED) X(ATTACK_ENDED) X(PORTALED) \
    X(ABILITY) X(PROMPT) X(IKZ_GAINED) X(REPLACED) X(GAME_OVER) X(LOOKED) \
    X(TO_HAND) X(UNTAPPED_IKZ) X(EFFECT) X(OPTIONS_TRUNCATED) X(TRUNCATED) X(EVENTS_DROPPED) \
    X(SEARCHED) X(SHUFFLED) X(PUT_ON_DECK)
#define AZK_EV_ENUM_(name) AZK_EV_##name,
enum azk_event_type { AZK_EVENT_LIST(AZK_EV_ENUM_) AZK_EV_COUNT };
#undef AZK_EV_ENUM_

/* Card record flags (azk_enums.def AZK_CARD_FLAG): a bit each in azk_card.flags. */
#define AZK_CARD_FLAG(name, doc) AZK_CFI_##name,
enum azk_card_flag_index {
#include "azk_enums.def"
    AZK_CFI_COUNT
};
#undef AZK_CARD_FLAG
#define AZK_CARD_FLAG(name, doc) AZK_CF_##name = 1u << AZK_CFI_##name,
enum azk_card_flag {
#include "azk_enums.def"
    AZK_CF_NONE_ = 0
};
#undef AZK_CARD_FLAG

/* One physical card. */
typedef struct azk_card {
    uint8_t def;          /* definition index in the card set */
    uint8_t owner;        /* 0/1; also its controller (no control change exists) */
    uint8_t zone;         /* enum azk_zone */
    uint8_t pos;          /* index in its zone array (slot for garden/alley) */
    uint8_t holder;       /* weapons: the holder's card index, else AZK_NONE */
    uint8_t flags;        /* enum azk_card_flag */
    uint8_t once_used;    /* bit i: ability i of the def used this turn */
    uint8_t seen;         /* deck cards: bit p = player p knows this card where it lies (it put it
                           * there in the order it chose, e.g. the bottom after a look; rules
                           * §8.9; or it saw the card put there, §17.5); cleared by any move
                           * and by shuffling the deck */
    int16_t damage;       /* damage marked on it */
    uint16_t incarnation; /* new value on every zone change (RULES 2.1) */
} azk_card;
_Static_assert(AZK_CFI_COUNT <= 8 * sizeof(((azk_card *)0)->flags), "card flags fit azk_card.flags");

typedef struct azk_player {
    uint8_t deck[AZK_DECK_CAP];        /* deck[deck_n-1] is the top */
    uint8_t hand[AZK_HAND_CAP];        /* canonical order */
    uint8_t discard[AZK_DISCARD_CAP];  /* discard[discard_n-1] is the top */
    uint8_t weapons[AZK_WEAPON_CAP];   /* attached weapons in attachment order */
    uint8_t garden[AZK_ROW];           /* card index or AZK_NONE */
    uint8_t alley[AZK_ROW];
    uint8_t ikz_area[AZK_IKZ_AREA_CAP];
    uint8_t ikz_pile[AZK_DECK_IKZ];    /* ikz_pile[ikz_pile_n-1] is the top */
    uint8_t look[AZK_LOOK_CAP];        /* cards being looked at, in deck order taken */
    uint8_t deck_n, hand_n, discard_n, weapons_n, ikz_area_n, ikz_pile_n, look_n;
    uint8_t leader, gate, token;
    uint8_t played_entities;           /* entities played this turn (RULES 5.7, Saburo) */
    uint8_t mulligan_done;
    uint8_t pad_[2];
} azk_player;

/* A temporary effect with a duration (RULES 8). It is dead once its card has
 * a new incarnation. */
enum azk_effect_kind { AZK_FX_ATTACK = 0, AZK_FX_STATUS = 1,
    AZK_FX_REMOVE = 2 /* statuses masked off (remove_status): printed, granted and conditions */ };
typedef struct azk_effect {
    uint8_t card;
    uint8_t kind;         /* enum azk_effect_kind */
    uint8_t duration;     /* enum azk_duration */
    uint8_t creator;      /* player whose "next turn" ends START_OF_NEXT_TURN */
    uint16_t status;      /* AZK_FX_STATUS: enum azk_status_bit mask (16 bits: docs/extending.md) */
    int8_t amount;        /* AZK_FX_ATTACK */
    uint8_t pad_;
    uint16_t incarnation;
} azk_effect;

/* A queued trigger (RULES 8, D8). */
typedef struct azk_trigger_entry {
    uint8_t source;
    uint8_t ability;      /* index in the card set's ability table */
    uint8_t controller;
    uint8_t ctx_card;     /* the event's subject (returned / portaled card) */
    uint16_t source_inc;
    uint16_t ctx_inc;
    int16_t ctx_value;    /* e.g. portaled GP, entities played before this one */
} azk_trigger_entry;

/* The effect VM's one frame: lives in the game so clone/hash/serialize work
 * mid-ability. `waiting` means suspended at `pc` on the pending prompt. */
typedef struct azk_vm_frame {
    uint8_t active;
    uint8_t waiting;
    uint8_t has_answer;
    uint8_t controller;
    uint8_t source;
    uint8_t ability;
    uint8_t ctx_card;
    uint8_t spell_card;   /* spell in RESOLVING to discard when the program ends */
    uint16_t source_inc;
    uint16_t ctx_inc;
    uint16_t pc;
    int16_t answer;       /* option value chosen; -1 = declined */
    int16_t ctx_value;
    int16_t r[AZK_REGS];
    uint8_t t[AZK_TREGS];
    uint16_t t_inc[AZK_TREGS];
    uint8_t each[AZK_MAX_EACH];     /* FOREACH snapshot ... */
    uint16_t each_inc[AZK_MAX_EACH]; /* ... and the incarnations it saw */
    uint8_t each_n, each_i;
    uint16_t steps;
} azk_vm_frame;

typedef struct azk_prompt {
    uint8_t kind;         /* enum azk_prompt_kind */
    uint8_t chooser;
    uint8_t n;            /* number of options */
    uint8_t optional;     /* NO_OP declines */
    uint8_t opt[AZK_MAX_OPTIONS]; /* card index (CARD, BOTTOM_ORDER, SEARCH, TOP_ORDER), slot, holder code or number */
} azk_prompt;

/* Internal continuation of the turn machine: what happens next once the VM is
 * idle and no trigger is queued. */
enum azk_flow {
    AZK_FLOW_MULLIGAN = 0,
    AZK_FLOW_START,          /* RULES 4.1 steps 1-2, queue step 3 */
    AZK_FLOW_START_DRAW,     /* RULES 4.1 steps 4-5 */
    AZK_FLOW_MAIN,
    AZK_FLOW_RESPONSE,       /* 6.2 (a) */
    AZK_FLOW_DEFENDER,       /* 6.2 (b) */
    AZK_FLOW_WHEN_ATTACKED,  /* 6.2 (c) */
    AZK_FLOW_DAMAGE,         /* 6.3 */
    AZK_FLOW_AFTER_ATTACK,   /* back to main once after-attacking resolved */
    AZK_FLOW_END,            /* RULES 4.3 step 1 */
    AZK_FLOW_END_CLEANUP,    /* RULES 4.3 steps 2-5 */
    AZK_FLOW_OVER
};

struct azk_game {
    azk_rng rng;
    azk_card cards[AZK_NUM_CARDS];
    azk_player pl[AZK_PLAYERS];
    azk_effect fx[AZK_MAX_EFFECTS];
    azk_trigger_entry trig[AZK_MAX_TRIGGERS];
    azk_vm_frame vm;
    azk_prompt prompt;
    uint16_t turn;            /* 1 = the first player's first turn */
    uint16_t turn_cap;
    uint16_t next_incarnation;
    uint8_t active;           /* whose turn */
    uint8_t first_player;
    uint8_t phase;            /* enum azk_phase: what kind of decision is pending */
    uint8_t flow;             /* enum azk_flow */
    uint8_t result;           /* enum azk_result */
    uint8_t fx_n, trig_n;
    uint8_t end_reason;       /* enum azk_end_reason: why the game ended (NONE while ongoing) */
    /* combat context (RULES 6) */
    uint8_t in_attack;
    uint8_t attacker, target;
    uint8_t defender_used;
    uint16_t attacker_inc, target_inc;
    uint16_t decisions;       /* decisions applied by azk_step this game (rules 13) */
    uint16_t decision_cap;    /* reaching it ends the game as TRUNCATED (DECISION_CAP) */
    uint8_t pending_end;      /* bit p: player p won by an effect (WIN), bit 2 + p: p lost (LOSE); the
                               * next state check ends the game (rules §15.6); 0 at every decision */
    uint8_t replacing;        /* a replacement's own statements are running (rules §15.5): no further
                               * replacement applies until they end; 0 at every decision */
    /* the frames suspended under `vm` by trigger_ability
     * (RUN_ABILITY): vm_saved[0 .. vm_depth-1], the innermost last. `vm`
     * stays the running frame, so the interpreter's hot path is unchanged. */
    uint8_t vm_depth;
    uint8_t pad2_[3];
    azk_vm_frame vm_saved[AZK_VM_DEPTH - 1];
    /* ---- not hashed, not serialized: the event side channel ----
     * A ring of the newest AZK_EVENT_CAP events: running write and read
     * counts (events[count & (AZK_EVENT_CAP - 1)]), so a write is one store
     * and an increment, with no branch. Unread = wr - rd (mod 2^32); when
     * that exceeds the capacity the oldest were overwritten, and azk_events
     * reports how many with an EVENTS_DROPPED event, never silently. */
    uint32_t events_wr, events_rd;
    uint32_t events[AZK_EVENT_CAP];
    /* ---- not hashed, not serialized: the legal-action cache ----
     * The set of legal flat actions at the current decision point, as a bit
     * set, computed once by azk_advance (which must enumerate anyway for the
     * one-answer rule, RULES §12) and by deserialize. legal_actions, the mask,
     * is_legal and step read it instead of enumerating again. It is a pure
     * function of the hashed state; azk_check_invariants verifies that. */
    uint16_t legal_n;
    uint32_t legal_words;               /* bit w: legal[w] != 0 */
    uint64_t legal[AZK_LEGAL_WORDS];
    /* ---- not hashed, not serialized: state-check hint ----
     * Bit `code` of at_risk[p] (a place code, below: 1..5 garden slots,
     * 6..10 alley slots) may hold an entity with damage >= its definition's min health (the
     * only ones a state check can destroy). A superset, kept by
     * azk_deal_damage and azk_move (a card entering a row) and cleared
     * lazily by azk_state_check; rebuilt by deserialize and
     * azk_state_check_all. azk_check_invariants verifies the superset.
     * Bit AZK_RISK_END of at_risk[0]: a win / lose statement set
     * pending_end (vm.c); the slow check reads pending_end and clears it. */
    uint16_t at_risk[AZK_PLAYERS];
    /* ---- not hashed, not serialized: untapped IKZ hint ----
     * ikz_untapped[p]: the number of untapped cards in p's IKZ area, read at
     * every decision point (costs). Kept by azk_move, paying, the untap step
     * and the VM's TAP / UNTAP_IKZ; rebuilt with at_risk. Exact: the checker
     * compares it with a count. */
    uint8_t ikz_untapped[AZK_PLAYERS];
    /* ---- not hashed, not serialized: activated-ability sources hint ----
     * Bit code of act_src[p] (0 leader, 1..5 garden slots, 6..10 alley
     * slots, as ACTIVATE_ABILITY names them): that place holds a card whose
     * definition has an ACTIVATED ability (cs->facts). Kept by zone changes,
     * rebuilt with at_risk, checked exact. */
    uint16_t act_src[AZK_PLAYERS];
    /* ---- not hashed, not serialized: row occupancy hint ----
     * Same codes as act_src: bit 0 (the leader) always, bit 1 + s when
     * garden slot s holds a card, bit 1 + AZK_ROW + s for alley slot s. Lets
     * the hot loops visit occupied slots only. Kept and checked like act_src. */
    uint16_t occ[AZK_PLAYERS];
    /* ---- not hashed, not serialized: trigger listeners hint ----
     * listen[p]: the union of the trigger masks (cs->facts) of all of p's
     * physical cards' definitions, constant through a game (a card never
     * changes definition). An event nobody can hear skips the field walk.
     * Rebuilt and checked like the others. */
    uint32_t listen[AZK_PLAYERS];
    /* ---- not hashed, not serialized: aura and cost-modifier sources hints ----
     * Same place codes as act_src: bit code of aura_src[p] / cost_src[p] when
     * that place holds a card whose definition has a static AURA / COST
     * ability (cs->facts, rules §18). Reads of attack, health, statuses and
     * costs look at sources only while some bit is set, so a card set without
     * auras pays one test. Kept by zone changes, rebuilt and checked exact
     * like act_src. */
    uint16_t aura_src[AZK_PLAYERS];
    uint16_t cost_src[AZK_PLAYERS];
    /* ---- not hashed, not serialized: effect-records hint ----
     * Bit c % 64 of fx_cards[c / 64]: some record of fx[0 .. fx_n) names
     * card c (live or not). Status, attack and health reads walk the effect
     * list only for such cards: most cards have no effect on them. A
     * superset: set by azk_add_effect, recomputed whenever records are
     * dropped (azk_fx_hint_rebuild) and by azk_rebuild_hints;
     * azk_check_invariants verifies it covers every record (FX_HINT). */
    uint64_t fx_cards[(AZK_NUM_CARDS + 63) / 64];
};

/* Place codes: the one internal scheme for naming a player's places.
 * 0 the leader, 1..5 garden slots 0..4, 6..10 alley slots 0..4. They are
 * ACTIVATE_ABILITY's source codes, the weapon-holder codes (0..5, also
 * PLAY_WEAPON's target and HOLDER prompt options) and the bit positions of
 * the occ / act_src / at_risk hints. AZK_CODE_* give the hint bit of a slot. */
#define AZK_CODE_GARDEN(s) (1u << (1 + (s)))
#define AZK_CODE_ALLEY(s) (1u << (1 + AZK_ROW + (s)))
#define AZK_CODES_GARDEN (((1u << AZK_ROW) - 1) << 1)
#define AZK_CODES_ALLEY (((1u << AZK_ROW) - 1) << (1 + AZK_ROW))
/* at_risk[0] bit AZK_RISK_END: a win / lose statement is pending
 * (pending_end != 0), so the state check's fast path needs one test for
 * both kinds of work (rules §15.6). Above every place code. */
#define AZK_RISK_END (1u << 15)
_Static_assert(1 + 2 * AZK_ROW < 15, "AZK_RISK_END is above the place codes");
/* The card (or AZK_NONE) at row place `code` of a player: 1..5 garden,
 * 6..10 alley. azk_place_card adds code 0, the leader. */
static inline int azk_row_card(const azk_player *pl, int code) {
    return code <= AZK_ROW ? pl->garden[code - 1] : pl->alley[code - 1 - AZK_ROW];
}
static inline int azk_place_card(const azk_player *pl, int code) {
    return code == 0 ? pl->leader : azk_row_card(pl, code);
}

#define AZK_HASHED_BYTES offsetof(azk_game, events_wr)

/* ---- internal API shared by engine.c, actions.c, vm.c, state.c -------------- */
static inline const azk_card_def *azk_def(const azk_cardset *cs, const azk_game *g, int card) {
    return &cs->defs[g->cards[card].def];
}
static inline int azk_on_field(const azk_game *g, int c) {
    uint8_t z = g->cards[c].zone;
    return z == AZK_Z_LEADER || z == AZK_Z_GATE || z == AZK_Z_GARDEN || z == AZK_Z_ALLEY ||
           z == AZK_Z_WEAPON || z == AZK_Z_IKZ_AREA;
}

/* The log is a ring (above): a full log overwrites its oldest event, so
 * the newest (GAME_OVER above all) survive a caller that never drains, and
 * azk_events reports how many were lost. */
static inline void azk_event(azk_game *g, int type, int player, int card, int value) {
    uint32_t p = (player < 0 || player > 1) ? 3u : (uint32_t)player;
    uint32_t c = (card < 0) ? AZK_NONE : (uint32_t)card & 0xFF;
    g->events[g->events_wr++ & (AZK_EVENT_CAP - 1)] =
        (uint32_t)type | (p << 8) | (c << 10) | (((uint32_t)value & 0x3FFF) << 18);
}


/* The one writer of the tapped flag: keeps the untapped-IKZ hint exact. */
static inline void azk_set_tapped(azk_game *g, int c, int tapped) {
    azk_card *k = &g->cards[c];
    int was = (k->flags & AZK_CF_TAPPED) != 0;
    if (was == (tapped != 0)) return;
    k->flags = (uint8_t)(tapped ? k->flags | AZK_CF_TAPPED : k->flags & ~AZK_CF_TAPPED);
    if (k->zone == AZK_Z_IKZ_AREA) g->ikz_untapped[k->owner] = (uint8_t)(g->ikz_untapped[k->owner] + (tapped ? -1 : 1));
}
void azk_truncate(azk_game *g, int reason); /* end the game TRUNCATED (enum azk_end_reason) */

/* A temporary effect is live while its card keeps the incarnation it was
 * given to (a card that changed zone is a new object, RULES §2.1). */
static inline int azk_fx_live(const azk_game *g, const azk_effect *e) {
    return g->cards[e->card].incarnation == e->incarnation;
}

/* May some effect record name card c (the fx_cards hint)? */
static inline int azk_fx_names(const azk_game *g, int c) { return (int)(g->fx_cards[c >> 6] >> (c & 63)) & 1; }
/* Statuses granted by live temporary effects (an effect on an earlier
 * incarnation of the card is dead, RULES §2.1), and in *removed those that
 * live remove_status effects mask off (docs/rules.md §16.4). */
static inline unsigned azk_fx_status(const azk_game *g, int c, unsigned *removed) {
    unsigned s = 0, m = 0;
    if (azk_fx_names(g, c))
    for (int i = 0; i < g->fx_n; i++) {
        const azk_effect *e = &g->fx[i];
        if (e->card != c || g->cards[c].incarnation != e->incarnation) continue;
        if (e->kind == AZK_FX_STATUS) s |= e->status;
        else if (e->kind == AZK_FX_REMOVE) m |= e->status;
    }
    *removed = m;
    return s;
}
static inline unsigned azk_granted_status(const azk_game *g, int c) {
    unsigned m;
    unsigned s = azk_fx_status(g, c, &m);
    return s & ~m;
}

/* auras (query.c, rules §18): the statuses the active auras
 * give card c (the hints said some aura source stands on the field). */
unsigned azk_aura_status(const azk_game *g, const azk_cardset *cs, int c, unsigned s);

/* A card's statuses (keywords and conditions, RULES §7): granted ones, the
 * shocked flag, and printed keywords unless frozen (frozen disables them);
 * less those a remove_status effect masks off (§16.4); then auras' grants and
 * removals (rules §18.3). */
static inline unsigned azk_status_of(const azk_game *g, const azk_cardset *cs, int c) {
    unsigned m;
    unsigned s = azk_fx_status(g, c, &m), f = g->cards[c].flags;
    if (f & AZK_CF_SHOCKED) s |= AZK_ST_SHOCKED;
    s &= ~m;
    if (!(s & AZK_ST_FROZEN)) s |= azk_def(cs, g, c)->keywords & ~m; /* frozen disables printed keywords (RULES §7) */
    /* one test for sets without auras or stealth (the starter set): their
     * reads cost what they did before the extended language */
    if (__builtin_expect(cs->set_facts & (AZK_SETF_AURA | AZK_SETF_STEALTH), 0)) {
        if ((g->aura_src[0] | g->aura_src[1]) != 0) s = azk_aura_status(g, cs, c, s);
        if (f & AZK_CF_EXPOSED) s &= ~(unsigned)AZK_ST_STEALTH; /* stealth ends once it attacked (§15.4) */
    }
    return s;
}

/* Does card c stand where an ability with these flags works ([Garden
 * Only] / [Alley Only], rules §8)? */
static inline int azk_zone_allows(const azk_game *g, int c, unsigned flags) {
    uint8_t z = g->cards[c].zone;
    if ((flags & AZK_ABF_GARDEN_ONLY) && z != AZK_Z_GARDEN) return 0;
    if ((flags & AZK_ABF_ALLEY_ONLY) && z != AZK_Z_ALLEY) return 0;
    return 1;
}

/* query.c: pure reads of a position (csrc/layers.def: the bottom layer) */
int azk_attack_of(const azk_game *g, const azk_cardset *cs, int c);
int azk_health_of(const azk_game *g, const azk_cardset *cs, int c);
int azk_weapon_bonus(const azk_game *g, const azk_cardset *cs, int w);
/* attack and health as azk_attack_of / azk_health_of give them, and the
 * weapons card c holds (count, bonuses summed), in one walk */
typedef struct azk_field_stat {
    int attack, health, weapons, weapon_bonus;
} azk_field_stat;
void azk_field_stats(const azk_game *g, const azk_cardset *cs, int c, azk_field_stat *out);
int azk_count_untapped_ikz(const azk_game *g, int p); /* by walking the area (the hint's definition) */
int azk_weapon_count(const azk_game *g, int holder);
unsigned azk_count_occ(const azk_game *g, int p); /* the occ hint's definition */
unsigned azk_count_listen(const azk_game *g, const azk_cardset *cs, int p); /* the listen hint's definition */
unsigned azk_count_act_src(const azk_game *g, const azk_cardset *cs, int p); /* the act_src hint's definition */
unsigned azk_count_fact_src(const azk_game *g, const azk_cardset *cs, int p, unsigned fact); /* aura_src / cost_src's definition */
int azk_cost_modified(const azk_game *g, const azk_cardset *cs, int c); /* azk_cost_of's slow path */
int azk_holder_code_card(const azk_game *g, int p, int code);
int azk_vm_condition(const azk_game *g, const azk_cardset *cs, uint16_t pc, int source, int controller);
int azk_selector_match(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                       int source, const int16_t *regs, const uint8_t *tregs, int c);
static inline int azk_untapped_ikz(const azk_game *g, int p) { return g->ikz_untapped[p]; }

/* zones.c: rule primitives that change a game */
void azk_move(azk_game *g, const azk_cardset *cs, int c, int zone, int slot);
void azk_draw(azk_game *g, const azk_cardset *cs, int p, int n);
void azk_deal_damage(azk_game *g, const azk_cardset *cs, int c, int amount, int is_effect);
/* Damage dealt by card `source` (-1: none): its lifesteal and poisonous apply,
 * and replacement effects on "damaged" (azk_deal_damage is source -1). */
void azk_deal_damage_from(azk_game *g, const azk_cardset *cs, int c, int amount, int is_effect, int source);
/* The one way an entity is destroyed (state checks, poison, the DESTROY op):
 * godmode stops it, replacements apply, on_destroyed fires. 1 if destroyed. */
int azk_destroy(azk_game *g, const azk_cardset *cs, int c);
/* Is entity c protected by stealth against player `chooser` (rules §15.4)? */
static inline int azk_stealthed_from(const azk_game *g, const azk_cardset *cs, int c, int chooser) {
    return g->cards[c].owner != chooser && (azk_status_of(g, cs, c) & AZK_ST_STEALTH);
}
/* vm.c: run a replacement's statements at once, in a frame of their own (they never ask) */
void azk_vm_run_replacement(azk_game *g, const azk_cardset *cs, int ability, int source, int ctx_card,
                            int ctx_value);
void azk_return_to_hand(azk_game *g, const azk_cardset *cs, int c);
void azk_shuffle_deck(azk_game *g, int p);                                  /* positions forgotten (seen = 0) */
void azk_put_on_deck(azk_game *g, const azk_cardset *cs, int c, int bottom); /* docs/rules.md §17.4 */
void azk_state_check_slow(azk_game *g, const azk_cardset *cs);
/* State checks (RULES §9). Inline fast path: it runs after nearly every
 * change, and almost always nothing is at risk. */
static inline void azk_state_check(azk_game *g, const azk_cardset *cs) {
    if (g->result != AZK_RES_ONGOING) return;
    int l0 = g->pl[0].leader, l1 = g->pl[1].leader;
    if (!(g->at_risk[0] | g->at_risk[1]) && g->cards[l0].damage < cs->facts[g->cards[l0].def].min_health &&
        g->cards[l1].damage < cs->facts[g->cards[l1].def].min_health)
        return;
    azk_state_check_slow(g, cs);
}
void azk_state_check_all(azk_game *g, const azk_cardset *cs); /* after writing the state directly */
void azk_fx_hint_rebuild(azk_game *g); /* the fx_cards hint from the effect records */
void azk_rebuild_hints(azk_game *g, const azk_cardset *cs);   /* rebuild every derived hint (at_risk .. listen) exactly */
/* The IKZ a card costs now: printed, plus the active cost
 * modifiers, at least 0 (rules §18.4). Inline: the legal enumeration asks for
 * every hand card, and without a modifier source on the field it is the
 * printed cost. */
static inline int azk_cost_of(const azk_game *g, const azk_cardset *cs, int c) {
    if (__builtin_expect((g->cost_src[0] | g->cost_src[1]) != 0, 0)) return azk_cost_modified(g, cs, c);
    return azk_def(cs, g, c)->cost;
}
int azk_min_health(const azk_cardset *cs, const azk_game *g, int c);
void azk_add_effect(azk_game *g, int c, int kind, int duration, int creator, int amount, unsigned status);
void azk_play_card(azk_game *g, const azk_cardset *cs, int c, int zone, int slot_or_holder); /* IKZ paid by the caller, if any (D6) */
int azk_attach_weapon(azk_game *g, const azk_cardset *cs, int c, int holder_code); /* not a play (docs/rules.md §16.7) */
void azk_fire(azk_game *g, const azk_cardset *cs, int trigger, int ctx_card, int ctx_value);
void azk_fire_card_slow(azk_game *g, const azk_cardset *cs, int source, int trigger, int ctx_card, int ctx_value);
void azk_fire_with_weapons(azk_game *g, const azk_cardset *cs, int holder, int trigger);
void azk_fire_all(azk_game *g, const azk_cardset *cs, int trigger, unsigned players, int ctx_card, int ctx_value);
void azk_place_in_row(azk_game *g, const azk_cardset *cs, int c, int zone, int slot);
void azk_gain_ikz(azk_game *g, const azk_cardset *cs, int c, int is_token); /* IKZ pile top / token -> IKZ area */
void azk_pay_ikz(azk_game *g, const azk_cardset *cs, int p, int n);
void azk_expire_effects(azk_game *g, int duration, int creator);
void azk_game_over(azk_game *g, int result, int reason);
void azk_portal(azk_game *g, const azk_cardset *cs, int e, int slot, int tap_gate); /* RULES §5.6 (the gate action, PORTAL op) */
/* Queue `source`'s abilities for `trigger`. Inline: every event asks every
 * card on the field, and most definitions do not listen (cs->facts). */
static inline void azk_fire_card(azk_game *g, const azk_cardset *cs, int source, int trigger, int ctx_card,
                                 int ctx_value) {
    if (cs->facts[g->cards[source].def].trigger_mask & (1u << trigger))
        azk_fire_card_slow(g, cs, source, trigger, ctx_card, ctx_value);
}

/* Can card c attack now (rules §6.1)? An untapped, non-frozen garden
 * entity without cooldown (or with charge), or the leader with a weapon.
 * The legality enumeration and the bots' lookahead share it. */
static inline int azk_can_attack(const azk_game *g, const azk_cardset *cs, int c) {
    const azk_card *k = &g->cards[c];
    if (k->flags & AZK_CF_TAPPED) return 0;
    /* the cheap tests first: a leader attacks only with a weapon */
    if (k->zone == AZK_Z_LEADER && azk_weapon_count(g, c) == 0) return 0;
    if (k->zone != AZK_Z_LEADER && k->zone != AZK_Z_GARDEN) return 0;
    unsigned st = azk_status_of(g, cs, c);
    if (st & AZK_ST_FROZEN) return 0;
    return k->zone == AZK_Z_LEADER || !(k->flags & AZK_CF_COOLDOWN) || (st & AZK_ST_CHARGE);
}

/* engine.c: the turn machine (azk_step is public, azuki.h) */
void azk_apply(azk_game *g, const azk_cardset *cs, int type, int p0, int p1);
void azk_advance(azk_game *g, const azk_cardset *cs);

/* vm.c */
void azk_vm_start(azk_game *g, const azk_cardset *cs, int ability, int source, int controller, int ctx_card,
                  int ctx_value, int spell_card);
void azk_vm_run(azk_game *g, const azk_cardset *cs);
/* What a program may contain (azk_verify_program's `pure`): an effect; a
 * condition program (requirement: pure ops only); a replacement's statements
 * (never ask a player, §15.5); a static's condition (pure, and no STAT of
 * attack / health / remaining: those are computed from the statics). */
enum { AZK_VERIFY_EFFECT = 0, AZK_VERIFY_CONDITION = 1, AZK_VERIFY_NO_ASK = 2, AZK_VERIFY_STATIC = 3 };
int azk_verify_program(const azk_cardset *cs, uint16_t pc, int pure);
unsigned azk_program_grants(const azk_cardset *cs, uint16_t pc);      /* statuses its GRANTs give */
int azk_op_operands(int op);

/* actions.c: legality and the action space */
int azk_ability_usable(const azk_game *g, const azk_cardset *cs, int c, int ability_index, int untapped_ikz);
int azk_enumerate(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap);
void azk_clear_legal(azk_game *g);
int azk_refresh_legal(azk_game *g, const azk_cardset *cs); /* enumerate into the cache; returns legal_n */

/* export.c */
int azk_placing_card(const azk_game *g, const azk_cardset *cs); /* the card a SLOT/HOLDER prompt places, else -1 */

/* What azk_observe_both wrote last for each player's two long sorted lists
 * (its DECK, the opponent's OPP_UNSEEN) and the sets of that player's cards
 * they were written from: the same set gives the same bytes while no card
 * changes definition, so a caller that keeps one per game (VecGame) copies
 * them instead of sorting again. Zeroed (have = 0) whenever the game's
 * cards may have been dealt anew (a new episode). */
typedef struct azk_obs_memo {
    uint64_t set[4];                 /* [2 * player + list]: list 0 DECK, 1 OPP_UNSEEN */
    uint8_t have;                    /* bit 2 * player + list: set and bytes hold an entry */
    uint8_t bytes[4][AZK_DECK_CAP];
} azk_obs_memo;
/* obs.c: both seats' observations at once (o0 seat 0's, o1 seat 1's), each
 * byte equal to azk_observe's: the public part (counts, the field, discard
 * piles) is computed once and mirrored, and one pass over each deck serves
 * both views (VecGame's self-play rows); `memo` (NULL: none) keeps the
 * sorted lists between calls on the same game. -1 (nothing written) for a
 * NULL argument or o0 == o1, else azk_obs_len(). And the hidden-information pool
 * the resampler and the search bot share. */
int azk_observe_both(const azk_game *g, const azk_cardset *cs, uint8_t *o0, uint8_t *o1, azk_obs_memo *memo);
/* azk_observe through a memo (NULL: none): one seat's view of a game whose
 * memo is kept (VecGame's bot and policy rows, the opponent's rows). */
int azk_observe_memo(const azk_game *g, const azk_cardset *cs, int player, uint8_t *out, azk_obs_memo *memo);
int azk_hidden_pool(const azk_game *g, int me, int p, uint8_t *pool); /* pool: AZK_NUM_CARDS entries */
void azk_sort_hand(azk_game *g, azk_player *pl);                       /* canonical order, positions */

/* export.c / setup.c: a declared flat layout (azk_export.def) as a table of
 * named fields, and the one lookup both layouts' public functions use. */
typedef struct azk_layout_field {
    int offset, count;
    const char *name;
} azk_layout_field;
static inline int azk_layout_lookup(const azk_layout_field *tbl, int n, int field, int *offset, int *count) {
    if (field < 0 || field >= n) return -1;
    if (offset) *offset = tbl[field].offset;
    if (count) *count = tbl[field].count;
    return 0;
}
static inline const char *azk_layout_name(const azk_layout_field *tbl, int n, int field) {
    return field < 0 || field >= n ? NULL : tbl[field].name;
}

/* state.c */
int azk_check_invariants(const azk_game *g, const azk_cardset *cs);  /* 0 ok; includes the legal cache */
int azk_check_state(const azk_game *g, const azk_cardset *cs, int check_legal_cache);

#endif /* AZK_GAME_H */
