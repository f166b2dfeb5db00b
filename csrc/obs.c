/* obs.c — one player's observation of a position (azuki.h "Observations").
 *
 * A fixed-length float32 vector in the layout of csrc/azk_obs.def (offsets
 * built here from that file and reported by azk_obs_field*). A service layer
 * like export.c: it reads the game and changes nothing.
 *
 * Hidden information (docs/observation.md): what a card is, where it is not
 * public, is written only when azk_card_known says the observer may know it.
 * Counts of hidden zones are public. The observer's own deck appears as a
 * multiset (its decklist minus everything it can see), never in order; the
 * opponent's unseen cards likewise (decklists are open). The opponent's
 * prompt options and legal actions are not written (they would show its
 * hand), only that it has a prompt and of which kind.
 */
#include "game.h"

#define AZK_OBS_PLACES (2 + 2 * AZK_ROW)                  /* leader, 5 garden, 5 alley, gate */
#define AZK_OBS_GATE (1 + 2 * AZK_ROW)                    /* place 11 */
#define AZK_OBS_PLACE_ROWS (AZK_PLAYERS * AZK_OBS_PLACES) /* side * 12 + place */
#define AZK_FLOW_COUNT_ (AZK_FLOW_OVER + 1)

/* ---- the layout, from azk_obs.def ----------------------------------------- */
/* AZK_OO_name: the first float of slice `name`; AZK_OE_name: its last. */
#define AZK_OBS(name, r, c, doc, norm) AZK_OO_##name, AZK_OE_##name = AZK_OO_##name + (r) * (c) - 1,
enum azk_obs_offset {
#include "azk_obs.def"
    AZK_OBS_LEN_
};
#undef AZK_OBS

typedef struct azk_obs_slice {
    int offset, rows, cols;
    const char *name, *doc, *norm;
} azk_obs_slice;

#define AZK_OBS(name, r, c, doc, norm) {AZK_OO_##name, (r), (c), #name, doc, norm},
static const azk_obs_slice obs_fields[] = {
#include "azk_obs.def"
};
#undef AZK_OBS
#define NUM_OBS_FIELDS ((int)(sizeof obs_fields / sizeof obs_fields[0]))


_Static_assert(AZK_OBS_GATE == AZK_OBS_PLACES - 1, "the gate is the last place");

int azk_obs_version(void) { return AZK_OBS_VERSION; }
int azk_obs_len(void) { return AZK_OBS_LEN_; }
int azk_obs_num_fields(void) { return NUM_OBS_FIELDS; }
int azk_obs_field(int field, int *offset, int *rows, int *cols) {
    if (field < 0 || field >= NUM_OBS_FIELDS) return -1;
    if (offset) *offset = obs_fields[field].offset;
    if (rows) *rows = obs_fields[field].rows;
    if (cols) *cols = obs_fields[field].cols;
    return 0;
}
const char *azk_obs_field_name(int field) {
    return field < 0 || field >= NUM_OBS_FIELDS ? NULL : obs_fields[field].name;
}
const char *azk_obs_field_doc(int field) {
    return field < 0 || field >= NUM_OBS_FIELDS ? NULL : obs_fields[field].doc;
}
const char *azk_obs_field_norm(int field) {
    return field < 0 || field >= NUM_OBS_FIELDS ? NULL : obs_fields[field].norm;
}

/* ---- knowledge -------------------------------------------------------------- */
static int known(const azk_game *g, int p, int c) {
    const azk_card *k = &g->cards[c];
    switch (k->zone) {
    case AZK_Z_DECK: return (k->seen >> p) & 1;        /* face down, unless p put it where it is */
    case AZK_Z_IKZ_PILE: return 0;                     /* face down for everybody */
    case AZK_Z_HAND: return k->owner == p || (k->flags & AZK_CF_REVEALED) != 0;
    case AZK_Z_LOOK: return k->owner == p;             /* rules §8.9: looked at by its owner only */
    default: return 1;                                 /* field, discard, resolving, aside, out */
    }
}

