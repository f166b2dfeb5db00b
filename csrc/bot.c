/* bot.c — built-in players (docs/bots.md): `random`, `greedy`, `search`, and
 * the policy bots `policy` and `psearch` (a loaded C policy; azk_pbot_act).
 *
 * A service on top of the engine (zones.c < vm.c < actions.c < engine.c <
 * services): a bot reads the game through game.h's queries and the public
 * functions, chooses among azk_legal_actions, and looks ahead only on
 * clones (azk_game_clone + azk_step on a copy on its own stack). The game it
 * is asked about is never written.
 *
 * Invariants:
 *  - every returned action is in the legal list of the position asked about;
 *  - the choice is a pure function of (game bytes, card set, kind, the two
 *    rng words), and the only state a bot keeps is those words (a search
 *    stopped early through azk_search_ctl also depends on when it stopped);
 *  - the built-in bots' arithmetic on scores is integer (no floating point),
 *    so optimized and sanitizer builds choose identically (the search bot's
 *    UCB1 uses doubles without libm, the same in every build; the policy bots
 *    compute in floating point, as the network does: see their section);
 *  - nothing allocates (the clones live on the stack: a few KB per level of
 *    the bounded lookahead) and nothing prints; the policy bots use the
 *    caller's workspace, or one malloc per decision when given none.
 *
 * The greedy heuristic (AZK_BOT_GREEDY_VERSION; docs/bots.md has the
 * reasoning and the weights): for every legal action (equivalent empty slots
 * merged) apply it to a clone, let the pending non-main decisions that
 * follow (the bot's own prompts, the opponent's defender choice, targets,
 * ...) resolve by the same rule one level deeper (bounded by a step budget;
 * past it a default answer: decline / pass / first option), and score the
 * first quiet position (a main phase, or the game's end) with a hand-written
 * evaluation. END_TURN is scored on the current position with the active
 * player's unused attacks forfeited. The best score wins; ties are broken
 * uniformly with the bot's rng. Mulligan: keep a hand with at least two
 * entities of cost 3 or less.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask under -std=c11 (psearch's root parallelism) */
#include <limits.h>
#include <stdatomic.h>

#include "game.h"

/* ---- tuning (all scores are in tenths of a "point") ----------------------- */
#define BOT_TOP_DEPTH 2        /* levels of nested choice inside one lookahead */
#define BOT_BUDGET 600         /* clone+step operations per decision, at most */
#define BOT_SETTLE_STEPS 24    /* pending decisions resolved per lookahead line */
#define V_WIN 1000000          /* a won game (minus a lost one) */
#define W_HP 15                /* per leader health point */
#define W_HP_LOW 10            /* extra per point for the last 10 points */
#define W_HAND 12              /* per card in hand (not a weapon) */
#define W_HAND_WEAPON 6        /* per weapon in hand: weapons only help an attack */
#define W_IKZ 5                /* per card in the IKZ area */
#define W_THREAT 9             /* per attack point of a ready attacker (< W_HP: hitting beats holding) */
#define W_LETHAL 300           /* ready attack >= the opponent leader's health, no defender to stop it */
#define W_DECK_LOW 20          /* per card below 6 in the deck */
#define W_DECK_EMPTY 400       /* the next draw loses */

static int bot_opp(int p) { return p ^ 1; }

static int quiet(const azk_game *g) {
    return g->phase == AZK_PHASE_MAIN || g->phase == AZK_PHASE_GAME_OVER || g->phase == AZK_PHASE_MULLIGAN;
}


/* Attack without the weapons it holds (weapons leave at the end of the turn),
 * from azk_field_stats' walk (attack with the weapons' bonuses, and those
 * bonuses). */
static int lasting_of(const azk_field_stat *fs) {
    int a = fs->attack - fs->weapon_bonus;
    return a > 0 ? a : 0;
}
static int lasting_attack(const azk_game *g, const azk_cardset *cs, int c) {
    azk_field_stat fs;
    azk_field_stats(g, cs, c, &fs);
    return lasting_of(&fs);
}

/* Lasting value of an entity on the field (full health: damage heals at the
 * end of every turn). Attack, health and statuses are the rules' values,
 * auras included (rules §18); the printed cost is a proxy of card quality
 * here, not what the card would cost to play now (azk_card_cost). */
static int entity_value(const azk_game *g, const azk_cardset *cs, int c) {
    const azk_card_def *d = azk_def(cs, g, c);
    azk_field_stat fs; /* attack, health and weapons in one walk (query.c) */
    azk_field_stats(g, cs, c, &fs);
    int hp = fs.health;
    unsigned st = azk_status_of(g, cs, c);
    int v = 15 + 6 * d->cost + 10 * lasting_of(&fs) + 7 * (hp > 0 ? hp : 0);
    if (st & AZK_ST_DEFENDER) v += 3;
    if (st & AZK_ST_EFFECT_IMMUNE) v += 2;
    if (st & AZK_ST_CHARGE) v += 2;
    if (azk_granted_status(g, c) & AZK_ST_FROZEN) v = v * 6 / 10;
    return v;
}

static int leader_hp(const azk_game *g, const azk_cardset *cs, int p) {
    int l = g->pl[p].leader;
    return azk_health_of(g, cs, l) - g->cards[l].damage;
}

/* One player's material: leader, hand, IKZ, deck, rows. */
static int material(const azk_game *g, const azk_cardset *cs, int p) {
    const azk_player *pl = &g->pl[p];
    int hp = leader_hp(g, cs, p);
    if (hp < 0) hp = 0;
    int v = W_HP * hp + W_HP_LOW * (hp < 10 ? hp : 10);
    for (int i = 0; i < pl->hand_n; i++)
        v += azk_def(cs, g, pl->hand[i])->card_type == AZK_CT_WEAPON ? W_HAND_WEAPON : W_HAND;
    v += W_IKZ * pl->ikz_area_n;
    if (pl->deck_n == 0) v -= W_DECK_EMPTY;
    else if (pl->deck_n < 6) v -= W_DECK_LOW * (6 - pl->deck_n);
    for (int s = 0; s < AZK_ROW; s++) {
        if (pl->garden[s] != AZK_NONE) v += entity_value(g, cs, pl->garden[s]);
        if (pl->alley[s] != AZK_NONE) v += entity_value(g, cs, pl->alley[s]) * 8 / 10;
    }
    return v;
}

/* The position's score for player `me` (zero-sum). `live`: the active
 * player may still attack this turn (0 scores END_TURN: attacks forfeited). */
