# _core.pxd — the contract between Python and the C core.
#
# Declares the public C API (csrc/azuki.h) plus the parts of the game and
# card-set structs (csrc/game.h, csrc/cardset.h) that the binding reads for
# state_dict()/prompt() and writes in from_setup() (run-time card sets are
# loaded from bytes: azk_cardset_load).
# Field names and types mirror the C headers exactly; Cython checks every
# access against the real struct when compiling the generated C.
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t

cdef extern from "azuki.h" nogil:
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
        uint8_t keywords

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

cdef extern from "game.h" nogil:
    enum:
        AZK_PLAYERS
        AZK_CARDS_PER_PLAYER
        AZK_NUM_CARDS
        AZK_ROW
        AZK_HAND_CAP
        AZK_IKZ_AREA_CAP
        AZK_LOOK_CAP
        AZK_MAX_OPTIONS
        AZK_MAX_EFFECTS
        AZK_EVENT_CAP
        AZK_NONE
        AZK_HASHED_BYTES
        AZK_DEFAULT_TURN_CAP
        AZK_CF_TAPPED
        AZK_CF_COOLDOWN
        AZK_CF_SHOCKED
        AZK_CF_REVEALED
        AZK_FLOW_MAIN

    ctypedef struct azk_card:
        uint8_t def_ "def"
        uint8_t owner
        uint8_t zone
        uint8_t pos
        uint8_t holder
        uint8_t flags
        uint8_t once_used
        int16_t damage
        uint16_t incarnation

    ctypedef struct azk_player:
        uint8_t deck[50]
        uint8_t hand[50]
        uint8_t discard[50]
        uint8_t weapons[50]
        uint8_t garden[5]
        uint8_t alley[5]
        uint8_t ikz_area[11]
        uint8_t ikz_pile[10]
        uint8_t look[10]
        uint8_t deck_n, hand_n, discard_n, weapons_n, ikz_area_n, ikz_pile_n, look_n
        uint8_t leader, gate, token
        uint8_t played_entities
        uint8_t mulligan_done

    ctypedef struct azk_effect:
        uint8_t card
        uint8_t kind
        uint8_t duration
        uint8_t creator
        int8_t amount
        uint8_t status
        uint16_t incarnation

    ctypedef struct azk_trigger_entry:
        uint8_t source
        uint8_t ability
        uint8_t controller

    ctypedef struct azk_vm_frame:
        uint8_t active
        uint8_t waiting
        uint8_t controller
        uint8_t source
        uint8_t ability
        uint16_t pc
        uint8_t t[4]

    ctypedef struct azk_prompt:
        uint8_t kind
        uint8_t chooser
        uint8_t n
        uint8_t optional
        uint8_t opt[64]

    ctypedef struct azk_game:
        azk_rng rng
        azk_card cards[126]
        azk_player pl[2]
        azk_effect fx[48]
        azk_trigger_entry trig[32]
        azk_vm_frame vm
        azk_prompt prompt
        uint16_t turn
        uint16_t turn_cap
        uint16_t next_incarnation
        uint8_t active
        uint8_t first_player
        uint8_t phase
        uint8_t flow
        uint8_t result
        uint8_t fx_n, trig_n
        uint8_t end_reason
        uint8_t in_attack
        uint8_t attacker, target
        uint8_t defender_used
        uint16_t attacker_inc, target_inc
        uint16_t decisions, decision_cap

    int azk_attack_of(const azk_game *g, const azk_cardset *cs, int c)
    int azk_health_of(const azk_game *g, const azk_cardset *cs, int c)
    unsigned azk_status_of(const azk_game *g, const azk_cardset *cs, int c)
    void azk_state_check(azk_game *g, const azk_cardset *cs)
    void azk_state_check_all(azk_game *g, const azk_cardset *cs)
    void azk_advance(azk_game *g, const azk_cardset *cs)
    void azk_move(azk_game *g, const azk_cardset *cs, int c, int zone, int slot)
    int azk_check_invariants(const azk_game *g, const azk_cardset *cs)
    int azk_check_state(const azk_game *g, const azk_cardset *cs, int check_legal_cache)
