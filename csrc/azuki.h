/* azuki.h — the public C API of the azuki core (DESIGN §2).
 *
 * A game is one flat struct (azk_game, see game.h) that callers allocate
 * themselves (sizeof from azk_game_size()); nothing here allocates. The card
 * set is immutable data passed to every call that needs it; the default set
 * embedded in the library is azk_default_cardset().
 *
 * Contract: every function validates what it is given; illegal actions and
 * bad bytes return a status and leave the game byte-for-byte unchanged.
 * Nothing prints, nothing aborts in release builds.
 */
#ifndef AZUKI_H
#define AZUKI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct azk_game azk_game;
typedef struct azk_cardset azk_cardset;
typedef struct azk_policy azk_policy; /* a policy network (csrc/policy.c, "Policy networks" below) */

typedef enum azk_status {
    AZK_OK = 0,
    AZK_ILLEGAL = 1,        /* action not legal now; nothing changed */
    AZK_TERMINAL = 2,       /* the game is over; nothing changed */
    AZK_ERR_ARG = 3,        /* bad argument (index, deck, size) */
    AZK_ERR_CORRUPT = 4,    /* state bytes rejected: magic, version, size, checksum or content */
    AZK_ERR_CARDSET = 5,    /* card set failed verification, or bytes belong to another set */
    AZK_ERR_LIMIT = 6       /* azk_vec_set_threads: the OS refused a thread or memory; no engine call
                             * returns it since state version 2: a bound reached ends the game
                             * TRUNCATED with a reason (azk_end_reason) and the step returns OK */
} azk_status;

/* Library facts. */
size_t azk_game_size(void);
int azk_num_actions(void);
const azk_cardset *azk_default_cardset(void);
const char *azk_status_name(azk_status s);

/* Card sets: verify (and finish derived tables) a set built at run time. */
azk_status azk_cardset_finish(azk_cardset *cs);
int azk_cardset_find_deck(const azk_cardset *cs, const char *name);
/* Load a card set from its bytes (azuki/convert/pack.py: an 8-byte header,
 * magic and format version, then the set's data laid out as azk_cardset.def
 * declares it) into *cs, then verify it (azk_cardset_finish). AZK_ERR_ARG for
 * NULL, AZK_ERR_CORRUPT for a wrong length, magic or version (cs untouched),
 * else azk_cardset_finish's status. */
azk_status azk_cardset_load(azk_cardset *cs, const uint8_t *bytes, size_t len);
/* The card-set layout as this build compiled it: one row per field of every
 * record of azk_cardset.def (offset in its record, size of the field), and a
 * row with field "" per record (its size; for azk_cardset the hashed data).
 * *n receives the number of rows. For tests that check pack.py's layout. */
typedef struct azk_field_layout {
    const char *record;   /* "azk_card_def", "azk_decklist", "azk_ability", "azk_selector", "azk_cardset" */
    const char *field;    /* the field's name, "" for the record's own row */
    uint32_t offset;
    uint32_t size;
} azk_field_layout;
const azk_field_layout *azk_cardset_layout(int *n);

/* Lifecycle. decks are deck indices in `cs` for player 0 and player 1. */
azk_status azk_game_init(azk_game *g, const azk_cardset *cs, uint64_t seed, int deck0, int deck1);
void azk_game_clone(azk_game *dst, const azk_game *src);
void azk_game_set_turn_cap(azk_game *g, int turns);                  /* clamped to [1, AZK_MAX_TURN_CAP]; default 200 */
/* Per-game decision cap (docs/rules.md §13): the azk_step that applies the
 * cap-th decision ends a still-ongoing game as TRUNCATED (DECISION_CAP);
 * a cap at or below the decisions already made ends it at once. Clamped to
 * [1, AZK_MAX_DECISION_CAP]; default 10,000. */
void azk_game_set_decision_cap(azk_game *g, int decisions);

/* Decisions. */
azk_status azk_step(azk_game *g, const azk_cardset *cs, int action);
int azk_legal_actions(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap);
int azk_legal_mask(const azk_game *g, const azk_cardset *cs, uint8_t *mask);  /* mask[azk_num_actions()] */
int azk_is_legal(const azk_game *g, const azk_cardset *cs, int action);
/* Per-head masks for factored policies (DESIGN §3): head 0 type, 1 p0, 2 p1.
 * type/p0 < 0 mean "marginal"; see actions.c. Returns the number of legal
 * actions matching the condition, -1 for a bad condition. */
int azk_head_size(int head);                         /* -1 for an unknown head */
int azk_head_masks(const azk_game *g, int type, int p0, uint8_t *m_type, uint8_t *m_p0, uint8_t *m_p1);

/* Flat action encoding. */
int azk_encode(int type, int p0, int p1);            /* -1 when out of range */
int azk_decode(int action, int *type, int *p0, int *p1); /* 0 ok, -1 out of range */

/* Queries. */
int azk_current_player(const azk_game *g);  /* -1 when over */
int azk_phase(const azk_game *g);           /* enum azk_phase */
int azk_is_terminal(const azk_game *g);
int azk_result(const azk_game *g);          /* enum azk_result */
int azk_winner(const azk_game *g);          /* 0/1, -1 none (draw, truncated, ongoing) */
int azk_turn(const azk_game *g);
int azk_decisions(const azk_game *g);       /* decisions applied by azk_step so far */
int azk_end_reason(const azk_game *g);      /* enum azk_end_reason: why it ended (0 = NONE while ongoing) */
const char *azk_end_reason_name(int reason); /* "LEADER", "DECISION_CAP", ...; NULL if out of range */
int azk_num_end_reasons(void);

/* The state checker's codes (azk_invariants.def): 0 ok, else the negative
 * code of the first invariant violated; its name and what must hold (NULL
 * for an unknown code). */
int azk_check_invariants(const azk_game *g, const azk_cardset *cs);
const char *azk_invariant_name(int code);
const char *azk_invariant_message(int code);

/* Services. */
uint64_t azk_hash(const azk_game *g);
uint64_t azk_cardset_hash(const azk_cardset *cs);
uint64_t azk_hash_bytes(const void *data, size_t len);
size_t azk_serialized_size(void);
size_t azk_serialize(const azk_game *g, const azk_cardset *cs, uint8_t *out, size_t cap);  /* bytes written, 0 if cap too small */
azk_status azk_deserialize(azk_game *g, const azk_cardset *cs, const uint8_t *in, size_t len);
int azk_render(const azk_game *g, const azk_cardset *cs, char *out, int cap);  /* chars written (NUL-terminated) */
/* Drain up to cap packed events (see game.h), oldest first; the log is a ring
 * of the newest 128: if older ones were overwritten since the last drain, the
 * first event returned is EVENTS_DROPPED with the count as its value. */