int azk_card_known(const azk_game *g, int player, int card) {
    if (!g || (player != 0 && player != 1) || card < 0 || card >= AZK_NUM_CARDS) return -1;
    return known(g, player, card);
}

/* ---- helpers ---------------------------------------------------------------- */
static inline float clip1(float v) { return v > 1.f ? 1.f : v < -1.f ? -1.f : v; }
static inline float ratio(int n, int d) { return d > 0 ? clip1((float)n / (float)d) : 0.f; }
static inline float def_id(int def) { return def < AZK_MAX_CARD_DEFS ? (float)(def + 1) / AZK_CARD_ID_SCALE : 0.f; }
static inline float card_id(const azk_game *g, int c) { return def_id(g->cards[c].def); }
static inline float count4(int n) { return n >= 4 ? 1.f : (float)n * 0.25f; }

/* The place (0 leader, 1..5 garden, 6..10 alley, 11 gate) of a card on the
 * field; a weapon's is its holder's. -1 elsewhere. */
static int place_of(const azk_game *g, int c) {
    const azk_card *k = &g->cards[c];
    switch (k->zone) {
    case AZK_Z_LEADER: return 0;
    case AZK_Z_GATE: return AZK_OBS_GATE;
    case AZK_Z_GARDEN: return 1 + k->pos;
    case AZK_Z_ALLEY: return 1 + AZK_ROW + k->pos;
    case AZK_Z_WEAPON:
        return k->holder < AZK_NUM_CARDS && g->cards[k->holder].zone != AZK_Z_WEAPON ? place_of(g, k->holder) : -1;
    default: return -1;
    }
}

/* Row side * 12 + place of a card on the field, seen by `me`; -1 elsewhere. */
static int place_row(const azk_game *g, int me, int c) {
    int pl = place_of(g, c);
    return pl < 0 ? -1 : (g->cards[c].owner == me ? 0 : AZK_OBS_PLACES) + pl;
}

/* The writer: one code path for both encodings. PUT(i, v) stores value v
 * (in [-1, 1]) at index i as a float (azk_observe) or as the uint8 encoding
 * 128 + round(127 v) (azk_observe_u8; v * 127 + 128.5 >= 1.5, so truncation
 * rounds half up); o.u8 is a constant in each always-inlined instance. */
typedef struct obs_out {
    float *f;
    uint8_t *u;
    int u8;
} obs_out;
#define AZK_OBS_INLINE static inline __attribute__((always_inline))
AZK_OBS_INLINE uint8_t q8(float v) { return (uint8_t)(int)(v * 127.f + 128.5f); }
#define PUT(i, v)                                                                                        \
    do {                                                                                                 \
        float v_ = (float)(v);                                                                           \
        if (o.u8) o.u[(i)] = q8(v_);                                                                     \
        else o.f[(i)] = v_;                                                                              \
    } while (0)

/* count4 over a whole per-definition slice, in integer arithmetic the
 * compiler vectorizes: n * 0.25 (n clamped to 4) is count4(n) exactly, and
 * 128 + (127 n + 2) / 4 is its encoding q8(count4(n)) (128, 160, 192, 223,
 * 255). */
AZK_OBS_INLINE void put_counts(obs_out o, int at, const int *counts) {
    if (o.u8)
        for (int d = 0; d < AZK_MAX_CARD_DEFS; d++) {
            int n = counts[d] < 4 ? counts[d] : 4; /* counts are >= 0 */
            o.u[at + d] = (uint8_t)(128 + ((127 * n + 2) >> 2));
        }
    else
        for (int d = 0; d < AZK_MAX_CARD_DEFS; d++) {
            int n = counts[d] < 4 ? counts[d] : 4;
            o.f[at + d] = (float)n * 0.25f;
        }
}

