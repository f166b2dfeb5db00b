# _core.pxd — the contract between Python and the C core.
#
# Declares exactly the public C API of csrc/azuki.h (the game is an opaque
# struct: positions are read through azk_export and the accessors, built with
# azk_game_setup), the pcg32 helpers of csrc/rng.h used by rng_outputs /
# rng_bounded / rng_shuffle, and - for the CardSet class only, which reads a
# few fields (run-time sets are loaded from bytes: azk_cardset_load) - the
# card-set records of csrc/cardset.h. Nothing of
# csrc/game.h crosses into Cython.
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t

cdef extern from "azuki.h" nogil:
    ctypedef struct azk_game:     # opaque: read through azk_export and the accessors
        pass
    ctypedef enum azk_status:
        AZK_OK
        AZK_ILLEGAL
        AZK_TERMINAL
        AZK_ERR_ARG
        AZK_ERR_CORRUPT
        AZK_ERR_CARDSET
        AZK_ERR_LIMIT

    size_t azk_game_size()
    int azk_num_actions()
    const azk_cardset *azk_default_cardset()
    const char *azk_status_name(azk_status s)
    azk_status azk_cardset_finish(azk_cardset *cs)
    int azk_cardset_find_deck(const azk_cardset *cs, const char *name)
    azk_status azk_cardset_load(azk_cardset *cs, const uint8_t *bytes, size_t len)
    ctypedef struct azk_field_layout:
        const char *record
        const char *field
        uint32_t offset
        uint32_t size
    const azk_field_layout *azk_cardset_layout(int *n)
    azk_status azk_game_init(azk_game *g, const azk_cardset *cs, uint64_t seed, int deck0, int deck1)
    void azk_game_clone(azk_game *dst, const azk_game *src)
    void azk_game_set_turn_cap(azk_game *g, int turns)
    void azk_game_set_decision_cap(azk_game *g, int decisions)
    int azk_decisions(const azk_game *g)
    int azk_end_reason(const azk_game *g)
    const char *azk_end_reason_name(int reason)
    int azk_num_end_reasons()
    azk_status azk_step(azk_game *g, const azk_cardset *cs, int action)
    int azk_legal_actions(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap)
    int azk_legal_mask(const azk_game *g, const azk_cardset *cs, uint8_t *mask)
    int azk_is_legal(const azk_game *g, const azk_cardset *cs, int action)
    int azk_head_size(int head)
    int azk_head_masks(const azk_game *g, int type, int p0, uint8_t *m_type, uint8_t *m_p0, uint8_t *m_p1)
    int azk_encode(int type, int p0, int p1)
    int azk_decode(int action, int *type, int *p0, int *p1)
    int azk_current_player(const azk_game *g)
    int azk_phase(const azk_game *g)
    int azk_is_terminal(const azk_game *g)
    int azk_result(const azk_game *g)
    int azk_winner(const azk_game *g)
    int azk_turn(const azk_game *g)
    uint64_t azk_hash(const azk_game *g)
    uint64_t azk_cardset_hash(const azk_cardset *cs)
    uint64_t azk_hash_bytes(const void *data, size_t len)
    size_t azk_serialized_size()
    size_t azk_serialize(const azk_game *g, const azk_cardset *cs, uint8_t *out, size_t cap)
    azk_status azk_deserialize(azk_game *g, const azk_cardset *cs, const uint8_t *inp, size_t len)
    int azk_render(const azk_game *g, const azk_cardset *cs, char *out, int cap)
    int azk_events(azk_game *g, uint32_t *out, int cap)
    const char *azk_event_name(int type)
    int azk_num_event_types()
    int azk_check_invariants(const azk_game *g, const azk_cardset *cs)
    const char *azk_invariant_name(int code)
    const char *azk_invariant_message(int code)

    # position building and reading (csrc/setup.c, csrc/export.c)
    int azk_num_cards()
    int azk_active_player(const azk_game *g)
    int azk_first_player(const azk_game *g)
    int azk_turn_cap(const azk_game *g)
    int azk_decision_cap(const azk_game *g)
    int azk_card_definition(const azk_game *g, int card)
    int azk_card_attack(const azk_game *g, const azk_cardset *cs, int card)
    int azk_card_health(const azk_game *g, const azk_cardset *cs, int card)
    int azk_card_statuses(const azk_game *g, const azk_cardset *cs, int card)
    int azk_card_cost(const azk_game *g, const azk_cardset *cs, int card)
    int azk_event_unpack(uint32_t event, int *type, int *player, int *card, int *value)
    int azk_export_version()
    int azk_export_size()
    int azk_export_num_fields()
    int azk_export_field(int field, int *offset, int *count)
    const char *azk_export_field_name(int field)
    int azk_export(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap)
    int azk_plan_version()
    int azk_plan_size()
    int azk_plan_num_fields()
    int azk_plan_field(int field, int *offset, int *count)
    const char *azk_plan_field_name(int field)
    azk_status azk_game_setup(azk_game *g, const azk_cardset *cs, const int32_t *plan, size_t len, int *detail)
    # observations (csrc/obs.c, csrc/azk_obs.def)
    int azk_obs_version()
    int azk_obs_len()
    int azk_obs_num_fields()
    int azk_obs_field(int field, int *offset, int *rows, int *cols, int *kind, int *n)
    const char *azk_obs_field_name(int field)
    const char *azk_obs_field_doc(int field)
    const char *azk_obs_kind_name(int kind)
    int azk_observe(const azk_game *g, const azk_cardset *cs, int player, uint8_t *out)
    # policy networks (csrc/policy.c)
    ctypedef struct azk_policy:
        pass
    ctypedef enum azk_policy_status:
        AZK_POLICY_OK
        AZK_POLICY_E_ARG
        AZK_POLICY_E_OBS
    azk_policy_status azk_policy_load(const uint8_t *bytes, size_t len, azk_policy **out, char *msg, size_t msg_cap)
    void azk_policy_free(azk_policy *p)
    const char *azk_policy_status_name(azk_policy_status s)
    const char *azk_policy_hash(const azk_policy *p, int which)
    int azk_policy_arch(const azk_policy *p)
    int azk_policy_head(const azk_policy *p)
    int azk_policy_hidden(const azk_policy *p)
    azk_policy_status azk_policy_forward(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp,
                                         float *value, int *bad_row)
    azk_policy_status azk_policy_act(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                     int32_t *actions, float *value, int *bad_row)
    double azk_keyed_uniform(uint64_t seed, uint64_t key)
    uint64_t azk_fnv1a64(const uint8_t *b, size_t n)
    void azk_keyed_uniforms(uint64_t seed, const uint64_t *keys, size_t n, double *out)
    azk_policy_status azk_count_ids(const uint8_t *obs, int n, size_t stride, const int32_t *cols, const int32_t *bag,
                                    int n_cols, int n_bags, int n_ids, float *out, int *bad_row)
    size_t azk_policy_work_size(const azk_policy *p)
    azk_policy_status azk_policy_sample(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                        int32_t *actions, float *action_logp, float *value, int *bad_row)
    azk_policy_status azk_policy_forward_ws(const azk_policy *p, const uint8_t *obs, int n, size_t stride,
                                            float *logp, float *value, int *bad_row, void *work, size_t work_len)
    azk_policy_status azk_policy_act_ws(const azk_policy *p, const uint8_t *obs, int n, size_t stride,
                                        const double *u, int32_t *actions, float *value, int *bad_row, void *work,
                                        size_t work_len)
    ctypedef struct azk_vec:
        pass
    enum:
        AZK_VEC_SELF
        AZK_VEC_BOT
        AZK_VEC_POLICY
        AZK_VEC_OBS_U8
        AZK_VEC_WAIT_FULL
        AZK_VEC_WAIT_MASK
        AZK_VEC_ILLEGAL_ERROR
        AZK_VEC_ILLEGAL_LOSE
        AZK_VEC_MAX_GAMES
        AZK_VEC_MAX_PAIRS
        AZK_VEC_MAX_THREADS
        AZK_VEC_LOG_LEN
    size_t azk_vec_size(int n)
    azk_status azk_vec_init(azk_vec *v, const azk_cardset *cs, int n, uint64_t seed, int mode, int bot_kind,
                            const int32_t *pairs, int npairs)
    azk_status azk_vec_set_obs(azk_vec *v, int obs_dtype, int waiting)
    azk_status azk_vec_set_illegal(azk_vec *v, int policy)
    azk_status azk_vec_set_paired(azk_vec *v, const azk_cardset *cs, int on)
    azk_status azk_vec_bot_opponent(azk_vec *v, const azk_cardset *cs, int bot_kind, int32_t *opp_actions)
    azk_status azk_vec_policy_opponent(azk_vec *v, const azk_cardset *cs, const azk_policy *p, const uint8_t *opp_obs,
                                       uint64_t seed, const uint64_t *keys, int greedy, int32_t *opp_actions,
                                       void *work, size_t work_len, int *policy_status)
    size_t azk_vec_policy_work_size(const azk_vec *v, const azk_policy *p)
    int azk_vec_rows(const azk_vec *v)
    azk_status azk_vec_observe(const azk_vec *v, const azk_cardset *cs, void *obs, uint8_t *masks, int32_t *acting)
    azk_status azk_vec_step(azk_vec *v, const azk_cardset *cs, const int32_t *actions, void *obs, uint8_t *masks,
                            float *rewards, uint8_t *terminals, uint8_t *truncations, int *bad_row)
    azk_status azk_vec_step_opponent(azk_vec *v, const azk_cardset *cs, const int32_t *opp_actions, void *obs,
                                     uint8_t *masks, float *rewards, uint8_t *terminals, uint8_t *truncations,
                                     int *bad_row)
    azk_status azk_vec_observe_opponent(const azk_vec *v, const azk_cardset *cs, void *opp_obs, uint8_t *opp_masks,
                                        uint8_t *pending)
    azk_status azk_vec_observe_others(const azk_vec *v, const azk_cardset *cs, uint8_t *out)
    int azk_vec_log(azk_vec *v, float *out, int cap)
    const azk_game *azk_vec_game(const azk_vec *v, int i)
    int azk_vec_agent_seat(const azk_vec *v, int i)
    int azk_vec_episode(const azk_vec *v, int i)
    int azk_vec_deck(const azk_vec *v, int i, int seat)
    azk_status azk_vec_acting(const azk_vec *v, uint8_t *acting)
    ctypedef struct azk_vec_io:
        void *obs
        void *opp_obs
        uint8_t *masks
        uint8_t *terminals
        uint8_t *truncations
        uint8_t *acting
        uint8_t *opp_masks
        uint8_t *opp_pending
        float *rewards
    azk_status azk_vec_set_threads(azk_vec *v, int k)
    int azk_vec_threads(const azk_vec *v)
    ctypedef struct azk_deal:
        uint64_t deal, engine_seed, bot_seed
        int pairing, swapped, agent_seat
    azk_status azk_deal_schedule(uint64_t seed, uint64_t episode, int npairs, int paired, azk_deal *out)
    uint64_t azk_vec_bot_seed(uint64_t seed, uint64_t episode)
    azk_status azk_arena_deal(uint64_t seed, uint64_t game, int npairs, azk_deal *out)
    uint64_t azk_splitmix64(uint64_t z)
    uint64_t azk_bot_seed_for(uint64_t seed, uint64_t k)
    int azk_card_known(const azk_game *g, int player, int card)
    azk_status azk_resample(azk_game *g, const azk_cardset *cs, int player, uint64_t seed)
    int azk_describe(const azk_game *g, const azk_cardset *cs, int action, int32_t *out)

    # built-in bots (csrc/bot.c, docs/bots.md)
    enum:
        AZK_BOT_RANDOM
        AZK_BOT_GREEDY
        AZK_BOT_SEARCH
        AZK_BOT_COUNT
        AZK_BOT_GREEDY_VERSION
        AZK_BOT_SEARCH_VERSION
        AZK_BOT_SEARCH_SIMS
        AZK_BOT_SEARCH_MAX_SIMS
    ctypedef struct azk_search_ctl:
        int sims_run            # (its atomic flag only through the functions below)
    ctypedef struct azk_search_params:
        int sims
        int explore_milli
        int rollout_depth
        int rollout_budget
        azk_search_ctl *ctl
    int azk_bot_num_kinds()
    const char *azk_bot_name(int kind)
    int azk_bot_version(int kind)
    void azk_bot_seed(uint64_t *rng, uint64_t seed)
    int azk_bot_act(const azk_game *g, const azk_cardset *cs, int kind, uint64_t *rng)
    int azk_bot_play_game(azk_game *g, const azk_cardset *cs, const int *kinds, uint64_t *rng)
    void azk_search_defaults(azk_search_params *p)
    void azk_search_cancel(azk_search_ctl *c)
    int azk_search_cancelled(const azk_search_ctl *c)
    void azk_search_reset(azk_search_ctl *c)
    int azk_bot_act_search(const azk_game *g, const azk_cardset *cs, uint64_t *rng, const azk_search_params *p)
    int azk_bot_play_game_search(azk_game *g, const azk_cardset *cs, const int *kinds, uint64_t *rng,
                                 const azk_search_params *p)
    int azk_bot_search_label(const azk_game *g, const azk_cardset *cs, uint64_t *rng, const azk_search_params *p,
                             float *visits, int visits_len, float *value)
    enum:
        AZK_PBOT_POLICY
        AZK_PBOT_PSEARCH
        AZK_PBOT_POLICY_VERSION
        AZK_PSEARCH_VERSION
        AZK_PSEARCH_MAX_SIMS
        AZK_PSEARCH_MAX_THREADS
        AZK_PSEARCH_MAX_HALVING
    ctypedef struct azk_pbot_params:
        int kind
        int temp_milli
        int sims
        int cpuct_milli
        int prior_temp_milli
        int value_milli
        azk_search_ctl *ctl
        int threads
        int halving
    void azk_pbot_defaults(azk_pbot_params *p, int kind)
    const char *azk_pbot_name(int kind)
    int azk_pbot_version(int kind)
    size_t azk_pbot_work_size(const azk_policy *pol, const azk_pbot_params *p)
    int azk_pbot_act(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *p,
                     uint64_t *rng, void *work, size_t work_len)
    int azk_pbot_label(const azk_game *g, const azk_cardset *cs, const azk_policy *pol, const azk_pbot_params *p,
                       uint64_t *rng, void *work, size_t work_len, float *visits, int visits_len, float *value)
    size_t azk_vec_pbot_work_size(const azk_vec *v, const azk_policy *p, const azk_pbot_params *pp)
    azk_status azk_vec_pbot_opponent(azk_vec *v, const azk_cardset *cs, const azk_policy *p,
                                     const azk_pbot_params *pp, int32_t *opp_actions, void *work, size_t work_len)