int azk_events(azk_game *g, uint32_t *out, int cap);
const char *azk_event_name(int type);                 /* "DRAWN", ...; NULL if out of range */
int azk_num_event_types(void);

/* ==== Position building and reading (csrc/setup.c, csrc/export.c) =========
 * Everything a binding needs to build a position or read one, without
 * knowing the game struct: plain integers and int32 arrays only. The two
 * flat layouts (the export and the setup plan) are declared once, in
 * csrc/azk_export.def; their field names, offsets and counts are reported
 * here at run time, and docs/state_format.md tables them. A layout change
 * bumps its version. */
#define AZK_EXPORT_VERSION 2 /* 2: CARD_SEEN */
#define AZK_PLAN_VERSION 2 /* 2: CARD_SEEN */

/* Facts and game fields. */
int azk_num_cards(void);                     /* physical cards in a game (126) */
int azk_active_player(const azk_game *g);    /* whose turn */
int azk_first_player(const azk_game *g);
int azk_turn_cap(const azk_game *g);
int azk_decision_cap(const azk_game *g);

/* One physical card (0 .. azk_num_cards()-1): its definition index (-1 for
 * an out-of-range card), current attack and maximum health as the rules
 * compute them (0 for an out-of-range card), and its statuses as a mask,
 * bit i = status i of azk_enums.def (-1 for an out-of-range card). */
int azk_card_definition(const azk_game *g, int card);
int azk_card_attack(const azk_game *g, const azk_cardset *cs, int card);
int azk_card_health(const azk_game *g, const azk_cardset *cs, int card);
int azk_card_statuses(const azk_game *g, const azk_cardset *cs, int card);
/* What the card costs to play now: printed cost plus the cost
 * modifiers on the field for a card in hand, at least 0 (rules §18.4); the
 * printed cost elsewhere; -1 for an out-of-range card. */
int azk_card_cost(const azk_game *g, const azk_cardset *cs, int card);

/* A packed event of azk_events (type:8 | player:2 | card:8 | value:14):
 * player -1 for none, card -1 for none, value sign-extended. Returns 0. */
int azk_event_unpack(uint32_t event, int *type, int *player, int *card, int *value);

/* The flat export: the whole position as int32 words in the layout of
 * AZK_EXPORT entries of azk_export.def (header with the version and size,
 * game fields, per-card records, per-player counts and zone arrays,
 * effects, combat, the pending prompt). Writes azk_export_size() words and
 * returns that count, or returns -1 and writes nothing when cap is smaller
 * or an argument is NULL. */
int azk_export_version(void);
int azk_export_size(void);
int azk_export_num_fields(void);
int azk_export_field(int field, int *offset, int *count);  /* 0, or -1 for an unknown field */
const char *azk_export_field_name(int field);              /* NULL for an unknown field */
int azk_export(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap);

/* Setup: build a main-phase position from a plan, an int32 array in the
 * layout of the AZK_PLAN entries of azk_export.def (every physical card's
 * definition, zone and marks, each player's zone lists, temporary effects,
 * turn and caps). `g` must hold a game of `cs` (azk_game_init); its RNG is
 * kept. The plan is validated completely: its length and version, every
 * value's range, and then the resulting position against the invariant
 * checker. On any problem it returns AZK_ERR_ARG and leaves the game
 * byte-for-byte unchanged; *detail (when not NULL) is then the index of the
 * first rejected plan word (>= 0; 0 for a wrong length or version), or the
 * negative invariant code (azk_invariant_name) the position violates. On
 * success the state checks run, the game advances to its first decision,
 * the setup's events are drained and *detail is 0. */
int azk_plan_version(void);
int azk_plan_size(void);
int azk_plan_num_fields(void);
int azk_plan_field(int field, int *offset, int *count);    /* 0, or -1 for an unknown field */
const char *azk_plan_field_name(int field);                /* NULL for an unknown field */
azk_status azk_game_setup(azk_game *g, const azk_cardset *cs, const int32_t *plan, size_t len, int *detail);


/* ==== Built-in bots (csrc/bot.c, docs/bots.md) ==============================
 * Players that choose one legal flat action for whoever is to act. A bot
 * reads the game (never changes it: its lookahead steps clones) and draws
 * from its own PCG32 stream, two uint64 words {state, inc} owned by the
 * caller (seeded by azk_bot_seed); the choice is a pure function of the game
 * and those words, which it advances. Nothing allocates or prints. */
#define AZK_BOT_RANDOM 0          /* uniform over the legal actions */
#define AZK_BOT_GREEDY 1          /* rules-aware one-ply lookahead (docs/bots.md) */
#define AZK_BOT_SEARCH 2          /* information-set Monte Carlo tree search (docs/bots.md) */
#define AZK_BOT_COUNT 3
#define AZK_BOT_GREEDY_VERSION 1  /* bumped whenever the greedy bot's choices change */
#define AZK_BOT_SEARCH_VERSION 1  /* bumped whenever the search bot's choices change */
#define AZK_BOT_SEARCH_SIMS 64    /* default simulations per decision */
#define AZK_BOT_SEARCH_MAX_SIMS 1000000
#define AZK_BOT_RNG_STREAM 0xb07b07b0ULL /* PCG stream (initseq) of azk_bot_seed */
int azk_bot_num_kinds(void);
const char *azk_bot_name(int kind);  /* "random", "greedy", "search"; NULL if out of range */
int azk_bot_version(int kind);       /* the kind's behaviour version; -1 if out of range */
void azk_bot_seed(uint64_t rng[2], uint64_t seed);
/* The bot's action for the player to act: a legal flat action (>= 0), or
 * minus an azk_status: -AZK_TERMINAL for a finished game, -AZK_ERR_ARG for a
 * NULL argument or an unknown kind. `g` is not modified. */
int azk_bot_act(const azk_game *g, const azk_cardset *cs, int kind, uint64_t rng[2]);
/* Play g to its end: the player to act each time is played by kinds[p]
 * with the words rng[2p], rng[2p+1]. Returns the decisions made, or minus an
 * azk_status (-AZK_ERR_ARG for a bad argument; an engine refusal, which
 * would be a bug, as its status). */
int azk_bot_play_game(azk_game *g, const azk_cardset *cs, const int kinds[2], uint64_t rng[4]);
/* Stopping a search early from another thread (a server whose client left,
 * or whose time budget for the decision ran out): the search reads `cancel`
 * before every simulation and, once it is nonzero, plays the best arm found
 * so far (the first arm in legal order if none ran). Then the choice depends
 * on when the flag was set, no longer only on the game and the rng words.
 * The caller owns the struct (zero it before use) and keeps it alive for the
 * call; setting `cancel` is the only access another thread may make. */
