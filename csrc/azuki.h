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

typedef enum azk_status {
    AZK_OK = 0,
    AZK_ILLEGAL = 1,        /* action not legal now; nothing changed */
    AZK_TERMINAL = 2,       /* the game is over; nothing changed */
    AZK_ERR_ARG = 3,        /* bad argument (index, deck, size) */
    AZK_ERR_CORRUPT = 4,    /* state bytes rejected: magic, version, size, checksum or content */
    AZK_ERR_CARDSET = 5,    /* card set failed verification, or bytes belong to another set */
    AZK_ERR_LIMIT = 6       /* unused since state version 2: a bound reached ends the game
                               TRUNCATED with a reason (azk_end_reason) and the step returns OK */
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

#ifdef __cplusplus
}
#endif
#endif /* AZUKI_H */