static int evaluate(const azk_game *g, const azk_cardset *cs, int me, int live) {
    if (g->result != AZK_RES_ONGOING) {
        int w = azk_winner(g);
        return w < 0 ? 0 : (w == me ? V_WIN : -V_WIN);
    }
    int A = g->active, N = bot_opp(A);
    int e[2] = {material(g, cs, 0), material(g, cs, 1)};
    const azk_player *pa = &g->pl[A], *pn = &g->pl[N];
    if (live && g->phase != AZK_PHASE_MULLIGAN) {
        int sum = 0, best = 0;
        for (int code = 0; code <= AZK_ROW; code++) {
            int c = azk_place_card(pa, code);
            if (c == AZK_NONE || !azk_can_attack(g, cs, c)) continue;
            int a = azk_attack_of(g, cs, c);
            if (a <= 0) continue;
            sum += a;
            if (a > best) best = a;
        }
        e[A] += W_THREAT * sum;
        int blocker = 0;
        for (int s = 0; s < AZK_ROW; s++) {
            int c = pn->garden[s];
            if (c == AZK_NONE) continue;
            unsigned st = azk_status_of(g, cs, c);
            if (!(g->cards[c].flags & AZK_CF_TAPPED) && (st & AZK_ST_DEFENDER) && !(st & AZK_ST_FROZEN)) blocker = 1;
            /* the opponent's tapped entities are targets for the ready attackers now */
            if ((g->cards[c].flags & AZK_CF_TAPPED) && !(st & AZK_ST_FROZEN) &&
                best >= azk_health_of(g, cs, c) - g->cards[c].damage)
                e[N] -= entity_value(g, cs, c) * 4 / 10;
        }
        if (sum > 0 && sum >= leader_hp(g, cs, N) && !blocker) e[A] += W_LETHAL;
    }
    /* the active player's tapped entities stay attackable through the
     * opponent's next turn, when all of the opponent's garden untaps */
    int their_best = -1;
    for (int s = 0; s < AZK_ROW; s++) {
        int c = pn->garden[s];
        if (c == AZK_NONE || (azk_granted_status(g, c) & AZK_ST_FROZEN)) continue;
        int a = lasting_attack(g, cs, c);
        if (a > their_best) their_best = a;
    }
    for (int s = 0; s < AZK_ROW; s++) {
        int c = pa->garden[s];
        if (c == AZK_NONE || !(g->cards[c].flags & AZK_CF_TAPPED)) continue;
        if (their_best >= azk_health_of(g, cs, c)) e[A] -= entity_value(g, cs, c) * 4 / 10;
        else if (their_best >= 0) e[A] -= entity_value(g, cs, c) / 10;
    }
    return e[me] - e[bot_opp(me)];
}

/* ---- lookahead ------------------------------------------------------------- */
typedef struct bot_ctx {
    const azk_cardset *cs;
    int root;     /* the player the bot decides for */
    int budget;   /* clone+step operations left */
} bot_ctx;

static int contains(const int32_t *legal, int n, int a) {
    for (int i = 0; i < n; i++)
        if (legal[i] == a) return 1;
    return 0;
}

/* Pass / decline when that is legal, else the first legal action. */
static int default_action(const int32_t *legal, int n) {
    int noop = azk_encode(AZK_ACT_NO_OP, 0, 0);
    return contains(legal, n, noop) ? noop : legal[0];
}

/* Empty slots of a row are equivalent (rules §2.4): only the first is tried. */
static int redundant(const azk_game *g, int a) {
    int t, p0, p1;
    if (azk_decode(a, &t, &p0, &p1) != 0) return 0;
    const azk_player *pl = &g->pl[g->active];
    const uint8_t *row;
    if (t == AZK_ACT_PLAY_ENTITY_TO_GARDEN || t == AZK_ACT_PORTAL_GATE) row = pl->garden;
    else if (t == AZK_ACT_PLAY_ENTITY_TO_ALLEY) row = pl->alley;
    else return 0;
    if (row[p1] != AZK_NONE) return 0;
    for (int s = 0; s < p1; s++)
        if (row[s] == AZK_NONE) return 1;
    return 0;
}

static int mulligan_choice(const azk_game *g, const azk_cardset *cs, int p) {
    const azk_player *pl = &g->pl[p];
    int cheap = 0;
    for (int i = 0; i < pl->hand_n; i++) {
        const azk_card_def *d = azk_def(cs, g, pl->hand[i]);
        cheap += d->card_type == AZK_CT_ENTITY && d->cost <= 3;
    }
    return azk_encode(cheap >= 2 ? AZK_ACT_MULLIGAN_KEEP : AZK_ACT_MULLIGAN_SHUFFLE, 0, 0);
}

static int pick(bot_ctx *x, const azk_game *g, int depth, azk_rng *rng);

/* Resolve g's pending non-main decisions (each by pick one level deeper),
 * then score the position for `me`. */
static int settle(bot_ctx *x, azk_game *g, int me, int depth) {
    for (int k = 0; k < BOT_SETTLE_STEPS && !quiet(g); k++) {
        int a = pick(x, g, depth - 1, NULL);
        x->budget--;
        if (azk_step(g, x->cs, a) != AZK_OK) break; /* cannot happen: a is legal */
    }
    return evaluate(g, x->cs, me, 1);
}

/* The greedy choice for the player to act in g. rng: tie-break (top level);
 * NULL: the first best (nested levels). */
static int pick(bot_ctx *x, const azk_game *g, int depth, azk_rng *rng) {
    int32_t legal[AZK_NUM_ACTIONS_];
    int n = azk_legal_actions(g, x->cs, legal, AZK_NUM_ACTIONS_);
    if (n <= 1) return n == 1 ? legal[0] : 0;
    int p = azk_current_player(g);
    if (g->phase == AZK_PHASE_MULLIGAN) return mulligan_choice(g, x->cs, p);
    if (depth < 0 || x->budget <= 0) return default_action(legal, n);
    /* inside a lookahead the opponent is assumed not to respond: its hand is
     * hidden from the bot (docs/bots.md) */
    if (!rng && p != x->root && g->phase == AZK_PHASE_RESPONSE) return default_action(legal, n);
    int end_turn = azk_encode(AZK_ACT_END_TURN, 0, 0);
    int best = INT_MIN, best_a = legal[0], ties = 0;
    azk_game tmp;
    for (int i = 0; i < n; i++) {
        int a = legal[i], v;
        if (redundant(g, a)) continue;
        if (a == end_turn) {
            v = evaluate(g, x->cs, p, 0);
        } else if (x->budget <= 0) {
            continue;
        } else {
            azk_game_clone(&tmp, g);
            x->budget--;
            if (azk_step(&tmp, x->cs, a) != AZK_OK) continue; /* cannot happen */
            v = settle(x, &tmp, p, depth);
        }
        if (v > best) {
            best = v;
            best_a = a;
            ties = 1;
        } else if (v == best && rng) {
            ties++;
            if (azk_rng_bounded(rng, (uint32_t)ties) == 0) best_a = a;
        }
    }
    return best_a;
}

/* ---- the search bot (information-set MCTS, docs/bots.md) --------------------
 *
 * One decision: the root's legal actions (equivalent empty slots merged) are
 * the arms of a UCB1 bandit. Each simulation
 *   1. copies the bot's canonical view of the position (below) and
 *      determinizes it with azk_resample(copy, cs, me, seed): the cards the bot
 *      cannot know get identities drawn from its information set, and the
 *      game's RNG is reseeded (future shuffles are unknown too);
 *   2. applies the arm chosen by UCB1 (unvisited arms first, in legal order);
 *   3. plays on with the greedy policy for both players (pick, with a smaller
 *      lookahead budget) until the bot's next turn begins (the horizon), at
 *      most SEARCH_PLAYOUT_CAP decisions;
 *   4. scores the end for the bot: 1 / 0 / 0.5 for a win / loss / draw, else
 *      the greedy evaluation squashed into (0, 1).
 * The arm with the most visits is played (ties: higher mean, then legal order).
 *
 * Canonical view: before any simulation, the identities of the cards that
 * azk_resample would redistribute (the opponent's unknown hand cards, its
 * deck and looked-at cards, the bot's own deck; zones pinned by pending work
 * left alone, as azk_resample leaves them) are reassigned in sorted order to
 * the card slots in card-index order, and the hands re-sorted. Two positions
 * that differ only in what the bot cannot know thus become the same bytes
 * before the first resample, and every simulation's seed comes from the bot's
 * stream, so the decision cannot depend on hidden information.
 *
 * Stopping early (azk_search_ctl): the flag is read before every simulation,
 * so a cancelled search returns within one playout; the arm chosen is the
 * best of the simulations run (the first arm if none). */
#define SEARCH_PLAYOUT_CAP 120      /* decisions per playout, at most */
#define SEARCH_ROLLOUT_DEPTH 1      /* greedy lookahead levels inside playouts */
#define SEARCH_ROLLOUT_BUDGET 200   /* greedy clone+step budget inside playouts */
#define SEARCH_SQUASH 400           /* evaluation (tenths) mapped to reward 0.75 */