typedef struct azk_search_ctl {
    int cancel;          /* 0: search on; nonzero: stop before the next simulation. Only through the
                            functions below, which access it atomically (csrc/bot.c): the header stays
                            free of C11 atomics, so cffi, Cython and C++ can read it */
    int sims_run;        /* written by the search: simulations its last decision ran */
} azk_search_ctl;
/* The flag through functions (bindings need not know C11 atomics): set it
 * (any thread, any time), read it, clear it (not while a search uses it). */
void azk_search_cancel(azk_search_ctl *c);
int azk_search_cancelled(const azk_search_ctl *c);
void azk_search_reset(azk_search_ctl *c);
/* The search bot's settings (azk_bot_act uses azk_search_defaults). */
typedef struct azk_search_params {
    int sims;            /* simulations per decision, 1..AZK_BOT_SEARCH_MAX_SIMS */
    int explore_milli;   /* UCB1 exploration constant x 1000, >= 0 */
    int rollout_depth;   /* greedy lookahead levels inside playouts, 0..2 */
    int rollout_budget;  /* greedy clone+step budget per playout decision, >= 1 */
    azk_search_ctl *ctl; /* NULL (the default), or a stop flag (above) */
} azk_search_params;
void azk_search_defaults(azk_search_params *p);
/* azk_bot_act for the search bot with settings p (-AZK_ERR_ARG for NULL or
 * out-of-range settings). */
int azk_bot_act_search(const azk_game *g, const azk_cardset *cs, uint64_t rng[2], const azk_search_params *p);
/* azk_bot_play_game with settings p for the search seats (NULL: defaults). */
int azk_bot_play_game_search(azk_game *g, const azk_cardset *cs, const int kinds[2], uint64_t rng[4],
                             const azk_search_params *p);
/* Search labels (training from search, docs/training.md "Expert iteration"):
 * the decision azk_bot_act_search takes with the same arguments (the same
 * action returned, the rng words advanced the same), and the root's
 * statistics: visits[0 .. azk_num_actions()) gets each root action's share of
 * the simulations (summing to 1; 0 for the other actions; equivalent empty
 * slots are merged into the first, which alone gets visits); *value the mean
 * simulation result for the player to act, in [0, 1] (1 win, 0 loss).
 * A decision taken without simulating (one legal action, a mulligan, a stop
 * flag set before the first simulation) puts 1 on the action taken and
 * *value = -1. The labels read only the player's information set, as the
 * search does. -AZK_ERR_ARG for NULL outputs or visits_len <
 * azk_num_actions(), as azk_bot_act_search otherwise; on any error nothing is
 * written. */
int azk_bot_search_label(const azk_game *g, const azk_cardset *cs, uint64_t rng[2], const azk_search_params *p,
                         float *visits, int visits_len, float *value);


/* ==== Policy bots (csrc/bot.c, docs/bots.md) ===============================
 * Players driven by a loaded C policy (azk_policy, "Policy networks" below):
 * `policy` plays the network alone, `psearch` runs PUCT information-set
 * search over determinizations (azk_resample, as the search bot: it never
 * sees hidden information) with the network's priors and value. As the
 * built-in bots they read the game only and draw from the caller's two rng
 * words; the choice is a function of the game, the words, the policy and the
 * settings (for one build: the network computes in floating point). Memory:
 * the caller's workspace of azk_pbot_work_size bytes (any alignment; nothing
 * allocated), or NULL: one malloc per decision. */
#define AZK_PBOT_POLICY 0
#define AZK_PBOT_PSEARCH 1
#define AZK_PBOT_POLICY_VERSION 1
#define AZK_PSEARCH_VERSION 2   /* 2: the root's sequential halving (halving, default 8) */
#define AZK_PSEARCH_MAX_SIMS 100000
#define AZK_PSEARCH_MAX_THREADS 16  /* psearch root parallelism: trees (threads) per decision, at most */
#define AZK_PSEARCH_MAX_HALVING 64  /* psearch: root candidates of the sequential halving, at most */
typedef struct azk_pbot_params {
    int kind;             /* AZK_PBOT_POLICY or AZK_PBOT_PSEARCH */
    int temp_milli;       /* policy: 0 = the most likely legal action; T x 1000 > 0 = sample softmax(log p / T) */
    int sims;             /* psearch: simulations per decision, 1..AZK_PSEARCH_MAX_SIMS */
    int cpuct_milli;      /* psearch: the PUCT constant x 1000, >= 0 */
    int prior_temp_milli; /* psearch: priors softmax(log p / T), T x 1000 >= 1 (1000: the policy's own) */
    int value_milli;      /* psearch: a new leaf scores value_milli / 1000 x the value head + the rest x a greedy
                             playout to the bot's next turn (1000: the value head alone), 0..1000 */
    azk_search_ctl *ctl;  /* psearch: NULL, or a stop flag read before every simulation (by every tree) */
    int threads;          /* psearch: root parallelism, 0 or 1 = one tree; K = K independent trees on K threads
                             (the caller's and K - 1 started per decision), the sims split between them (tree k
                             runs sims / K, one more for k < sims % K; so 1 <= K <= min(sims,
                             AZK_PSEARCH_MAX_THREADS)), each with its own determinizations, their root visits
                             and results summed; deterministic for one (seed, K) */
    int halving;          /* psearch: the root's choice. 0 or 1: PUCT at the root too, the most visited edge played;
                             m >= 2 (default 8): sequential halving over the root's min(m, legal, sims) edges of
                             highest prior (docs/bots.md), each simulation forced to its candidate and PUCT below;
                             at most AZK_PSEARCH_MAX_HALVING */
} azk_pbot_params;
void azk_pbot_defaults(azk_pbot_params *p, int kind);
const char *azk_pbot_name(int kind);   /* "policy", "psearch"; NULL otherwise */
int azk_pbot_version(int kind);        /* -1 for an unknown kind */
size_t azk_pbot_work_size(const azk_policy *pol, const azk_pbot_params *p); /* 0 for bad arguments */
/* The bot's action for the player to act (>= 0, legal), or minus a status:
 * AZK_TERMINAL for a finished game; AZK_ERR_ARG for a NULL argument, bad
 * settings or a short workspace; AZK_ERR_CARDSET when the policy cannot read
 * the observation (a card set larger than its card table); AZK_ERR_LIMIT when
 * the per-decision malloc fails. `g` is not modified. */
int azk_pbot_act(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *p,
                 uint64_t rng[2], void *work, size_t work_len);
/* azk_pbot_act for psearch (p->kind == AZK_PBOT_PSEARCH, else -AZK_ERR_ARG)
 * with the root's visit shares and mean result, as azk_bot_search_label. */
int azk_pbot_label(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *p,
                   uint64_t rng[2], void *work, size_t work_len, float *visits, int visits_len, float *value);


