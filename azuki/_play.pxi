# ---------------------------------------------------------------------------
# Simulation (the main job): uniform-random legal players, C speed
# ---------------------------------------------------------------------------
# Games per GIL-free stretch of simulate(): signals (Ctrl-C) are checked
# between stretches whatever `chunk` is.
SIM_SIGNAL_GAMES = 64


def simulate(games, seed=0, decks=("STT01", "STT02"), cards=None, turn_cap=200, progress=None, chunk=500,
             decision_cap=10000, players=None, pbots=None):
    """Play `games` games between two uniform-random legal players. Game i uses
    engine seed `seed + i` (mod 2**64); the players draw from a separate pcg32
    stream. Returns a dict of results; `progress(done, games)` is called after
    every `chunk` games. Ctrl-C (KeyboardInterrupt) stops it within a few
    games, progress callback or not. `end_reasons` counts how the games
    ended (azuki.END_REASONS; docs/rules.md §13).

    `players`: None (the uniform-random players above), or two built-in bot
    names (azuki.BOT_KINDS, docs/bots.md), e.g. ("greedy", "random"):
    players[k] plays decks[k] (a "side"); sides alternate seats like the
    decks, and side k's bot draws from its own stream seeded with
    azuki.bot_seed_for(seed, k). The result then also has `players` and
    `wins_by_side`. Played in C without the GIL. `pbots`: None, or per side
    None or a policy bot (CPolicy, kind, settings) (pbot_act) that plays that
    side instead; its players entry is then only the label (e.g. the spec).
    """
    cdef int kinds[2]
    cdef uint64_t brng[4]
    cdef uint64_t seat_rng[4]
    cdef int seat_kinds[2]
    cdef bint use_bots = players is not None
    cdef bint any_pbot = False
    cdef azk_pbot_params sbp[2]
    cdef const azk_policy *sbpol[2]
    cdef void *sbw[2]
    cdef size_t sbwl[2]
    cdef int q2, act2, side
    sbw[0] = sbw[1] = NULL
    labels = None
    if use_bots:
        pb = list(pbots) if pbots is not None else [None, None]
        if isinstance(players, str) or not hasattr(players, "__len__") or len(players) != 2 or len(pb) != 2:
            raise ValueError(f"players must be two bot names, got {excerpt(players)}")
        pk = [0, 0]
        for sk in range(2):
            if pb[sk] is None:
                pk[sk] = bot_kind(players[sk])
                continue
            pol, pkind, psettings = pb[sk]
            if not isinstance(pol, CPolicy):
                raise TypeError(f"simulate: a policy bot needs a CPolicy, got {type(pol).__name__}")
            sbp[sk] = _pbot_params(pkind, psettings)
            sbpol[sk] = (<CPolicy>pol).p
            sbwl[sk] = azk_pbot_work_size(sbpol[sk], &sbp[sk])
            pk[sk] = -1 - sk
            any_pbot = True
        labels = (str(players[0]), str(players[1]))
        kinds[0] = pk[0]
        kinds[1] = pk[1]
        azk_bot_seed(&brng[0], bot_seed_for(seed, 0))
        azk_bot_seed(&brng[2], bot_seed_for(seed, 1))
    cdef long ngames = _int_in(games, "games", 0, 2**62)
    cdef uint64_t seed_ = _seed(seed)
    cdef CardSet cs = _resolve_cards(cards)
    dd = _deck_pair(cs, decks)
    cdef int d0 = dd[0], d1 = dd[1]
    cdef int tcap = _turn_cap(turn_cap)
    cdef int dcap = _decision_cap(decision_cap)
    cdef long reasons[32]
    memset(reasons, 0, sizeof(reasons))
    assert len(END_REASONS) <= 32
    cdef long chunk_ = _int_in(chunk, "chunk", 1, 2**62)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, got {type(progress).__name__}")
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    if g == NULL or legal == NULL:
        PyMem_Free(g)
        PyMem_Free(legal)
        raise MemoryError()
    cdef azk_rng pick
    azk_rng_seed(&pick, seed_, <uint64_t>S.CAPS["AZK_SIM_RNG_STREAM"])
    cdef long by_seat[2]
    cdef long by_deck[2]
    cdef long first_wins = 0
    cdef long results[5]
    cdef long long decisions = 0, turns = 0
    cdef long i, start = 0, end, errors = 0, next_report
    cdef int n, r, w, swap, k, na = NUM_ACTIONS
    memset(by_seat, 0, sizeof(by_seat))
    memset(by_deck, 0, sizeof(by_deck))
    memset(results, 0, sizeof(results))
    next_report = min(ngames, chunk_)
    if any_pbot:
        for k in range(2):
            if kinds[k] < 0:
                sbw[k] = PyMem_Malloc(sbwl[k])
                if sbw[k] == NULL:
                    PyMem_Free(sbw[0])
                    PyMem_Free(g)
                    PyMem_Free(legal)
                    raise MemoryError()
    t0 = time.perf_counter()
    try:
        while start < ngames:
            end = min(next_report, start + SIM_SIGNAL_GAMES)
            with nogil:
                for i in range(start, end):
                    swap = <int>(i & 1)   # alternate seats so deck and seat effects separate
                    azk_game_init(g, cs.cs, seed_ + <uint64_t>i, d1 if swap else d0, d0 if swap else d1)
                    azk_game_set_turn_cap(g, tcap)
                    azk_game_set_decision_cap(g, dcap)
                    if use_bots:
                        for k in range(2):   # seat k is played by side k ^ swap
                            seat_kinds[k] = kinds[k ^ swap]
                            seat_rng[2 * k] = brng[2 * (k ^ swap)]
                            seat_rng[2 * k + 1] = brng[2 * (k ^ swap) + 1]
                        if not any_pbot:
                            n = azk_bot_play_game(g, cs.cs, seat_kinds, seat_rng)
                        else:   # a policy bot plays a side: the decisions one by one
                            n = 0
                            while not azk_is_terminal(g):
                                q2 = azk_current_player(g)
                                if seat_kinds[q2] < 0:
                                    side = -1 - seat_kinds[q2]
                                    act2 = azk_pbot_act(g, cs.cs, sbpol[side], &sbp[side], &seat_rng[2 * q2],
                                                        sbw[side], sbwl[side])
                                else:
                                    act2 = azk_bot_act(g, cs.cs, seat_kinds[q2], &seat_rng[2 * q2])
                                if act2 < 0 or azk_step(g, cs.cs, act2) != AZK_OK:
                                    n = -1
                                    break
                                n += 1
                        for k in range(2):
                            brng[2 * (k ^ swap)] = seat_rng[2 * k]
                            brng[2 * (k ^ swap) + 1] = seat_rng[2 * k + 1]
                        if n < 0:
                            errors += 1
                        else:
                            decisions += n
                    while not use_bots and not azk_is_terminal(g):
                        n = azk_legal_actions(g, cs.cs, legal, na)
                        if n <= 0:
                            errors += 1
                            break
                        if azk_step(g, cs.cs, legal[azk_rng_bounded(&pick, <uint32_t>n)]) != AZK_OK:
                            errors += 1
                            break
                        decisions += 1
                    r = azk_result(g)
                    if 0 <= r < 5:
                        results[r] += 1
                        reasons[azk_end_reason(g)] += 1
                    turns += azk_turn(g)
                    w = azk_winner(g)
                    if w >= 0:
                        by_seat[w] += 1
                        by_deck[w ^ swap] += 1
                        if w == azk_first_player(g):
                            first_wins += 1
            start = end
            PyErr_CheckSignals()   # raises KeyboardInterrupt & co.
            if start == next_report:
                if progress is not None:
                    progress(start, ngames)
                next_report = min(ngames, next_report + chunk_)
    finally:
        PyMem_Free(g)
        PyMem_Free(legal)
        PyMem_Free(sbw[0])
        PyMem_Free(sbw[1])
    dt = time.perf_counter() - t0
    games = ngames
    extra = {}
    if use_bots:
        extra = {"players": labels, "wins_by_side": [by_deck[0], by_deck[1]]}
    return extra | {"games": games, "decks": (cs.decks[d0], cs.decks[d1]),
            "wins_by_deck": {cs.decks[d0]: by_deck[0], cs.decks[d1]: by_deck[1]} if d0 != d1 else None,
            "wins_by_seat": [by_seat[0], by_seat[1]], "wins_first_player": first_wins,
            "mirror": d0 == d1, "draws": results[3], "truncated": results[4],
            "end_reasons": {END_REASONS[k]: reasons[k] for k in range(1, len(END_REASONS)) if reasons[k]},
            "errors": errors, "decisions": decisions, "turns": turns, "seconds": dt,
            "decisions_per_game": <double>decisions / games if games else 0.0,
            "turns_per_game": <double>turns / games if games else 0.0,
            "games_per_second": games / dt if dt > 0 else 0.0,
            "decisions_per_second": decisions / dt if dt > 0 else 0.0}