static const azk_search_params SEARCH_DEFAULTS = {AZK_BOT_SEARCH_SIMS, 700, 1, SEARCH_ROLLOUT_BUDGET, NULL};

static void sort_u8(uint8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t v = a[i];
        int j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* The canonical view described above, in place (g is the bot's copy). */
static void canonicalize(azk_game *g, int me) {
    uint8_t ids[AZK_NUM_CARDS], defs[AZK_NUM_CARDS];
    for (int p = 0; p < AZK_PLAYERS; p++) {
        int n = azk_hidden_pool(g, me, p, ids); /* exactly what azk_resample redistributes */
        for (int i = 0; i < n; i++) defs[i] = g->cards[ids[i]].def;
        sort_u8(ids, n);
        sort_u8(defs, n);
        for (int i = 0; i < n; i++) g->cards[ids[i]].def = defs[i];
        azk_sort_hand(g, &g->pl[p]);
    }
}

/* log and sqrt without libm (the core links nothing else); exact enough for
 * UCB1 and the same in every build. */
static double bot_log(double x) { /* x >= 1 */
    int k = 0;
    while (x >= 2.0) {
        x *= 0.5;
        k++;
    }
    double z = (x - 1.0) / (x + 1.0), z2 = z * z, term = z, sum = 0.0;
    for (int i = 1; i < 40; i += 2) {
        sum += term / i;
        term *= z2;
    }
    return 2.0 * sum + k * 0.69314718055994530942;
}

static double bot_sqrt(double y) { /* y >= 0 */
    if (y <= 0.0) return 0.0;
    double x = y > 1.0 ? y : 1.0;
    for (int i = 0; i < 64; i++) {
        double nx = 0.5 * (x + y / x);
        if (nx >= x) break;
        x = nx;
    }
    return x;
}

/* splitmix64 (azuki.h), exported: the mixer itself is rng.h's (below every
 * file that seeds); the bots' seed derivations (azk_bot_seed_for) and the
 * search's per-simulation seeds use it, the binding exposes both. */
uint64_t azk_splitmix64(uint64_t z) { return azk_splitmix64_of(z); }
#define splitmix64 azk_splitmix64_of

uint64_t azk_bot_seed_for(uint64_t seed, uint64_t k) {
    return azk_mix64(seed + azk_weyl(k)); /* = splitmix64(seed + golden * k): stream k, mixed (rng.h) */
}

/* Play g on with the greedy policy until `me`'s next turn begins (a quiet
 * position of a later turn with me active), the game ends or the cap; return
 * the reward in [0, 1] for me. */
static double search_playout(const azk_cardset *cs, azk_game *g, int me, int root_turn, azk_rng *r,
                             const azk_search_params *sp) {
    for (int k = 0; k < SEARCH_PLAYOUT_CAP && !azk_is_terminal(g); k++) {
        if (quiet(g) && g->turn > root_turn && g->active == me && g->phase == AZK_PHASE_MAIN) break;
        bot_ctx x = {cs, azk_current_player(g), sp->rollout_budget};
        int a = pick(&x, g, sp->rollout_depth, r);
        if (azk_step(g, cs, a) != AZK_OK) break; /* cannot happen: a is legal */
    }
    if (g->result != AZK_RES_ONGOING) {
        int w = azk_winner(g);
        return w < 0 ? 0.5 : (w == me ? 1.0 : 0.0);
    }
    int v = evaluate(g, cs, me, 1);
    return 0.5 + 0.5 * (double)v / (double)((v < 0 ? -v : v) + SEARCH_SQUASH);
}

/* Search labels (azk_bot_search_label, azk_pbot_label): the root's visit
 * shares and mean result, written by the searches when asked for (NULL: not
 * asked, the common case costs one test per return). */
typedef struct search_label {
    float *visits; /* [AZK_NUM_ACTIONS_] */
    float value;   /* mean result for the player to act, in [0, 1]; -1: no simulation ran */
} search_label;

/* a decision taken without simulations: all the weight on the action taken */
static int label_one(search_label *lab, int a) {
    if (lab && a >= 0) {
        for (int i = 0; i < AZK_NUM_ACTIONS_; i++) lab->visits[i] = 0.0f;
        lab->visits[a] = 1.0f;
        lab->value = -1.0f;
    }
    return a;
}

typedef struct search_arm {
    int32_t a;
    int n;
    double sum;
} search_arm;

static int search_act(const azk_game *g, const azk_cardset *cs, azk_rng *rng, const azk_search_params *sp,
                      search_label *lab) {
    int32_t legal[AZK_NUM_ACTIONS_];
    int n = azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_);
    if (n <= 0) return -(int)AZK_ERR_ARG;
    int me = azk_current_player(g);
    if (sp->ctl) sp->ctl->sims_run = 0;
    /* the seeds of this decision: a fixed number of draws, whatever the position */
    uint64_t base = (uint64_t)azk_rng_next(rng) << 32 | azk_rng_next(rng);
    if (n == 1) return label_one(lab, legal[0]);
    if (g->phase == AZK_PHASE_MULLIGAN) return label_one(lab, mulligan_choice(g, cs, me));
    search_arm arms[AZK_NUM_ACTIONS_];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!redundant(g, legal[i])) arms[k++] = (search_arm){legal[i], 0, 0.0};
    if (k == 1) return label_one(lab, arms[0].a);
    azk_game view, sim;
    azk_game_clone(&view, g);
    canonicalize(&view, me);
    int sims = sp->sims > 0 ? sp->sims : 1;
    double c = sp->explore_milli / 1000.0;
    azk_search_ctl *ctl = sp->ctl;
    int t = 0;
    for (; t < sims; t++) {
        /* between simulations: a caller on another thread may stop the search
         * (a relaxed load: one per simulation, costs nothing next to a playout) */
        if (ctl && azk_search_cancelled(ctl)) break;
        int best = -1;
        if (t < k) {
            best = t;
        } else {
            double lt = bot_log((double)t), bv = -1.0;
            for (int i = 0; i < k; i++) {
                double u = arms[i].sum / arms[i].n + c * bot_sqrt(lt / arms[i].n);
                if (u > bv) {
                    bv = u;
                    best = i;
                }
            }
        }
        uint64_t s = splitmix64(base + (uint64_t)t);
        azk_game_clone(&sim, &view);
        if (azk_resample(&sim, cs, me, s) != AZK_OK) continue; /* cannot happen: the game goes on */
        azk_rng r;
        azk_rng_seed(&r, splitmix64(s), AZK_BOT_RNG_STREAM);
        double v;
        if (azk_step(&sim, cs, arms[best].a) != AZK_OK) {
            /* a resample may leave a single legal answer that the one-answer rule
             * would have applied: take it and try again */
            int32_t l2[AZK_NUM_ACTIONS_];
            if (azk_legal_actions(&sim, cs, l2, AZK_NUM_ACTIONS_) != 1 || azk_step(&sim, cs, l2[0]) != AZK_OK ||
                azk_step(&sim, cs, arms[best].a) != AZK_OK)
                continue;
        }
        v = search_playout(cs, &sim, me, g->turn, &r, sp);
        arms[best].n++;
        arms[best].sum += v;
    }
    if (ctl) ctl->sims_run = t;
    int bi = 0;
    for (int i = 1; i < k; i++) {
        if (arms[i].n > arms[bi].n ||
            (arms[i].n == arms[bi].n && arms[i].n > 0 && arms[i].sum / arms[i].n > arms[bi].sum / arms[bi].n))
            bi = i;
    }
    if (lab) {
        int tot = 0;
        double sum = 0.0;
        for (int i = 0; i < k; i++) tot += arms[i].n, sum += arms[i].sum;
        if (tot == 0) return label_one(lab, arms[bi].a);
        for (int i = 0; i < AZK_NUM_ACTIONS_; i++) lab->visits[i] = 0.0f;
        for (int i = 0; i < k; i++) lab->visits[arms[i].a] = (float)((double)arms[i].n / tot);
        lab->value = (float)(sum / tot);
    }
    return arms[bi].a;
}

