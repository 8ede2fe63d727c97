/* The frame path: what a rendering thread runs for each frame and FrameTimeline call. It appends
 * the call's raw values to the tracker's ring and publishes them; nothing else (no system call,
 * no lock, no allocation): the drain counts them (drain.c). Once per lap of the ring a slow path
 * sets the next limit, and once per move it switches rings (move.c). */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <string.h>

/* The producer's move to the ring the consumer published before it marked the current one
 * GFX_RING_MOVED (acquire: its reset is seen). The entries the consumer has not claimed yet go
 * along: copied into the new ring (behind what the consumer copied there before the mark, which
 * is not copied again), claimed, then published there, so that from the claim on (the next
 * instruction publishes them) they are in the ring whose checkpoints hold everything
 * counted before them. Copied before the claim, so that no SIGKILL can find them claimed and not
 * yet in the new ring while the copy runs; when the drain claims part of them first, the copy is
 * made again from where it stopped. The drops go along too, so that the count the daemon sees
 * never goes back. Render thread, once per move; no system call, no lock: a copy of at most one
 * ring (rarely two) and a CAS. */
__attribute__((noinline, cold)) static void producer_switch(struct gfxstats_tracker *t) {
    struct gfx_ring *old = t->ring;
    struct gfx_ring *to = __atomic_load_n(&t->next, __ATOMIC_ACQUIRE);
    int64_t *end = old->wp; /* ours */
    int64_t *from = __atomic_load_n(&old->rp, __ATOMIC_ACQUIRE);
    int64_t *at = to->wp; /* behind the drain's copy (carry_ahead_locked), if it made one */
    uint32_t words = 0;
    for (;;) {
        if (words > 0) {
            memset(to->kind + (at - to->w), 0, words); /* a copy made before the consumer claimed part of it */
        }
        /* The drain's copy is in the new ring already: from its end on, until the drain claims it. */
        const int64_t *start = from == t->carried_from ? t->carried_to : from;
        words = start == end ? 0
                             : gfx_ring_forward(old, start, end, to, (uint32_t)(at - to->w), GFX_RING_WORDS, NULL);
        if (from == end || gfx_ring_claim(old, &from, end)) {
            break;
        }
    }
    __atomic_store_n(&to->dropped, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    if (words > 0) {
        gfx_ring_publish(to, at, words);
    }
    __atomic_store_n(&t->ring, to, __ATOMIC_RELEASE); /* after it, nothing more in the old ring */
}

/* An entry was published into a ring the consumer had kicked (its limit was 0 right after): when
 * that ring was marked moved, the entry (and whatever the consumer has not claimed) goes along now,
 * before the call returns (see gfx_start_move_locked). */
__attribute__((noinline, cold)) static int frame_kicked(struct gfxstats_tracker *t) {
    if (__atomic_load_n(&t->ring->closed, __ATOMIC_ACQUIRE) == GFX_RING_MOVED) {
        producer_switch(t);
    }
    return GFXSTATS_OK;
}

/* After an entry's publication: 0 while the ring's limit is set, else frame_kicked's. */
static inline int after_publish(struct gfxstats_tracker *t, struct gfx_ring *r) {
    if (__builtin_expect(gfx_ring_kicked(r), 0)) {
        return frame_kicked(t);
    }
    return GFXSTATS_OK;
}

/* Where the entry of n words goes when it takes the slow path (the limit: the ring's end, a kick,
 * full or closed), or NULL with the return code in *rc: GFXSTATS_OK for a frame dropped because
 * the ring is full (counted), GFXSTATS_ECLOSED when the session is closed. */
static int64_t *ring_room(struct gfxstats_tracker *t, unsigned n, int *rc) {
    int closed = 0;
    int64_t *e = t->closed ? NULL : gfx_ring_room(t->ring, n, &closed);
    while (closed == GFX_RING_MOVED) {
        producer_switch(t);
        e = gfx_ring_room(t->ring, n, &closed);
    }
    if (e) {
        return e;
    }
    if (t->closed || closed || (__atomic_load_n(&t->s->epoch, __ATOMIC_ACQUIRE) & 1)) { /* odd: closed */
        t->closed = 2;
        *rc = GFXSTATS_ECLOSED;
        return NULL;
    }
    /* Atomic loads too: the consumer raises this count (gfx_raise_dropped) once the ring it moved
     * the producer to is published, possibly while the producer counts a drop here (TSan saw it).
     * The producer's count is never below the one raised, so the plain increment loses nothing. */
    struct gfx_ring *full = t->ring;
    __atomic_store_n(&full->dropped, __atomic_load_n(&full->dropped, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    /* A drop counted in a ring marked moved after the fullness check above, and after the drain
     * that follows the mark read the count, goes along now (the switch carries the count), as an
     * entry does (frame_kicked). Ordered against the mark by a fence: only a full ring pays it.
     * An acquire load (a plain one on x86): what the consumer wrote before the mark (its copy into
     * the next ring and where that copy ends, gfx_start_move_locked) is seen by the switch. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&full->closed, __ATOMIC_ACQUIRE) == GFX_RING_MOVED) {
        producer_switch(t);
    }
    *rc = GFXSTATS_OK;
    return NULL;
}

/* Writes and publishes a times-path frame at e: the fast path's and the slow path's one body
 * (inlined into each, so the fast path stays free of calls). */
static inline int put_times(struct gfxstats_tracker *t, struct gfx_ring *r, int64_t *e, int64_t intended_vsync,
                            int64_t vsync, int64_t frame_completed, int64_t gpu_completed,
                            int64_t frame_interval_ns) {
#if GFX_RING_STREAM
    if (__builtin_expect(__atomic_load_n(&gfx_barrier_registered, __ATOMIC_RELAXED), 1)) {
        __builtin_ia32_movnti64((long long *)&e[0], intended_vsync);
        __builtin_ia32_movnti64((long long *)&e[1], vsync);
        __builtin_ia32_movnti64((long long *)&e[2], frame_completed);
        __builtin_ia32_movnti64((long long *)&e[3], gpu_completed);
        __builtin_ia32_movnti64((long long *)&e[4], frame_interval_ns);
    } else
#endif
    {
        e[0] = intended_vsync;
        e[1] = vsync;
        e[2] = frame_completed;
        e[3] = gpu_completed;
        e[4] = frame_interval_ns;
    }
    gfx_ring_publish(r, e, GFX_RING_TIMES_WORDS);
    return after_publish(t, r);
}

/* gfxstats_record past the limit (a tail call, so that the frame path saves no register for it). */
__attribute__((noinline, cold)) static int record_slow(struct gfxstats_tracker *t, int64_t intended_vsync,
                                                       int64_t vsync, int64_t frame_completed,
                                                       int64_t gpu_completed, int64_t frame_interval_ns) {
    int rc;
    int64_t *e = ring_room(t, GFX_RING_TIMES_WORDS, &rc);
    if (!e) {
        return rc;
    }
    return put_times(t, t->ring, e, intended_vsync, vsync, frame_completed, gpu_completed, frame_interval_ns);
}

int gfxstats_record(gfxstats_tracker *t, int64_t intended_vsync, int64_t vsync, int64_t frame_completed,
                    int64_t gpu_completed, int64_t frame_interval_ns) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    struct gfx_ring *r = t->ring; /* plain: only this thread writes it (and wp) */
    int64_t *e = r->wp;
    if (__builtin_expect(gfx_ring_over(r, e, GFX_RING_TIMES_WORDS), 0)) {
        return record_slow(t, intended_vsync, vsync, frame_completed, gpu_completed, frame_interval_ns);
    }
    return put_times(t, r, e, intended_vsync, vsync, frame_completed, gpu_completed, frame_interval_ns);
}

/* Writes and publishes a FrameInfo frame at e (inlined into the fast and the slow path). */
static inline int put_frameinfo(struct gfxstats_tracker *t, struct gfx_ring *r, int64_t *e,
                                const int64_t fields[GFXSTATS_FI_COUNT]) {
    __atomic_store_n(&r->kind[e - r->w], GFX_RING_FRAMEINFO, __ATOMIC_RELAXED);
    memcpy(e, fields, sizeof(int64_t) * GFXSTATS_FI_COUNT);
    gfx_ring_publish(r, e, GFX_RING_FI_WORDS);
    return after_publish(t, r);
}

/* gfxstats_record_frameinfo past the limit (a tail call, as record_slow). */
__attribute__((noinline, cold)) static int frameinfo_slow(struct gfxstats_tracker *t,
                                                          const int64_t fields[GFXSTATS_FI_COUNT]) {
    int rc;
    int64_t *e = ring_room(t, GFX_RING_FI_WORDS, &rc);
    if (!e) {
        return rc;
    }
    return put_frameinfo(t, t->ring, e, fields);
}

int gfxstats_record_frameinfo(gfxstats_tracker *t, const int64_t fields[GFXSTATS_FI_COUNT]) {
    if (!t || !fields) {
        return GFXSTATS_EINVAL;
    }
    struct gfx_ring *r = t->ring;
    int64_t *e = r->wp;
    if (__builtin_expect(gfx_ring_over(r, e, GFX_RING_FI_WORDS), 0)) {
        return frameinfo_slow(t, fields);
    }
    return put_frameinfo(t, r, e, fields);
}

/* FrameTimeline (timeline.c): frame-path calls that append to the ring like gfxstats_record; the
 * drain classifies and counts them in their order (drain.c, drain_tl_locked). */
static inline int tl_write(struct gfxstats_tracker *t, struct gfx_ring *r, int64_t *e, int64_t kind, int64_t a,
                           int64_t b, int64_t c, int64_t d, int64_t e5, int64_t f) {
    __atomic_store_n(&r->kind[e - r->w], (uint8_t)kind, __ATOMIC_RELAXED);
    e[0] = kind;
    e[1] = a;
    e[2] = b;
    e[3] = c;
    e[4] = d;
    e[5] = e5;
    e[6] = f;
    gfx_ring_publish(r, e, GFX_RING_TL_WORDS);
    return after_publish(t, r);
}

/* tl_append past the limit: out of line, and called last, so that the frame path keeps nothing
 * across it (no register saved on every call). */
__attribute__((noinline, cold)) static int tl_append_slow(gfxstats_tracker *t, int64_t kind, int64_t a, int64_t b,
                                                          int64_t c, int64_t d, int64_t e5, int64_t f) {
    int rc;
    int64_t *e = ring_room(t, GFX_RING_TL_WORDS, &rc);
    if (!e) {
        return rc;
    }
    return tl_write(t, t->ring, e, kind, a, b, c, d, e5, f);
}

static inline int tl_append(gfxstats_tracker *t, int64_t kind, int64_t a, int64_t b, int64_t c, int64_t d,
                            int64_t e5, int64_t f) {
    struct gfx_ring *r = t->ring;
    int64_t *e = r->wp;
    if (__builtin_expect(gfx_ring_over(r, e, GFX_RING_TL_WORDS), 0)) {
        return tl_append_slow(t, kind, a, b, c, d, e5, f);
    }
    return tl_write(t, r, e, kind, a, b, c, d, e5, f);
}

int gfxstats_timeline_commit(gfxstats_tracker *t, int64_t token, int64_t predicted_start, int64_t predicted_end,
                             int64_t predicted_present, int64_t actual_start, int64_t actual_end) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_COMMIT, token, predicted_start, predicted_end, predicted_present, actual_start,
                     actual_end);
}

int gfxstats_timeline_commit_unpredicted(gfxstats_tracker *t, int64_t token, int64_t actual_start,
                                         int64_t actual_end) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_UNPREDICTED, token, actual_start, actual_end, 0, 0, 0);
}

int gfxstats_timeline_presented(gfxstats_tracker *t, int64_t token, int64_t present_ns, int64_t refresh_ns,
                                uint32_t flags) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_PRESENTED, token, present_ns, refresh_ns, flags, 0, 0);
}

int gfxstats_timeline_presented_on(gfxstats_tracker *t, int64_t token, int64_t present_ns, int64_t refresh_ns,
                                   uint32_t flags, int64_t msc, int64_t output) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_PRESENTED, token, present_ns, refresh_ns, flags, msc, output);
}

int gfxstats_timeline_poll(gfxstats_tracker *t, int64_t now_ns) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_POLL, now_ns, 0, 0, 0, 0, 0);
}

int gfxstats_timeline_discarded(gfxstats_tracker *t, int64_t token, int64_t refresh_ns) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_DISCARDED, token, refresh_ns, 0, 0, 0, 0);
}

int gfx_tracker_test_record_at(struct gfxstats_tracker *t, struct gfx_ring *r, int64_t *e, int64_t intended_vsync,
                               int64_t vsync, int64_t frame_completed, int64_t gpu_completed,
                               int64_t frame_interval_ns) {
    return put_times(t, r, e, intended_vsync, vsync, frame_completed, gpu_completed, frame_interval_ns);
}