# ---------------------------------------------------------------------------
# Micro-benchmarks for `python -m azuki bench` (azuki/bench.py): C loops over
# the public API without the GIL, so Python's call overhead is not measured.
# ---------------------------------------------------------------------------
cdef extern from "time.h" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk, timespec *ts)
    enum: CLOCK_MONOTONIC


cdef inline double _now() nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return <double>t.tv_sec + 1e-9 * <double>t.tv_nsec


def _bench_search(decisions=40, sims=None, seed=1):
    """The search bot's speed (`python -m azuki bench`): positions from greedy
    self-play (every third decision with two or more legal actions outside
    the mulligan) get one search decision each, timed in C without the GIL.
    Returns simulations/s, ms per decision, decisions and sims."""
    cdef azk_search_params sp = _search_params(sims)
    cdef int ndec = _int_in(decisions, "decisions", 1, 1 << 30)
    cdef uint64_t s0 = _seed(seed)
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    if g == NULL or legal == NULL:
        PyMem_Free(g)
        PyMem_Free(legal)
        raise MemoryError()
    cdef uint64_t grng[2]
    cdef uint64_t srng[2]
    cdef int done = 0, k = 0, a, n, na = NUM_ACTIONS
    cdef uint64_t gi = 0
    cdef double spent = 0.0, t0
    cdef long sink = 0
    azk_bot_seed(grng, s0)
    azk_bot_seed(srng, s0 + 1)
    try:
        with nogil:
            while done < ndec:
                azk_game_init(g, azk_default_cardset(), s0 + gi, <int>(gi & 1), <int>((gi >> 1) & 1))
                gi += 1
                while not azk_is_terminal(g) and done < ndec:
                    n = azk_legal_actions(g, azk_default_cardset(), legal, na)
                    if n >= 2 and azk_phase(g) != 0:
                        k += 1
                        if k % 3 == 0:
                            t0 = _now()
                            a = azk_bot_act_search(g, azk_default_cardset(), srng, &sp)
                            spent += _now() - t0
                            sink += a
                            done += 1
                    a = azk_bot_act(g, azk_default_cardset(), AZK_BOT_GREEDY, grng)
                    azk_step(g, azk_default_cardset(), a)
    finally:
        PyMem_Free(g)
        PyMem_Free(legal)
    return {"sims_per_s": done * sp.sims / spent if spent > 0 else 0.0,
            "ms_per_decision": 1e3 * spent / done if done else 0.0,
            "decisions": done, "sims": sp.sims, "_sink": sink & 1}