/* ---- policy bots (azk_pbot_act, docs/bots.md) -----------------------------------
 *
 * `policy`: the loaded C policy's choice on the acting player's observation
 * (azk_observe: what that player may know, nothing else): the most likely
 * legal action, or with temp_milli > 0 a draw from softmax(log p / T) over the
 * legal actions (inverse CDF in legal order, one 53-bit uniform from the bot's
 * stream).
 *
 * `psearch`: PUCT information-set search. The same canonical view and
 * per-simulation determinization (azk_resample with seeds from the bot's
 * stream) as the search bot, so the no-peeking argument is the same. One tree
 * of action sequences is shared by every determinization (single-observer
 * ISMCTS): a node's edges are the legal actions (equivalent empty slots merged)
 * of the determinization that expanded it, with priors softmax(log p / T) from
 * the policy on the acting player's observation there; a simulation selects,
 * among the edges legal in its own determinization, the one maximizing
 *     Q + c * P * sqrt(N) / (1 + n)
 * (Q from the acting player's side; an unvisited edge's Q is its node's mean),
 * expands one new node, and scores it with the policy's value head (the acting
 * player's expected result, mapped to [0, 1] for the bot) mixed, when
 * value_milli < 1000, with a greedy playout to the bot's next turn as the
 * search bot plays it. Terminal positions score 1 / 0 / 0.5. A node whose
 * only legal action is forced costs no forward pass. At the root, by default
 * (halving = 8), sequential halving (ps_halving) spends the simulations on the
 * 8 likeliest actions and plays the best of its last phase: with 64
 * simulations PUCT at the root mostly follows the priors and played barely
 * better than the network alone, the halving compares the candidates by
 * their results on common determinizations (docs/bots.md: 64.5 % -> 74 %
 * against search-64, the same games). halving = 0: PUCT at the root too,
 * the root edge with the most visits played (ties: higher mean, then legal
 * order). Mulligans are the policy's most likely choice.
 *
 * Unlike the rest of this file the policy bots compute in floating point (the
 * network does), so their choices are deterministic for one build, not across
 * builds that round differently (sanitizer vs optimized). Memory: the
 * caller's workspace (azk_pbot_work_size) or one malloc per decision. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#define PS_EDGES_PER_NODE 64   /* edge capacity per simulation (a node past the pool is scored, not expanded) */
#define PS_DEPTH_CAP 200       /* decisions walked down one simulation, at most */

/* psearch's defaults search with the network: its priors (T = 1) and its value head (value 1), c = 1.5.
 * With the shipped reference network the network-free settings `cpuct=1,prior_temp=1000,value=0`
 * (near-uniform priors, greedy playouts) win more against search-64 (47.5 % against 12.5 %,
 * docs/bots.md): the network is the limit, not the search. They stay a spec, not the default, as
 * psearch is the policy-guided search (an expert-iteration teacher must improve on its policy). */
static const azk_pbot_params PBOT_DEFAULTS[2] = {
    {AZK_PBOT_POLICY, 0, AZK_BOT_SEARCH_SIMS, 1500, 1000, 1000, NULL, 1, 0},
    {AZK_PBOT_PSEARCH, 0, AZK_BOT_SEARCH_SIMS, 1500, 1000, 1000, NULL, 1, 8},
};

typedef struct ps_node {
    int32_t first, n;   /* edges [first, first + n) */
    int32_t visits;
    double sum;         /* results for the bot */
} ps_node;

typedef struct ps_edge {
    int32_t a, n, child; /* child -1 until reached */
    float prior;
    double w;            /* results for the bot */
} ps_edge;

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* psearch's trees (root parallelism): 0 reads as 1, so a caller's zeroed field means one tree */
static int ps_trees(const azk_pbot_params *pp) {
    return pp->kind == AZK_PBOT_PSEARCH && pp->threads > 1 ? pp->threads : 1;
}

/* tree k's share of the simulations: sims / K, one more for the first sims % K trees */
static int ps_tree_sims(const azk_pbot_params *pp, int k) {
    int K = ps_trees(pp);
    return pp->sims / K + (k < pp->sims % K);
}

static int pbot_params_ok(const azk_pbot_params *pp) {
    return pp && (pp->kind == AZK_PBOT_POLICY || pp->kind == AZK_PBOT_PSEARCH) && pp->temp_milli >= 0 &&
           pp->sims >= 1 && pp->sims <= AZK_PSEARCH_MAX_SIMS && pp->cpuct_milli >= 0 && pp->prior_temp_milli >= 1 &&
           pp->value_milli >= 0 && pp->value_milli <= 1000 && pp->threads >= 0 &&
           pp->threads <= AZK_PSEARCH_MAX_THREADS && ps_trees(pp) <= pp->sims && pp->halving >= 0 &&
           pp->halving <= AZK_PSEARCH_MAX_HALVING;
}

/* workspace layout, per psearch tree (one for `policy`): policy scratch | observation |
 * log-probabilities | nodes | edges; tree k's pools are sized for its share of the sims, so K trees
 * take about one tree's pools plus K - 1 policy scratches. */
typedef struct pbot_ws {
    void *pw;
    size_t pw_len;
    uint8_t *obs;
    float *logp;
    ps_node *nodes;
    ps_edge *edges;
    int node_cap, edge_cap;
} pbot_ws;

/* w: NULL (the size only) or ps_trees(pp) workspaces to lay out from base */
static size_t pbot_layout(const azk_policy *pol, const azk_pbot_params *pp, uint8_t *base, pbot_ws *w) {
    size_t off = 0, pw = align64(azk_policy_work_size(pol));
    for (int k = 0; k < ps_trees(pp); k++) {
        pbot_ws *t = w ? &w[k] : NULL;
        int sims = ps_tree_sims(pp, k);
        int nodes = pp->kind == AZK_PBOT_PSEARCH ? sims + 1 : 0;
        int edges = pp->kind == AZK_PBOT_PSEARCH ? AZK_NUM_ACTIONS_ + sims * PS_EDGES_PER_NODE : 0;
        if (t) t->pw = base + off, t->pw_len = pw;
        off += pw;
        if (t) t->obs = base + off;
        off += align64((size_t)azk_obs_len());
        if (t) t->logp = (float *)(void *)(base + off);
        off += align64(sizeof(float) * AZK_NUM_ACTIONS_);
        if (t) t->nodes = (ps_node *)(void *)(base + off), t->node_cap = nodes;
        off += align64(sizeof(ps_node) * (size_t)nodes);
        if (t) t->edges = (ps_edge *)(void *)(base + off), t->edge_cap = edges;
        off += align64(sizeof(ps_edge) * (size_t)edges);
    }
    return off + 64; /* the base is aligned up to 64 inside */
}

