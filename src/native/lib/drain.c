/* The drain: the consumer of a tracker's ring, under the session mutex. It counts each entry as
 * gfxstats_record counted it on the rendering thread before the ring, in the same order (rules,
 * scenes, Matrix levels, FrameTimeline), checkpoints the consumer's state into the ring stripe
 * (docs/buffer-format.md, "Ring group"), then gives the words back to the producer; and it starts
 * and completes a move between rings (move.c). */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <pthread.h>
#include <string.h>

static void checkpoint_at_locked(struct gfxstats_tracker *t, const int64_t *rp);

/* Counts one outcome: plain stores (this thread is the counters' only writer), the total first
 * and a release fence after it, so a reader that sees the frame in a bucket sees it in the total. */
static inline void count(uint32_t *c, uint32_t outcome) {
    if (outcome & GFX_OUT_COUNTED) {
        __atomic_store_n(&c[GFX_TOTAL_FRAMES], c[GFX_TOTAL_FRAMES] + 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        uint32_t *b = &c[GFX_CPU_BUCKET_BASE + (outcome & GFX_OUT_CPU_MASK)];
        __atomic_store_n(b, *b + 1, __ATOMIC_RELAXED);
    }
    uint32_t latency = (outcome >> GFX_OUT_LATENCY_SHIFT) & 3;
    if (latency) {
        __atomic_store_n(&c[GFX_HIGH_INPUT_LATENCY], c[GFX_HIGH_INPUT_LATENCY] + latency, __ATOMIC_RELAXED);
    }
    for (uint32_t rare = outcome & GFX_OUT_RARE; rare != 0; rare &= rare - 1) {
        uint32_t *r = &c[gfx_rare_counter[__builtin_ctz(rare)]];
        __atomic_store_n(r, *r + 1, __ATOMIC_RELAXED);
    }
    uint32_t gpu = (outcome >> GFX_OUT_GPU_SHIFT) & 0xFF;
    if (gpu) {
        uint32_t *g = &c[GFX_GPU_BUCKET_BASE + gpu - 1];
        __atomic_store_n(g, *g + 1, __ATOMIC_RELAXED);
    }
}

/* The Android counters a scene mirrors (the first ten): total, High input latency, the rare ones. */
static inline void count_scene(uint32_t *c, uint32_t outcome) {
    if (outcome & GFX_OUT_COUNTED) {
        __atomic_store_n(&c[GFX_TOTAL_FRAMES], c[GFX_TOTAL_FRAMES] + 1, __ATOMIC_RELAXED);
    }
    uint32_t latency = (outcome >> GFX_OUT_LATENCY_SHIFT) & 3;
    if (latency) {
        __atomic_store_n(&c[GFX_HIGH_INPUT_LATENCY], c[GFX_HIGH_INPUT_LATENCY] + latency, __ATOMIC_RELAXED);
    }
    for (uint32_t rare = outcome & GFX_OUT_RARE; rare != 0; rare &= rare - 1) {
        uint32_t *p = &c[gfx_rare_counter[__builtin_ctz(rare)]];
        __atomic_store_n(p, *p + 1, __ATOMIC_RELAXED);
    }
}

static void count_times_locked(struct gfxstats_tracker *t, int64_t intended_vsync, int64_t vsync,
                               int64_t frame_completed, int64_t gpu_completed, int64_t frame_interval_ns) {
    int64_t interval = frame_interval_ns > 0 ? frame_interval_ns : t->default_interval;
    uint32_t outcome = gfx_classify_times(&t->rules, intended_vsync, vsync, frame_completed, gpu_completed, interval);
    count(t->counters, outcome);
    struct gfx_scene_rec *r = t->scenes;
    if (r) {
        int slot = scene_slot_of(t, intended_vsync);
        uint32_t *c = r->c + slot * GFX_SCENE_C32;
        count_scene(c, outcome);
        int64_t total = (int64_t)((uint64_t)frame_completed - (uint64_t)intended_vsync);
        /* SceneFrameCounter: a frame the rules counted, else one with a valid total (0 included). */
        if ((outcome & GFX_OUT_COUNTED)
            || (total >= 0 && total < (INT64_MAX >> 1) && intended_vsync > 0)) {
            gfx_matrix_count_counted(&t->matrix, total, interval, c, r->w + slot * GFX_SCENE_C64);
        }
    }
}

static void count_frameinfo_locked(struct gfxstats_tracker *t, const int64_t fields[GFXSTATS_FI_COUNT]) {
    uint32_t outcome = gfx_classify_frameinfo(&t->rules, fields);
    count(t->counters, outcome);
    struct gfx_scene_rec *r = t->scenes;
    if (r) {
        int slot = scene_slot_of(t, fields[GFXSTATS_FI_INTENDED_VSYNC]);
        uint32_t *c = r->c + slot * GFX_SCENE_C32;
        count_scene(c, outcome);
        gfx_matrix_count_frameinfo(&t->matrix, fields, c, r->w + slot * GFX_SCENE_C64);
    }
}

/* A FrameTimeline call from the ring (gfxstats_timeline_*: word 0 its kind), run by the recorder.
 * Under mu. */
static void drain_tl_locked(struct gfxstats_tracker *t, const int64_t *e) {
    switch (e[0]) {
    case GFX_RING_TL_COMMIT:
        gfx_tl_commit(&t->tl, t->tl_counters, e[1], 1, e[2], e[3], e[4], e[5], e[6]);
        break;
    case GFX_RING_TL_UNPREDICTED:
        gfx_tl_commit(&t->tl, t->tl_counters, e[1], 0, 0, 0, 0, e[2], e[3]);
        break;
    case GFX_RING_TL_PRESENTED: /* e[5], e[6]: MSC and output (0, 0 without: client-only) */
        gfx_tl_presented(&t->tl, t->tl_counters, e[1], e[2], e[3], (uint32_t)e[4], e[5], e[6]);
        break;
    case GFX_RING_TL_POLL:
        gfx_tl_poll(&t->tl, t->tl_counters, e[1]);
        break;
    case GFX_RING_TL_DISCARDED:
        gfx_tl_discarded(&t->tl, t->tl_counters, e[1], e[2]);
        break;
    default: /* no other kind is written */
        break;
    }
}

/* The ring's drops since the last drain go where the tracker counts (its stripe's client health
 * counter, else local memory) so that the daemon shows them; the drain is the stripe's only
 * writer, the recording thread never touches the buffer for a drop. Under mu. */
void gfx_count_drops_locked(struct gfxstats_tracker *t, uint64_t dropped) {
    uint32_t delta = (uint32_t)(dropped - t->drops_counted);
    if (delta == 0) {
        return;
    }
    t->drops_counted = dropped;
    if (t->stripe == 0) {
        t->local_drops += delta;
    } else if (t->map->health) {
        uint32_t *d = gfx_health_dropped(t->map, t->stripe);
        __atomic_store_n(d, *d + delta, __ATOMIC_RELAXED);
    } /* else a buffer without the group (an older daemon): the log and gfxstats_tracker_dropped show them */
}

/* Counts every entry ring r holds, oldest first; returns how many. A ring the producer was moved
 * away from is claimed first (gfx_ring_claim): what the producer claimed instead went along into
 * its next ring. The ring the producer records into (t->next) is checkpointed right after its
 * entries are counted and before their kind bytes are cleared and their words given back to the
 * producer, so that a SIGKILL at any point leaves a checkpoint whose entries are in the ring as
 * they were recorded (docs/native.md, "What is kept"). Under mu. */
unsigned long gfx_drain_ring_locked(struct gfxstats_tracker *t, struct gfx_ring *r) {
    int64_t *head = __atomic_load_n(&r->wp, __ATOMIC_ACQUIRE);
    int64_t *q = __atomic_load_n(&r->rp, __ATOMIC_ACQUIRE);
    int moved = __atomic_load_n(&r->closed, __ATOMIC_RELAXED) == GFX_RING_MOVED;
    if (moved) {
        int64_t *from = q;
        if (q == head || !gfx_ring_claim(r, &from, head)) {
            return 0;
        }
    }
    if (q == head) {
        return 0;
    }
    gfx_ring_entries_visible();
    int64_t *first = q;
    int marked = 0; /* a kind byte to clear: an entry that is not a times-path frame, or a wrap */
    unsigned long n = 0;
    /* At most a ring of entries: a wrong size would otherwise step past head and go round. */
    for (; q != head && n <= GFX_RING_WORDS; n++) {
        unsigned k;
        int64_t *at = q;
        int64_t *e = gfx_ring_peek(r, &q, &k);
        marked |= k != 0 || e != at;
        if (k == 0) {
            count_times_locked(t, e[0], e[1], e[2], e[3], e[4]);
        } else if (k == GFX_RING_FRAMEINFO) {
            count_frameinfo_locked(t, e);
        } else {
            drain_tl_locked(t, e);
        }
    }
    gfx_run_hook(t->s, GFX_HOOK_DRAIN_COUNTED);
    if (r == t->next) {
        checkpoint_at_locked(t, q);
        gfx_run_hook(t->s, GFX_HOOK_DRAIN_CHECKPOINTED);
    }
    if (marked) {
        gfx_ring_clear(r, first, q);
    }
    if (!moved) {
        gfx_ring_consumed(r, q);
    }
    return n;
}

/* The ring the tracker should record into: the ring stripe of its stripe when its buffer has the
 * ring group, else its private ring. Under mu. */
struct gfx_ring *gfx_ring_want(struct gfxstats_tracker *t) {
    struct gfx_ring *r = t->stripe != 0 && !t->s->forked ? gfx_ring_stripe(t->map, t->stripe) : NULL;
    return r ? r : &t->own;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v) {
    memcpy(p, &v, 4);
    return p + 4;
}

static uint8_t *put_u64(uint8_t *p, uint64_t v) {
    memcpy(p, &v, 8);
    return p + 8;
}

/* A checkpoint of the consumer's state into the tracker's ring stripe (docs/buffer-format.md,
 * "Ring group"): the slot of n = committed + 1 first, then committed (release), so that the slot
 * committed names is always complete. Into the ring the producer records into or moves to
 * (t->next), when that is the ring stripe of the stripe the tracker counts in. While a move is
 * under way the new ring's entries are not counted yet, so its checkpoint says rp 0, and everything
 * the old ring held up to the last drain is in the state: a SIGKILL before the move completes then
 * loses only what the producer appended to the old ring after that drain (it switches at its next
 * entry). The old ring is never checkpointed during the move: its checkpoint would pair its entries
 * with counts that are elsewhere. Under mu. */
void gfx_checkpoint_locked(struct gfxstats_tracker *t) {
    checkpoint_at_locked(t, t->next->rp);
}

/* gfx_checkpoint_locked with the ring's position rp, which the drain gives the producer back only
 * after this (gfx_drain_ring_locked). Under mu. */
static void checkpoint_at_locked(struct gfxstats_tracker *t, const int64_t *rp) {
    struct gfx_ring *r = t->next;
    struct gfxstats_session *s = t->s;
    if (s->forked || r == &t->own || t->stripe == 0 || r != gfx_ring_stripe(t->map, t->stripe)) {
        return;
    }
    struct gfx_mapping *m = t->map;
    uint64_t n = r->committed + 1;
    uint8_t *slot = r->slot[n & 1];
    memset(slot, 0, GFX_RING_CKPT_BYTES);
    uint8_t *p = slot;
    p = put_u64(p, n);
    p = put_u32(p, (uint32_t)(rp - r->w));
    uint32_t flags = (t->scenes ? 1u : 0u) | (t->tl_counters ? 2u : 0u) | (t->own_scene ? 4u : 0u)
                     | (t->compositor ? 8u : 0u) | (m->health ? 16u : 0u);
    p = put_u32(p, flags);
    p = put_u64(p, t->drops_counted);
    p = put_u32(p, (uint32_t)t->rules.kind);
    p = put_u32(p, t->rules.extend_deadlines ? 0u : 1u);
    p = put_u64(p, (uint64_t)t->rules.refresh);
    p = put_u64(p, (uint64_t)t->rules.default_interval);
    p = put_u64(p, (uint64_t)t->rules.dequeue_forgiveness);
    p = put_u64(p, (uint64_t)t->rules.swap_deadline);
    p = put_u64(p, (uint64_t)t->rules.next_frame_start_unstuffed);
    p = put_u64(p, (uint64_t)t->default_interval);
    p = put_u32(p, (uint32_t)t->matrix.mode);
    for (int i = 0; i < 4; i++) {
        p = put_u32(p, (uint32_t)t->matrix.levels[i]);
    }
    memcpy(p, &t->matrix.configured_hz, 4);
    p += 4;
    p = put_u32(p, (uint32_t)t->scene_slot);
    p = put_u32(p, (uint32_t)t->scene_prev);
    p = put_u64(p, (uint64_t)t->scene_since);
    p = put_u32(p, (uint32_t)s->default_slot);
    p = put_u32(p, (uint32_t)s->default_prev);
    p = put_u64(p, (uint64_t)s->default_since);
    p = put_u32(p, (uint32_t)t->tl.next);
    p = put_u32(p, (uint32_t)t->tl.awaiting);
    p = put_u64(p, (uint64_t)t->tl.prev_predicted_present);
    p = put_u64(p, (uint64_t)t->tl.prev_present);
    p = put_u64(p, (uint64_t)t->tl.join_wait);
    p = put_u64(p, (uint64_t)t->tl.last_presented);
    for (int i = 0; i < GFX_TL_CAPACITY; i++) {
        const struct gfx_tl_slot *e = &t->tl.slot[i];
        uint8_t *q = slot + 256 + 128 * i;
        q = put_u64(q, (uint64_t)e->token);
        q = put_u64(q, (uint64_t)e->predicted_start);
        q = put_u64(q, (uint64_t)e->predicted_end);
        q = put_u64(q, (uint64_t)e->predicted_present);
        q = put_u64(q, (uint64_t)e->actual_start);
        q = put_u64(q, (uint64_t)e->actual_end);
        q[0] = e->used;
        q[1] = e->predicted;
        q[2] = e->awaiting;
        q = put_u32(q + 4, e->flags_at);
        q = put_u64(q, (uint64_t)e->presented_at);
        q = put_u64(q, (uint64_t)e->refresh_at);
        q = put_u64(q, (uint64_t)e->latch_at);
        q = put_u64(q, (uint64_t)e->output_at);
        put_u64(q, (uint64_t)e->msc_at);
    }
    memcpy(slot + 2304, gfx_stripe(m, t->stripe), sizeof(uint32_t) * GFX_COUNTERS);
    if (m->scenes) {
        memcpy(slot + 3072, gfx_scene_stripe(m, t->stripe), GFX_SCENE_STRIPE_BYTES);
    }
    if (m->timeline) {
        memcpy(slot + 6400, gfx_timeline_stripe(m, t->stripe), GFX_TL_STRIPE_BYTES);
    }
    if (m->health) {
        memcpy(slot + 6656, gfx_health_dropped(m, t->stripe), GFX_HEALTH_STRIPE_BYTES);
    }
    __atomic_store_n(&r->committed, n, __ATOMIC_RELEASE);
}

/* Raises a ring's drop count to at least v (never lowers it). The producer may store its own count
 * there at any time after the ring was published; that one is never below what was counted. */
void gfx_raise_dropped(struct gfx_ring *r, uint64_t v) {
    uint64_t have = __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
    while (have < v && !__atomic_compare_exchange_n(&r->dropped, &have, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Counts every frame the tracker's rings hold, oldest first, after moving the tracker's counts
 * into the session's current buffer if that changed; moves the producer to the ring it should
 * record into; checkpoints. Returns how many entries it counted. Under mu. */
unsigned long gfx_drain_locked(struct gfxstats_tracker *t) {
    struct gfxstats_session *s = t->s;
    if (s->forked) {
        /* A child's copy, in its private ring since fork_child: what is there was written by the
         * copy of a parent's thread and belongs to the parent's buffer, which is not ours. */
        struct gfx_ring *r = t->cons;
        gfx_ring_consumed(r, __atomic_load_n(&r->wp, __ATOMIC_ACQUIRE));
        gfx_ring_close(r);
        return 0;
    }
    if (t->epoch != __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE)) {
        gfx_tracker_move_locked(t);
    } else if (t->stripe == 0 && s->cur != NULL && !s->closed && t->next == t->cons && t->cons == &t->own) {
        /* A stripe freed since this tracker was made (another one closed): it takes it, and its
         * ring moves there as at a registration, so that its frames outlive a SIGKILL too; with
         * every stripe still taken, the claim finds none and nothing changes. */
        gfx_tracker_move_locked(t);
    }
    unsigned long n = 0;
    if (t->next != t->cons && __atomic_load_n(&t->ring, __ATOMIC_ACQUIRE) == t->next) {
        /* The producer switched: it claimed what was left in the old ring and took it along, so the
         * old ring has nothing more (a claim finds it empty), and the new ring is counted from
         * where gfx_start_move_locked left it (its start, or behind the copy made before the mark). */
        struct gfx_ring *old = t->cons;
        n += gfx_drain_ring_locked(t, old);
        gfx_count_drops_locked(t, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
        t->next->dropped_logged = old->dropped_logged;
        gfx_mapping_unref(t->cons_map);
        t->cons_map = t->next_map;
        t->next_map = NULL;
        t->cons = t->next;
        gfx_checkpoint_locked(t); /* the first one in the ring the producer records into */
    }
    struct gfx_ring *r = t->cons;
    unsigned long taken = gfx_drain_ring_locked(t, r);
    n += taken;
    if (s->closed) {
        gfx_ring_close(r);
        if (t->next != r) {
            gfx_ring_close(t->next);
        }
    }
    uint64_t dropped = __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
    uint64_t before = t->drops_counted;
    gfx_count_drops_locked(t, dropped);
    if (dropped != r->dropped_logged) {
        if (r->dropped_logged == 0) {
            gfx_logf("frames of %s are not counted: a tracker's ring (%u frames) was full before it was drained"
                  " (gfxstats_tracker_dropped counts them)", s->package, GFX_RING_FRAMES);
        }
        r->dropped_logged = dropped;
    }
    /* The drain checkpointed r if the producer records there; the drops since need one more. */
    if ((taken > 0 && r != t->next) || before != t->drops_counted) {
        gfx_checkpoint_locked(t);
    }
    if (t->stripe == 0 && s->cur != NULL && !s->closed) {
        gfx_tracker_hand_over_locked(t);
    }
    if (t->next == t->cons && !s->closed) {
        struct gfx_ring *want = gfx_ring_want(t);
        if (want != t->cons) {
            gfx_run_hook(s, GFX_HOOK_BEFORE_MOVE);
            gfx_start_move_locked(t, want, want == &t->own ? NULL : t->map);
        }
    }
    return n;
}

void gfx_drain_all_locked(struct gfxstats_session *s) {
    for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
        gfx_drain_locked(t);
    }
}

int gfxstats_tracker_flush(gfxstats_tracker *t) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&t->s->mu);
    gfx_drain_locked(t);
    pthread_mutex_unlock(&t->s->mu);
    return GFXSTATS_OK;
}

int gfxstats_timeline_flush(gfxstats_tracker *t) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&t->s->mu);
    gfx_drain_locked(t);
    gfx_tl_flush(&t->tl, t->tl_counters);
    gfx_checkpoint_locked(t);
    pthread_mutex_unlock(&t->s->mu);
    return GFXSTATS_OK;
}

int gfxstats_timeline_pending(gfxstats_tracker *t) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&t->s->mu);
    gfx_drain_locked(t);
    int n = gfx_tl_pending(&t->tl);
    pthread_mutex_unlock(&t->s->mu);
    return n;
}