cdef extern from "rng.h" nogil:
    ctypedef struct azk_rng:
        uint64_t state
        uint64_t inc
    uint32_t azk_rng_next(azk_rng *r)
    void azk_rng_seed(azk_rng *r, uint64_t initstate, uint64_t initseq)
    uint32_t azk_rng_bounded(azk_rng *r, uint32_t bound)
    void azk_rng_shuffle_u8(azk_rng *r, uint8_t *a, uint32_t n)

# The card-set records are declared once, in csrc/azk_cardset.def: run-time
# sets are packed to bytes by azuki.convert.pack and loaded with
# azk_cardset_load, so the binding writes no field. Only the fields it reads
# are declared here (Cython checks them against the real structs).
cdef extern from "cardset.h" nogil:
    enum:
        AZK_MAX_CARD_DEFS
        AZK_MAX_DECKS
        AZK_DECK_MAIN
        AZK_DECK_IKZ
        AZK_CARD_ID_LEN
        AZK_CARD_NAME_LEN
        AZK_DECK_NAME_LEN
        AZK_MAX_BYTECODE

    ctypedef struct azk_card_def:
        char id[AZK_CARD_ID_LEN]
        char name[AZK_CARD_NAME_LEN]
        uint8_t card_type
        uint16_t keywords

    ctypedef struct azk_decklist:
        char name[AZK_DECK_NAME_LEN]
        uint8_t leader
        uint8_t gate
        uint8_t token
        uint8_t ikz[AZK_DECK_IKZ]
        uint8_t main[AZK_DECK_MAIN]

    ctypedef struct azk_cardset:
        uint16_t num_defs, num_decks
        uint16_t bytecode_len
        azk_card_def defs[AZK_MAX_CARD_DEFS]
        azk_decklist decks[AZK_MAX_DECKS]
        uint8_t bytecode[AZK_MAX_BYTECODE]