/* a uniform in [0, 1) from 53 bits of the bot's stream */
static double pbot_uniform(azk_rng *r) {
    uint64_t x = (uint64_t)azk_rng_next(r) << 32 | azk_rng_next(r);
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

/* The policy's log-probabilities and value (for the acting player) at g; 0, or -1 when the policy
 * cannot read the observation (a card set larger than the network's card table). */
static int pbot_forward(const azk_policy *pol, const azk_game *g, const azk_cardset *cs, pbot_ws *w, float *value) {
    int q = azk_current_player(g);
    azk_observe(g, cs, q, w->obs);
    return azk_policy_forward_ws(pol, w->obs, 1, (size_t)azk_obs_len(), w->logp, value, NULL, w->pw, w->pw_len) ==
                   AZK_POLICY_OK
               ? 0
               : -1;
}

static int pbot_greedy(const azk_policy *pol, const azk_game *g, const azk_cardset *cs, pbot_ws *w) {
    int32_t a;
    azk_observe(g, cs, azk_current_player(g), w->obs);
    if (azk_policy_act_ws(pol, w->obs, 1, (size_t)azk_obs_len(), NULL, &a, NULL, NULL, w->pw, w->pw_len) !=
        AZK_POLICY_OK)
        return -(int)AZK_ERR_CARDSET;
    return a;
}

static int policy_act(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *pp,
                      azk_rng *r, pbot_ws *w) {
    if (pp->temp_milli == 0) return pbot_greedy(pol, g, cs, w);
    double u = pbot_uniform(r);
    if (pbot_forward(pol, g, cs, w, NULL)) return -(int)AZK_ERR_CARDSET;
    int32_t legal[AZK_NUM_ACTIONS_];
    int n = azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_);
    double inv = 1000.0 / pp->temp_milli, mx = -INFINITY, tot = 0.0;
    for (int i = 0; i < n; i++)
        if (isfinite(w->logp[legal[i]]) && w->logp[legal[i]] * inv > mx) mx = w->logp[legal[i]] * inv;
    if (!isfinite(mx)) return legal[(int)(u * n)];
    for (int i = 0; i < n; i++) tot += isfinite(w->logp[legal[i]]) ? exp(w->logp[legal[i]] * inv - mx) : 0.0;
    double x = u * tot, c = 0.0;
    int last = legal[0];
    for (int i = 0; i < n; i++) {
        if (!isfinite(w->logp[legal[i]])) continue;
        c += exp(w->logp[legal[i]] * inv - mx);
        last = legal[i];
        if (c > x) return legal[i];
    }
    return last;
}

/* A new node for the position g (the player to act there): its edges from the legal actions and the
 * policy's priors; *value: the policy's value for the bot in [0, 1] (-1 when no forward ran: a
 * forced move). Returns the node, -1 when the pools are full, -2 when the policy cannot read g. */
static int ps_expand(const azk_policy *pol, const azk_pbot_params *pp, const azk_game *g, const azk_cardset *cs,
                     int me, pbot_ws *w, int *nn, int *ne, double *value) {
    int32_t legal[AZK_NUM_ACTIONS_];
    int n = azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_);
    *value = -1.0;
    if (*nn >= w->node_cap || *ne + n > w->edge_cap) return -1;
    ps_node *nd = &w->nodes[*nn];
    nd->first = *ne;
    nd->n = 0;
    nd->visits = 0;
    nd->sum = 0.0;
    if (n == 1) {
        w->edges[*ne] = (ps_edge){legal[0], 0, -1, 1.0f, 0.0};
        nd->n = 1;
    } else {
        float v;
        if (pbot_forward(pol, g, cs, w, &v)) return -2;
        double vv = v > 1.0f ? 1.0 : v < -1.0f ? -1.0 : (double)v;
        *value = azk_current_player(g) == me ? 0.5 + 0.5 * vv : 0.5 - 0.5 * vv;
        double inv = 1000.0 / pp->prior_temp_milli, mx = -INFINITY, tot = 0.0;
        for (int i = 0; i < n; i++)
            if (!redundant(g, legal[i]) && w->logp[legal[i]] * inv > mx) mx = w->logp[legal[i]] * inv;
        for (int i = 0; i < n; i++) {
            if (redundant(g, legal[i])) continue;
            double e = isfinite(mx) ? exp(w->logp[legal[i]] * inv - mx) : 1.0;
            w->edges[*ne + nd->n] = (ps_edge){legal[i], 0, -1, (float)e, 0.0};
            nd->n++;
            tot += e;
        }
        for (int i = 0; i < nd->n; i++) w->edges[*ne + i].prior = (float)(w->edges[*ne + i].prior / tot);
    }
    *ne += nd->n;
    return (*nn)++;
}

/* the result for the bot of a finished game */
static double ps_terminal(const azk_game *g, int me) {
    int wv = azk_winner(g);
    return wv < 0 ? 0.5 : (wv == me ? 1.0 : 0.0);
}

/* One tree of a psearch decision (root parallelism: tree k of K searches the same root with its own
 * determinizations and pools; the trees never touch each other's memory, only the read-only game,
 * card set, policy and settings, and the stop flag through its atomic accessors). */
typedef struct ps_tree {
    const azk_policy *pol;
    const azk_pbot_params *pp;
    const azk_cardset *cs;
    const azk_game *view; /* the canonical view: what the bot may know */
    int me, root_turn;
    uint64_t base;        /* simulation t's determinization seed: splitmix64(base + t) */
    int sims;             /* this tree's share */
    pbot_ws *w;
    int nn, ne;           /* pools in use (the root: node 0, edges [0, root's n)) */
    int run;              /* simulations run (all calls: the next simulation's number t) */
    int err;              /* 0, or -AZK_ERR_CARDSET (the policy cannot read a position) */
    /* the root's sequential halving (halving >= 2): this phase's schedule for this tree, force[j] the
     * root edge (index from the root's first) its next count[j] simulations start with; nsched 0: PUCT
     * at the root for `sims` simulations */
    int nsched, K;        /* K: the trees (the stride of the halving's simulation numbers) */
    int16_t force[AZK_PSEARCH_MAX_HALVING];
    int count[AZK_PSEARCH_MAX_HALVING];
    uint64_t seed0[AZK_PSEARCH_MAX_HALVING]; /* item j's r-th simulation: splitmix64(seed0[j] + r * K) */
} ps_tree;

/* n simulations of tree T, each starting with root edge `force` (-1: PUCT at the root as everywhere
 * else). Determinizations: step 0, simulation t of the tree (its count so far) from splitmix64(T->base
 * + t); step > 0 (the halving), the r-th of these n from splitmix64(seed0 + r * step). */