/* ==== Vector of games (csrc/vec.c) ==========================================
 * n games stepped by one call, PufferLib style: the caller allocates
 * azk_vec_size(n) bytes and owns every I/O buffer; finished games reset in
 * place from a deterministic episode counter (episode e: seed + e, deck
 * pairing e / 2 of the list, seats swapped when e is odd). docs/vecgame.md.
 * Modes: AZK_VEC_SELF: 2 rows per game, row 2i + s is seat s; the waiting
 * seat's row gets a NO_OP-only mask and its action is ignored (rewards for
 * both seats at the end). AZK_VEC_BOT: 1 row per game for the agent, whose
 * seat alternates every 2 episodes; a built-in bot plays the other seat
 * inside the step. AZK_VEC_POLICY: rows as in AZK_VEC_BOT, but the other
 * seat is answered by the caller: azk_vec_step applies the acting agent
 * rows' actions and plays each game on until the agent decides again or the
 * opponent must decide ("pending"; azk_vec_observe_opponent describes those
 * decisions), azk_vec_step_opponent applies the pending games' opponent
 * actions (one per game) and plays on the same way. Rewards (agent rows,
 * both seats in SELF): +1 win, -1 loss, 0 draw or truncation; every step
 * call zeroes rewards / terminals / truncations and flags the rows whose
 * episode ended during that call (the buffers then describe the new
 * episode). A step with an illegal action in any acting row (pending game)
 * changes nothing and returns AZK_ILLEGAL with *bad_row set.
 * Observations are azk_observe's bytes; `obs` pointers point to
 * rows * azk_obs_len() of them.
 * A row that does not act (the waiting seat in SELF, an agent row waiting
 * for its opponent in POLICY) gets a NO_OP-only mask; its observation is
 * its seat's full view with a NO_OP-only MASK field (AZK_VEC_WAIT_FULL), or
 * only that MASK field is rewritten and the rest keeps what the row last
 * held (AZK_VEC_WAIT_MASK: cheaper; the action is ignored either way). In
 * POLICY mode a call rewrites only the rows of the games it stepped. */
typedef struct azk_vec azk_vec;
/* The output buffers of a vector's calls, held in one place by their owner
 * (a VecGame, azk_bench_args): obs and masks as azk_vec_step's, rewards,
 * terminals, truncations [rows]; acting [rows] as azk_vec_acting's; opp_obs,
 * opp_masks, opp_pending as azk_vec_observe_opponent's (AZK_VEC_POLICY;
 * NULL otherwise). */
typedef struct azk_vec_io {
    void *obs, *opp_obs;
    uint8_t *masks, *terminals, *truncations, *acting, *opp_masks, *opp_pending;
    float *rewards;
} azk_vec_io;
enum azk_vec_mode { AZK_VEC_SELF = 0, AZK_VEC_BOT = 1, AZK_VEC_POLICY = 2, AZK_VEC_MODE_COUNT = 3 };
enum { AZK_VEC_MAX_GAMES = 1 << 20, AZK_VEC_MAX_PAIRS = 16, AZK_VEC_MAX_THREADS = 64 };
enum azk_vec_obs_dtype { AZK_VEC_OBS_U8 = 1 }; /* the only one since layout v4 (0 was float32) */
enum azk_vec_waiting { AZK_VEC_WAIT_FULL = 0, AZK_VEC_WAIT_MASK = 1 };
/* What a step does with an illegal action (azk_vec_set_illegal): ERROR (the
 * default) changes nothing and returns AZK_ILLEGAL; LOSE ends that episode
 * at once, terminated, lost by the seat that chose the action (rewards -1 for
 * it, +1 for the other side; counted in AZK_VLOG_ILLEGAL), while every other
 * row's action is applied: the convention of PufferLib's two-player games
 * for learners that do not mask. */
enum azk_vec_illegal { AZK_VEC_ILLEGAL_ERROR = 0, AZK_VEC_ILLEGAL_LOSE = 1 };
/* The episode log, floats summed until azk_vec_log drains them. */
enum azk_vec_log_entry {
    AZK_VLOG_EPISODES = 0, AZK_VLOG_LENGTH, AZK_VLOG_DRAWS, AZK_VLOG_TRUNCATED, AZK_VLOG_WINS_SEAT0,
    AZK_VLOG_WINS_SEAT1, AZK_VLOG_AGENT_WINS, AZK_VLOG_AGENT_LOSSES, AZK_VLOG_AGENT_WINS_SEAT0,
    AZK_VLOG_AGENT_WINS_SEAT1, AZK_VLOG_AGENT_GAMES_SEAT0, AZK_VLOG_AGENT_GAMES_SEAT1,
    AZK_VLOG_ILLEGAL, /* episodes ended by an illegal action (AZK_VEC_ILLEGAL_LOSE) */
    /* by deck index (in self-play over both seats, otherwise the agent's deck): games, then wins */
    AZK_VEC_LOG_DECKS = 8, AZK_VLOG_DECK_GAMES = AZK_VLOG_ILLEGAL + 1,
    AZK_VLOG_DECK_WINS = AZK_VLOG_DECK_GAMES + AZK_VEC_LOG_DECKS, AZK_VEC_LOG_LEN = AZK_VLOG_DECK_WINS + AZK_VEC_LOG_DECKS
};
size_t azk_vec_size(int n); /* 0 for n outside [1, AZK_VEC_MAX_GAMES] */
azk_status azk_vec_init(azk_vec *v, const azk_cardset *cs, int n, uint64_t seed, int mode, int bot_kind,
                        const int32_t *pairs, int npairs); /* pairs: npairs (deck0, deck1) index pairs */
/* The observation format (after init; default AZK_VEC_OBS_U8, AZK_VEC_WAIT_FULL;
 * any other obs_dtype is AZK_ERR_ARG). */
azk_status azk_vec_set_obs(azk_vec *v, int obs_dtype, int waiting);
azk_status azk_vec_set_illegal(azk_vec *v, int policy); /* enum azk_vec_illegal */
/* Paired deals for evaluation (on = 1): episodes 2k and 2k + 1 play the same
 * deal (engine seed base + k, the same decks in the same seats) with the
 * agent in seat 0 and then in seat 1; deal k uses pairing (k / 2) % npairs,
 * its decks swapped when k is odd. Restarts every game from episode 0 and
 * clears the log. Off (the default): the numbering described above. */
azk_status azk_vec_set_paired(azk_vec *v, const azk_cardset *cs, int on);
int azk_vec_rows(const azk_vec *v);
/* Threads (k in [1, AZK_VEC_MAX_THREADS]): k - 1 persistent worker threads,
 * started here once, and the calling thread step, observe and answer with
 * bots chunks of the games in every later call; every output, trajectory and
 * log entry equals k = 1's. k = 1 stops the workers (no pool, no overhead):
 * call it before freeing a vector that has threads, or before azk_vec_init
 * on the same memory. One call at a time per vector still (the caller's
 * rule); workers block all signals. AZK_ERR_ARG for a bad k, AZK_ERR_LIMIT
 * if the OS refuses a thread or memory (the vector is then left with one thread).
 * After fork() a child's vector runs on the calling thread alone. */