/* one place: card c of player p (side 0 me, 1 the opponent) at `place` */
AZK_OBS_INLINE void put_place(const azk_game *g, const azk_cardset *cs, obs_out o, int row, int place, int c) {
    const azk_card *k = &g->cards[c];
    PUT(AZK_OO_PLACE_OCCUPIED + row, 1.f);
    PUT(AZK_OO_PLACE_CARD + row, card_id(g, c));
    PUT(AZK_OO_PLACE_DAMAGE + row, clip1((float)k->damage / 20.f));
    PUT(AZK_OO_PLACE_TAPPED + row, (k->flags & AZK_CF_TAPPED) ? 1.f : 0.f);
    PUT(AZK_OO_PLACE_COOLDOWN + row, (k->flags & AZK_CF_COOLDOWN) ? 1.f : 0.f);
    for (int i = 0; i < AZK_MAX_CARD_ABILITIES; i++)
        if (k->once_used & (1u << i)) PUT(AZK_OO_PLACE_ONCE_USED + row * AZK_MAX_CARD_ABILITIES + i, 1.f);
    unsigned st = azk_status_of(g, cs, c);
    for (int i = 0; i < AZK_STI_COUNT; i++)
        if (st & (1u << i)) PUT(AZK_OO_PLACE_STATUS + row * AZK_STI_COUNT + i, 1.f);
    if (place == AZK_OBS_GATE) return; /* a gate has no stats and holds nothing */
    int health = azk_health_of(g, cs, c);
    PUT(AZK_OO_PLACE_ATTACK + row, clip1((float)azk_attack_of(g, cs, c) / 10.f));
    PUT(AZK_OO_PLACE_HEALTH + row, clip1((float)health / 20.f));
    PUT(AZK_OO_PLACE_REMAINING + row, clip1((float)(health - k->damage) / 20.f));
    if (place > AZK_ROW) return; /* alley entities hold no weapons */
    const azk_player *pl = &g->pl[k->owner];
    int n = 0, bonus = 0;
    for (int i = 0; i < pl->weapons_n; i++) {
        int w = pl->weapons[i];
        if (g->cards[w].holder != c) continue;
        n++;
        bonus += azk_weapon_bonus(g, cs, w);
    }
    PUT(AZK_OO_PLACE_WEAPONS + row, n >= 4 ? 1.f : (float)n * 0.25f);
    PUT(AZK_OO_PLACE_WEAPON_BONUS + row, clip1((float)bonus / 10.f));
}

