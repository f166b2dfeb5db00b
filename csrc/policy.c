/* policy.c — a trained policy's forward pass in C (azuki.h "Policy networks";
 * docs/policy_c.md).
 *
 * Loads an AZKW weight file (written by azuki.policy_np.azkw_bytes from a
 * torch or numpy checkpoint) and computes, for uint8 observations (layout
 * AZK_OBS_VERSION), the value and the log-probability of every flat action
 * under the legal mask inside the observation, for every architecture / head
 * pair of azuki.policy (encoder "structured" or "flat", head "dense" or
 * "factored"), op for op what torch computes (tests/test_cpolicy.py,
 * tests/envs/test_cpolicy_torch.py: max |delta| <= 1e-4). It also samples an action
 * from a given uniform exactly as azuki.policy.Factored.sample /
 * azuki.sampler.Masked.sample do (inverse CDF in float64), so C and torch
 * pick the same action for the same uniform, and gives the most likely legal
 * action.
 *
 * The weight file (little-endian; every size, offset, shape and index is
 * checked at load: a truncated, corrupt or mismatched file is refused with a
 * status and a message, never read out of bounds):
 *   "AZKW", u32 format (AZK_POLICY_FORMAT), u32 arch (0 structured, 1 flat),
 *   u32 head (0 dense, 1 factored), u32 obs layout version, u32 OBS_LEN,
 *   u32 NUM_ACTIONS, u32 tensor count, char[3][16] the compatibility hashes
 *   (obs_layout, action_space, card_set: azuki.policy_np.compat_hashes, hex),
 *   then the tensors: u8 name length, the name, u8 dtype (1 f32, 2 f16,
 *   3 i32), u8 rank (1..3), u32 dims, the data; last a u64 FNV-1a of every
 *   byte before it.
 * The network's weights carry their torch names (linear layers' weights
 * transposed here, so every layer is a sum of rows scaled by its inputs: a
 * contiguous axpy gcc vectorizes, and ReLU zeros are skipped); f16 is
 * dequantized to f32 at load.
 * Index tables: the exporter writes them ("tab.*": which observation byte
 * feeds which input column of which layer, how; "head.tab.*": the factored
 * head's type blocks and the entity each parameter value points at). They
 * are derived in ONE place, Python's azuki.policy_np.obs_tables() /
 * head_tables(), from azk_obs.def's layout and the action space's declared
 * parameter kinds; building them again in C would be a second declaration
 * of the same mapping to keep in step. C validates them instead (every
 * column < OBS_LEN, every input column inside its layer, the type blocks
 * tiling [0, NUM_ACTIONS) in flat-id order, every entity index in range).
 * The hashes travel with the file so any host (the WebAssembly page) can
 * compare them; Python checks them with azuki.policy_np.check_compat.
 *
 * Threads: a loaded policy is read-only; every call's scratch is either the
 * caller's workspace (azk_policy_forward_ws / azk_policy_act_ws, of
 * azk_policy_work_size bytes: azk_vec holds one per thread, the policy bots
 * one per decision or the caller's) or one malloc (azk_policy_forward /
 * azk_policy_act), so calls may run concurrently, each with its own workspace.
 */
#include "azuki.h"
#include "rng.h"     /* the seed mixer (azk_splitmix64_of) */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AZK_POLICY_FORMAT 1
#define PMAX_TENSORS 128      /* tensors in one file */
#define PMAX_ALLOCS 96        /* owned arrays of one policy */
#define PMAX_NAME 63
#define PMAX_DIM (1 << 20)    /* any one dimension */
#define PMAX_T 64             /* action types */
#define PMAX_P1 64            /* p1 values of one type */
#define PMAX_K 64             /* p1 kinds */
#define PMAX_ENT_DIM 256      /* entity width (the factored head's per-pair vectors live on the stack) */
#define N_PLACES 24
#define N_HAND 50
#define N_OPT 64
#define N_ENT (N_PLACES + N_HAND + N_OPT)
#define ENT_HAND N_PLACES
#define ENT_OPT (N_PLACES + N_HAND)
_Static_assert(N_ENT == 138, "places | hand slots | options: azuki.policy_np.N_ENT");
_Static_assert(PMAX_TENSORS <= 255 && PMAX_NAME < 255, "counts fit their byte fields");

enum { OP_NUM = 0, OP_SNUM, OP_EQ, OP_GT, OP_BIT, OP_ONEHOT, OP_COUNT }; /* policy_np.FEATURE_OPS */
enum { DT_F32 = 1, DT_F16 = 2, DT_I32 = 3 };

typedef struct { int in, out; float *wt; float *b; } plin; /* wt [in][out] (torch's weight transposed) */
typedef struct { int rows, per_row, width; int32_t *ent; float *scale; } pblock; /* ent [rows][per_row][4] */

struct azk_policy {
    int arch, head;
    char hashes[3][17];
    int hidden, dim, card_dim, ptd, n_cards, n_bags, n_glob_id, n_list, mask_off;
    /* structured encoder */
    plin place_x, hand_x, opt_x, bags, glob, place_t, trunk0, trunk2;
    float *emb, *place_cp, *hand_cp, *opt_cp, *place_pos, *hand_pos, *opt_pos;
    pblock bplace, bhand, bopt, bglob, bflat;
    /* an empty slot (every byte its row reads is 0: no card, zero features) has the same entity row at each
     * position in every observation, computed once at load: empty_ent[k] [rows of table k][dim], empty_pt
     * [N_PLACES][ptd] its place projection (azuki.policy's skip of empty slots, Policy.empty_inputs) */
    float *empty_ent[3], *empty_pt;
    int32_t *place_id, *hand_id, *opt_id, *glob_id, *list_cols, *list_bag;
    /* flat encoder */
    plin net0, net2;
    float *ent_const;  /* [N_ENT][dim] (flat:factored) */
    /* heads */
    plin critic, actor, tlin, q0, z_h, z_e, ab;
    float *b0, *b1;
    int T, P0, P1, K, NG0;
    int32_t *off, *n0, *n1, *ent0, *kind, *kind_tgt, *kind_lin, *g0_base; /* g0_base[t]: first pair of type t */
    void *allocs[PMAX_ALLOCS];
    int nallocs;
};

/* ---- loading ---------------------------------------------------------------------------- */

typedef struct {
    char name[PMAX_NAME + 1];
    int dtype, rank;
    int dims[3];
    size_t count;
    const uint8_t *data;
    int used;
} ptensor;

typedef struct {
    azk_policy *p;
    ptensor t[PMAX_TENSORS];
    int nt;
    char *msg;
    size_t cap;
} loader;

static azk_policy_status fail(loader *L, azk_policy_status st, const char *fmt, ...) {
    if (L->msg && L->cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->msg, L->cap, fmt, ap);
        va_end(ap);
    }
    return st;
}

static uint32_t rd32(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }

uint64_t azk_fnv1a64(const uint8_t *b, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

static float half_to_float(uint16_t h) {
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023u, bits;
    if (e == 0) {
        if (m == 0) bits = s;
        else {                                   /* subnormal: normalize */
            e = 113;
            while (!(m & 1024u)) { m <<= 1; e--; }
            bits = s | e << 23 | (m & 1023u) << 13;
        }
    } else if (e == 31) bits = s | 0x7f800000u | m << 13;
    else bits = s | (e + 112) << 23 | m << 13;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static void *palloc(loader *L, size_t n) {
    azk_policy *p = L->p;
    if (p->nallocs >= PMAX_ALLOCS) return NULL;
    void *m = calloc(n ? n : 1, 1);
    if (m) p->allocs[p->nallocs++] = m;
    return m;
}

static ptensor *find(loader *L, const char *name) {
    for (int i = 0; i < L->nt; i++)
        if (!strcmp(L->t[i].name, name)) return &L->t[i];
    return NULL;
}

/* The tensor `name` of rank `rank` and dtype class (float or i32) with the given dims (-1: any;
 * the actual dims are written back). 0 and *out, or a status (message set). */
static azk_policy_status get(loader *L, const char *name, int want_int, int rank, int *dims, ptensor **out) {
    ptensor *t = find(L, name);
    if (!t) return fail(L, AZK_POLICY_E_TENSOR, "tensor %s is missing", name);
    if ((t->dtype == DT_I32) != want_int)
        return fail(L, AZK_POLICY_E_TENSOR, "tensor %s: dtype %d, expected %s", name, t->dtype, want_int ? "int32" : "float");
    if (t->rank != rank) return fail(L, AZK_POLICY_E_TENSOR, "tensor %s: rank %d, expected %d", name, t->rank, rank);
    for (int i = 0; i < rank; i++) {
        if (dims[i] >= 0 && dims[i] != t->dims[i])
            return fail(L, AZK_POLICY_E_TENSOR, "tensor %s: dimension %d is %d, expected %d", name, i, t->dims[i], dims[i]);
        dims[i] = t->dims[i];
    }
    t->used = 1;
    *out = t;
    return AZK_POLICY_OK;
}

static float *to_float(loader *L, const ptensor *t) {
    float *f = palloc(L, t->count * sizeof(float));
    if (!f) return NULL;
    for (size_t i = 0; i < t->count; i++) {
        if (t->dtype == DT_F32) memcpy(&f[i], t->data + 4 * i, 4);
        else f[i] = half_to_float((uint16_t)(t->data[2 * i] | t->data[2 * i + 1] << 8));
    }
    return f;
}

static int32_t *to_int(loader *L, const ptensor *t) {
    int32_t *v = palloc(L, t->count * sizeof(int32_t));
    if (!v) return NULL;
    for (size_t i = 0; i < t->count; i++) v[i] = (int32_t)rd32(t->data + 4 * i);
    return v;
}

#define TRY(x) do { azk_policy_status st_ = (x); if (st_ != AZK_POLICY_OK) return st_; } while (0)
#define NOMEM(L) fail(L, AZK_POLICY_E_NOMEM, "out of memory")

static azk_policy_status get_float(loader *L, const char *name, int rank, int d0, int d1, float **out, int *r0, int *r1) {
    int dims[3] = {d0, d1, -1};
    ptensor *t = NULL;
    TRY(get(L, name, 0, rank, dims, &t));
    if (!(*out = to_float(L, t))) return NOMEM(L);
    if (r0) *r0 = dims[0];
    if (r1) *r1 = dims[1];
    return AZK_POLICY_OK;
}

/* an int32 table of rank 1 or 2 whose every entry lies in [lo, hi] */
static azk_policy_status get_int(loader *L, const char *name, int rank, int d0, int d1, int32_t lo, int32_t hi,
                                 int32_t **out, int *r0) {
    int dims[3] = {d0, d1, -1};
    ptensor *t = NULL;
    TRY(get(L, name, 1, rank, dims, &t));
    if (!(*out = to_int(L, t))) return NOMEM(L);
    for (size_t i = 0; i < t->count; i++)
        if ((*out)[i] < lo || (*out)[i] > hi)
            return fail(L, AZK_POLICY_E_TABLE, "table %s: entry %zu is %d, outside [%d, %d]", name, i, (*out)[i], lo, hi);
    if (r0) *r0 = dims[0];
    return AZK_POLICY_OK;
}

/* torch nn.Linear PREFIX.weight [out, in] (+ PREFIX.bias [out]) -> transposed; in / out -1 = any */
static azk_policy_status get_lin(loader *L, const char *prefix, int in, int out, int bias, plin *l) {
    char name[PMAX_NAME + 8];
    snprintf(name, sizeof name, "%s.weight", prefix);
    float *w;
    TRY(get_float(L, name, 2, out, in, &w, &out, &in));
    l->in = in;
    l->out = out;
    if (!(l->wt = palloc(L, (size_t)in * out * sizeof(float)))) return NOMEM(L);
    for (int o = 0; o < out; o++)
        for (int i = 0; i < in; i++) l->wt[(size_t)i * out + o] = w[(size_t)o * in + i];
    if (bias) {
        snprintf(name, sizeof name, "%s.bias", prefix);
        TRY(get_float(L, name, 1, out, -1, &l->b, NULL, NULL));
    } else if (!(l->b = palloc(L, (size_t)out * sizeof(float)))) return NOMEM(L);
    return AZK_POLICY_OK;
}

/* a feature block "tab.NAME" [rows, per_row, 4] (op, column, argument, input column) with
 * "tab.NAME.scale" [rows, per_row]; every input column < width */
static azk_policy_status get_block(loader *L, const char *name, int rows, int width, pblock *b) {
    char sn[PMAX_NAME + 8];
    int dims[3] = {rows, -1, 4};
    ptensor *t = NULL;
    TRY(get(L, name, 1, 3, dims, &t));
    b->rows = dims[0];
    b->per_row = dims[1];
    b->width = width;
    if (!(b->ent = to_int(L, t))) return NOMEM(L);
    snprintf(sn, sizeof sn, "%s.scale", name);
    TRY(get_float(L, sn, 2, b->rows, b->per_row, &b->scale, NULL, NULL));
    int olen = azk_obs_len();
    for (int i = 0; i < b->rows * b->per_row; i++) {
        const int32_t *e = &b->ent[4 * i];
        int span = e[0] == OP_ONEHOT ? e[2] : 1;
        if (e[0] < 0 || e[0] >= OP_COUNT || e[1] < 0 || e[1] >= olen || e[3] < 0 || span < 1 || e[3] + span > width
            || (e[0] == OP_BIT && (e[2] < 0 || e[2] > 7)) || e[2] < 0 || e[2] > 255)
            return fail(L, AZK_POLICY_E_TABLE, "table %s: entry %d (op %d, column %d, argument %d, input %d) out of range "
                        "(OBS_LEN %d, layer width %d)", name, i, e[0], e[1], e[2], e[3], olen, width);
    }
    return AZK_POLICY_OK;
}

static azk_policy_status parse(loader *L, const uint8_t *b, size_t len) {
    azk_policy *p = L->p;
    const size_t head = 32 + 48;
    if (len < head + 8) return fail(L, AZK_POLICY_E_TRUNCATED, "weight file of %zu bytes: too short for the header", len);
    if (memcmp(b, "AZKW", 4)) return fail(L, AZK_POLICY_E_MAGIC, "not an azuki weight file (magic is not AZKW)");
    uint32_t fmt = rd32(b + 4);
    if (fmt != AZK_POLICY_FORMAT)
        return fail(L, AZK_POLICY_E_VERSION, "weight file format %u, this build reads format %d", fmt, AZK_POLICY_FORMAT);
    uint64_t sum = 0;
    for (int i = 0; i < 8; i++) sum |= (uint64_t)b[len - 8 + i] << (8 * i);
    if (sum != azk_fnv1a64(b, len - 8))
        return fail(L, AZK_POLICY_E_CHECKSUM, "weight file checksum mismatch (truncated or corrupt)");
    p->arch = (int)rd32(b + 8);
    p->head = (int)rd32(b + 12);
    uint32_t ov = rd32(b + 16), olen = rd32(b + 20), na = rd32(b + 24), nt = rd32(b + 28);
    if (ov != (uint32_t)azk_obs_version() || olen != (uint32_t)azk_obs_len() || na != (uint32_t)azk_num_actions())
        return fail(L, AZK_POLICY_E_LAYOUT, "weight file for observation layout v%u (%u bytes) and %u actions; this build "
                    "has layout v%d (%d bytes) and %d actions", ov, olen, na, azk_obs_version(), azk_obs_len(),
                    azk_num_actions());
    if (p->arch < 0 || p->arch > 1 || p->head < 0 || p->head > 1)
        return fail(L, AZK_POLICY_E_TENSOR, "unknown architecture %d / head %d", p->arch, p->head);
    for (int k = 0; k < 3; k++) {
        memcpy(p->hashes[k], b + 32 + 16 * k, 16);
        p->hashes[k][16] = 0;
        for (int i = 0; i < 16; i++) {
            char c = p->hashes[k][i];
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                return fail(L, AZK_POLICY_E_CORRUPT, "compatibility hash %d is not 16 hex digits", k);
        }
    }
    if (nt > PMAX_TENSORS) return fail(L, AZK_POLICY_E_CORRUPT, "%u tensors, at most %d", nt, PMAX_TENSORS);
    size_t at = head, end = len - 8;
    for (uint32_t i = 0; i < nt; i++) {
        ptensor *t = &L->t[L->nt];
        if (at + 1 > end) return fail(L, AZK_POLICY_E_TRUNCATED, "tensor %u: truncated", i);
        size_t nl = b[at++];
        if (nl == 0 || nl > PMAX_NAME || at + nl + 2 > end)
            return fail(L, AZK_POLICY_E_CORRUPT, "tensor %u: bad name length %zu", i, nl);
        memcpy(t->name, b + at, nl);
        t->name[nl] = 0;
        if (strlen(t->name) != nl) return fail(L, AZK_POLICY_E_CORRUPT, "tensor %u: NUL in its name", i);
        if (find(L, t->name)) return fail(L, AZK_POLICY_E_CORRUPT, "tensor %s appears twice", t->name);
        at += nl;
        t->dtype = b[at++];
        t->rank = b[at++];
        if (t->dtype < DT_F32 || t->dtype > DT_I32 || t->rank < 1 || t->rank > 3)
            return fail(L, AZK_POLICY_E_CORRUPT, "tensor %s: bad dtype %d or rank %d", t->name, t->dtype, t->rank);
        if (at + 4u * (size_t)t->rank > end) return fail(L, AZK_POLICY_E_TRUNCATED, "tensor %s: truncated", t->name);
        t->count = 1;
        for (int d = 0; d < t->rank; d++) {
            uint32_t v = rd32(b + at);
            at += 4;
            if (v < 1 || v > PMAX_DIM) return fail(L, AZK_POLICY_E_CORRUPT, "tensor %s: dimension %u", t->name, v);
            t->dims[d] = (int)v;
            t->count *= v;
            if (t->count > ((size_t)1 << 28)) return fail(L, AZK_POLICY_E_CORRUPT, "tensor %s: too large", t->name);
        }
        size_t bytes = t->count * (t->dtype == DT_F16 ? 2 : 4);
        if (bytes > end - at) return fail(L, AZK_POLICY_E_TRUNCATED, "tensor %s: data truncated", t->name);
        t->data = b + at;
        at += bytes;
        L->nt++;
    }
    if (at != end) return fail(L, AZK_POLICY_E_CORRUPT, "%zu stray bytes after the tensors", end - at);
    return AZK_POLICY_OK;
}

static azk_policy_status empty_rows(loader *L);

static azk_policy_status build(loader *L) {
    azk_policy *p = L->p;
    int olen = azk_obs_len(), na = azk_num_actions(), nmask = -1;
    for (int f = 0; f < azk_obs_num_fields(); f++)
        if (!strcmp(azk_obs_field_name(f), "MASK")) azk_obs_field(f, &p->mask_off, NULL, NULL, NULL, &nmask);
    if (nmask != na) return fail(L, AZK_POLICY_E_LAYOUT, "this build's observation has no MASK field of NUM_ACTIONS bits");
    int H = -1, D = -1;
    if (p->arch == 0) {
        int C = -1, nc = -1, dims = -1;
        TRY(get_float(L, "enc.card.weight", 2, -1, -1, &p->emb, &nc, &C));
        if (nc > 256) return fail(L, AZK_POLICY_E_TENSOR, "enc.card.weight: %d cards, at most 256", nc);
        p->n_cards = nc;
        p->card_dim = C;
        TRY(get_lin(L, "enc.place_x", -1, -1, 1, &p->place_x));
        D = p->place_x.out;
        struct { const char *x, *c, *pos, *tab, *idt; plin *lin; float **cp, **posp; pblock *blk; int32_t **id; int rows; } ents[3] = {
            {"enc.place_x", "enc.place_c.weight", "enc.place_pos", "tab.place", "tab.place_id", &p->place_x, &p->place_cp, &p->place_pos, &p->bplace, &p->place_id, N_PLACES},
            {"enc.hand_x", "enc.hand_c.weight", "enc.hand_pos", "tab.hand", "tab.hand_id", &p->hand_x, &p->hand_cp, &p->hand_pos, &p->bhand, &p->hand_id, N_HAND},
            {"enc.opt_x", "enc.opt_c.weight", "enc.opt_pos", "tab.opt", "tab.opt_id", &p->opt_x, &p->opt_cp, &p->opt_pos, &p->bopt, &p->opt_id, N_OPT}};
        for (int k = 0; k < 3; k++) {
            TRY(get_lin(L, ents[k].x, -1, D, 1, ents[k].lin));
            float *cw;
            TRY(get_float(L, ents[k].c, 2, D, C, &cw, NULL, NULL));
            float *cp = palloc(L, (size_t)nc * D * sizeof(float));     /* card_c(emb): [n_cards][D] */
            if (!cp) return NOMEM(L);
            for (int c = 0; c < nc; c++)
                for (int d = 0; d < D; d++) {
                    float s = 0.0f;
                    for (int j = 0; j < C; j++) s += p->emb[c * C + j] * cw[d * C + j];
                    cp[c * D + d] = s;
                }
            *ents[k].cp = cp;
            TRY(get_float(L, ents[k].pos, 2, ents[k].rows, D, ents[k].posp, NULL, NULL));
            TRY(get_block(L, ents[k].tab, ents[k].rows, ents[k].lin->in, ents[k].blk));
            TRY(get_int(L, ents[k].idt, 1, ents[k].rows, -1, 0, olen - 1, ents[k].id, NULL));
        }
        int32_t *nb;
        TRY(get_int(L, "tab.n_bags", 1, 1, -1, 1, 1024, &nb, NULL));
        p->n_bags = nb[0];
        TRY(get_int(L, "tab.list_cols", 1, -1, -1, 0, olen - 1, &p->list_cols, &p->n_list));
        TRY(get_int(L, "tab.list_bag", 1, p->n_list, -1, 0, p->n_bags - 1, &p->list_bag, NULL));
        TRY(get_lin(L, "enc.bags", p->n_bags * C, -1, 1, &p->bags));
        TRY(get_int(L, "tab.glob_id", 1, -1, -1, 0, olen - 1, &p->glob_id, &p->n_glob_id));
        TRY(get_lin(L, "enc.glob", -1, -1, 1, &p->glob));
        dims = p->glob.in - p->n_glob_id * C;
        if (dims < 1) return fail(L, AZK_POLICY_E_TENSOR, "enc.glob.weight: %d inputs, fewer than its card columns", p->glob.in);
        TRY(get_block(L, "tab.glob", 1, dims, &p->bglob));
        TRY(get_lin(L, "enc.place_t", D, -1, 1, &p->place_t));
        p->ptd = p->place_t.out;
        TRY(get_lin(L, "enc.trunk.0", N_PLACES * p->ptd + 2 * D + p->bags.out + p->glob.out, -1, 1, &p->trunk0));
        H = p->trunk0.out;
        TRY(get_lin(L, "enc.trunk.2", H, H, 1, &p->trunk2));
    } else {
        TRY(get_lin(L, "enc.net.0", -1, -1, 1, &p->net0));
        H = p->net0.out;
        TRY(get_block(L, "tab.flat", 1, p->net0.in, &p->bflat));
        TRY(get_lin(L, "enc.net.2", H, H, 1, &p->net2));
        if (p->head == 1) TRY(get_float(L, "enc.ent", 2, N_ENT, -1, &p->ent_const, NULL, &D));
    }
    p->hidden = H;
    p->dim = D;
    if (D > PMAX_ENT_DIM) return fail(L, AZK_POLICY_E_TENSOR, "entity width %d, at most %d", D, PMAX_ENT_DIM);
    if (p->arch == 0) TRY(empty_rows(L));
    TRY(get_lin(L, "critic", H, 1, 1, &p->critic));
    if (p->head == 0) {
        TRY(get_lin(L, "head.actor", H, na, 1, &p->actor));
    } else {
        int T = -1, P0 = -1, P1 = -1, K = -1;
        TRY(get_int(L, "head.tab.N0", 1, -1, -1, 1, N_OPT, &p->n0, &T));
        if (T > PMAX_T) return fail(L, AZK_POLICY_E_TABLE, "%d action types, at most %d", T, PMAX_T);
        TRY(get_int(L, "head.tab.N1", 1, T, -1, 1, PMAX_P1, &p->n1, NULL));
        TRY(get_int(L, "head.tab.OFF", 1, T, -1, 0, na - 1, &p->off, NULL));
        TRY(get_lin(L, "head.tlin", H, T, 1, &p->tlin));
        TRY(get_lin(L, "head.q0", H, T * D, 1, &p->q0));
        TRY(get_float(L, "head.b0", 2, T, -1, &p->b0, NULL, &P0));
        TRY(get_float(L, "head.b1", 2, -1, -1, &p->b1, &K, &P1));
        if (K > PMAX_K || P1 > PMAX_P1) return fail(L, AZK_POLICY_E_TABLE, "head.b1: %d kinds x %d values, too many", K, P1);
        TRY(get_int(L, "head.tab.ENT0", 2, T, P0, 0, N_ENT - 1, &p->ent0, NULL));
        TRY(get_int(L, "head.tab.KIND", 1, T, -1, -1, K - 1, &p->kind, NULL));
        TRY(get_int(L, "head.tab.KIND_TGT", 2, K, P1, 0, N_ENT - 1, &p->kind_tgt, NULL));
        TRY(get_int(L, "head.tab.KIND_LIN", 1, K, -1, 0, 1, &p->kind_lin, NULL));
        TRY(get_lin(L, "head.z_h", H, K * D, 1, &p->z_h));
        TRY(get_lin(L, "head.z_e", D, K * D, 0, &p->z_e));
        TRY(get_lin(L, "head.ab", D, P1, 1, &p->ab));
        p->T = T;
        p->P0 = P0;
        p->P1 = P1;
        p->K = K;
        if (!(p->g0_base = palloc(L, (size_t)(T + 1) * sizeof(int32_t)))) return NOMEM(L);
        int next = 0, g = 0;                 /* the type blocks tile [0, NUM_ACTIONS) in (type, p0, p1) order */
        for (int t = 0; t < T; t++) {
            if (p->off[t] != next || p->n0[t] > P0 || p->n1[t] > P1 || (p->n1[t] > 1) != (p->kind[t] >= 0))
                return fail(L, AZK_POLICY_E_TABLE, "head tables: type %d's block (offset %d, %d x %d values, kind %d) does "
                            "not fit", t, p->off[t], p->n0[t], p->n1[t], p->kind[t]);
            next += p->n0[t] * p->n1[t];
            p->g0_base[t] = g;
            g += p->n0[t];
        }
        p->g0_base[T] = g;
        p->NG0 = g;
        if (next != na) return fail(L, AZK_POLICY_E_TABLE, "head tables cover %d actions, not %d", next, na);
    }
    for (int i = 0; i < L->nt; i++)
        if (!L->t[i].used) return fail(L, AZK_POLICY_E_TENSOR, "tensor %s is not part of this network", L->t[i].name);
    return AZK_POLICY_OK;
}

azk_policy_status azk_policy_load(const uint8_t *bytes, size_t len, azk_policy **out, char *msg, size_t msg_cap) {
    if (msg && msg_cap) msg[0] = 0;
    if (!out) return AZK_POLICY_E_ARG;
    *out = NULL;
    loader *L = calloc(1, sizeof *L);
    if (!L) return AZK_POLICY_E_NOMEM;
    L->msg = msg;
    L->cap = msg_cap;
    if (!bytes) {
        free(L);
        return fail(&(loader){.msg = msg, .cap = msg_cap}, AZK_POLICY_E_ARG, "no bytes");
    }
    L->p = calloc(1, sizeof(azk_policy));
    if (!L->p) {
        free(L);
        return AZK_POLICY_E_NOMEM;
    }
    azk_policy_status st = parse(L, bytes, len);
    if (st == AZK_POLICY_OK) st = build(L);
    if (st == AZK_POLICY_OK) *out = L->p;
    else azk_policy_free(L->p);
    free(L);
    return st;
}

void azk_policy_free(azk_policy *p) {
    if (!p) return;
    for (int i = 0; i < p->nallocs; i++) free(p->allocs[i]);
    free(p);
}

const char *azk_policy_hash(const azk_policy *p, int which) {
    return p && which >= 0 && which < 3 ? p->hashes[which] : NULL;
}

int azk_policy_arch(const azk_policy *p) { return p ? p->arch : -1; }
int azk_policy_head(const azk_policy *p) { return p ? p->head : -1; }
int azk_policy_hidden(const azk_policy *p) { return p ? p->hidden : -1; }

const char *azk_policy_status_name(azk_policy_status s) {
    static const char *const names[] = {"OK", "ARG", "MAGIC", "VERSION", "TRUNCATED", "CHECKSUM", "CORRUPT",
                                        "LAYOUT", "TENSOR", "TABLE", "NOMEM", "OBS"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

/* ---- the forward pass ---------------------------------------------------------------------- */

/* The forward pass is mostly axpy (a weight row scaled into an output row), inlined into the functions marked
 * AZK_SIMD_CLONES. On x86-64 with GCC (Linux) each of those is cloned for AVX2 and the clone picked at load time
 * (an ifunc): 8 floats per instruction instead of SSE2's 4. AVX2 only, not FMA: a multiply and an add, each
 * rounded, per element in either clone, so every machine computes the same bits (a fused multiply-add would
 * round once). Elsewhere (clang, WebAssembly, other CPUs) one generic function. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define AZK_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define AZK_SIMD_CLONES
#endif

static inline void axpy(float a, const float *restrict w, float *restrict y, int n) {
    for (int i = 0; i < n; i++) y[i] += a * w[i];
}

static inline float dot(const float *restrict a, const float *restrict b, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static inline void relu(float *x, int n) {
    for (int i = 0; i < n; i++) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

/* y[0..n) = outputs lo..lo+n of l(x): the bias plus the rows of the inputs that are not 0 */
static inline void lin_part(const plin *l, const float *restrict x, float *restrict y, int lo, int n) {
    memcpy(y, l->b + lo, (size_t)n * sizeof(float));
    for (int i = 0; i < l->in; i++)
        if (x[i] != 0.0f) axpy(x[i], l->wt + (size_t)i * l->out + lo, y, n);
}

static inline void lin(const plin *l, const float *restrict x, float *restrict y) { lin_part(l, x, y, 0, l->out); }

/* y += W(features of row r of block b) (azuki.policy_np._features; ONEHOT: the row of the value) */
static inline void block_row(const pblock *b, int r, const uint8_t *u, const float *wt, int out, float *y) {
    const int32_t *e = b->ent + (size_t)4 * r * b->per_row;
    const float *sc = b->scale + (size_t)r * b->per_row;
    for (int j = 0; j < b->per_row; j++, e += 4) {
        int v = u[e[1]];
        float x;
        switch (e[0]) {
        case OP_NUM: x = (float)v * sc[j]; break;
        case OP_SNUM: x = (float)(int8_t)v * sc[j]; break;
        case OP_EQ: x = v == e[2]; break;
        case OP_GT: x = v > e[2]; break;
        case OP_BIT: x = (v >> e[2]) & 1; break;
        default:
            if (v < e[2]) axpy(1.0f, wt + (size_t)(e[3] + v) * out, y, out);
            continue;
        }
        if (x != 0.0f) axpy(x, wt + (size_t)e[3] * out, y, out);
    }
}

/* every byte row r of block b reads is 0 (with a card id byte of 0: the slot is empty) */
static inline int slot_empty(const pblock *b, int r, const uint8_t *u) {
    const int32_t *e = b->ent + (size_t)4 * r * b->per_row;
    for (int j = 0; j < b->per_row; j++, e += 4)
        if (u[e[1]]) return 0;
    return 1;
}

/* p->empty_ent / empty_pt: each entity table's rows for an all-zero observation, by encode's own arithmetic
 * (the same operations in the same order, so a row copied from here has the bits encode would compute) */
static azk_policy_status empty_rows(loader *L) {
    azk_policy *p = L->p;
    int D = p->dim, ptd = p->ptd;
    uint8_t *zero = calloc((size_t)azk_obs_len(), 1);
    if (!zero) return NOMEM(L);
    const plin *lins[3] = {&p->place_x, &p->hand_x, &p->opt_x};
    const pblock *blks[3] = {&p->bplace, &p->bhand, &p->bopt};
    const float *cps[3] = {p->place_cp, p->hand_cp, p->opt_cp}, *poss[3] = {p->place_pos, p->hand_pos, p->opt_pos};
    const int rows[3] = {N_PLACES, N_HAND, N_OPT};
    for (int k = 0; k < 3; k++) {
        float *t = palloc(L, (size_t)rows[k] * D * sizeof(float));
        if (!t) {
            free(zero);
            return NOMEM(L);
        }
        for (int r = 0; r < rows[k]; r++) {
            float *e = t + (size_t)r * D;
            const float *cp = cps[k], *pos = poss[k] + (size_t)r * D;     /* card id 0 */
            for (int d = 0; d < D; d++) e[d] = lins[k]->b[d] + cp[d] + pos[d];
            block_row(blks[k], r, zero, lins[k]->wt, D, e);
            relu(e, D);
        }
        p->empty_ent[k] = t;
    }
    free(zero);
    if (!(p->empty_pt = palloc(L, (size_t)N_PLACES * ptd * sizeof(float)))) return NOMEM(L);
    for (int r = 0; r < N_PLACES; r++) lin(&p->place_t, p->empty_ent[0] + (size_t)r * D, p->empty_pt + (size_t)r * ptd);
    return AZK_POLICY_OK;
}

typedef struct {
    float *h, *ent, *x, *t1, *t2, *q, *zh, *lp;
    uint8_t *mask, *cnt;
    int empty;                      /* the observation's mask had no legal action */
    int kind_done[PMAX_K];
} scratch;

/* The scratch of one call, carved from a workspace (the caller's, or one malloc per call): the policy
 * itself stays read-only, so concurrent calls with their own workspaces are safe. Its contents on entry
 * never matter (every field is written before it is read). */
static size_t scratch_wide(const azk_policy *p) {
    size_t wide = (size_t)p->hidden;
    if (p->arch == 0) {
        if ((size_t)p->trunk0.in > wide) wide = (size_t)p->trunk0.in;
        if ((size_t)p->bags.in > wide) wide = (size_t)p->bags.in;
        if ((size_t)p->glob.in > wide) wide = (size_t)p->glob.in;
    }
    return wide;
}

static size_t scratch_floats(const azk_policy *p) {
    size_t na = (size_t)azk_num_actions(), H = (size_t)p->hidden, D = p->dim > 0 ? (size_t)p->dim : 1,
           wide = scratch_wide(p);
    return H + N_ENT * D + 3 * wide + (size_t)p->T * D + (size_t)p->K * D + na;
}

#define WORK_ALIGN 64 /* the workspace is aligned up to this inside; its size allows for it */

size_t azk_policy_work_size(const azk_policy *p) {
    return p ? scratch_floats(p) * sizeof(float) + 2 * (size_t)azk_num_actions() + WORK_ALIGN : 0;
}

/* 0, or -1 for a workspace that is too small */
static int scratch_init(const azk_policy *p, scratch *s, void *work, size_t work_len) {
    size_t na = (size_t)azk_num_actions(), H = (size_t)p->hidden, D = p->dim > 0 ? (size_t)p->dim : 1,
           wide = scratch_wide(p);
    if (!work || work_len < azk_policy_work_size(p)) return -1;
    uintptr_t a = ((uintptr_t)work + (WORK_ALIGN - 1)) & ~(uintptr_t)(WORK_ALIGN - 1);
    float *f = (float *)a;
    s->h = f; f += H;
    s->ent = f; f += N_ENT * D;
    s->x = f; f += wide;
    s->t1 = f; f += wide;
    s->t2 = f; f += wide;
    s->q = f; f += (size_t)p->T * D;
    s->zh = f; f += (size_t)p->K * D;
    s->lp = f; f += na;
    s->mask = (uint8_t *)f;
    s->cnt = s->mask + na;
    return 0;
}

/* the trunk state h and (structured) the entities, from one observation; -1 for an identity
 * byte outside the card table */
static AZK_SIMD_CLONES int encode(const azk_policy *p, const uint8_t *u, scratch *s) {
    int H = p->hidden;
    if (p->arch == 1) {
        float *x = s->t1;
        memcpy(x, p->net0.b, (size_t)H * sizeof(float));
        block_row(&p->bflat, 0, u, p->net0.wt, H, x);
        relu(x, H);
        lin(&p->net2, x, s->h);
        relu(s->h, H);
        if (p->ent_const) memcpy(s->ent, p->ent_const, (size_t)N_ENT * p->dim * sizeof(float));
        return 0;
    }
    int D = p->dim, C = p->card_dim, nc = p->n_cards, ptd = p->ptd;
    float *x = s->x;                                 /* the trunk's input */
    memset(x, 0, (size_t)p->trunk0.in * sizeof(float));
    const plin *lins[3] = {&p->place_x, &p->hand_x, &p->opt_x};
    const pblock *blks[3] = {&p->bplace, &p->bhand, &p->bopt};
    const float *cps[3] = {p->place_cp, p->hand_cp, p->opt_cp}, *poss[3] = {p->place_pos, p->hand_pos, p->opt_pos};
    const int32_t *ids[3] = {p->place_id, p->hand_id, p->opt_id};
    const int rows[3] = {N_PLACES, N_HAND, N_OPT}, first[3] = {0, ENT_HAND, ENT_OPT};
    float *pooled = x + N_PLACES * ptd;
    for (int k = 0; k < 3; k++) {
        for (int r = 0; r < rows[k]; r++) {
            int id = u[ids[k][r]];
            if (id >= nc) return -1;
            float *e = s->ent + (size_t)(first[k] + r) * D;
            if (!id && slot_empty(blks[k], r, u)) {      /* its row (and projection) from the load's table */
                memcpy(e, p->empty_ent[k] + (size_t)r * D, (size_t)D * sizeof(float));
                if (k == 0) memcpy(x + r * ptd, p->empty_pt + (size_t)r * ptd, (size_t)ptd * sizeof(float));
                else axpy(1.0f, e, pooled + (k - 1) * D, D);
                continue;
            }
            const float *cp = cps[k] + (size_t)id * D, *pos = poss[k] + (size_t)r * D;
            for (int d = 0; d < D; d++) e[d] = lins[k]->b[d] + cp[d] + pos[d];
            block_row(blks[k], r, u, lins[k]->wt, D, e);
            relu(e, D);
            if (k == 0) lin(&p->place_t, e, x + r * ptd);
            else axpy(1.0f, e, pooled + (k - 1) * D, D);
        }
    }
    float *bag = s->t1;                              /* card counts @ embedding, per bag */
    memset(bag, 0, (size_t)p->bags.in * sizeof(float));
    for (int i = 0; i < p->n_list; i++) {
        int id = u[p->list_cols[i]];
        if (id >= nc) return -1;
        if (id) axpy(1.0f, p->emb + (size_t)id * C, bag + (size_t)p->list_bag[i] * C, C);
    }
    float *xb = x + N_PLACES * ptd + 2 * D;
    lin(&p->bags, bag, xb);
    relu(xb, p->bags.out);
    float *xg = xb + p->bags.out, *gin = s->t2;      /* [features | one-hots | the cards' embeddings] */
    memcpy(xg, p->glob.b, (size_t)p->glob.out * sizeof(float));
    block_row(&p->bglob, 0, u, p->glob.wt, p->glob.out, xg);
    int fw = p->bglob.width;
    for (int k = 0; k < p->n_glob_id; k++) {
        int id = u[p->glob_id[k]];
        if (id >= nc) return -1;
        memcpy(gin + k * C, p->emb + (size_t)id * C, (size_t)C * sizeof(float));
    }
    for (int i = 0; i < p->n_glob_id * C; i++)
        if (gin[i] != 0.0f) axpy(gin[i], p->glob.wt + (size_t)(fw + i) * p->glob.out, xg, p->glob.out);
    relu(xg, p->glob.out);
    lin(&p->trunk0, x, s->t1);
    relu(s->t1, H);
    lin(&p->trunk2, s->t1, s->h);
    relu(s->h, H);
    return 0;
}

/* log-softmax of x[0..n) over the entries where legal[i] (at least one), in place; the others
 * untouched (azuki.policy._mls / policy_np._mls) */
static void mls(float *x, const uint8_t *legal, int n) {
    float m = -INFINITY, s = 0.0f;
    for (int i = 0; i < n; i++)
        if (legal[i] && x[i] > m) m = x[i];
    for (int i = 0; i < n; i++)
        if (legal[i]) s += expf(x[i] - m);
    float lse = m + logf(s);
    for (int i = 0; i < n; i++)
        if (legal[i]) x[i] = x[i] - lse;
}

/* the flat legal mask of an observation (all legal when none is: azuki.policy.Factored, and
 * azuki.sampler for the dense head); 1 when it was empty */
static int read_mask(const azk_policy *p, const uint8_t *u, uint8_t *mask) {
    int na = azk_num_actions(), any = 0;
    for (int a = 0; a < na; a++) any |= mask[a] = (u[p->mask_off + (a >> 3)] >> (a & 7)) & 1;
    if (!any) memset(mask, 1, (size_t)na);
    return !any;
}

/* ---- the factored head, one level at a time ---- */

typedef struct {
    const azk_policy *p;
    scratch *s;
    float lt[PMAX_T];               /* log p(type) */
    uint8_t tleg[PMAX_T];
} fstate;

/* counts of legal p1 per pair, type legality, log p(type) */
static AZK_SIMD_CLONES void f_types(const azk_policy *p, scratch *s, fstate *f) {
    f->p = p;
    f->s = s;
    for (int t = 0; t < p->T; t++) {
        int any = 0;
        for (int p0 = 0; p0 < p->n0[t]; p0++) {
            const uint8_t *m = s->mask + p->off[t] + p0 * p->n1[t];
            int c = 0;
            for (int p1 = 0; p1 < p->n1[t]; p1++) c += m[p1];
            s->cnt[p->g0_base[t] + p0] = (uint8_t)c;
            any |= c > 0;
        }
        f->tleg[t] = (uint8_t)any;
    }
    lin(&p->tlin, s->h, f->lt);
    mls(f->lt, f->tleg, p->T);
    for (int k = 0; k < p->K; k++) s->kind_done[k] = 0;
}

/* log p(p0 | t) [n0[t]] into out, legal into leg */
static AZK_SIMD_CLONES void f_p0(fstate *f, int t, float *out, uint8_t *leg) {
    const azk_policy *p = f->p;
    scratch *s = f->s;
    int n0 = p->n0[t], D = p->dim, nleg = 0;
    for (int p0 = 0; p0 < n0; p0++) nleg += leg[p0] = s->cnt[p->g0_base[t] + p0] > 0;
    if (nleg == 1 || n0 == 1) {                       /* one value: log 1 = 0 exactly, as torch */
        for (int p0 = 0; p0 < n0; p0++) out[p0] = 0.0f;
        return;
    }
    float *q = s->q + (size_t)t * D;
    lin_part(&p->q0, s->h, q, t * D, D);
    for (int p0 = 0; p0 < n0; p0++)
        out[p0] = leg[p0] ? dot(q, s->ent + (size_t)p->ent0[t * p->P0 + p0] * D, D) + p->b0[t * p->P0 + p0] : 0.0f;
    mls(out, leg, n0);
}

/* log p(p1 | t, p0) [n1[t]] into out, legal into leg */
static AZK_SIMD_CLONES void f_p1(fstate *f, int t, int p0, float *out, uint8_t *leg) {
    const azk_policy *p = f->p;
    scratch *s = f->s;
    int n1 = p->n1[t], D = p->dim, g = p->g0_base[t] + p0;
    const uint8_t *m = s->mask + p->off[t] + p0 * n1;
    for (int p1 = 0; p1 < n1; p1++) leg[p1] = m[p1];
    if (s->cnt[g] <= 1) {
        for (int p1 = 0; p1 < n1; p1++) out[p1] = 0.0f;
        return;
    }
    int k = p->kind[t];
    float *zh = s->zh + (size_t)k * D, z[PMAX_ENT_DIM], ze[PMAX_ENT_DIM];
    if (!s->kind_done[k]) {
        lin_part(&p->z_h, s->h, zh, k * D, D);
        s->kind_done[k] = 1;
    }
    lin_part(&p->z_e, s->ent + (size_t)p->ent0[t * p->P0 + p0] * D, ze, k * D, D);
    for (int d = 0; d < D; d++) {
        float v = zh[d] + ze[d];
        z[d] = v > 0.0f ? v : 0.0f;
    }
    if (p->kind_lin[k]) {
        float ab[PMAX_P1];
        lin(&p->ab, z, ab);
        for (int p1 = 0; p1 < n1; p1++) out[p1] = ab[p1] + p->b1[k * p->P1 + p1];
    } else {
        for (int p1 = 0; p1 < n1; p1++)
            out[p1] = dot(z, s->ent + (size_t)p->kind_tgt[k * p->P1 + p1] * D, D) + p->b1[k * p->P1 + p1];
    }
    mls(out, leg, n1);
}

static void factored_full(const azk_policy *p, scratch *s, float *logp) {
    fstate f;
    int na = azk_num_actions();
    f_types(p, s, &f);
    for (int a = 0; a < na; a++) logp[a] = -INFINITY;
    float l0[N_OPT], l1[PMAX_P1];
    uint8_t g0[N_OPT], g1[PMAX_P1];
    for (int t = 0; t < p->T; t++) {
        if (!f.tleg[t]) continue;
        f_p0(&f, t, l0, g0);
        for (int p0 = 0; p0 < p->n0[t]; p0++) {
            if (!g0[p0]) continue;
            f_p1(&f, t, p0, l1, g1);
            float tp = f.lt[t] + l0[p0];
            for (int p1 = 0; p1 < p->n1[t]; p1++)
                if (g1[p1]) logp[p->off[t] + p0 * p->n1[t] + p1] = tp + l1[p1];
        }
    }
}

static const double ONE_MINUS = 1.0 - 1.0 / 9007199254740992.0; /* 1 - 2^-53 */

/* one level's inverse CDF (azuki.policy._icdf): the first entry whose cumulative probability
 * (float64) exceeds u * total, clamped to the last legal entry; *u becomes the uniform rescaled
 * into that entry's interval */
static int icdf(const float *logp, const uint8_t *legal, int n, double *u) {
    double c = 0.0, cum[PMAX_P1 > N_OPT ? PMAX_P1 : N_OPT], pr[PMAX_P1 > N_OPT ? PMAX_P1 : N_OPT];
    int last = n - 1;
    if (n < 1) return 0;
    for (int i = 0; i < n; i++) {
        pr[i] = legal[i] ? exp((double)logp[i]) : 0.0;
        c += pr[i];
        cum[i] = c;
    }
    for (int i = n - 1; i >= 0; i--)
        if (legal[i]) { last = i; break; }
    double x = *u * cum[n - 1];
    int i = 0;
    while (i < n && cum[i] <= x) i++;
    if (i > last) i = last;
    double before = i > 0 ? cum[i - 1] : 0.0, un = pr[i] > 0.0 ? (x - before) / pr[i] : 0.0;
    *u = un < 0.0 ? 0.0 : un > ONE_MINUS ? ONE_MINUS : un;
    return i;
}

/* the sampled (or most likely) action; *lp (when not NULL) its log-probability, summed as torch sums it
 * (azuki.policy.Factored.log_prob_entropy: (log p(t) + log p(p0 | t)) + log p(p1 | t, p0)) */
static int factored_act(const azk_policy *p, scratch *s, double u, int greedy, float *lp) {
    if (greedy) {
        factored_full(p, s, s->lp);
        int na = azk_num_actions(), best = 0;
        for (int a = 1; a < na; a++)
            if (s->lp[a] > s->lp[best]) best = a;
        if (lp) *lp = s->lp[best];
        return best;
    }
    fstate f;
    f_types(p, s, &f);
    float l0[N_OPT], l1[PMAX_P1];
    uint8_t g0[N_OPT], g1[PMAX_P1];
    int t = icdf(f.lt, f.tleg, p->T, &u);
    f_p0(&f, t, l0, g0);
    int p0 = icdf(l0, g0, p->n0[t], &u);
    f_p1(&f, t, p0, l1, g1);
    int p1 = icdf(l1, g1, p->n1[t], &u);
    if (lp) *lp = f.lt[t] + l0[p0] + l1[p1];
    return p->off[t] + p0 * p->n1[t] + p1;
}

/* the dense head: masked logits -> log-probabilities (azuki.sampler.Masked: (l - m) - lse); a row
 * without legal actions has every logit MASKED_LOGIT in torch: uniform */
static void dense_full(const azk_policy *p, scratch *s, float *logp) {
    int na = azk_num_actions();
    if (s->empty) memset(logp, 0, (size_t)na * sizeof(float));
    else lin(&p->actor, s->h, logp);
    float m = -INFINITY, sum = 0.0f;
    for (int a = 0; a < na; a++)
        if (s->mask[a] && logp[a] > m) m = logp[a];
    for (int a = 0; a < na; a++)
        if (s->mask[a]) sum += expf(logp[a] - m);
    float lse = logf(sum);
    for (int a = 0; a < na; a++) logp[a] = s->mask[a] ? (logp[a] - m) - lse : -INFINITY;
}

static int dense_pick(const azk_policy *p, scratch *s, double u, int greedy) {
    int na = azk_num_actions(), best = -1, last = 0;
    dense_full(p, s, s->lp);
    if (greedy) {
        for (int a = 0; a < na; a++)
            if (s->mask[a] && (best < 0 || s->lp[a] > s->lp[best])) best = a;
        return best;
    }
    double total = 0.0;
    for (int a = 0; a < na; a++)
        if (s->mask[a]) { total += exp((double)s->lp[a]); last = a; }
    double x = u * total, c = 0.0;
    for (int a = 0; a < na; a++)
        if (s->mask[a]) {
            c += exp((double)s->lp[a]);
            if (c > x) return a;
        }
    return last;
}

/* dense_pick's action; *lp (when not NULL) its log-probability */
static int dense_act(const azk_policy *p, scratch *s, double u, int greedy, float *lp) {
    int a = dense_pick(p, s, u, greedy);
    if (lp) *lp = s->lp[a];
    return a;
}

static azk_policy_status run(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp, float *value,
                             const double *u, int greedy, int32_t *actions, float *alogp, int *bad_row, void *work,
                             size_t work_len) {
    if (bad_row) *bad_row = -1;
    if (!p || (n > 0 && !obs) || n < 0 || stride < (size_t)azk_obs_len()) return AZK_POLICY_E_ARG;
    scratch s;
    if (n == 0) return AZK_POLICY_OK;
    if (scratch_init(p, &s, work, work_len)) return AZK_POLICY_E_ARG;
    int na = azk_num_actions();
    for (int i = 0; i < n; i++) {
        const uint8_t *o = obs + (size_t)i * stride;
        if (encode(p, o, &s)) {
            if (bad_row) *bad_row = i;
            return AZK_POLICY_E_OBS;
        }
        s.empty = read_mask(p, o, s.mask);
        if (value) {
            float v;
            lin(&p->critic, s.h, &v);
            value[i] = v;
        }
        if (logp) {
            if (p->head == 1) factored_full(p, &s, logp + (size_t)i * na);
            else dense_full(p, &s, logp + (size_t)i * na);
        }
        if (actions) {
            double ui = u ? u[i] : 0.0;
            if (!(ui >= 0.0 && ui < 1.0)) ui = ui >= 1.0 ? ONE_MINUS : 0.0;   /* NaN / out of range: clamped */
            float *lp = alogp ? alogp + i : NULL;
            actions[i] = p->head == 1 ? factored_act(p, &s, ui, greedy, lp) : dense_act(p, &s, ui, greedy, lp);
        }
    }
    return AZK_POLICY_OK;
}

/* run() with a workspace of one malloc (the convenience entry points) */
static azk_policy_status run_alloc(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp,
                                   float *value, const double *u, int greedy, int32_t *actions, float *alogp,
                                   int *bad_row) {
    if (bad_row) *bad_row = -1;
    if (!p || (n > 0 && !obs) || n < 0 || stride < (size_t)azk_obs_len()) return AZK_POLICY_E_ARG;
    if (n == 0) return AZK_POLICY_OK;
    size_t len = azk_policy_work_size(p);
    void *mem = malloc(len);
    if (!mem) return AZK_POLICY_E_NOMEM;
    azk_policy_status st = run(p, obs, n, stride, logp, value, u, greedy, actions, alogp, bad_row, mem, len);
    free(mem);
    return st;
}

azk_policy_status azk_policy_forward(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp,
                                     float *value, int *bad_row) {
    return run_alloc(p, obs, n, stride, logp, value, NULL, 0, NULL, NULL, bad_row);
}

azk_policy_status azk_policy_act(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                 int32_t *actions, float *value, int *bad_row) {
    if (!actions) return AZK_POLICY_E_ARG;
    return run_alloc(p, obs, n, stride, NULL, value, u, u == NULL, actions, NULL, bad_row);
}

azk_policy_status azk_policy_sample(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                    int32_t *actions, float *action_logp, float *value, int *bad_row) {
    if (!actions) return AZK_POLICY_E_ARG;
    return run_alloc(p, obs, n, stride, NULL, value, u, u == NULL, actions, action_logp, bad_row);
}

azk_policy_status azk_policy_forward_ws(const azk_policy *p, const uint8_t *obs, int n, size_t stride, float *logp,
                                        float *value, int *bad_row, void *work, size_t work_len) {
    return run(p, obs, n, stride, logp, value, NULL, 0, NULL, NULL, bad_row, work, work_len);
}

azk_policy_status azk_policy_act_ws(const azk_policy *p, const uint8_t *obs, int n, size_t stride, const double *u,
                                    int32_t *actions, float *value, int *bad_row, void *work, size_t work_len) {
    if (bad_row) *bad_row = -1;
    if (!actions) return AZK_POLICY_E_ARG;
    return run(p, obs, n, stride, NULL, value, u, u == NULL, actions, NULL, bad_row, work, work_len);
}

/* azuki.sampler.keyed_uniforms: splitmix64 of key ^ splitmix64(seed), its top 53 bits (the
 * mixer written once, rng.h's azk_splitmix64_of: below this file, no call up to bot.c) */
double azk_keyed_uniform(uint64_t seed, uint64_t key) {
    return (double)(azk_splitmix64_of(key ^ azk_splitmix64_of(seed)) >> 11) * (1.0 / 9007199254740992.0);
}

void azk_keyed_uniforms(uint64_t seed, const uint64_t *keys, size_t n, double *out) {
    for (size_t i = 0; i < n; i++) out[i] = azk_keyed_uniform(seed, keys[i]);
}

/* azuki.policy.obs_inputs' identity counts ("bags"), the torch network's input that no torch op
 * builds cheaply (a scatter of ~360 entries per row was two thirds of decoding a batch): out[r]
 * [bag[j]][id] = how many j have row r's byte cols[j] == id, id 0 (an empty entry) never counted.
 * Every column and bag index is checked before anything is written. */
azk_policy_status azk_count_ids(const uint8_t *obs, int n, size_t stride, const int32_t *cols, const int32_t *bag,
                                int n_cols, int n_bags, int n_ids, float *out, int *bad_row) {
    if (bad_row) *bad_row = -1;
    if (n < 0 || n_cols < 0 || n_bags <= 0 || n_ids <= 0 || (n && (!obs || !out)) || (n_cols && (!cols || !bag)))
        return AZK_POLICY_E_ARG;
    for (int j = 0; j < n_cols; j++)
        if (cols[j] < 0 || (size_t)cols[j] >= stride || bag[j] < 0 || bag[j] >= n_bags) return AZK_POLICY_E_ARG;
    size_t per_row = (size_t)n_bags * (size_t)n_ids;
    for (int r = 0; r < n; r++) {
        const uint8_t *u = obs + (size_t)r * stride;
        float *o = out + (size_t)r * per_row;
        memset(o, 0, per_row * sizeof(float));
        for (int j = 0; j < n_cols; j++) {
            int id = u[cols[j]];
            if (id >= n_ids) {
                if (bad_row) *bad_row = r;
                return AZK_POLICY_E_OBS;
            }
            if (id) o[(size_t)bag[j] * (size_t)n_ids + (size_t)id] += 1.0f;
        }
    }
    return AZK_POLICY_OK;
}