azk_status azk_vec_set_threads(azk_vec *v, int k);
int azk_vec_threads(const azk_vec *v); /* k; -1 for NULL */
/* Outputs: obs[rows][azk_obs_len()] (each row from its seat's view; NULL:
 * skipped), masks[rows][NUM_ACTIONS] (NULL: skipped), acting[rows] (1 where
 * the row's action will be applied; NULL: skipped). Writes every row, every
 * observation in full (also with AZK_VEC_WAIT_MASK). */
azk_status azk_vec_observe(const azk_vec *v, const azk_cardset *cs, void *obs, uint8_t *masks, int32_t *acting);
/* azk_vec_observe's acting[rows] alone, as bytes (a VecGame's acting buffer). AZK_ERR_ARG for NULL. */
azk_status azk_vec_acting(const azk_vec *v, uint8_t *acting);
azk_status azk_vec_step(azk_vec *v, const azk_cardset *cs, const int32_t *actions, void *obs, uint8_t *masks,
                        float *rewards, uint8_t *terminals, uint8_t *truncations, int *bad_row);
/* AZK_VEC_POLICY only (AZK_ERR_ARG otherwise): opp_actions[n], applied to
 * the pending games (others ignored); outputs as azk_vec_step's. */
azk_status azk_vec_step_opponent(azk_vec *v, const azk_cardset *cs, const int32_t *opp_actions, void *obs,
                                 uint8_t *masks, float *rewards, uint8_t *terminals, uint8_t *truncations,
                                 int *bad_row);
/* AZK_VEC_POLICY only: opp_actions[n] = the built-in bot bot_kind's answer for
 * each pending game (0 for the others), drawn from that game's bot stream
 * (seeded per episode, as in AZK_VEC_BOT): a league can switch an opponent
 * between frozen policies and bots without rebuilding the games. */
azk_status azk_vec_bot_opponent(azk_vec *v, const azk_cardset *cs, int bot_kind, int32_t *opp_actions);
/* AZK_VEC_POLICY only: opp_actions[n] = the policy bot's (azk_pbot_act with
 * policy p and settings pp) answer for each pending game (0 for the
 * others), drawn from that game's bot stream as azk_vec_bot_opponent's, on
 * the vector's threads, each in its slot of the caller's workspace of
 * azk_vec_pbot_work_size bytes (ask again after azk_vec_set_threads; nothing
 * allocated). AZK_ERR_ARG for bad arguments or a short workspace; else the
 * first failing game's status (AZK_ERR_CARDSET: the policy cannot read this
 * card set), its answer 0. */
size_t azk_vec_pbot_work_size(const azk_vec *v, const azk_policy *p, const azk_pbot_params *pp); /* 0: bad args */
azk_status azk_vec_pbot_opponent(azk_vec *v, const azk_cardset *cs, const azk_policy *p, const azk_pbot_params *pp,
                                 int32_t *opp_actions, void *work, size_t work_len);
/* AZK_VEC_POLICY only: opp_actions[n] = the policy p's answer for each
 * pending game (0 for the others) from opp_obs (azk_vec_observe_opponent's
 * rows, as the last call left them): azk_policy_act on that game's
 * observation with the uniform azk_keyed_uniform(seed, keys[i]) (greedy: the
 * most likely legal action), so the action depends on the decision and its
 * key alone, not on batching or threads; on the vector's threads. `work`:
 * the caller's workspace of azk_vec_policy_work_size(v, p) bytes (one slot
 * per thread of the vector, so ask again after azk_vec_set_threads; keep it
 * with the vector: nothing is allocated here). A policy failure (an observation it cannot read) returns
 * AZK_ERR_ARG with *policy_status (may be NULL) the azk_policy_status; a NULL
 * or short workspace AZK_ERR_ARG with *policy_status 0. */
size_t azk_vec_policy_work_size(const azk_vec *v, const azk_policy *p); /* 0 for NULL */
azk_status azk_vec_policy_opponent(azk_vec *v, const azk_cardset *cs, const azk_policy *p, const uint8_t *opp_obs,
                                   uint64_t seed, const uint64_t *keys, int greedy, int32_t *opp_actions,
                                   void *work, size_t work_len, int *policy_status);
/* AZK_VEC_POLICY only: pending[n] (1 where game i waits for its opponent),
 * and for those games opp_obs[n][azk_obs_len()] (the opponent seat's view)
 * and opp_masks[n][NUM_ACTIONS] (its legal set); the other games' mask rows
 * are NO_OP-only and their opp_obs rows are left as they are. Any NULL
 * pointer is skipped. */
azk_status azk_vec_observe_opponent(const azk_vec *v, const azk_cardset *cs, void *opp_obs, uint8_t *opp_masks,
                                    uint8_t *pending);
/* AZK_VEC_BOT / AZK_VEC_POLICY (else AZK_ERR_ARG): out[n][azk_obs_len()], each
 * game's observation from the seat that is not its agent's (hidden cards
 * included): a privileged critic's input in training, never a player's. */
azk_status azk_vec_observe_others(const azk_vec *v, const azk_cardset *cs, uint8_t *out);
int azk_vec_log(azk_vec *v, float *out, int cap);   /* AZK_VEC_LOG_LEN, or -1 for a short buffer */
const azk_game *azk_vec_game(const azk_vec *v, int i); /* NULL out of range */
int azk_vec_agent_seat(const azk_vec *v, int i);
int azk_vec_episode(const azk_vec *v, int i);
int azk_vec_deck(const azk_vec *v, int i, int seat); /* the deck index seat plays in game i; -1 out of range */
/* The deal schedule and seed derivations, defined once here (csrc/vec.c):
 * episode e of a vector (or game e of a paired evaluation) plays deal
 * `deal` (e, or e / 2 when paired) with engine seed seed + deal, deck
 * pairing (deal / 2) % npairs of the list, swapped into the other seats when
 * deal is odd; the agent sits in agent_seat (paired: e & 1, else
 * (e >> 1) & 1) and a vector's bot in that episode draws from bot_seed.
 * AZK_ERR_ARG for npairs outside [1, AZK_VEC_MAX_PAIRS], paired not 0 / 1. */
typedef struct azk_deal {
    uint64_t deal, engine_seed, bot_seed;
    int pairing, swapped, agent_seat;
} azk_deal;
azk_status azk_deal_schedule(uint64_t seed, uint64_t episode, int npairs, int paired, azk_deal *out);
uint64_t azk_vec_bot_seed(uint64_t seed, uint64_t episode); /* seed ^ (golden ratio * (episode + 1)) */
/* The arena's schedule (azuki.arena, python -m azuki arena): game g plays
 * deal g / 2 (engine seed seed + deal) with ordered pairing deal % npairs
 * (A's deck, B's deck); player A sits in agent_seat = g & 1 and each player
 * keeps its deck (swapped = agent_seat: the pairing's decks in seats 1, 0);
 * bot_seed = azk_bot_seed_for(seed, g), seat s's bot drawing from
 * azk_bot_seed_for(bot_seed, s). AZK_ERR_ARG for npairs < 1 or NULL. */
