/* FrameTimeline in client-only and compositor mode: the Java client's TimelineRecorder,
 * FrameTimelineClassifier (the SurfaceFrame rules under a display frame: jank None in client-only
 * mode, the compositor frame's from the display-frame ring in compositor mode) and
 * TimelineCounters.count,
 * ported with the same thresholds, the same order of decisions and Java's wrapping long
 * arithmetic (unsigned here, so that hostile times are defined behaviour). It runs in the ring's
 * drain, under the session mutex (drain.c); it allocates nothing and makes no system call: the
 * pending table lives in the tracker. */
#include "timeline.h"

#include <string.h>

#define ONE_MS 1000000LL

/* The classification's outcomes, named by the counter each one counts. */
enum { PRESENT_ON_TIME = GFX_TL_PRESENT_ON_TIME, PRESENT_LATE = GFX_TL_PRESENT_LATE,
       PRESENT_EARLY = GFX_TL_PRESENT_EARLY, PRESENT_UNKNOWN = GFX_TL_PRESENT_UNKNOWN };
enum { FINISH_ON_TIME = GFX_TL_FINISH_ON_TIME, FINISH_LATE = GFX_TL_FINISH_LATE,
       FINISH_UNKNOWN = GFX_TL_FINISH_UNKNOWN };
enum { SEVERITY_NONE = GFX_TL_SEVERITY_NONE, SEVERITY_PARTIAL = GFX_TL_SEVERITY_PARTIAL,
       SEVERITY_FULL = GFX_TL_SEVERITY_FULL, SEVERITY_UNKNOWN = GFX_TL_SEVERITY_UNKNOWN };

/* wp_presentation_feedback kinds. */
#define KIND_VSYNC 0x1u
#define KIND_HW_CLOCK 0x2u
#define KIND_HW_COMPLETION 0x4u

/* Upper bounds (inclusive) of the present-delay buckets, ns (TimelineCounter.PRESENT_DELAY_BOUNDS_MS). */
static const int64_t delay_bounds[14] = {0, 2 * ONE_MS, 4 * ONE_MS, 6 * ONE_MS, 8 * ONE_MS, 12 * ONE_MS,
                                         17 * ONE_MS, 25 * ONE_MS, 34 * ONE_MS, 50 * ONE_MS, 67 * ONE_MS,
                                         100 * ONE_MS, 150 * ONE_MS, 250 * ONE_MS};