def _bench_micro(reps=200000, seed=1):
    """ns per call of reset (azk_game_init), clone, hash, serialize,
    deserialize, the flat mask and the legal list, on a mid-game position;
    a calibration loop (ns per iteration of a fixed integer recurrence) to
    normalize rates across machines; and memcpy bandwidth (bytes/s)."""
    cdef long n = _int_in(reps, "reps", 1, 10**9)
    cdef const azk_cardset *cs = azk_default_cardset()
    cdef size_t gsz = azk_game_size(), ssz = azk_serialized_size()
    cdef azk_game *g = <azk_game *>PyMem_Malloc(gsz)
    cdef azk_game *c = <azk_game *>PyMem_Malloc(gsz)
    cdef uint8_t *buf = <uint8_t *>PyMem_Malloc(ssz)
    cdef uint8_t *mask = <uint8_t *>PyMem_Malloc(NUM_ACTIONS)
    cdef int32_t *legal = <int32_t *>PyMem_Malloc(sizeof(int32_t) * NUM_ACTIONS)
    cdef size_t big = 64 << 20
    cdef uint8_t *src = <uint8_t *>PyMem_Malloc(big)
    cdef uint8_t *dst = <uint8_t *>PyMem_Malloc(big)
    if not (g and c and buf and mask and legal and src and dst):
        for p in (<size_t>g, <size_t>c, <size_t>buf, <size_t>mask, <size_t>legal, <size_t>src, <size_t>dst):
            PyMem_Free(<void *>p)
        raise MemoryError()
    cdef int na = NUM_ACTIONS
    cdef uint64_t sink = 0, x = 0x9E3779B97F4A7C15ULL, s_ = _seed(seed)
    cdef long i
    cdef int k, m
    cdef double t0, cal, reset, clone, hsh, ser, des, msk, lst, bw, obsu
    cdef azk_rng pick
    try:
        with nogil:
            t0 = _now()
            for i in range(n):
                x = x * 6364136223846793005ULL + 1442695040888963407ULL
                sink += x >> 60
            cal = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                azk_game_init(g, cs, s_ + <uint64_t>i, <int>(i & 1), <int>((i >> 1) & 1))
            reset = (_now() - t0) / n * 1e9
            azk_rng_seed(&pick, s_, 7)
            for k in range(40):   # a mid-game position
                if azk_is_terminal(g):
                    break
                m = azk_legal_actions(g, cs, legal, na)
                azk_step(g, cs, legal[azk_rng_bounded(&pick, <uint32_t>m)])
            t0 = _now()
            for i in range(n):
                azk_game_clone(c, g)
                sink += <uint64_t>azk_turn(c)
            clone = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                sink += azk_hash(g)
            hsh = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                sink += azk_serialize(g, cs, buf, ssz)
            ser = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n // 10 + 1):
                sink += <uint64_t>azk_deserialize(c, cs, buf, ssz)
            des = (_now() - t0) / (n // 10 + 1) * 1e9
            t0 = _now()
            for i in range(n):
                sink += <uint64_t>azk_legal_mask(g, cs, mask)
            msk = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n):
                sink += <uint64_t>azk_legal_actions(g, cs, legal, na)
            lst = (_now() - t0) / n * 1e9
            t0 = _now()
            for i in range(n // 10 + 1):
                sink += <uint64_t>azk_observe(g, cs, <int>(i & 1), src)
            obsu = (_now() - t0) / (n // 10 + 1) * 1e9
            memset(src, 1, big)
            memset(dst, 0, big)
            t0 = _now()
            for k in range(8):
                memcpy(dst, src, big)
                sink += dst[k * 4096]
            bw = 8.0 * big / (_now() - t0)
    finally:
        for p in (<size_t>g, <size_t>c, <size_t>buf, <size_t>mask, <size_t>legal, <size_t>src, <size_t>dst):
            PyMem_Free(<void *>p)
    return {"calibration_ns": cal, "reset_ns": reset, "clone_ns": clone, "hash_ns": hsh,
            "serialize_ns": ser, "deserialize_ns": des, "mask_ns": msk, "legal_list_ns": lst,
            "observe_ns": obsu, "obs_bytes": OBS_LEN,
            "memcpy_bytes_per_s": bw, "state_bytes": gsz, "serialized_bytes": ssz, "_sink": sink & 1}


# ---------------------------------------------------------------------------
# Built-in bots (csrc/bot.c, docs/bots.md; the Python objects: azuki.bots)
# ---------------------------------------------------------------------------
BOT_KINDS = tuple(azk_bot_name(k).decode() for k in range(azk_bot_num_kinds()))
BOT_VERSIONS = {BOT_KINDS[k]: azk_bot_version(k) for k in range(azk_bot_num_kinds())}
GREEDY_VERSION = AZK_BOT_GREEDY_VERSION
SEARCH_VERSION = AZK_BOT_SEARCH_VERSION
SEARCH_SIMS = AZK_BOT_SEARCH_SIMS            # the search bot's default simulations per decision
SEARCH_MAX_SIMS = AZK_BOT_SEARCH_MAX_SIMS


# The policy bots (azuki.h "Policy bots"): a loaded CPolicy plays alone ("policy") or guides a PUCT
# information-set search ("psearch"). Settings are a dict (pbot_defaults(kind) lists them).
PBOT_KINDS = tuple(azk_pbot_name(k).decode() for k in (AZK_PBOT_POLICY, AZK_PBOT_PSEARCH))
PBOT_VERSIONS = {PBOT_KINDS[k]: azk_pbot_version(k) for k in range(2)}
PSEARCH_MAX_SIMS = AZK_PSEARCH_MAX_SIMS
_PBOT_SETTINGS = {"policy": ("temp",), "psearch": ("sims", "cpuct", "prior_temp", "value")}


def pbot_defaults(kind):
    """The default settings of policy bot `kind` ("policy" or "psearch") as a dict: policy: temp (0:
    the most likely legal action, else sample softmax(log p / temp)); psearch: sims, cpuct,
    prior_temp, value (the value head's share of a leaf's score; the rest a greedy playout)."""
    cdef azk_pbot_params p
    k = _pbot_kind(kind)
    azk_pbot_defaults(&p, k)
    full = {"temp": p.temp_milli / 1000, "sims": p.sims, "cpuct": p.cpuct_milli / 1000,
            "prior_temp": p.prior_temp_milli / 1000, "value": p.value_milli / 1000}
    return {n: full[n] for n in _PBOT_SETTINGS[kind]}


cdef int _pbot_kind(object kind) except -1:
    if isinstance(kind, str) and kind in PBOT_KINDS:
        return PBOT_KINDS.index(kind)
    raise ValueError(f"unknown policy bot {excerpt(kind)}: expected one of {', '.join(PBOT_KINDS)}")


cdef int _milli(object v, str what, double lo, double hi) except? -1:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
        raise ValueError(f"{what} must be a number in [{lo:g}, {hi:g}], got {excerpt(v)}")
    return <int>round(v * 1000)


cdef azk_pbot_params _pbot_params(object kind, object settings) except *:
    """The C settings for policy bot `kind` with `settings` (a dict; missing keys: the defaults)."""
    cdef azk_pbot_params p
    cdef int k = _pbot_kind(kind)
    azk_pbot_defaults(&p, k)
    settings = dict(settings or {})
    for name in settings:
        if name not in _PBOT_SETTINGS[kind]:
            raise ValueError(f"{kind}: unknown setting {excerpt(name)} (settings: {', '.join(_PBOT_SETTINGS[kind])})")
    if "temp" in settings:
        p.temp_milli = _milli(settings["temp"], "temp", 0, 1000)
    if "sims" in settings:
        p.sims = _int_in(settings["sims"], "sims", 1, AZK_PSEARCH_MAX_SIMS)
    if "cpuct" in settings:
        p.cpuct_milli = _milli(settings["cpuct"], "cpuct", 0, 1000)
    if "prior_temp" in settings:
        p.prior_temp_milli = _milli(settings["prior_temp"], "prior_temp", 0.001, 1000)
    if "value" in settings:
        p.value_milli = _milli(settings["value"], "value", 0, 1)
    return p


def _check_pbot_settings(kind, settings):
    """ValueError (one line) for an unknown policy bot kind or a bad setting."""
    _pbot_params(kind, settings)


def pbot_act(Game game, CPolicy policy, kind, rng, settings=None, control=None):
    """The action policy bot `kind` ("policy" / "psearch") takes in `game` with the C policy `policy`
    and `settings` (pbot_defaults); `rng` (from bot_rng) is advanced in place; `control` (psearch): a
    SearchControl another thread may stop the search with. The game is not modified. ValueError for
    a policy that cannot read this card set's observations."""
    if game is None or policy is None:
        raise TypeError("pbot_act needs an azuki.Game and a CPolicy")
    game._ck()
    cdef azk_pbot_params p = _pbot_params(kind, settings)
    if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (2,) \
            or not rng.flags.c_contiguous or not rng.flags.writeable:
        raise TypeError("rng must be a writeable numpy uint64 array of shape (2,) (azuki._core.bot_rng)")
    if control is not None and not isinstance(control, SearchControl):
        raise TypeError(f"control must be an azuki._core.SearchControl, got {type(control).__name__}")
    if control is not None:
        p.ctl = &(<SearchControl>control).c
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    cdef uint64_t[::1] v = rng
    cdef int a
    with nogil:
        a = azk_pbot_act(game.g, game.cs, policy.p, &p, &v[0], NULL, 0)
    if a == -<int>AZK_ERR_CARDSET:
        raise ValueError(f"{kind}: the policy cannot read this card set's observations (a card outside its "
                         f"card table)")
    if a < 0:
        raise AzukiError(f"azk_pbot_act failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a


cdef azk_search_params _search_params(object sims) except *:
    """The search settings for `sims` simulations per decision (None: default)."""
    cdef azk_search_params p
    azk_search_defaults(&p)
    if sims is not None:
        p.sims = _int_in(sims, "sims", 1, AZK_BOT_SEARCH_MAX_SIMS)
    return p
_MASK64 = (1 << 64) - 1


def bot_kind(name):
    """The kind number of a bot name (azuki.BOT_KINDS); ValueError otherwise."""
    if isinstance(name, str) and name in BOT_KINDS:
        return BOT_KINDS.index(name)
    if isinstance(name, str):
        raise ValueError(f"unknown bot {excerpt(name)}: expected one of {', '.join(BOT_KINDS)}")
    raise TypeError(f"a bot is named by a string ({', '.join(BOT_KINDS)}), got {type(name).__name__}")


cdef object _bot_kinds(object players):
    if isinstance(players, str) or not hasattr(players, "__len__") or len(players) != 2:
        raise ValueError(f"players must be two bot names, got {excerpt(players)}")
    return (bot_kind(players[0]), bot_kind(players[1]))


def splitmix64(x):
    """splitmix64 of a 64-bit value (azuki.h azk_splitmix64: the project's one
    seed mixer; the bots, eval, arena and the envs' streams derive from it)."""
    return azk_splitmix64(<uint64_t>_seed(x, "x"))


def bot_seed_for(seed, k):
    """The bot seed of side/seat k derived from a run's seed (azk_bot_seed_for:
    splitmix64, defined once in C)."""
    return azk_bot_seed_for(<uint64_t>_seed(seed), <uint64_t>_int_in(k, "k", 0, 2**64 - 1))


def deal_schedule(episode, seed=0, npairs=1, paired=False):
    """Episode `episode` of a VecGame (or game `episode` of a paired
    evaluation) as the C schedule defines it (azuki.h azk_deal_schedule, the
    one definition VecGame plays): a dict with deal (the deal index),
    engine_seed (seed + deal), pairing (index into the pairings list),
    swapped (the pairing's decks trade seats), agent_seat and bot_seed (the
    stream a VecGame's bot draws from in that episode)."""
    cdef azk_deal d
    cdef azk_status st = azk_deal_schedule(<uint64_t>_seed(seed), <uint64_t>_int_in(episode, "episode", 0, 2**64 - 1),
                                           <int>_int_in(npairs, "npairs", 1, AZK_VEC_MAX_PAIRS), 1 if paired else 0,
                                           &d)
    if st != AZK_OK:
        raise ValueError(f"deal_schedule: bad arguments ({azk_status_name(st).decode()})")
    return {"deal": d.deal, "engine_seed": d.engine_seed, "pairing": d.pairing, "swapped": bool(d.swapped),
            "agent_seat": d.agent_seat, "bot_seed": d.bot_seed}


def arena_deal(game, seed=0, npairs=1):
    """Game `game` of an arena run as C defines it (azuki.h azk_arena_deal):
    a dict as deal_schedule's, agent_seat being player A's seat (each
    player keeps its deck), bot_seed the game's base bot seed (seat s's bot:
    bot_seed_for(bot_seed, s))."""
    cdef azk_deal d
    if _int_in(npairs, "npairs", 1, 2**31 - 1) < 1:
        raise ValueError("npairs must be >= 1")
    azk_arena_deal(<uint64_t>_seed(seed), <uint64_t>_int_in(game, "game", 0, 2**64 - 1), <int>npairs, &d)
    return {"deal": d.deal, "engine_seed": d.engine_seed, "pairing": d.pairing, "swapped": bool(d.swapped),
            "agent_seat": d.agent_seat, "bot_seed": d.bot_seed}


def bot_rng(seed):
    """A bot's pcg32 state for `seed`: a numpy uint64 array [state, inc]."""
    out = np.zeros(2, dtype=np.uint64)
    cdef uint64_t[::1] v = out
    azk_bot_seed(&v[0], _seed(seed))
    return out


cdef class SearchControl:
    """A stop flag for the search bot (azk_search_ctl), for bot_act(...,
    control=): `cancel()` from any thread while a search runs stops it before
    its next simulation, and it plays the best action found so far (the
    first legal one if no simulation ran); `sims_run` is the number of
    simulations the last decision ran. The flag stays set until `reset()`."""
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


def bot_act(Game game, kind, rng, sims=None, control=None):
    """The action built-in bot `kind` (an index in BOT_KINDS) takes in `game`;
    `rng` (from bot_rng) is advanced in place. The game is not modified.
    `sims`: the search bot's simulations per decision (None: SEARCH_SIMS).
    `control`: a SearchControl through which another thread may stop the
    search (the search bot only; None: it runs its sims)."""
    if game is None:
        raise TypeError("bot_act needs an azuki.Game, got None")
    game._ck()
    cdef int k = _int_in(kind, "kind", 0, azk_bot_num_kinds() - 1)
    if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (2,) \
            or not rng.flags.c_contiguous or not rng.flags.writeable:
        raise TypeError("rng must be a writeable numpy uint64 array of shape (2,) (azuki._core.bot_rng)")
    if control is not None and not isinstance(control, SearchControl):
        raise TypeError(f"control must be an azuki._core.SearchControl, got {type(control).__name__}")
    cdef uint64_t[::1] v = rng
    cdef int a
    cdef azk_search_params sp = _search_params(sims)
    if control is not None:
        sp.ctl = &(<SearchControl>control).c
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    with nogil:
        if k == AZK_BOT_SEARCH:
            a = azk_bot_act_search(game.g, game.cs, &v[0], &sp)
        else:
            a = azk_bot_act(game.g, game.cs, k, &v[0])
    if a < 0:
        raise AzukiError(f"azk_bot_act failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a


cdef float[::1] _visits_out(object visits) except *:
    """The caller's visit-share array for a search label: float32, shape (NUM_ACTIONS,), contiguous, writeable."""
    if not isinstance(visits, np.ndarray):
        raise TypeError(f"visits must be a numpy float32 array of shape ({NUM_ACTIONS},), got {type(visits).__name__}")
    if visits.dtype != np.float32 or visits.shape != (NUM_ACTIONS,) or not visits.flags.c_contiguous \
            or not visits.flags.writeable:
        raise ValueError(f"visits must be a writeable contiguous float32 array of shape ({NUM_ACTIONS},), got "
                         f"{visits.dtype} {visits.shape}{'' if visits.flags.writeable else ' read-only'}")
    return visits


cdef int _rng_ok(object rng) except -1:
    if not isinstance(rng, np.ndarray) or rng.dtype != np.uint64 or rng.shape != (2,) \
            or not rng.flags.c_contiguous or not rng.flags.writeable:
        raise TypeError("rng must be a writeable numpy uint64 array of shape (2,) (azuki._core.bot_rng)")
    return 0


def search_label(Game game, rng, visits, sims=None):
    """The search bot's decision in `game` with its labels (azk_bot_search_label; training from search,
    docs/training.md "Expert iteration"): returns (action, value), the action bot_act(game, "search",
    rng, sims) takes (rng advanced the same), and fills `visits` (float32 [NUM_ACTIONS]) with each root
    action's share of the simulations (1 on the action when none ran: one legal action, a mulligan);
    value: the mean simulation result for the player to act in [0, 1], -1.0 when no simulation ran.
    Runs without the GIL (threads label in parallel). Bad arguments change nothing."""
    if game is None:
        raise TypeError("search_label needs an azuki.Game, got None")
    game._ck()
    _rng_ok(rng)
    cdef float[::1] vv = _visits_out(visits)
    cdef azk_search_params sp = _search_params(sims)
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    cdef uint64_t[::1] v = rng
    cdef float value = -1.0
    cdef int a
    with nogil:
        a = azk_bot_search_label(game.g, game.cs, &v[0], &sp, &vv[0], <int>vv.shape[0], &value)
    if a < 0:
        raise AzukiError(f"azk_bot_search_label failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a, float(value)


def pbot_label(Game game, CPolicy policy, rng, visits, settings=None):
    """psearch's decision in `game` with the C policy `policy` and `settings` (pbot_defaults("psearch")),
    with its labels, as search_label: (action, value), visits filled. Runs without the GIL."""
    if game is None or policy is None:
        raise TypeError("pbot_label needs an azuki.Game and a CPolicy")
    game._ck()
    _rng_ok(rng)
    cdef float[::1] vv = _visits_out(visits)
    cdef azk_pbot_params p = _pbot_params("psearch", settings)
    if azk_is_terminal(game.g):
        raise ValueError(f"the game is over ({S.RESULT[azk_result(game.g)]}): a bot has nothing to choose")
    cdef uint64_t[::1] v = rng
    cdef float value = -1.0
    cdef int a
    with nogil:
        a = azk_pbot_label(game.g, game.cs, policy.p, &p, &v[0], NULL, 0, &vv[0], <int>vv.shape[0], &value)
    if a == -<int>AZK_ERR_CARDSET:
        raise ValueError("psearch: the policy cannot read this card set's observations (a card outside its card table)")
    if a < 0:
        raise AzukiError(f"azk_pbot_label failed: {azk_status_name(<azk_status>(-a)).decode()}")
    return a, float(value)


def play_games(seeds, deck0, deck1, kind0, kind1, bseed0, bseed1, cards=None, turn_cap=200, decision_cap=10000,
               sims=None, pbots=()):
    """Play one game per row of the equal-length integer arrays: engine seed,
    the deck indices of seats 0 and 1, their bot kinds and bot seeds; in C,
    without the GIL. Returns a dict of numpy arrays: result (azk result
    number), winner (-1 none), first_player, end_reason, turns, decisions,
    error (1 where the engine refused a bot's action: a bug), seat0/1_seconds
    and seat0/1_decisions (time in each seat's bot and its decisions), and
    seconds. `sims`: the search bot's simulations per decision (None: SEARCH_SIMS).
    `pbots`: policy bots, a sequence of (CPolicy, kind, settings) (pbot_act); kind -1 - j in a kind
    column plays pbots[j] (its workspace allocated once here, not per decision).
    Several threads may call it at once (each game is independent)."""
    cdef CardSet cs = _resolve_cards(cards)
    cdef azk_search_params sp = _search_params(sims)
    cdef int tcap = _turn_cap(turn_cap)
    cdef int dcap = _decision_cap(decision_cap)
    cols = [np.ascontiguousarray(np.asarray(a, dtype=np.uint64)) for a in (seeds, bseed0, bseed1)]
    ints = [np.ascontiguousarray(np.asarray(a, dtype=np.int32)) for a in (deck0, deck1, kind0, kind1)]
    cdef Py_ssize_t n = cols[0].shape[0], i
    for a in cols + ints:
        if a.ndim != 1 or a.shape[0] != n:
            raise ValueError("play_games: every column must be a 1-d array of the same length")
    ndecks = len(cs.decks)
    for a in ints[:2]:
        if n and (a.min() < 0 or a.max() >= ndecks):
            raise ValueError(f"play_games: deck index out of range [0, {ndecks})")
    pbots = list(pbots)
    if len(pbots) > 2:
        raise ValueError("play_games: at most two policy bots")
    cdef azk_pbot_params pbp[2]
    cdef const azk_policy *pbpol[2]
    cdef void *pbw[2]
    cdef size_t pbwl[2]
    pbw[0] = pbw[1] = NULL
    for j, spec in enumerate(pbots):
        pol, pkind, psettings = spec
        if not isinstance(pol, CPolicy):
            raise TypeError(f"play_games: a policy bot needs a CPolicy, got {type(pol).__name__}")
        pbp[j] = _pbot_params(pkind, psettings)
        pbpol[j] = (<CPolicy>pol).p
        pbwl[j] = azk_pbot_work_size(pbpol[j], &pbp[j])
    for a in ints[2:]:
        if n and (a.min() < -len(pbots) or a.max() >= azk_bot_num_kinds()):
            raise ValueError(f"play_games: bot kind out of range [{-len(pbots)}, {azk_bot_num_kinds()})")
    cdef const uint64_t[::1] sd = cols[0], b0 = cols[1], b1 = cols[2]
    cdef const int32_t[::1] d0 = ints[0], d1 = ints[1], k0 = ints[2], k1 = ints[3]
    res = {name: np.zeros(n, dtype=np.int32) for name in
           ("result", "winner", "first_player", "end_reason", "turns", "decisions", "error")}
    cdef int32_t[::1] o_res = res["result"], o_win = res["winner"], o_first = res["first_player"]
    cdef int32_t[::1] o_end = res["end_reason"], o_turns = res["turns"], o_dec = res["decisions"], o_err = res["error"]
    for name in ("seat0_seconds", "seat1_seconds"):
        res[name] = np.zeros(n, dtype=np.float64)
    for name in ("seat0_decisions", "seat1_decisions"):
        res[name] = np.zeros(n, dtype=np.int32)
    cdef double[::1] o_t0 = res["seat0_seconds"], o_t1 = res["seat1_seconds"]
    cdef int32_t[::1] o_n0 = res["seat0_decisions"], o_n1 = res["seat1_decisions"]
    cdef double t1, t2
    cdef int q, act
    cdef azk_game *g = <azk_game *>PyMem_Malloc(azk_game_size())
    if g == NULL:
        raise MemoryError()
    for j in range(len(pbots)):
        pbw[j] = PyMem_Malloc(pbwl[j])
        if pbw[j] == NULL:
            PyMem_Free(g)
            PyMem_Free(pbw[0])
            raise MemoryError()
    cdef int kinds[2]
    cdef uint64_t rng[4]
    cdef int m
    cdef Py_ssize_t start = 0, end
    t0 = time.perf_counter()
    try:
        while start < n:
            end = min(n, start + SIM_SIGNAL_GAMES)
            with nogil:
                for i in range(start, end):
                    azk_game_init(g, cs.cs, sd[i], d0[i], d1[i])
                    azk_game_set_turn_cap(g, tcap)
                    azk_game_set_decision_cap(g, dcap)
                    kinds[0] = k0[i]
                    kinds[1] = k1[i]
                    azk_bot_seed(&rng[0], b0[i])
                    azk_bot_seed(&rng[2], b1[i])
                    m = 0
                    while not azk_is_terminal(g):
                        q = azk_current_player(g)
                        t1 = _now()
                        if kinds[q] < 0:
                            act = azk_pbot_act(g, cs.cs, pbpol[-1 - kinds[q]], &pbp[-1 - kinds[q]], &rng[2 * q],
                                               pbw[-1 - kinds[q]], pbwl[-1 - kinds[q]])
                        elif kinds[q] == AZK_BOT_SEARCH:
                            act = azk_bot_act_search(g, cs.cs, &rng[2 * q], &sp)
                        else:
                            act = azk_bot_act(g, cs.cs, kinds[q], &rng[2 * q])
                        t2 = _now()
                        if q == 0:
                            o_t0[i] += t2 - t1
                            o_n0[i] += 1
                        else:
                            o_t1[i] += t2 - t1
                            o_n1[i] += 1
                        if act < 0 or azk_step(g, cs.cs, act) != AZK_OK:
                            m = -1
                            break
                        m += 1
                    o_err[i] = 1 if m < 0 else 0
                    o_dec[i] = m if m >= 0 else azk_decisions(g)
                    o_res[i] = azk_result(g)
                    o_win[i] = azk_winner(g)
                    o_first[i] = azk_first_player(g)
                    o_end[i] = azk_end_reason(g)
                    o_turns[i] = azk_turn(g)
            start = end
            PyErr_CheckSignals()
    finally:
        PyMem_Free(g)
        PyMem_Free(pbw[0])
        PyMem_Free(pbw[1])
    res["seconds"] = time.perf_counter() - t0
    return res




cdef inline void _pick_rows(azk_vec *vp, const azk_cardset *cs, const uint8_t *act, int32_t *out, int rows,
                            int per_game, int32_t *legal, int cap, azk_rng *pick) noexcept nogil:
    """out[r] = a uniform choice from the legal-action list of row r's game
    where act[r] (else 0): as the engine loop (simulate) picks, without
    scanning the NUM_ACTIONS-byte mask."""
    cdef int r, cnt
    for r in range(rows):
        out[r] = 0
        if not act[r]:
            continue
        cnt = azk_legal_actions(azk_vec_game(vp, r // per_game), cs, legal, cap)
        if cnt > 0:
            out[r] = legal[azk_rng_bounded(pick, <uint32_t>cnt)]


def _bench_pick(obs, int mask_off, out, uint64_t seed):
    """For benchmarks of env layers: out[r] (int32) = a uniform choice among
    the legal actions in the packed MASK field (at mask_off: bit k of byte
    k >> 3) of observation row r, in C without the GIL."""
    cdef const uint8_t[:, ::1] ov = obs
    cdef int32_t[::1] outv = out
    cdef int rows = ov.shape[0], na = NUM_ACTIONS, r, k, cnt, j
    if mask_off < 0 or mask_off + (na + 7) // 8 > ov.shape[1] or outv.shape[0] != rows:
        raise ValueError("_bench_pick: shapes")
    cdef azk_rng pick
    azk_rng_seed(&pick, seed, 7)
    cdef const uint8_t *m
    with nogil:
        for r in range(rows):
            m = &ov[r, mask_off]
            cnt = 0
            for k in range(na):
                cnt += (m[k >> 3] >> (k & 7)) & 1
            j = <int>azk_rng_bounded(&pick, <uint32_t>cnt)
            outv[r] = 0
            for k in range(na):
                if (m[k >> 3] >> (k & 7)) & 1:
                    if j == 0:
                        outv[r] = k
                        break
                    j -= 1


def _bench_vec(n, steps, mode="self", obs=True, seed=1, obs_dtype="uint8", waiting_obs="full", threads=1):
    """Agent-steps per second of VecGame(n, threads=threads) with
    observations (if obs, in obs_dtype) and masks: actions are drawn
    uniformly from each acting row's legal-action list by a C loop (pcg32),
    as the engine loop picks, so neither Python nor the picker dominates. An agent-step is
    one decision applied for an agent row (ignored NO_OP rows do not count).
    mode="policy": each step is a step() for the acting agent rows followed
    by step_opponent() for the pending games, both answered by the same C
    picker (opponent decisions are not counted as agent-steps).
    bytes_per_agent_step: what the buffers receive per agent-step (masks and
    scalars of every row; observations of every row with waiting_obs="full",
    else of the acting rows plus the MASK field of the others)."""
    cdef int nsteps = _int_in(steps, "steps", 1, 10**7)
    v = VecGame(n, seed=seed, mode=mode, bot="random", obs=obs, obs_dtype=obs_dtype, waiting_obs=waiting_obs,
                threads=threads)
    cdef VecGame vg = v
    cdef int rows = v.rows, na = NUM_ACTIONS, r, s, nn = v.n
    cdef int policy = mode == "policy"
    cdef uint8_t *mp = <uint8_t *>_ptr(v.masks)
    cdef float *rp = <float *>_ptr(v.rewards)
    cdef uint8_t *tp = <uint8_t *>_ptr(v.terminals)
    cdef uint8_t *up = <uint8_t *>_ptr(v.truncations)
    cdef void *op = _ptr(v.obs)
    cdef void *oo = _ptr(v.opp_obs)
    cdef uint8_t *om = <uint8_t *>_ptr(v.opp_masks)
    cdef uint8_t *pend = <uint8_t *>_ptr(v.opp_pending)
    actions = np.zeros(rows, dtype=np.int32)
    cdef int32_t[::1] av = actions
    cdef int32_t[::1] acting32 = np.zeros(rows, dtype=np.int32)
    cdef uint8_t[::1] act8 = np.zeros(rows, dtype=np.uint8)
    cdef int32_t[::1] legal = np.zeros(NUM_ACTIONS, dtype=np.int32)
    cdef int per_game = 2 if mode == "self" else 1
    cdef azk_rng pick
    azk_rng_seed(&pick, seed, 99)
    cdef long long applied = 0
    cdef int bad = 0
    cdef azk_vec *vp = vg.v
    cdef const azk_cardset *cs = vg.cards.cs
    cdef double t0
    vg._enter("_bench_vec")     # held like any call: the loop below steps vg's games directly
    t0 = time.perf_counter()
    try:
        with nogil:
            for s in range(nsteps):
                azk_vec_observe(vp, cs, NULL, NULL, &acting32[0])
                for r in range(rows):
                    act8[r] = <uint8_t>acting32[r]
                    applied += act8[r]
                _pick_rows(vp, cs, &act8[0], &av[0], rows, per_game, &legal[0], na, &pick)
                azk_vec_step(vp, cs, &av[0], op, mp, rp, tp, up, &bad)
                if policy:
                    azk_vec_observe_opponent(vp, cs, oo, om, pend)
                    _pick_rows(vp, cs, pend, &av[0], nn, 1, &legal[0], na, &pick)
                    azk_vec_step_opponent(vp, cs, &av[0], op, mp, rp, tp, up, &bad)
                    azk_vec_observe_opponent(vp, cs, oo, om, pend)
    finally:
        vg._leave()
    dt = time.perf_counter() - t0
    cdef double acting_rows = max(1.0, applied / nsteps)
    cdef double per_step = rows * (NUM_ACTIONS + 4 + 1 + 1)
    if obs:
        if waiting_obs == "full":
            per_step += rows * OBS_LEN
        else:
            per_step += acting_rows * OBS_LEN + (rows - acting_rows) * ((NUM_ACTIONS + 7) // 8)
    return {"agent_steps_per_s": applied / dt, "agent_steps": applied, "seconds": dt,
            "bytes_per_agent_step": per_step / acting_rows}