static void ps_tree_sims_run(ps_tree *T, int force, int n, uint64_t seed0, int step) {
    const azk_policy *pol = T->pol;
    const azk_pbot_params *pp = T->pp;
    const azk_cardset *cs = T->cs;
    pbot_ws *w = T->w;
    int me = T->me, nn = T->nn, ne = T->ne, root = 0;
    azk_search_ctl *ctl = pp->ctl;
    double c = pp->cpuct_milli / 1000.0, mix = pp->value_milli / 1000.0;
    int32_t legal[AZK_NUM_ACTIONS_];
    int path[PS_DEPTH_CAP];
    azk_game sim;
    int t = T->run, end = T->run + n;
    for (int r = 0; t < end; t++, r++) {
        if (ctl && azk_search_cancelled(ctl)) break;
        uint64_t s = splitmix64(step ? seed0 + (uint64_t)r * (uint64_t)step : T->base + (uint64_t)t);
        azk_game_clone(&sim, T->view);
        if (azk_resample(&sim, cs, me, s) != AZK_OK) continue; /* cannot happen: the game goes on */
        int np = 0, node = root;
        double r = -1.0;
        for (int depth = 0; depth < PS_DEPTH_CAP; depth++) {
            if (azk_is_terminal(&sim)) {
                r = ps_terminal(&sim, me);
                break;
            }
            ps_node *nd = &w->nodes[node];
            int q = azk_current_player(&sim);
            double parent_q = nd->visits ? nd->sum / nd->visits : 0.5;
            if (q != me) parent_q = 1.0 - parent_q;
            double sq = sqrt((double)(nd->visits > 0 ? nd->visits : 1));
            int best = -1;
            double bv = -INFINITY;
            /* a forced root edge is the bot's own action in the canonical view: legal in every
             * determinization (they differ in hidden cards only), tested all the same */
            if (depth == 0 && force >= 0 && azk_is_legal(&sim, cs, w->edges[nd->first + force].a))
                best = nd->first + force, bv = INFINITY;
            for (int i = 0; i < nd->n && bv < INFINITY; i++) {
                ps_edge *e = &w->edges[nd->first + i];
                if (!azk_is_legal(&sim, cs, e->a)) continue;
                double qv = e->n ? e->w / e->n : parent_q;
                if (e->n && q != me) qv = 1.0 - qv;
                double u = qv + c * e->prior * sq / (1.0 + e->n);
                if (u > bv) {
                    bv = u;
                    best = nd->first + i;
                }
            }
            if (best < 0) {
                /* nothing of this node is legal in this determinization (another hand): a one-answer
                 * position (as the search bot handles a resample) is stepped through; else scored here */
                if (azk_legal_actions(&sim, cs, legal, AZK_NUM_ACTIONS_) == 1 && azk_step(&sim, cs, legal[0]) == AZK_OK)
                    continue;
                break;
            }
            if (np < PS_DEPTH_CAP) path[np++] = best;
            if (azk_step(&sim, cs, w->edges[best].a) != AZK_OK) break; /* cannot happen: checked legal */
            if (w->edges[best].child < 0) {
                if (azk_is_terminal(&sim)) {
                    r = ps_terminal(&sim, me);
                    break;
                }
                double v;
                int ch = ps_expand(pol, pp, &sim, cs, me, w, &nn, &ne, &v);
                if (ch == -2) {
                    T->err = -(int)AZK_ERR_CARDSET;
                    return;
                }
                if (ch < 0) break; /* pools full: scored below */
                w->edges[best].child = ch;
                node = ch;
                if (v >= 0.0) {
                    r = v;
                    break;
                }
                continue; /* a forced move: no forward ran, walk on */
            }
            node = w->edges[best].child;
        }
        if (r < 0.0 || mix < 1.0) { /* no value yet (a cap or full pools), or the playout's share */
            double pv = -1.0;
            if (r < 0.0 && mix >= 1.0) {
                float v;
                if (pbot_forward(pol, &sim, cs, w, &v)) {
                    T->err = -(int)AZK_ERR_CARDSET;
                    return;
                }
                double vv = v > 1.0f ? 1.0 : v < -1.0f ? -1.0 : (double)v;
                r = azk_current_player(&sim) == me ? 0.5 + 0.5 * vv : 0.5 - 0.5 * vv;
            } else {
                azk_rng pr;
                azk_rng_seed(&pr, splitmix64(s), AZK_BOT_RNG_STREAM);
                pv = azk_is_terminal(&sim) ? ps_terminal(&sim, me)
                                           : search_playout(cs, &sim, me, T->root_turn, &pr, &SEARCH_DEFAULTS);
                r = r < 0.0 ? pv : mix * r + (1.0 - mix) * pv;
            }
        }
        w->nodes[root].visits++;
        w->nodes[root].sum += r;
        for (int i = 0; i < np; i++) {
            ps_edge *e = &w->edges[path[i]];
            e->n++;
            e->w += r;
            if (e->child >= 0) {
                w->nodes[e->child].visits++;
                w->nodes[e->child].sum += r;
            }
        }
    }
    T->nn = nn;
    T->ne = ne;
    T->run = t;
}

/* tree T's share of a call: its halving schedule, or `sims` simulations of PUCT */
static void ps_tree_run(ps_tree *T) {
    if (!T->nsched) {
        ps_tree_sims_run(T, -1, T->sims, 0, 0);
        return;
    }
    for (int j = 0; j < T->nsched && !T->err; j++)
        if (T->count[j]) ps_tree_sims_run(T, T->force[j], T->count[j], T->seed0[j], T->K);
}

static void *ps_tree_thread(void *arg) {
    ps_tree_run(arg);
    return NULL;
}

/* Trees 1 .. K - 1 on threads started here (signals blocked in them, as VecGame's workers: the
 * process's handlers run on the caller's threads), tree 0 on the caller's; a thread the OS refuses
 * leaves its tree to the caller afterwards. Which thread runs a tree never changes what it computes. */