/* ---- the observation -------------------------------------------------------- */
AZK_OBS_INLINE int observe(const azk_game *g, const azk_cardset *cs, int me, obs_out o) {
    if (!g || !cs || !(o.u8 ? (void *)o.u : (void *)o.f) || (me != 0 && me != 1)) return -1;
    if (o.u8) memset(o.u, 128, AZK_OBS_LEN_); /* encoded 0 */
    else memset(o.f, 0, sizeof(float) * AZK_OBS_LEN_);
    int opp = 1 - me;

    /* the decision */
    if (g->phase < AZK_PHASE_COUNT) PUT(AZK_OO_PHASE + g->phase, 1.f);
    if (g->flow < AZK_FLOW_COUNT_) PUT(AZK_OO_STEP + g->flow, 1.f);
    int dec = azk_current_player(g);
    PUT(AZK_OO_DECIDER + (dec < 0 ? 2 : dec == me ? 0 : 1), 1.f);
    PUT(AZK_OO_MY_TURN, g->active == me);
    PUT(AZK_OO_FIRST_PLAYER, g->first_player == me);
    PUT(AZK_OO_TURN, ratio(g->turn, g->turn_cap));
    PUT(AZK_OO_DECISIONS, ratio(g->decisions, g->decision_cap));
    switch (g->result) {
    case AZK_RES_WIN_P0: PUT(AZK_OO_RESULT + (me == 0 ? 0 : 1), 1.f); break;
    case AZK_RES_WIN_P1: PUT(AZK_OO_RESULT + (me == 1 ? 0 : 1), 1.f); break;
    case AZK_RES_DRAW: PUT(AZK_OO_RESULT + 2, 1.f); break;
    case AZK_RES_TRUNCATED: PUT(AZK_OO_RESULT + 3, 1.f); break;
    default: break;
    }

    /* per player: counts and the field */
    for (int s = 0; s < AZK_PLAYERS; s++) {
        int p = s == 0 ? me : opp;
        const azk_player *pl = &g->pl[p];
        PUT(AZK_OO_HAND_N + s, ratio(pl->hand_n, AZK_HAND_CAP));
        PUT(AZK_OO_DECK_N + s, ratio(pl->deck_n, AZK_DECK_CAP));
        PUT(AZK_OO_DISCARD_N + s, ratio(pl->discard_n, AZK_DISCARD_CAP));
        PUT(AZK_OO_IKZ_UNTAPPED + s, ratio(g->ikz_untapped[p], AZK_IKZ_AREA_CAP));
        PUT(AZK_OO_IKZ_TAPPED + s, ratio(pl->ikz_area_n - g->ikz_untapped[p], AZK_IKZ_AREA_CAP));
        PUT(AZK_OO_IKZ_PILE_N + s, ratio(pl->ikz_pile_n, AZK_DECK_IKZ));
        uint8_t tz = pl->token < AZK_NUM_CARDS ? g->cards[pl->token].zone : AZK_Z_ASIDE;
        PUT(AZK_OO_TOKEN + 3 * s + (tz == AZK_Z_IKZ_AREA ? 1 : tz == AZK_Z_OUT ? 2 : 0), 1.f);
        PUT(AZK_OO_LOOK_N + s, ratio(pl->look_n, AZK_LOOK_CAP));
        PUT(AZK_OO_PLAYED_ENTITIES + s, ratio(pl->played_entities, 10));
        PUT(AZK_OO_MULLIGAN_DONE + s, pl->mulligan_done != 0);
        PUT(AZK_OO_WEAPONS_N + s, ratio(pl->weapons_n, 10));
        for (int place = 0; place < AZK_OBS_PLACES; place++) {
            int c = place == AZK_OBS_GATE ? pl->gate : azk_place_card(pl, place);
            if (c < AZK_NUM_CARDS) put_place(g, cs, o, s * AZK_OBS_PLACES + place, place, c);
        }
    }

    /* cards by definition */
    int counts[AZK_MAX_CARD_DEFS];
    const azk_player *mp = &g->pl[me], *op = &g->pl[opp];
#define COUNT_INTO(slice, cond_list)                                                                     \
    do {                                                                                                 \
        memset(counts, 0, sizeof counts);                                                                \
        cond_list;                                                                                       \
        put_counts(o, (slice), counts);                                                                  \
    } while (0)
#define TALLY(arr, n, cond)                                                                              \
    for (int i = 0; i < (n); i++) {                                                                      \
        int c_ = (arr)[i];                                                                               \
        if ((cond) && g->cards[c_].def < AZK_MAX_CARD_DEFS) counts[g->cards[c_].def]++;                  \
    }
    COUNT_INTO(AZK_OO_HAND, TALLY(mp->hand, mp->hand_n, 1));
    for (int i = 0; i < mp->hand_n && i < AZK_HAND_CAP; i++) PUT(AZK_OO_HAND_SLOTS + i, card_id(g, mp->hand[i]));
    /* --- cont --- what each hand card costs now (cost modifiers, rules §18.4) */
    for (int i = 0; i < mp->hand_n && i < AZK_HAND_CAP; i++)
        PUT(AZK_OO_HAND_COST + i, clip1((float)azk_cost_of(g, cs, mp->hand[i]) / 10.f));
    COUNT_INTO(AZK_OO_OPP_HAND_KNOWN, TALLY(op->hand, op->hand_n, known(g, me, c_)));
    COUNT_INTO(AZK_OO_DECK, TALLY(mp->deck, mp->deck_n, 1));
    for (int i = 0; i < mp->deck_n && i < AZK_DECK_CAP; i++) { /* deck[0] is the bottom */
        unsigned seen = g->cards[mp->deck[i]].seen;
        if (!seen) continue; /* nobody knows it: the common case */
        int top = mp->deck_n - 1 - i;
        if (seen >> me & 1) {
            PUT(AZK_OO_DECK_BOTTOM + i, card_id(g, mp->deck[i]));
            PUT(AZK_OO_DECK_TOP + top, card_id(g, mp->deck[i])); /* --- deck --- (docs/rules.md §17.5) */
        }
        if (seen >> opp & 1) PUT(AZK_OO_DECK_OPP_KNOWS + top, 1.f);
    }
    for (int i = 0; i < op->deck_n && i < AZK_DECK_CAP; i++) /* --- deck ---: what I know of the opponent's deck */
        if (g->cards[op->deck[i]].seen >> me & 1) {
            PUT(AZK_OO_OPP_DECK_BOTTOM + i, card_id(g, op->deck[i]));
            PUT(AZK_OO_OPP_DECK_TOP + op->deck_n - 1 - i, card_id(g, op->deck[i]));
        }
    COUNT_INTO(AZK_OO_OPP_UNSEEN, TALLY(op->hand, op->hand_n, !known(g, me, c_))
                                      TALLY(op->deck, op->deck_n, !(g->cards[c_].seen >> me & 1)) TALLY(op->look, op->look_n, 1));
    COUNT_INTO(AZK_OO_DISCARD, TALLY(mp->discard, mp->discard_n, 1));
    COUNT_INTO(AZK_OO_DISCARD + AZK_MAX_CARD_DEFS, TALLY(op->discard, op->discard_n, 1));
    COUNT_INTO(AZK_OO_LOOK, TALLY(mp->look, mp->look_n, 1));
#undef TALLY
#undef COUNT_INTO

    /* combat: places of the attacker and the target while they are the same objects */
    if (g->in_attack) {
        PUT(AZK_OO_IN_ATTACK, 1.f);
        PUT(AZK_OO_DEFENDER_USED, g->defender_used != 0);
        if (g->attacker < AZK_NUM_CARDS && g->cards[g->attacker].incarnation == g->attacker_inc) {
            int r = place_row(g, me, g->attacker);
            if (r >= 0) PUT(AZK_OO_ATTACKER + r, 1.f);
        }
        if (g->target < AZK_NUM_CARDS && g->cards[g->target].incarnation == g->target_inc) {
            int r = place_row(g, me, g->target);
            if (r >= 0) PUT(AZK_OO_TARGET + r, 1.f);
        }
    }

    /* the pending prompt: its kind for both, its options for its chooser */
    if (g->phase == AZK_PHASE_PROMPT) {
        const azk_prompt *q = &g->prompt;
        if (q->kind < AZK_PK_COUNT) PUT(AZK_OO_PROMPT_KIND + q->kind, 1.f);
        if (g->vm.active && g->vm.source < AZK_NUM_CARDS) {
            int src = g->vm.source;
            PUT(AZK_OO_PROMPT_SOURCE_SIDE + (g->vm.controller == me ? 0 : 1), 1.f);
            if (known(g, me, src)) PUT(AZK_OO_PROMPT_SOURCE_CARD, card_id(g, src));
        }
        int placing = azk_placing_card(g, cs);
        if (placing >= 0 && known(g, me, placing)) PUT(AZK_OO_PROMPT_PLACING_CARD, card_id(g, placing));
        if (q->chooser == me) {
            int n = q->n < AZK_MAX_OPTIONS ? q->n : AZK_MAX_OPTIONS;
            int place_owner = placing >= 0 ? g->cards[placing].owner : q->chooser;
            int place_side = place_owner == me ? 0 : 1;
            PUT(AZK_OO_PROMPT_MINE, 1.f);
            PUT(AZK_OO_PROMPT_OPTIONAL, q->optional != 0);
            PUT(AZK_OO_PROMPT_N, ratio(n, AZK_MAX_OPTIONS));
            for (int i = 0; i < n; i++) {
                int v = q->opt[i], place = -1;
                PUT(AZK_OO_OPT_VALID + i, 1.f);
                switch (q->kind) {
                case AZK_PK_CARD:
                case AZK_PK_BOTTOM_ORDER:
                case AZK_PK_SEARCH:    /* --- deck --- */
                case AZK_PK_TOP_ORDER:
                    if (v >= AZK_NUM_CARDS) break;
                    /* a searcher sees the matching cards of its own deck (docs/rules.md §17.1) */
                    if (q->kind == AZK_PK_SEARCH || known(g, me, v)) PUT(AZK_OO_OPT_CARD + i, card_id(g, v));
                    PUT(AZK_OO_OPT_SIDE + 2 * i + (g->cards[v].owner == me ? 0 : 1), 1.f);
                    if (g->cards[v].zone < AZK_Z_COUNT) PUT(AZK_OO_OPT_ZONE + AZK_Z_COUNT * i + g->cards[v].zone, 1.f);
                    {
                        int r = place_row(g, me, v);
                        if (r >= 0) PUT(AZK_OO_OPT_PLACE + AZK_OBS_PLACE_ROWS * i + r, 1.f);
                    }
                    break;
                case AZK_PK_SLOT: place = v >= 8 ? 1 + AZK_ROW + (v & 7) : 1 + v; break;
                case AZK_PK_HOLDER: place = v; break;
                case AZK_PK_NUMBER: PUT(AZK_OO_OPT_NUMBER + i, ratio(v, AZK_MAX_OPTIONS)); break;
                case AZK_PK_YES_NO: PUT(AZK_OO_OPT_NUMBER + i, v != 0); break;
                case AZK_PK_MODE: PUT(AZK_OO_OPT_NUMBER + i, ratio(v, AZK_MAX_OPTIONS)); break; /* --- effects --- the mode index */
                default: break;
                }
                if (place >= 0 && place < AZK_OBS_PLACES) {
                    PUT(AZK_OO_OPT_SIDE + 2 * i + place_side, 1.f);
                    PUT(AZK_OO_OPT_PLACE + AZK_OBS_PLACE_ROWS * i + place_side * AZK_OBS_PLACES + place, 1.f);
                }
            }
        }
    }

    /* the legal actions, for their decider only (they would show a hidden hand) */
    if (dec == me)
        for (uint32_t ws = g->legal_words; ws; ws &= ws - 1) {
            int w = __builtin_ctz(ws);
            for (uint64_t b = g->legal[w]; b; b &= b - 1) PUT(AZK_OO_MASK + w * 64 + __builtin_ctzll(b), 1.f);
        }
    return AZK_OBS_LEN_;
}
#undef PUT

