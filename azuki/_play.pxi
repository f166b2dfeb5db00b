# ---- _Players: the C state azuki.simulate and play_games (azuki/games.py) run their loops (csrc/play.c) on --
from . import games as _py
from .games import SIM_SIGNAL_GAMES, bot_kind, play_games, simulate
from .bench import bench_search as _bench_search


cdef class _Players:
    """The C side of a run of games: azk_lineup (card set, caps, search and policy bots), its game, azk_sim."""
    cdef azk_lineup p
    cdef azk_sim s
    cdef azk_game *g
    cdef readonly CardSet cards
    cdef readonly list pbots     # the CPolicy objects the policy bots point into, and their workspaces,
    cdef list _work              # stay alive with it

    def __cinit__(self, cards, turn_cap, decision_cap, sims, pbots, str what):
        self.cards, self._work = _resolve_cards(cards), []
        azk_lineup_init(&self.p, self.cards.cs)
        self.p.turn_cap, self.p.decision_cap = _turn_cap(turn_cap), _decision_cap(decision_cap)
        self.p.search = _search_params(sims)
        self.pbots = _py.pbot_specs(pbots, what, AZK_PLAY_MAX_PBOTS)
        cdef azk_pbot *b
        for j, (pol, kind, settings) in enumerate(self.pbots):
            b = &self.p.pbot[j]
            b.params, b.pol = _pbot_params(kind, settings), _cpolicy(pol, f"{what}: a policy bot").p
            self._work.append(np.empty(azk_pbot_work_size(b.pol, &b.params), dtype=np.uint8))
            b.work, b.work_len, self.p.npbots = _ptr(self._work[j]), self._work[j].shape[0], j + 1
        self.g = <azk_game *>PyMem_Malloc(azk_game_size())
        if self.g == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.g)

    def sim_start(self, games, seed, decks, kinds, chunk):
        """Start simulate's run (side kinds: None for the random players): (games, chunk, deck indices)."""
        cdef long long n = _int_in(games, "games", 0, 2**62)
        cdef uint64_t s = _seed(seed)
        d0, d1 = _deck_pair(self.cards, decks)
        cdef int sk[2]
        if kinds is not None:
            sk[0], sk[1] = kinds
        _check(azk_sim_init(&self.s, &self.p, s, d0, d1, NULL if kinds is None else sk),
               "_Players.sim_start: a side kind without its player", ValueError)
        return n, _int_in(chunk, "chunk", 1, 2**62), d0, d1

    def sim_run(self, uint64_t start, uint64_t end):
        """Play simulate's games [start, end) without the GIL; then its counters so far (azk_sim's fields)."""
        cdef azk_status st
        with nogil:
            st = azk_sim_run(&self.s, self.g, start, end)
        _check(st, "_Players.sim_run: not started, or end < start", ValueError)
        return self.s

    def play_rows(self, cols, size_t start, size_t end):
        """Play play_games' rows [start, end) without the GIL (cols: azuki.games.play_columns', checked there)."""
        cdef void *p[AZK_PLAY_NCOLS]
        for k, a in enumerate(_py.checked_columns(cols, end, AZK_PLAY_NCOLS)):
            p[k] = _ptr(a)
        cdef azk_play_rows r
        cdef azk_status st = azk_play_rows_columns(&r, p, AZK_PLAY_NCOLS)
        if st == AZK_OK:
            with nogil:
                st = azk_play_rows_run(&self.p, self.g, &r, start, end)
        _check(st, "_Players.play_rows: a deck or kind without its deck or player", ValueError)


def _bench(kind, n, seed=1, sims=None, VecGame vec=None):
    """One run of azk_bench_run, kind "micro", "search" or "vec" (of `vec`), as a dict (azuki/bench.py's rows)."""
    cdef azk_bench_kind k = <azk_bench_kind><int>("micro", "search", "vec").index(kind)
    cdef azk_bench_args a
    memset(&a, 0, sizeof(a))
    a.n, a.seed, a.search = _int_in(n, "n", 1, 10**9), _seed(seed), _search_params(sims)
    if k == AZK_BENCH_VEC:
        if vec is None:
            raise ValueError("_bench('vec') needs a VecGame")
        a.vec, a.cs, a.rows, a.games, a.io = vec.v, vec.cards.cs, vec.rows, vec.n, vec.io  # buffers as vec's steps
        a.per_game, a.policy = vec.rows // vec.n, vec.mode == "policy"
    cdef size_t wl = azk_bench_work_size(k, &a)
    work = np.empty(wl, dtype=np.uint8)
    cdef void *w = _ptr(work) if wl else NULL
    cdef azk_bench_result out
    cdef azk_status st
    if vec is not None:
        vec._enter("_bench")     # held like any call: the loop steps vec's games directly
    try:
        with nogil:
            st = azk_bench_run(k, &a, w, wl, &out)
    finally:
        if vec is not None:
            vec._leave()
    _check(st, f"_bench({kind!r}): bad arguments", ValueError)
    return out