/* Java's long subtraction and Math.abs: wrapping, Math.abs(Long.MIN_VALUE) stays negative. */
static inline int64_t jsub(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t jadd(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t jabs(int64_t a) {
    return a < 0 ? (int64_t)(0u - (uint64_t)a) : a;
}

/* One classified SurfaceFrame, as TimelineCounters.count takes it. */
struct outcome {
    uint32_t jank;
    int present;
    int finish;
    int severity;
    int64_t delay; /* actual minus predicted present */
    int dropped;   /* present state dropped */
};

void gfx_tl_init(struct gfx_timeline *tl) {
    memset(tl, 0, sizeof *tl);
    tl->prev_predicted_present = INT64_MIN;
    tl->prev_present = INT64_MIN;
    tl->join_wait = GFX_TL_DEFAULT_JOIN_WAIT_NS;
    tl->last_presented = INT64_MIN;
    tl->hint.region = -1;
}

static inline void inc(uint32_t *c, int i) {
    /* The counters' only writer: a plain add, stored whole for the daemon's reads. */
    __atomic_store_n(&c[i], c[i] + 1, __ATOMIC_RELAXED);
}

/* TimelineCounters.count; display_known: classified under a compositor frame (compositor mode). */
static void count(uint32_t *c, int predicted, const struct outcome *o, int delay_known, int display_known) {
    if (!c) {
        return;
    }
    inc(c, GFX_TL_FRAMES);
    inc(c, predicted ? GFX_TL_PREDICTION_VALID : GFX_TL_PREDICTION_NONE);
    if (!predicted) {
        return;
    }
    inc(c, GFX_TL_TIMELINE_FRAMES);
    if (o->jank & GFX_JANK_TIMESTATS) {
        inc(c, GFX_TL_JANKY_FRAMES);
    }
    for (uint32_t m = o->jank & GFX_JANK_ALL; m != 0; m &= m - 1) {
        inc(c, GFX_TL_FIRST_JANK + __builtin_ctz(m));
    }
    inc(c, o->dropped ? GFX_TL_PRESENT_DROPPED : o->present);
    inc(c, o->finish);
    inc(c, o->severity);
    if (!display_known) {
        inc(c, GFX_TL_DISPLAY_UNKNOWN_FRAMES);
        if (o->present == PRESENT_LATE && !o->dropped
            && (o->jank & (GFX_JANK_SF_SCHEDULING | GFX_JANK_PREDICTION_ERROR)) != 0) {
            inc(c, GFX_TL_LATE_DISPLAY_UNKNOWN);
        }
    }
    if (delay_known && !o->dropped && o->present != PRESENT_UNKNOWN) {
        int b = 0;
        while (b < 14 && o->delay > delay_bounds[b]) {
            b++;
        }
        inc(c, GFX_TL_FIRST_PRESENT_DELAY + b);
    }
}

static int present_of(int64_t delta) {
    if (jabs(delta) > GFX_TL_PRESENT_THRESHOLD_NS) {
        return delta > 0 ? PRESENT_LATE : PRESENT_EARLY;
    }
    return PRESENT_ON_TIME;
}

/* FrameTimelineClassifier.classify(SurfaceFrame, actualPresent, displayJank, refresh, render)
 * for a frame with a valid prediction or none (a client frame is never "expired"); client-only
 * mode passes display jank 0 (None) and the refresh period as render period. */
static void classify(const struct gfx_tl_slot *f, int dropped, int64_t latch, int64_t actual_present,
                     uint32_t display_jank, int64_t refresh, int64_t render, struct outcome *o) {
    const int64_t t = GFX_TL_PRESENT_THRESHOLD_NS;
    o->jank = 0;
    o->present = PRESENT_UNKNOWN;
    o->finish = FINISH_UNKNOWN;
    o->severity = SEVERITY_NONE;
    o->dropped = dropped;
    int64_t present = actual_present;
    if (present == -1) { /* a present fence that never signalled */
        o->jank = GFX_JANK_UNKNOWN;
        o->severity = SEVERITY_UNKNOWN;
        o->delay = jsub(present, f->predicted_present);
        return;
    }
    if (!f->predicted) {
        o->delay = jsub(present, f->predicted_present);
        return;
    }
    int64_t deadline_delta = jsub(f->actual_end, f->predicted_end);
    int64_t present_delta = jsub(present, f->predicted_present);
    int64_t to_vsync = refresh > 0 ? jabs(present_delta) % refresh : 0;
    int on_cadence = to_vsync < t || to_vsync >= jsub(refresh, t);
    o->finish = deadline_delta > GFX_TL_DEADLINE_THRESHOLD_NS ? FINISH_LATE : FINISH_ON_TIME;
    o->present = present_of(present_delta);
    if (o->present != PRESENT_ON_TIME) {
        o->severity = jabs(present_delta) < render ? SEVERITY_PARTIAL : SEVERITY_FULL;
    }
    if (o->present == PRESENT_EARLY) {
        if (o->finish == FINISH_ON_TIME) {
            o->jank = on_cadence ? GFX_JANK_SF_SCHEDULING : GFX_JANK_PREDICTION_ERROR;
        } else {
            o->jank = GFX_JANK_UNKNOWN;
        }
    } else if (o->present == PRESENT_LATE) {
        /* Android 16 as shipped: no buffer_stuffing_fix, so "due last frame" always holds. */
        if (latch != 0 && f->predicted_end <= latch) {
            /* A stuffed queue: one period from the previous latch before the frame is late. */
            o->jank |= GFX_JANK_BUFFER_STUFFING;
            o->finish = jadd(latch, render) > f->actual_end ? FINISH_ON_TIME : FINISH_LATE;
        }
        if (o->finish == FINISH_ON_TIME) {
            if (display_jank != 0) {
                o->jank |= display_jank; /* the compositor's or the display's fault, as it said */
            } else if ((o->jank & GFX_JANK_BUFFER_STUFFING) == 0) {
                o->jank |= on_cadence ? GFX_JANK_SF_SCHEDULING : GFX_JANK_PREDICTION_ERROR;
            }
        } else {
            o->jank |= GFX_JANK_APP_DEADLINE_MISSED | display_jank;
        }
    }
    if (dropped) {
        o->jank = GFX_JANK_DROPPED;
        present = 0;
        o->severity = SEVERITY_UNKNOWN;
    }
    o->delay = jsub(present, f->predicted_present);
}

/* The compositor's last latch before this frame, estimated (TimelineRecorder.latchEstimate):
 * the previous presented frame's present minus the compositor budget (refresh - 1 ms), when that
 * frame was due no later than this one; else 0. */
static int64_t latch_estimate(const struct gfx_timeline *tl, const struct gfx_tl_slot *f, int64_t refresh) {
    int64_t budget = jsub(refresh, ONE_MS);
    if (budget < 0) {
        budget = 0;
    }
    int64_t latch = 0;
    if (tl->prev_present != INT64_MIN && tl->prev_predicted_present != INT64_MIN
        && tl->prev_predicted_present > jsub(f->predicted_present, GFX_TL_PRESENT_THRESHOLD_NS)) {
        latch = jsub(tl->prev_present, budget);
    }
    return latch > 0 ? latch : 0;
}

/* A frame whose present is not known: given up unanswered, or presented without vsync. */
static void count_unknown_present(uint32_t *c, const struct gfx_tl_slot *f) {
    struct outcome o = {.jank = GFX_JANK_UNKNOWN, .present = PRESENT_UNKNOWN, .severity = SEVERITY_UNKNOWN};
    o.finish = jsub(f->actual_end, f->predicted_end) > GFX_TL_DEADLINE_THRESHOLD_NS ? FINISH_LATE : FINISH_ON_TIME;
    count(c, f->predicted, &o, 0, 0);
}

/* Frees a slot (PendingFrames.release). */
static void release(struct gfx_timeline *tl, struct gfx_tl_slot *f) {
    f->used = 0;
    if (f->awaiting) {
        f->awaiting = 0;
        tl->awaiting--;
    }
}

/* Client-only mode: display jank None, with the rule for estimated timestamps. */
static void count_client_only(struct gfx_timeline *tl, uint32_t *c, struct gfx_tl_slot *f, int64_t present_ns,
                              int64_t refresh_ns, uint32_t flags, int64_t latch) {
    release(tl, f);
    struct outcome o;
    classify(f, 0, latch, present_ns, 0, refresh_ns, refresh_ns, &o);
    if (!(flags & (KIND_HW_CLOCK | KIND_HW_COMPLETION)) && (o.jank & GFX_JANK_PREDICTION_ERROR)) {
        /* An estimated timestamp cannot prove a prediction error. */
        o.jank = (o.jank & ~GFX_JANK_PREDICTION_ERROR) | GFX_JANK_UNKNOWN;
    }
    count(c, f->predicted, &o, 1, 0);
}

/* A presented frame whose compositor frame did not come: client-only, with its kept feedback. */
static void count_unjoined(struct gfx_timeline *tl, uint32_t *c, struct gfx_tl_slot *f) {
    tl->unjoined++;
    count_client_only(tl, c, f, f->presented_at, f->refresh_at, f->flags_at, f->latch_at);
}

/* Compositor mode: the compositor frame's present, jank and periods. */
static void count_joined(struct gfx_timeline *tl, uint32_t *c, struct gfx_tl_slot *f, const struct gfx_doutcome *d) {
    release(tl, f);
    struct outcome o;
    classify(f, 0, f->latch_at, d->actual_present, d->jank, d->refresh, d->render, &o);
    count(c, f->predicted, &o, 1, 1);
    tl->joined++;
}

void gfx_tl_commit(struct gfx_timeline *tl, uint32_t *c, int64_t token, int predicted, int64_t predicted_start,
                   int64_t predicted_end, int64_t predicted_present, int64_t actual_start, int64_t actual_end) {
    struct gfx_tl_slot *f = &tl->slot[tl->next];
    if (f->used) {
        if (f->awaiting) {
            count_unjoined(tl, c, f);
        } else {
            release(tl, f);
            count_unknown_present(c, f);
        }
    }
    f->used = 1;
    f->token = token;
    f->predicted = predicted != 0;
    /* A frame without a prediction keeps the times it was given, as TimelineFrame.noPrediction does. */
    f->predicted_start = predicted_start;
    f->predicted_end = predicted_end;
    f->predicted_present = predicted_present;
    f->actual_start = actual_start;
    f->actual_end = actual_end;
    tl->next = tl->next + 1 == GFX_TL_CAPACITY ? 0 : tl->next + 1;
}

/* The pending frame of `token`, newest first (feedback normally comes for recent frames), or NULL. */
static struct gfx_tl_slot *find(struct gfx_timeline *tl, int64_t token) {
    for (int i = 1; i <= GFX_TL_CAPACITY; i++) {
        int s = tl->next - i;
        if (s < 0) {
            s += GFX_TL_CAPACITY;
        }
        if (tl->slot[s].token == token && tl->slot[s].used && !tl->slot[s].awaiting) {
            return &tl->slot[s];
        }
    }
    return NULL;
}

/* Joins every waiting frame whose display frame is in the ring; of the others, gives up on those
 * that waited longer than the join wait (poll), or on all of them (flush: give_up_all). */
static void settle(struct gfx_timeline *tl, uint32_t *c, int64_t now_ns, int give_up_all) {
    if (tl->awaiting == 0) {
        return;
    }
    /* Slot order, as Java: the counters are sums, and nothing here changes the latch estimate. */
    for (int i = 0; i < GFX_TL_CAPACITY; i++) {
        struct gfx_tl_slot *f = &tl->slot[i];
        if (!f->awaiting) {
            continue;
        }
        struct gfx_doutcome d;
        if (tl->ring && gfx_dring_find(tl->ring, &tl->hint, f->output_at, f->msc_at, &d)) {
            count_joined(tl, c, f, &d);
        } else if (give_up_all || jsub(now_ns, f->presented_at) > tl->join_wait) {
            count_unjoined(tl, c, f);
        }
    }
}

void gfx_tl_poll(struct gfx_timeline *tl, uint32_t *c, int64_t now_ns) {
    settle(tl, c, now_ns, 0);
}

void gfx_tl_flush(struct gfx_timeline *tl, uint32_t *c) {
    settle(tl, c, 0, 1);
}

int gfx_tl_presented(struct gfx_timeline *tl, uint32_t *c, int64_t token, int64_t present_ns, int64_t refresh_ns,
                     uint32_t flags, int64_t msc, int64_t output) {
    struct gfx_tl_slot *f = find(tl, token);
    if (!f) {
        return 0;
    }
    if (present_ns > tl->last_presented) {
        tl->last_presented = present_ns;
    }
    if (!(flags & KIND_VSYNC)) { /* tearing: when it was seen is not a present */
        release(tl, f);
        count_unknown_present(c, f);
    } else {
        int64_t latch = latch_estimate(tl, f, refresh_ns);
        tl->prev_predicted_present = f->predicted_present;
        tl->prev_present = present_ns;
        if (tl->ring == NULL || msc == 0) {
            count_client_only(tl, c, f, present_ns, refresh_ns, flags, latch);
        } else {
            f->presented_at = present_ns;
            f->refresh_at = refresh_ns;
            f->flags_at = flags;
            f->latch_at = latch;
            f->output_at = output;
            f->msc_at = msc;
            struct gfx_doutcome d;
            if (gfx_dring_find(tl->ring, &tl->hint, output, msc, &d)) {
                count_joined(tl, c, f, &d);
            } else {
                f->awaiting = 1;
                tl->awaiting++;
            }
        }
    }
    gfx_tl_poll(tl, c, tl->last_presented);
    return 1;
}

int gfx_tl_discarded(struct gfx_timeline *tl, uint32_t *c, int64_t token, int64_t refresh_ns) {
    struct gfx_tl_slot *f = find(tl, token);
    if (!f) {
        return 0;
    }
    release(tl, f);
    /* Android takes a dropped frame's predicted present as its present; its latch is never read
     * (the present is on time by definition). */
    struct outcome o;
    classify(f, 1, 0, f->predicted_present, 0, refresh_ns, refresh_ns, &o);
    count(c, f->predicted, &o, 1, 0);
    gfx_tl_poll(tl, c, tl->last_presented);
    return 1;
}

int gfx_tl_pending(const struct gfx_timeline *tl) {
    int n = 0;
    for (int i = 0; i < GFX_TL_CAPACITY; i++) {
        n += tl->slot[i].used;
    }
    return n;
}

int gfx_tl_any(const uint32_t *c) {
    for (int i = 0; i < GFX_TL_COUNTERS; i++) {
        if (c[i]) {
            return 1;
        }
    }
    return 0;
}

void gfx_tl_add(uint32_t *dst, const uint32_t *src) {
    for (int i = 0; i < GFX_TL_COUNTERS; i++) {
        dst[i] += src[i];
    }
}

void gfx_tl_add_owned(uint32_t *dst, const uint32_t *src) {
    for (int i = 0; i < GFX_TL_COUNTERS; i++) {
        if (src[i]) {
            __atomic_store_n(&dst[i], dst[i] + src[i], __ATOMIC_RELAXED);
        }
    }
}

void gfx_tl_add_atomic(uint32_t *dst, const uint32_t *src) {
    for (int i = 0; i < GFX_TL_COUNTERS; i++) {
        if (src[i]) {
            __atomic_fetch_add(&dst[i], src[i], __ATOMIC_RELAXED);
        }
    }
}