# ---- Playing many games in C (csrc/play.c; azuki.h "Playing many games in C"):
# the loops of simulate and play_games (azuki/_play.pxi), and the benchmarks of
# `python -m azuki bench` (csrc/bench.c, one entry point).
cdef extern from "azuki.h" nogil:
    enum:
        AZK_PLAY_MAX_PBOTS
        AZK_SIM_MAX_RESULTS
        AZK_SIM_MAX_END_REASONS
    ctypedef struct azk_pbot:
        const azk_policy *pol
        azk_pbot_params params
        void *work
        size_t work_len
    ctypedef struct azk_lineup:
        const azk_cardset *cs
        int turn_cap, decision_cap
        azk_search_params search
        int npbots
        azk_pbot pbot[2]
    void azk_lineup_init(azk_lineup *p, const azk_cardset *cs)
    ctypedef struct azk_sim:
        long long results[8]
        long long end_reasons[32]
        long long wins_by_seat[2]
        long long wins_by_side[2]
        long long first_player_wins, decisions, turns, errors
    azk_status azk_sim_init(azk_sim *s, const azk_lineup *p, uint64_t seed, int deck0, int deck1,
                            const int *side_kind)
    azk_status azk_sim_run(azk_sim *s, azk_game *g, uint64_t start, uint64_t end)
    ctypedef struct azk_play_rows:
        const uint64_t *seed
        const uint64_t *bot_seed[2]
        const int32_t *deck[2]
        const int32_t *kind[2]
        int32_t *result
        int32_t *winner
        int32_t *first_player
        int32_t *end_reason
        int32_t *turns
        int32_t *decisions
        int32_t *error
        int32_t *seat_decisions[2]
        double *seat_seconds[2]
    azk_status azk_play_rows_run(const azk_lineup *p, azk_game *g, const azk_play_rows *r, size_t start, size_t end)
    enum: AZK_PLAY_NCOLS
    azk_status azk_play_rows_columns(azk_play_rows *r, void **cols, int ncols)
    ctypedef enum azk_bench_kind:
        AZK_BENCH_MICRO, AZK_BENCH_SEARCH, AZK_BENCH_VEC
    ctypedef struct azk_bench_args:
        long long n
        uint64_t seed
        azk_search_params search
        azk_vec *vec
        const azk_cardset *cs
        int rows, games, per_game, policy
        azk_vec_io io
    ctypedef struct azk_bench_result:
        double calibration_ns, reset_ns, clone_ns, hash_ns, serialize_ns, deserialize_ns, mask_ns, legal_list_ns
        double observe_ns, memcpy_bytes_per_s, seconds
        long long count
        uint64_t sink
    size_t azk_bench_work_size(azk_bench_kind kind, const azk_bench_args *a)
    azk_status azk_bench_run(azk_bench_kind kind, const azk_bench_args *a, void *work, size_t work_len,
                             azk_bench_result *out)