static void ps_run_trees(ps_tree *tr, int K) {
    pthread_t th[AZK_PSEARCH_MAX_THREADS];
    int started[AZK_PSEARCH_MAX_THREADS] = {0};
    if (K > 1) {
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        for (int k = 1; k < K; k++) started[k] = pthread_create(&th[k], NULL, ps_tree_thread, &tr[k]) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    ps_tree_run(&tr[0]);
    for (int k = 1; k < K; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            ps_tree_run(&tr[k]);
    }
}

/* The root's sequential halving (Karnin et al. 2013, as Gumbel AlphaZero uses it at the root:
 * Danihelka et al. 2022, without the Gumbel noise, as the bot plays its best): the m root edges of
 * highest prior (ties: legal order) are the candidates; phase p of ceil(log2 m) spends an equal share
 * of the simulations left on the candidates still in, each simulation starting with its candidate
 * and going on by PUCT below the root; after each phase the candidates are ranked by
 *     log P(a) + (C_VISIT + max_b N(b)) * C_SCALE * Q(a)
 * (Q the mean result for the bot, in [0, 1], over every tree; an unvisited one's Q the root's mean)
 * and the better half (rounded up) goes on. Simulation number j of the decision (in schedule order)
 * runs on tree j mod K, so tree k runs exactly its PUCT share ps_tree_sims(pp, k) and its pools
 * suffice. Common random numbers: within a phase the l-th simulation of every candidate is played in
 * the same determinization (whichever tree runs it), so the candidates are compared on the same
 * hidden cards rather than each on its own draw (measured: 71.8 % -> 75.0 % against search-64 over
 * the README's 400 deals, docs/bots.md). Returns the index (from the root's first edge) of the best
 * candidate of the last phase. */
#define PS_HALVING_C_VISIT 50.0 /* the paper's constants for results in [0, 1] */
#define PS_HALVING_C_SCALE 1.0
#define PS_PHASE_SEEDS 1000000u /* phase p's determinization seeds: base + PS_PHASE_SEEDS * (p + 1) + l */
_Static_assert(AZK_PSEARCH_MAX_SIMS < PS_PHASE_SEEDS, "a phase's seeds must not reach the next phase's");
_Static_assert(AZK_NUM_ACTIONS_ <= 32767, "a candidate (a root edge index) is held in an int16_t");
/* idx[0 .. n) and key[0 .. n) reordered together by key, descending; stable (ties keep their order) */
static void ps_sort_desc(int *idx, double *key, int n) {
    for (int i = 1; i < n; i++) {
        int c = idx[i], j = i;
        double v = key[i];
        while (j > 0 && key[j - 1] < v) idx[j] = idx[j - 1], key[j] = key[j - 1], j--;
        idx[j] = c, key[j] = v;
    }
}

static int ps_halving(ps_tree *tr, int K, uint64_t base, const ps_node *rt, const ps_edge *edges, int m) {
    int cand[AZK_PSEARCH_MAX_HALVING];
    double sc[AZK_PSEARCH_MAX_HALVING];
    int idx[AZK_NUM_ACTIONS_];
    double pk[AZK_NUM_ACTIONS_];
    for (int i = 0; i < rt->n; i++) idx[i] = i, pk[i] = edges[rt->first + i].prior;
    ps_sort_desc(idx, pk, rt->n); /* by prior; ties in legal order */
    for (int i = 0; i < m; i++) cand[i] = idx[i];
    int phases = 0;
    while ((1 << phases) < m) phases++;
    int sims = tr[0].pp->sims, used = 0, rem = m;
    for (int ph = 0; ph < phases; ph++) {
        int budget = (sims - used) / (phases - ph);
        for (int k = 0; k < K; k++) tr[k].nsched = rem;
        for (int i = 0; i < rem; i++) {
            int c = budget / rem + (i < budget % rem); /* the higher-ranked get the odd simulations */
            for (int k = 0; k < K; k++) {
                /* simulations used .. used + c - 1, number j on tree j mod K; the candidate's l-th of
                 * them (l = j - used) is played in determinization splitmix64(base + PS_PHASE_SEEDS *
                 * (ph + 1) + l), the same for every candidate of the phase (common random numbers) */
                int first = (k - used % K + K) % K;
                tr[k].force[i] = (int16_t)cand[i];
                tr[k].count[i] = c > first ? (c - first + K - 1) / K : 0;
                tr[k].seed0[i] = base + PS_PHASE_SEEDS * (uint64_t)(ph + 1) + (uint64_t)first;
            }
            used += c;
        }
        ps_run_trees(tr, K);
        for (int k = 0; k < K; k++)
            if (tr[k].err) return 0;
        int64_t maxn = 0, tot = 0;
        double tot_w = 0.0;
        int64_t n[AZK_PSEARCH_MAX_HALVING];
        double wsum[AZK_PSEARCH_MAX_HALVING];
        for (int i = 0; i < rt->n; i++) {
            int64_t en = 0;
            double ew = 0.0;
            for (int k = 0; k < K; k++) en += tr[k].w->edges[rt->first + i].n, ew += tr[k].w->edges[rt->first + i].w;
            if (en > maxn) maxn = en;
            tot += en, tot_w += ew;
        }
        for (int i = 0; i < rem; i++) {
            n[i] = 0, wsum[i] = 0.0;
            for (int k = 0; k < K; k++) {
                const ps_edge *e = &tr[k].w->edges[rt->first + cand[i]];
                n[i] += e->n, wsum[i] += e->w;
            }
        }
        double root_q = tot ? tot_w / (double)tot : 0.5;
        for (int i = 0; i < rem; i++) {
            float p = edges[rt->first + cand[i]].prior;
            double q = n[i] ? wsum[i] / (double)n[i] : root_q;
            sc[i] = log(p > 1e-30f ? (double)p : 1e-30) + (PS_HALVING_C_VISIT + (double)maxn) * PS_HALVING_C_SCALE * q;
        }
        ps_sort_desc(cand, sc, rem);
        rem = (rem + 1) / 2;
    }
    return cand[0];
}

static int psearch_act(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *pp,
                       azk_rng *rng, pbot_ws *ws, search_label *lab) {
    int32_t legal[AZK_NUM_ACTIONS_];
    int n = azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_);
    if (n <= 0) return -(int)AZK_ERR_ARG;
    int me = azk_current_player(g);
    azk_search_ctl *ctl = pp->ctl;
    if (ctl) ctl->sims_run = 0;
    uint64_t base = (uint64_t)azk_rng_next(rng) << 32 | azk_rng_next(rng); /* a fixed number of draws */
    pbot_ws *w = &ws[0];
    if (n == 1) return label_one(lab, legal[0]);
    if (g->phase == AZK_PHASE_MULLIGAN) return label_one(lab, pbot_greedy(pol, g, cs, w));
    azk_game view;
    azk_game_clone(&view, g);
    canonicalize(&view, me);
    int nn = 0, ne = 0;
    double v0;
    int root = ps_expand(pol, pp, &view, cs, me, w, &nn, &ne, &v0);
    if (root == -2) return -(int)AZK_ERR_CARDSET;
    if (root < 0) return label_one(lab, legal[0]); /* cannot happen: the pools hold the root */
    const ps_node *rt = &w->nodes[root];
    if (rt->n == 1) return label_one(lab, w->edges[rt->first].a);
    /* the trees: tree 0 is the one-tree search exactly (its seeds from base); tree k > 0 draws from
     * splitmix64(base + golden * k) (azk_mix64 of a Weyl step, as the bot seeds of a run), starting
     * from a copy of tree 0's root (the same canonical view: the same edges and priors) */
    int K = ps_trees(pp);
    ps_tree tr[AZK_PSEARCH_MAX_THREADS];
    for (int k = 0; k < K; k++) {
        tr[k] = (ps_tree){pol, pp, cs, &view, me, g->turn, k ? azk_mix64(base + azk_weyl((uint64_t)k)) : base,
                          ps_tree_sims(pp, k), &ws[k], nn, ne, 0, 0, 0, K, {0}, {0}, {0}};
        if (k) {
            ws[k].nodes[0] = *rt;
            memcpy(ws[k].edges, w->edges, sizeof(ps_edge) * (size_t)ne);
        }
    }
    int m = pp->halving < rt->n ? pp->halving : rt->n;
    if (m > pp->sims) m = pp->sims;
    int bi = m >= 2 ? ps_halving(tr, K, base, rt, w->edges, m) : -1;
    if (m < 2) ps_run_trees(tr, K);
    int run = 0;
    for (int k = 0; k < K; k++) {
        if (tr[k].err) return tr[k].err;
        run += tr[k].run;
    }
    if (ctl) ctl->sims_run = run;
    /* the merged root: edge i's visits and results summed over the trees (their root edges are the
     * same list); PUCT plays the most visited (then the higher mean, then legal order), the halving
     * its last phase's best */
    float counts[AZK_NUM_ACTIONS_];
    int64_t bn = 0, tot = 0;
    double bw = 0.0, tot_w = 0.0;
    for (int i = 0; i < rt->n; i++) {
        int64_t en = 0;
        double ew = 0.0;
        for (int k = 0; k < K; k++) en += ws[k].edges[rt->first + i].n, ew += ws[k].edges[rt->first + i].w;
        counts[i] = (float)en;
        tot += en, tot_w += ew;
        if (m < 2 && (i == 0 || en > bn || (en == bn && en > 0 && ew / en > bw / bn))) bi = i, bn = en, bw = ew;
    }
    int best = w->edges[rt->first + bi].a;
    if (lab) {
        if (tot == 0) return label_one(lab, best);
        for (int i = 0; i < AZK_NUM_ACTIONS_; i++) lab->visits[i] = 0.0f;
        for (int i = 0; i < rt->n; i++) lab->visits[w->edges[rt->first + i].a] = (float)((double)counts[i] / tot);
        lab->value = (float)(tot_w / tot);
    }
    return best;
}

void azk_pbot_defaults(azk_pbot_params *p, int kind) {
    if (p && (kind == AZK_PBOT_POLICY || kind == AZK_PBOT_PSEARCH)) *p = PBOT_DEFAULTS[kind];
}

size_t azk_pbot_work_size(const azk_policy *pol, const azk_pbot_params *pp) {
    if (!pol || !pbot_params_ok(pp)) return 0;
    return pbot_layout(pol, pp, NULL, NULL);
}

const char *azk_pbot_name(int kind) {
    return kind == AZK_PBOT_POLICY ? "policy" : kind == AZK_PBOT_PSEARCH ? "psearch" : NULL;
}

int azk_pbot_version(int kind) {
    return kind == AZK_PBOT_POLICY ? AZK_PBOT_POLICY_VERSION : kind == AZK_PBOT_PSEARCH ? AZK_PSEARCH_VERSION : -1;
}