azk_status azk_arena_deal(uint64_t seed, uint64_t game, int npairs, azk_deal *out);
/* splitmix64 (Steele et al.): the bot seed of side / seat k of a run's seed
 * is azk_splitmix64(seed + golden ratio * k) (azk_bot_seed_for; the
 * arena, eval and the envs' streams ask these two). */
uint64_t azk_splitmix64(uint64_t z);
uint64_t azk_bot_seed_for(uint64_t seed, uint64_t k);

/* ==== Observations (csrc/obs.c, csrc/azk_obs.def) ==========================
 * One player's view of the position as a fixed-length uint8 vector, for
 * learning agents: the layout is declared once, in csrc/azk_obs.def (named
 * fields, each of a kind below; docs/observation.md tables them), and
 * reported at run time here. It holds only what that player may know
 * (docs/observation.md "Hidden information"): never the opponent's hand
 * beyond the cards revealed or returned into it, never a deck's order, never
 * the cards the opponent looks at. The legal-action mask travels inside
 * (field MASK, packed bits). Its length does not depend on the card set.
 * A layout change bumps AZK_OBS_VERSION. */
#define AZK_OBS_VERSION 4 /* 2: DECK_BOTTOM, deck positions the player chose; 3: 127 definitions, identity (def + 1) / 127; HAND_COST; PLACE_STATUS grew; PROMPT_KIND grew; DECK_TOP, DECK_OPP_KNOWS, OPP_DECK_TOP, OPP_DECK_BOTTOM; 4: uint8 entity layout (1,200 bytes, was 5,840 floats): identities as def + 1, categories, counts, packed bits and mask, sorted identity lists instead of per-definition counts */
/* What a field's bytes mean (azk_obs.def says how a network reads each). */
enum azk_obs_kind {
    AZK_OBSK_ID = 0, /* card identity: 0 none / unknown, else definition + 1 */
    AZK_OBSK_ENUM,   /* category in [0, n) */
    AZK_OBSK_NUM,    /* count or amount, saturated to [0, 255]; scale 1 / n */
    AZK_OBSK_SNUM,   /* signed amount, int8 two's complement, saturated; scale 1 / n */
    AZK_OBSK_BITS,   /* packed bits, bit i in byte i >> 3 at bit i & 7; n bits */
    AZK_OBSK_PLACE,  /* field place: 0 none, else 1 + side * 12 + place */
    AZK_OBSK_COUNT
};
int azk_obs_version(void);
int azk_obs_len(void);                                   /* bytes per observation (azuki.OBS_LEN) */
int azk_obs_num_fields(void);
/* Field `field`: its first byte, its shape rows x cols (bytes), its kind
 * (enum azk_obs_kind) and n (see azk_obs.def); 0, or -1 for an unknown
 * field. Any NULL pointer is skipped. */
int azk_obs_field(int field, int *offset, int *rows, int *cols, int *kind, int *n);
const char *azk_obs_field_name(int field);               /* NULL for an unknown field */
const char *azk_obs_field_doc(int field);                /* what it means; NULL for an unknown field */
const char *azk_obs_kind_name(int kind);                 /* "id", "enum", ...; NULL for an unknown kind */
/* Write player's observation (azk_obs_len() bytes) to out. Returns
 * azk_obs_len(), or -1 (nothing written) for a NULL argument or a player
 * other than 0/1. */
int azk_observe(const azk_game *g, const azk_cardset *cs, int player, uint8_t *out);
/* May `player` know card `card`'s identity where it is now? 1 in public
 * zones; in a hand for its owner, or when revealed into it or returned to it
 * from the field; looked-at cards for their owner; decks and the IKZ pile
 * never. -1 for a bad player or card. The rule azk_observe follows. */
int azk_card_known(const azk_game *g, int player, int card);
/* Information-set sampling (for search): redistribute the cards `player`
 * cannot know, consistently with what it knows. The identities of the
 * opponent's unknown hand cards, its deck and its looked-at cards are
 * shuffled among themselves, and so are those of player's own deck; sizes,
 * known cards (revealed ones, everything public) and every card's place stay.
 * A zone holding a card that the running effect, the trigger queue or the
 * pending prompt names stays as it is. The game's RNG is reseeded from
 * `seed` too (future shuffles are hidden as well). azk_observe(g, cs, player)
 * is byte-identical before and after; the result passes the state checker
 * and plays on. AZK_ERR_ARG (nothing changed) for a NULL argument, a bad
 * player or a finished game. */
azk_status azk_resample(azk_game *g, const azk_cardset *cs, int player, uint64_t seed);

/* What action `action` names in this position (Game.describe), resolved from
 * the parameter kinds azk_actions.def declares: out[0..2] type, p0, p1;
 * out[3..4] the kinds of p0 and p1 (AZK_ACTION_PARAM order); out[5] the
 * player who would take it; out[6..7] the card p0 / p1 names (a hand card, the
 * card at a place, a CARD-like prompt option's card), -1 for none; out[8] the
 * ability it uses or answers (absolute index: an activated ability, a spell's
 * ability, the ability asking the pending prompt), -1 for none; out[9..10]
 * that ability's card definition and its number among the card's abilities
 * (-1 for none). Legal or not. 0, or -1 (out unchanged) for an action out of
 * range. */
#define AZK_DESCRIBE_LEN 11
int azk_describe(const azk_game *g, const azk_cardset *cs, int action, int32_t *out);


/* ==== Policy networks (csrc/policy.c, docs/policy_c.md) ===================
 * A trained policy's forward pass: an opaque azk_policy loaded from an AZKW
 * weight file held in memory (written by `python -m azuki.policy export
 * --format azkw`; format in policy.c's header). The loader checks every
 * size, shape and index and that the file was made for this build's
 * observation layout (version and OBS_LEN) and action count; the three
 * compatibility hashes it carries (azk_policy_hash: 0 observation layout,
 * 1 action space, 2 card set; 16 hex digits) are for the host to compare
 * (Python: azuki.policy_np.check_compat). A loaded policy is read-only: calls
 * may run concurrently, each with its own scratch: azk_policy_forward and
 * azk_policy_act allocate it per call (one malloc); the _ws variants take the
 * caller's workspace of azk_policy_work_size(p) bytes (any alignment) and
 * allocate nothing, for hot loops (azk_vec, the policy bots). */