# ---- Built-in bots (csrc/bot.c, docs/bots.md; the Python objects: azuki.bots) ----------------------------
BOT_KINDS = tuple(azk_bot_name(k).decode() for k in range(azk_bot_num_kinds()))
BOT_VERSIONS = {BOT_KINDS[k]: azk_bot_version(k) for k in range(azk_bot_num_kinds())}
GREEDY_VERSION = AZK_BOT_GREEDY_VERSION
SEARCH_VERSION = AZK_BOT_SEARCH_VERSION
SEARCH_SIMS = AZK_BOT_SEARCH_SIMS            # the search bot's default simulations per decision
SEARCH_MAX_SIMS = AZK_BOT_SEARCH_MAX_SIMS
# The policy bots (azuki.h "Policy bots"): a CPolicy plays alone ("policy") or guides a PUCT search ("psearch").
PBOT_KINDS = tuple(azk_pbot_name(k).decode() for k in (AZK_PBOT_POLICY, AZK_PBOT_PSEARCH))
PBOT_VERSIONS = {PBOT_KINDS[k]: azk_pbot_version(k) for k in range(2)}
PSEARCH_MAX_SIMS, PSEARCH_MAX_THREADS = AZK_PSEARCH_MAX_SIMS, AZK_PSEARCH_MAX_THREADS
PSEARCH_MAX_HALVING = AZK_PSEARCH_MAX_HALVING


def pbot_defaults(kind, settings=None):
    """The settings of policy bot `kind` ("policy" or "psearch") as a dict: its defaults (docs/bots.md, Policy
    bots) with `settings` applied. ValueError (one line) for an unknown kind or a bad setting."""
    cdef azk_pbot_params p = _pbot_params(kind, settings)
    return _py.pbot_settings_dict(kind, {"temp_milli": p.temp_milli, "sims": p.sims, "cpuct_milli": p.cpuct_milli,
        "prior_temp_milli": p.prior_temp_milli, "value_milli": p.value_milli, "threads": p.threads,
        "halving": p.halving})


cdef azk_pbot_params _pbot_params(object kind, object settings) except *:
    """The C settings of policy bot `kind` (settings checked by azuki.games.pbot_settings_milli)."""
    cdef azk_pbot_params p
    azk_pbot_defaults(&p, _py.pbot_kind(kind))
    m = _py.pbot_settings_milli(kind, settings)
    p.temp_milli, p.sims, p.cpuct_milli = m.get("temp", p.temp_milli), m.get("sims", p.sims), \
        m.get("cpuct", p.cpuct_milli)
    p.prior_temp_milli, p.value_milli = m.get("prior_temp", p.prior_temp_milli), m.get("value", p.value_milli)
    p.threads, p.halving = m.get("threads", p.threads), m.get("halving", p.halving)
    return p


cdef azk_search_params _search_params(object sims) except *:
    """The search settings for `sims` simulations per decision (None: default)."""
    cdef azk_search_params p
    azk_search_defaults(&p)
    if sims is not None:
        p.sims = _int_in(sims, "sims", 1, AZK_BOT_SEARCH_MAX_SIMS)
    return p


def splitmix64(x):
    """splitmix64 of a 64-bit value (azk_splitmix64: the project's one seed mixer)."""
    return azk_splitmix64(<uint64_t>_seed(x, "x"))


def bot_seed_for(seed, k):
    """The bot seed of side/seat k derived from a run's seed (azk_bot_seed_for)."""
    return azk_bot_seed_for(<uint64_t>_seed(seed), <uint64_t>_int_in(k, "k", 0, 2**64 - 1))


def deal_schedule(episode, seed=0, npairs=1, paired=False):
    """Episode `episode` of a VecGame as azk_deal_schedule defines it (docs/vecgame.md, Seeding and pairings)."""
    cdef azk_deal d
    _check(azk_deal_schedule(_seed(seed), _seed(episode, "episode"), _int_in(npairs, "npairs", 1, AZK_VEC_MAX_PAIRS),
                             1 if paired else 0, &d), "deal_schedule: bad arguments", ValueError)
    return _py.deal_dict(d)