static int pbot_act(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *pp,
                    uint64_t rng[2], void *work, size_t work_len, search_label *lab) {
    if (!g || !cs || !pol || !rng || !pbot_params_ok(pp)) return -(int)AZK_ERR_ARG;
    if (azk_is_terminal(g)) return -(int)AZK_TERMINAL;
    size_t need = pbot_layout(pol, pp, NULL, NULL);
    void *mem = NULL;
    if (!work) {
        work = mem = malloc(need);
        if (!mem) return -(int)AZK_ERR_LIMIT;
        work_len = need;
    }
    if (work_len < need) return -(int)AZK_ERR_ARG;
    pbot_ws w[AZK_PSEARCH_MAX_THREADS];
    pbot_layout(pol, pp, (uint8_t *)(((uintptr_t)work + 63) & ~(uintptr_t)63), w);
    azk_rng r = {rng[0], rng[1] | 1u};
    int a = pp->kind == AZK_PBOT_POLICY ? policy_act(g, cs, pol, pp, &r, &w[0]) : psearch_act(g, cs, pol, pp, &r, w, lab);
    free(mem);
    if (a < 0) return a;
    rng[0] = r.state;
    rng[1] = r.inc;
    return a;
}

int azk_pbot_act(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *pp,
                 uint64_t rng[2], void *work, size_t work_len) {
    return pbot_act(g, cs, pol, pp, rng, work, work_len, NULL);
}

/* The labels go to a buffer of ours first: a failed call writes nothing of the caller's. */
int azk_pbot_label(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *pp,
                   uint64_t rng[2], void *work, size_t work_len, float *visits, int visits_len, float *value) {
    if (!visits || visits_len < AZK_NUM_ACTIONS_ || !value || !pp || pp->kind != AZK_PBOT_PSEARCH)
        return -(int)AZK_ERR_ARG;
    float buf[AZK_NUM_ACTIONS_];
    search_label lab = {buf, -1.0f};
    int a = pbot_act(g, cs, pol, pp, rng, work, work_len, &lab);
    if (a < 0) return a;
    memcpy(visits, buf, sizeof buf);
    *value = lab.value;
    return a;
}

/* ---- public API ------------------------------------------------------------ */
int azk_bot_num_kinds(void) { return AZK_BOT_COUNT; }

const char *azk_bot_name(int kind) {
    static const char *const names[AZK_BOT_COUNT] = {"random", "greedy", "search"};
    return kind >= 0 && kind < AZK_BOT_COUNT ? names[kind] : NULL;
}

int azk_bot_version(int kind) {
    if (kind == AZK_BOT_RANDOM) return 1;
    if (kind == AZK_BOT_GREEDY) return AZK_BOT_GREEDY_VERSION;
    if (kind == AZK_BOT_SEARCH) return AZK_BOT_SEARCH_VERSION;
    return -1;
}

void azk_bot_seed(uint64_t rng[2], uint64_t seed) {
    if (!rng) return;
    azk_rng r;
    azk_rng_seed(&r, seed, AZK_BOT_RNG_STREAM);
    rng[0] = r.state;
    rng[1] = r.inc;
}

void azk_search_defaults(azk_search_params *p) {
    if (p) *p = SEARCH_DEFAULTS;
}

/* azk_search_ctl.cancel is a plain int in the public header (no C11 atomics
 * there, azuki.h); here it is read and written as the atomic_int it is laid
 * out as, relaxed: the flag orders nothing else. */
_Static_assert(sizeof(atomic_int) == sizeof(int) && _Alignof(atomic_int) == _Alignof(int),
               "azk_search_ctl.cancel is accessed as an atomic_int");
static inline atomic_int *cancel_flag(const azk_search_ctl *c) { return (atomic_int *)(uintptr_t)&c->cancel; }

void azk_search_cancel(azk_search_ctl *c) {
    if (c) atomic_store_explicit(cancel_flag(c), 1, memory_order_relaxed);
}

int azk_search_cancelled(const azk_search_ctl *c) {
    return c ? atomic_load_explicit(cancel_flag(c), memory_order_relaxed) != 0 : 0;
}

void azk_search_reset(azk_search_ctl *c) {
    if (c) atomic_store_explicit(cancel_flag(c), 0, memory_order_relaxed);
}

static int bot_act(const azk_game *g, const azk_cardset *cs, int kind, uint64_t rng[2], const azk_search_params *sp,
                   search_label *lab) {
    if (!g || !cs || !rng || kind < 0 || kind >= AZK_BOT_COUNT) return -(int)AZK_ERR_ARG;
    if (azk_is_terminal(g)) return -(int)AZK_TERMINAL;
    azk_rng r = {rng[0], rng[1] | 1u};
    int a;
    if (kind == AZK_BOT_RANDOM) {
        int32_t legal[AZK_NUM_ACTIONS_];
        int n = azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_);
        if (n <= 0) return -(int)AZK_ERR_ARG;
        a = legal[azk_rng_bounded(&r, (uint32_t)n)];
    } else if (kind == AZK_BOT_GREEDY) {
        bot_ctx x = {cs, azk_current_player(g), BOT_BUDGET};
        a = pick(&x, g, BOT_TOP_DEPTH, &r);
    } else {
        a = search_act(g, cs, &r, sp ? sp : &SEARCH_DEFAULTS, lab);
        if (a < 0) return a;
    }
    rng[0] = r.state;
    rng[1] = r.inc;
    return a;
}

int azk_bot_act(const azk_game *g, const azk_cardset *cs, int kind, uint64_t rng[2]) {
    return bot_act(g, cs, kind, rng, NULL, NULL);
}

int azk_bot_act_search(const azk_game *g, const azk_cardset *cs, uint64_t rng[2], const azk_search_params *p) {
    if (!p || p->sims < 1 || p->sims > AZK_BOT_SEARCH_MAX_SIMS || p->explore_milli < 0 || p->rollout_depth < 0 ||
        p->rollout_depth > 2 || p->rollout_budget < 1)
        return -(int)AZK_ERR_ARG;
    return bot_act(g, cs, AZK_BOT_SEARCH, rng, p, NULL);
}

static int search_params_ok(const azk_search_params *p) {
    return p && p->sims >= 1 && p->sims <= AZK_BOT_SEARCH_MAX_SIMS && p->explore_milli >= 0 && p->rollout_depth >= 0 &&
           p->rollout_depth <= 2 && p->rollout_budget >= 1;
}

int azk_bot_search_label(const azk_game *g, const azk_cardset *cs, uint64_t rng[2], const azk_search_params *p,
                         float *visits, int visits_len, float *value) {
    if (!search_params_ok(p) || !visits || visits_len < AZK_NUM_ACTIONS_ || !value) return -(int)AZK_ERR_ARG;
    float buf[AZK_NUM_ACTIONS_];
    search_label lab = {buf, -1.0f};
    int a = bot_act(g, cs, AZK_BOT_SEARCH, rng, p, &lab);
    if (a < 0) return a;
    memcpy(visits, buf, sizeof buf);
    *value = lab.value;
    return a;
}

int azk_bot_play_game_search(azk_game *g, const azk_cardset *cs, const int kinds[2], uint64_t rng[4],
                             const azk_search_params *p) {
    if (!g || !cs || !kinds || !rng) return -(int)AZK_ERR_ARG;
    for (int q = 0; q < 2; q++)
        if (kinds[q] < 0 || kinds[q] >= AZK_BOT_COUNT) return -(int)AZK_ERR_ARG;
    if (p && (p->sims < 1 || p->sims > AZK_BOT_SEARCH_MAX_SIMS || p->explore_milli < 0 || p->rollout_depth < 0 ||
              p->rollout_depth > 2 || p->rollout_budget < 1))
        return -(int)AZK_ERR_ARG;
    int decisions = 0;
    while (!azk_is_terminal(g)) {
        int q = azk_current_player(g);
        int a = bot_act(g, cs, kinds[q], rng + 2 * q, p, NULL);
        if (a < 0) return a;
        azk_status st = azk_step(g, cs, a);
        if (st != AZK_OK) return -(int)st;
        decisions++;
    }
    return decisions;
}

int azk_bot_play_game(azk_game *g, const azk_cardset *cs, const int kinds[2], uint64_t rng[4]) {
    return azk_bot_play_game_search(g, cs, kinds, rng, NULL);
}