int azk_observe(const azk_game *g, const azk_cardset *cs, int me, float *out) {
    return observe(g, cs, me, (obs_out){out, NULL, 0});
}

/* The same values, one byte each (azuki.h): written directly, 4x fewer bytes. */
int azk_observe_u8(const azk_game *g, const azk_cardset *cs, int me, uint8_t *out) {
    return observe(g, cs, me, (obs_out){NULL, out, 1});
}

/* ---- information-set sampling ------------------------------------------------ */
#define AZK_RESAMPLE_STREAM 0x7e5a3b1eULL /* PCG stream of azk_resample's generator */

/* Zones (bits 1 << zone) of player p that hold a card the pending work names:
 * the effect VM's frame, the trigger queue, the prompt's card options. */
static unsigned pinned_zones(const azk_game *g, int p) {
    unsigned z = 0;
#define PIN(c)                                                                                           \
    do {                                                                                                 \
        int c_ = (c);                                                                                    \
        if (c_ < AZK_NUM_CARDS && g->cards[c_].owner == p) z |= 1u << g->cards[c_].zone;                 \
    } while (0)
    if (g->vm.active) {
        PIN(g->vm.source);
        PIN(g->vm.ctx_card);
        PIN(g->vm.spell_card);
        for (int i = 0; i < AZK_TREGS; i++) PIN(g->vm.t[i]);
        for (int i = 0; i < g->vm.each_n && i < AZK_MAX_EACH; i++) PIN(g->vm.each[i]);
    }
    for (int d = 0; d < g->vm_depth && d < AZK_VM_DEPTH - 1; d++) { /* --- effects --- suspended frames */
        const azk_vm_frame *sf = &g->vm_saved[d];
        PIN(sf->source);
        PIN(sf->ctx_card);
        PIN(sf->spell_card);
        for (int i = 0; i < AZK_TREGS; i++) PIN(sf->t[i]);
        for (int i = 0; i < sf->each_n && i < AZK_MAX_EACH; i++) PIN(sf->each[i]);
    }
    for (int i = 0; i < g->trig_n && i < AZK_MAX_TRIGGERS; i++) {
        PIN(g->trig[i].source);
        PIN(g->trig[i].ctx_card);
    }
    if (g->phase == AZK_PHASE_PROMPT && (g->prompt.kind == AZK_PK_CARD || g->prompt.kind == AZK_PK_BOTTOM_ORDER ||
                                         g->prompt.kind == AZK_PK_SEARCH || g->prompt.kind == AZK_PK_TOP_ORDER))
        for (int i = 0; i < g->prompt.n && i < AZK_MAX_OPTIONS; i++) PIN(g->prompt.opt[i]);
#undef PIN
    return z;
}