typedef enum azk_policy_status {
    AZK_POLICY_OK = 0,
    AZK_POLICY_E_ARG,       /* NULL pointer, negative count, short stride */
    AZK_POLICY_E_MAGIC,     /* not an AZKW file */
    AZK_POLICY_E_VERSION,   /* another weight-file format */
    AZK_POLICY_E_TRUNCATED, /* the file ends inside a record */
    AZK_POLICY_E_CHECKSUM,  /* the trailing FNV-1a does not match */
    AZK_POLICY_E_CORRUPT,   /* a malformed record */
    AZK_POLICY_E_LAYOUT,    /* made for another observation layout / action count */
    AZK_POLICY_E_TENSOR,    /* a tensor missing, extra, or of the wrong shape / dtype */
    AZK_POLICY_E_TABLE,     /* an index table entry out of range */
    AZK_POLICY_E_NOMEM,
    AZK_POLICY_E_OBS        /* an observation's identity byte outside the card table (bad_row says which) */
} azk_policy_status;
enum { AZK_POLICY_ARCH_STRUCTURED = 0, AZK_POLICY_ARCH_FLAT = 1, AZK_POLICY_HEAD_DENSE = 0, AZK_POLICY_HEAD_FACTORED = 1 };
/* *out = the policy (free with azk_policy_free), or NULL and a status; msg
 * (may be NULL) receives what was wrong, NUL-terminated within msg_cap. */
azk_policy_status azk_policy_load(const uint8_t *bytes, size_t len, azk_policy **out, char *msg, size_t msg_cap);
void azk_policy_free(azk_policy *p);
const char *azk_policy_status_name(azk_policy_status s);
const char *azk_policy_hash(const azk_policy *p, int which); /* NULL for a bad argument */
int azk_policy_arch(const azk_policy *p);   /* AZK_POLICY_ARCH_*, -1 for NULL */
int azk_policy_head(const azk_policy *p);   /* AZK_POLICY_HEAD_*, -1 for NULL */
int azk_policy_hidden(const azk_policy *p); /* the trunk width, -1 for NULL */
/* n observations (azk_observe's bytes, row i at obs + i * stride, stride >=
 * azk_obs_len()): value[n] (NULL: skipped) and logp[n][NUM_ACTIONS] (NULL:
 * skipped), the log-probability of every flat action under the legal mask
 * inside the observation, -INFINITY where illegal (a row with no legal bit
 * counts every action legal, as azuki.policy does). The dense head's values
 * are the log-softmax of its masked logits. On AZK_POLICY_E_OBS *bad_row (may
 * be NULL) is the first bad row; the outputs of the rows before it are written. */
azk_policy_status azk_policy_forward(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp,
                                     float *value, int *bad_row);
/* actions[n]: with u (n uniforms in [0, 1); out of range clamped) the action
 * of azuki's inverse-CDF sampling for that uniform (factored head:
 * azuki.policy.Factored.sample, hierarchical, float64; dense head:
 * azuki.sampler.Masked.sample), so C and torch pick the same action for the
 * same uniform up to float rounding at an interval's edge; u == NULL: the
 * most likely legal action (the first of equals). value as azk_policy_forward. */
azk_policy_status azk_policy_act(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                 int32_t *actions, float *value, int *bad_row);
/* azk_policy_act, and action_logp[n] (NULL: skipped) the log-probability of each chosen action, summed as
 * torch sums it (azuki.policy.Factored.log_prob / azuki.sampler.Masked.log_prob): what a rollout stores
 * (azuki.envs.crollout, `azuki train`'s learner acting in C). */
azk_policy_status azk_policy_sample(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                    int32_t *actions, float *action_logp, float *value, int *bad_row);
/* The workspace one call of the _ws variants needs (0 for NULL); the same
 * results as the allocating calls, whatever the workspace held before.
 * A workspace shorter than that (or NULL) is AZK_POLICY_E_ARG. */
size_t azk_policy_work_size(const azk_policy *p);
azk_policy_status azk_policy_forward_ws(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp,
                                        float *value, int *bad_row, void *work, size_t work_len);
azk_policy_status azk_policy_act_ws(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                    int32_t *actions, float *value, int *bad_row, void *work, size_t work_len);
/* azuki.sampler.keyed_uniforms for one key: a uniform in [0, 1) that is a
 * function of (seed, key) alone (53 bits of a splitmix64 finalizer of
 * key ^ azk_splitmix64(seed)). */
double azk_keyed_uniform(uint64_t seed, uint64_t key);
void azk_keyed_uniforms(uint64_t seed, const uint64_t *keys, size_t n, double *out); /* out[i] for keys[i] */
/* The identity counts torch's structured encoder reads (azuki.policy.obs_inputs' bags): out[r][bag[j]][id]
 * (n x n_bags x n_ids floats, all written) counts the j in [0, n_cols) whose byte cols[j] of row r (at
 * obs + r * stride) is id, id 0 (empty) never counted. AZK_POLICY_E_ARG: a NULL buffer, a count out of
 * range, a column >= stride or a bag outside [0, n_bags) (nothing written); AZK_POLICY_E_OBS: a byte >= n_ids
 * in row *bad_row (the rows before it written). */
azk_policy_status azk_count_ids(const uint8_t *obs, int n, size_t stride, const int32_t *cols, const int32_t *bag,
                                int n_cols, int n_bags, int n_ids, float *out, int *bad_row);
/* FNV-1a (64-bit) of n bytes: the AZKW weight file's checksum (its last 8 bytes). */
uint64_t azk_fnv1a64(const uint8_t *b, size_t n);

/* ==== Playing many games in C (csrc/play.c; azuki.simulate, play_games) ======
 * The loops behind azuki.simulate and azuki._core.play_games, so a binding
 * only validates, calls these in stretches (checking signals between them)
 * and reports. Players: a built-in bot kind (AZK_BOT_*, >= 0), or -1 - j for
 * policy bot j of azk_lineup.pbot. The caller owns every buffer (the game of
 * azk_game_size() bytes, the policy bots' workspaces, the columns); nothing
 * allocates or prints. */
/* capacities as enum constants (array sizes the cffi binding can read); csrc/play.c checks they suffice */
enum {
    AZK_PLAY_MAX_PBOTS = 2,
    AZK_SIM_MAX_RESULTS = 8,         /* >= the azk_result values */
    AZK_SIM_MAX_END_REASONS = 32     /* >= azk_num_end_reasons() */
};
typedef struct azk_pbot {
    const azk_policy *pol;
    azk_pbot_params params;
    void *work;                      /* azk_pbot_work_size(pol, &params) bytes, or NULL (a malloc per decision) */
    size_t work_len;
} azk_pbot;
typedef struct azk_lineup {
    const azk_cardset *cs;
    int turn_cap, decision_cap;      /* set on every game (azk_game_set_turn_cap / _decision_cap) */
    azk_search_params search;        /* the search bot's settings */
    int npbots;                      /* 0..AZK_PLAY_MAX_PBOTS */
    azk_pbot pbot[AZK_PLAY_MAX_PBOTS];
} azk_lineup;
/* cs, the default caps and search settings, no policy bot. */
void azk_lineup_init(azk_lineup *p, const azk_cardset *cs);
/* Play g (already dealt) to its end: seat q by kinds[q] with the words
 * rng[2q], rng[2q+1]. seat_decisions / seat_seconds (NULL: not kept) get each
 * seat's decisions and the seconds its player spent choosing added. Returns
 * the decisions made, or minus a status: a player's (AZK_ERR_ARG for a bad
 * kind) or the engine's refusal of a bot's action (a bug). */