def arena_deal(game, seed=0, npairs=1):
    """Game `game` of an arena run as azk_arena_deal defines it (azuki.h), a dict as deal_schedule's."""
    cdef azk_deal d
    azk_arena_deal(_seed(seed), _seed(game, "game"), _int_in(npairs, "npairs", 1, 2**31 - 1), &d)
    return _py.deal_dict(d)


def bot_rng(seed):
    """A bot's pcg32 state for `seed`: a numpy uint64 array [state, inc]."""
    out = np.zeros(2, dtype=np.uint64)
    azk_bot_seed(<uint64_t *>_ptr(out), _seed(seed))
    return out


cdef class SearchControl:
    """A stop flag (azk_search_ctl) for bot_act / pbot_act(..., control=) (docs/bots.md, Python entry points)."""
    cdef azk_search_ctl c

    def cancel(self):
        azk_search_cancel(&self.c)

    def reset(self):
        azk_search_reset(&self.c)

    @property
    def cancelled(self):
        return azk_search_cancelled(&self.c) != 0

    @property
    def sims_run(self):
        return self.c.sims_run


cdef object _decide(Game game, CPolicy policy, object kind, object rng, object sims, object settings,
                    object control, object visits, bint label):
    """Built-in bot `kind`'s (policy None) or policy bot `kind`'s decision: the action, or with `label` (action,
    value) and `visits` filled; after the checks of docs/bots.md (Python entry points), without the GIL."""
    cdef azk_search_params sp
    cdef azk_pbot_params pp
    cdef int k = AZK_BOT_SEARCH, a, nv = NUM_ACTIONS
    cdef float value = -1.0
    if policy is None:
        k = k if label else _int_in(kind, "kind", 0, azk_bot_num_kinds() - 1)
        sp = _search_params(sims)
    else:
        pp = _pbot_params(kind, settings)
    game._ck()
    cdef uint64_t *r = <uint64_t *>_ptr(_py.rng_words(rng))
    if control is not None and not isinstance(control, SearchControl):
        raise TypeError(f"control must be an azuki._core.SearchControl, got {type(control).__name__}")
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    sp.ctl = pp.ctl = NULL if control is None else &(<SearchControl>control).c
    cdef float *vp = <float *>_ptr(_py.visits_out(visits, NUM_ACTIONS) if label else None)
    with nogil:
        if policy is not None:
            a = azk_pbot_label(game.g, game.cs, policy.p, &pp, r, NULL, 0, vp, nv, &value) if label else \
                azk_pbot_act(game.g, game.cs, policy.p, &pp, r, NULL, 0)
        elif label:
            a = azk_bot_search_label(game.g, game.cs, r, &sp, vp, nv, &value)
        else:
            a = azk_bot_act_search(game.g, game.cs, r, &sp) if k == AZK_BOT_SEARCH else \
                azk_bot_act(game.g, game.cs, k, r)
    if a == -<int>AZK_ERR_CARDSET and policy is not None:
        raise ValueError(f"{kind}: the policy cannot read this card set's observations "
                         f"(a card outside its card table)")
    call = ("azk_pbot_label" if label else "azk_pbot_act") if policy is not None else \
        ("azk_bot_search_label" if label else "azk_bot_act")
    _check(<azk_status>(-a) if a < 0 else AZK_OK, f"{call} failed")
    return (a, float(value)) if label else <object>a


def bot_act(Game game not None, kind, rng, sims=None, control=None):
    """The action built-in bot `kind` (an index in BOT_KINDS) takes in `game` (docs/bots.md, Python entry points)."""
    return _decide(game, None, kind, rng, sims, None, control, None, False)


def pbot_act(Game game not None, CPolicy policy not None, kind, rng, settings=None, control=None):
    """The action policy bot `kind` takes in `game` with `policy` (docs/bots.md, Python entry points)."""
    return _decide(game, policy, kind, rng, None, settings, control, None, False)


def search_label(Game game not None, rng, visits, sims=None):
    """The search bot's (action, value) in `game`, `visits` filled (docs/bots.md, Python entry points)."""
    return _decide(game, None, "search", rng, sims, None, None, visits, True)


def pbot_label(Game game not None, CPolicy policy not None, rng, visits, settings=None):
    """psearch's (action, value) in `game` with `policy`, as search_label's (docs/bots.md, Python entry points)."""
    return _decide(game, policy, "psearch", rng, None, settings, None, visits, True)