/* The cards of player p whose identities `me` cannot know and the
 * resampler may redistribute (index list into pool, returns the count): p's
 * deck, and for the opponent its unknown hand cards and looked-at cards;
 * a zone holding a card the pending work names stays as it is. The search
 * bot's canonical view (bot.c) uses the same pool. */
int azk_hidden_pool(const azk_game *g, int me, int p, uint8_t *pool) {
    const azk_player *pl = &g->pl[p];
    unsigned pinned = pinned_zones(g, p);
    int n = 0;
    if (!(pinned & (1u << AZK_Z_DECK)))
        for (int i = 0; i < pl->deck_n; i++)
            if (!known(g, me, pl->deck[i])) pool[n++] = pl->deck[i]; /* a place `me` chose stays */
    if (p != me) {
        if (!(pinned & (1u << AZK_Z_HAND)))
            for (int i = 0; i < pl->hand_n; i++)
                if (!known(g, me, pl->hand[i])) pool[n++] = pl->hand[i];
        if (!(pinned & (1u << AZK_Z_LOOK)))
            for (int i = 0; i < pl->look_n; i++) pool[n++] = pl->look[i];
    }
    return n;
}

/* Shuffle the definitions of the n cards idx[0..n-1] among themselves. */
static void shuffle_defs(azk_game *g, azk_rng *r, const uint8_t *idx, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)azk_rng_bounded(r, (uint32_t)i + 1);
        uint8_t t = g->cards[idx[i]].def;
        g->cards[idx[i]].def = g->cards[idx[j]].def;
        g->cards[idx[j]].def = t;
    }
}

