/* action_space.h — the flat action space's tables (docs/rules.md §14,
 * DESIGN §3), generated from azk_actions.def: per type the p0 and p1 sizes and
 * the base of its block; and the inline decode that azk_step (engine.c) and
 * azk_decode (actions.c, public) share. Included only by .c files. */
#ifndef AZK_ACTION_SPACE_H
#define AZK_ACTION_SPACE_H

#include "game.h"

#define AZK_ACTION(name, n0, n1, k0, k1, doc) (n0),
static const int P0_SIZE[AZK_ACT_COUNT] = {
#include "azk_actions.def"
};
#undef AZK_ACTION
#define AZK_ACTION(name, n0, n1, k0, k1, doc) (n1),
static const int P1_SIZE[AZK_ACT_COUNT] = {
#include "azk_actions.def"
};
#undef AZK_ACTION
#define AZK_ACTION(name, n0, n1, k0, k1, doc) AZK_BASE_##name, AZK_BASE_END_##name = AZK_BASE_##name + (n0) * (n1) - 1,
enum azk_action_base {
#include "azk_actions.def"
    AZK_BASE_TOTAL_
};
#undef AZK_ACTION
_Static_assert((int)AZK_BASE_TOTAL_ == (int)AZK_NUM_ACTIONS_, "bases tile the flat space");

static const int BASE[AZK_ACT_COUNT] = {
#define AZK_ACTION(name, n0, n1, k0, k1, doc) AZK_BASE_##name,
#include "azk_actions.def"
#undef AZK_ACTION
};

/* The options of one prompt are one run of at most 64 CHOOSE ids. (At file
 * scope: clang rejects a static assertion right after a case label.) */
_Static_assert(AZK_MAX_OPTIONS <= 64, "the options of one prompt are one run");

/* Distance from each block's start to the end of the space, padded to 16
 * entries with 0 (a block "starting past the end"), for the branchless
 * search below: a branchy binary search mispredicts about every other step,
 * and decode runs at every step. BASE[i] <= a  <=>  FROM_END[i] >= N - a. */
static const int FROM_END[16] = {
#define AZK_ACTION(name, n0, n1, k0, k1, doc) AZK_NUM_ACTIONS_ - AZK_BASE_##name,
#include "azk_actions.def"
#undef AZK_ACTION
};
_Static_assert(AZK_ACT_COUNT <= 16, "the action types fit the 4-step search");

static inline int azk_decode_inline(int action, int *type, int *p0, int *p1) {
    if (action < 0 || action >= AZK_NUM_ACTIONS_) return -1;
    int back = AZK_NUM_ACTIONS_ - action, t = 0; /* t: the last type whose block starts at or before action */
    t += (FROM_END[t + 8] >= back) << 3;
    t += (FROM_END[t + 4] >= back) << 2;
    t += (FROM_END[t + 2] >= back) << 1;
    t += FROM_END[t + 1] >= back;
    int rel = action - BASE[t];
    *type = t;
    *p0 = rel / P1_SIZE[t];
    *p1 = rel % P1_SIZE[t];
    return 0;
}

/* Is flat action a in the cached legal set (game.h)? a must be in range. */
static inline int azk_legal_bit(const azk_game *g, int a) { return (int)((g->legal[a >> 6] >> (a & 63)) & 1u); }

#endif /* AZK_ACTION_SPACE_H */