int azk_play_game(azk_game *g, const azk_lineup *p, const int kinds[2], uint64_t rng[4], int32_t seat_decisions[2],
                  double seat_seconds[2]);

/* azuki.simulate: game i (engine seed seed + i) deals side k's deck to seat
 * k ^ (i & 1), so deck and seat effects separate. Players: uniform random
 * legal players drawing from one pcg32 stream (seed, AZK_SIM_RNG_STREAM), or
 * side k's bot side_kind[k] drawing from its own stream seeded with
 * azk_bot_seed_for(seed, k); streams carry over from game to game. The
 * counters accumulate over azk_sim_run calls. */
typedef struct azk_sim {
    azk_lineup players;
    uint64_t seed;
    int deck[2];                     /* side k's deck index */
    int bots;                        /* 0: random players; 1: side_kind */
    int side_kind[2];
    uint64_t side_rng[4];            /* side k's words: side_rng[2k], side_rng[2k+1] */
    uint64_t pick[2];                /* the random players' stream {state, inc} */
    /* counters */
    long long results[AZK_SIM_MAX_RESULTS];          /* by azk_result */
    long long end_reasons[AZK_SIM_MAX_END_REASONS];  /* by azk_end_reason */
    long long wins_by_seat[2], wins_by_side[2], first_player_wins;
    long long decisions, turns, errors;              /* errors: games a player or the engine broke off */
} azk_sim;
/* side_kind NULL: random players. AZK_ERR_ARG (nothing written) for NULL, a
 * deck outside the card set or a kind without its player. */
azk_status azk_sim_init(azk_sim *s, const azk_lineup *p, uint64_t seed, int deck0, int deck1, const int side_kind[2]);
/* Play games [start, end) in g, adding to the counters. Calling it for
 * [0, a) then [a, b) is the same as for [0, b). AZK_ERR_ARG for NULL or
 * end < start. */
azk_status azk_sim_run(azk_sim *s, azk_game *g, uint64_t start, uint64_t end);

/* azuki._core.play_games: one game per row of the columns: engine seed, the
 * seats' decks, kinds and bot seeds (seat q's words: azk_bot_seed(bot_seed[q])). */
typedef struct azk_play_rows {
    const uint64_t *seed, *bot_seed[2];
    const int32_t *deck[2], *kind[2];
    /* outputs per row: azk_result, azk_winner, azk_first_player, azk_end_reason, azk_turn, decisions
     * (azk_decisions on an error), error (1: a player or the engine broke off, a bug), and each seat's
     * decisions and seconds spent choosing */
    int32_t *result, *winner, *first_player, *end_reason, *turns, *decisions, *error, *seat_decisions[2];
    double *seat_seconds[2];
} azk_play_rows;
/* Play rows [start, end). AZK_ERR_ARG, before any row is played, for NULL,
 * end < start, or a row's deck or kind without its deck or player. */
azk_status azk_play_rows_run(const azk_lineup *p, azk_game *g, const azk_play_rows *r, size_t start, size_t end);
/* *r from AZK_PLAY_NCOLS column pointers in the order of the binding's
 * columns (azuki.games.PLAY_DTYPES): seed, bot_seed[0], bot_seed[1],
 * deck[0], deck[1], kind[0], kind[1], result, winner, first_player,
 * end_reason, turns, decisions, error, seat_seconds[0], seat_seconds[1],
 * seat_decisions[0], seat_decisions[1]. AZK_ERR_ARG (nothing written) for
 * NULL, ncols != AZK_PLAY_NCOLS or a NULL column. */
enum { AZK_PLAY_NCOLS = 18 };
azk_status azk_play_rows_columns(azk_play_rows *r, void *const *cols, int ncols);

/* ==== Benchmarks of `python -m azuki bench` (csrc/bench.c) ============
 * The timed C loops of azuki/bench.py behind one call, so the binding holds
 * none: AZK_BENCH_MICRO (ns per call of reset, clone, hash, serialize,
 * deserialize, the mask, the legal list and observe on a mid-game position, a
 * calibration loop and memcpy bandwidth; n repetitions), AZK_BENCH_SEARCH
 * (the search bot's time on n positions from greedy self-play),
 * and AZK_BENCH_VEC (n rounds of a vector of games, every acting row's
 * action drawn uniformly from its game's legal list, as simulate's players
 * draw, inside the timed loop). The caller gives a workspace of
 * azk_bench_work_size bytes; nothing allocates. */
typedef enum azk_bench_kind { AZK_BENCH_MICRO, AZK_BENCH_SEARCH, AZK_BENCH_VEC } azk_bench_kind;
typedef struct azk_bench_args {
    long long n;                      /* MICRO: repetitions; SEARCH: decisions; VEC: rounds */
    uint64_t seed;
    azk_search_params search;         /* SEARCH */
    /* VEC: the vector, its card set and the buffers its steps write (a VecGame's); rows = games * per_game;
     * policy: each round also answers the pending opponents (AZK_VEC_POLICY) */
    azk_vec *vec;
    const azk_cardset *cs;
    int rows, games, per_game, policy;
    azk_vec_io io;
} azk_bench_args;
typedef struct azk_bench_result {
    double calibration_ns, reset_ns, clone_ns, hash_ns, serialize_ns, deserialize_ns, mask_ns, legal_list_ns,
        observe_ns, memcpy_bytes_per_s;          /* MICRO */
    double seconds;                   /* SEARCH: inside the search decisions; VEC: the whole loop */
    long long count;                  /* SEARCH: decisions; VEC: agent-steps (actions applied for agent rows) */
    uint64_t sink;                    /* keeps the timed results alive */
} azk_bench_result;
size_t azk_bench_work_size(azk_bench_kind kind, const azk_bench_args *a); /* 0: none needed or bad arguments */
/* AZK_ERR_ARG (nothing run) for NULL, an unknown kind, n < 1 or a short workspace. */
azk_status azk_bench_run(azk_bench_kind kind, const azk_bench_args *a, void *work, size_t work_len,
                         azk_bench_result *out);

#ifdef __cplusplus
}
#endif
#endif /* AZUKI_H */