/* Put a hand back in canonical order (definition, then card index). */
void azk_sort_hand(azk_game *g, azk_player *pl) {
    for (int i = 1; i < pl->hand_n; i++) {
        uint8_t c = pl->hand[i];
        int j = i;
        while (j > 0) {
            const azk_card *o = &g->cards[pl->hand[j - 1]];
            if (o->def < g->cards[c].def || (o->def == g->cards[c].def && pl->hand[j - 1] < c)) break;
            pl->hand[j] = pl->hand[j - 1];
            j--;
        }
        pl->hand[j] = c;
    }
    for (int i = 0; i < pl->hand_n; i++) g->cards[pl->hand[i]].pos = (uint8_t)i;
}

azk_status azk_resample(azk_game *g, const azk_cardset *cs, int player, uint64_t seed) {
    if (!g || !cs || (player != 0 && player != 1) || g->result != AZK_RES_ONGOING) return AZK_ERR_ARG;
    azk_rng r;
    azk_rng_seed(&r, seed, AZK_RESAMPLE_STREAM);
    uint8_t pool[AZK_NUM_CARDS];
    for (int k = 0; k < AZK_PLAYERS; k++) {
        int p = k == 0 ? player : 1 - player;
        int n = azk_hidden_pool(g, player, p, pool);
        shuffle_defs(g, &r, pool, n);
        azk_sort_hand(g, &g->pl[p]);
    }
    azk_rng_seed(&g->rng, azk_rng_next(&r) | (uint64_t)azk_rng_next(&r) << 32, AZK_GAME_RNG_STREAM);
    azk_refresh_legal(g, cs);
    return AZK_OK;
}
