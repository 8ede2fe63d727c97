/* FrameTimeline in client-only mode, as the Java client's TimelineRecorder counts it
 * (docs/frametimeline.md, "Linux clients"): frames are committed with their token, predictions
 * and work times, wait in a fixed table of GFX_TL_CAPACITY slots for their presentation
 * feedback, and are then classified with SurfaceFlinger's Android 16 rules (legacy thresholds:
 * present 2 ms, deadline 0) as SurfaceFrames with display jank None and counted into the
 * FrameTimeline counter group. Layout of the group: docs/buffer-format.md, "FrameTimeline group".
 * Compositor mode (joining a compositor's display frames) is not ported. */
#ifndef GFXSTATS_TIMELINE_H
#define GFXSTATS_TIMELINE_H

#include <stdint.h>

#include "display.h"

#define GFX_TL_GROUP_ID 2u
#define GFX_TL_GROUP_VERSION 1u
/* u32 counters of a group stripe, in io.gfxstats.timeline.TimelineCounter order. */
#define GFX_TL_COUNTERS 50
#define GFX_TL_STRIPE_BYTES 256u
#define GFX_TL_AREA_BYTES(stripes) (((uint64_t)(stripes) + 1) * GFX_TL_STRIPE_BYTES)
/* Frames that may await feedback at once (TimelineRecorder.DEFAULT_CAPACITY). */
#define GFX_TL_CAPACITY 16

_Static_assert(GFX_TL_COUNTERS * 4 <= GFX_TL_STRIPE_BYTES, "FrameTimeline group stripe size");

enum gfx_tl_counter {
    GFX_TL_FRAMES = 0,
    GFX_TL_TIMELINE_FRAMES,
    GFX_TL_JANKY_FRAMES,
    GFX_TL_FIRST_JANK, /* 15 jank bits in JankType table order: bit i counts at FIRST_JANK + i */
    GFX_TL_PRESENT_ON_TIME = GFX_TL_FIRST_JANK + 15,
    GFX_TL_PRESENT_LATE,
    GFX_TL_PRESENT_EARLY,
    GFX_TL_PRESENT_DROPPED,
    GFX_TL_PRESENT_UNKNOWN,
    GFX_TL_FINISH_ON_TIME,
    GFX_TL_FINISH_LATE,
    GFX_TL_FINISH_UNKNOWN,
    GFX_TL_SEVERITY_NONE,
    GFX_TL_SEVERITY_PARTIAL,
    GFX_TL_SEVERITY_FULL,
    GFX_TL_SEVERITY_UNKNOWN,
    GFX_TL_PREDICTION_VALID,
    GFX_TL_PREDICTION_EXPIRED,
    GFX_TL_PREDICTION_NONE,
    GFX_TL_DISPLAY_UNKNOWN_FRAMES,
    GFX_TL_LATE_DISPLAY_UNKNOWN,
    GFX_TL_FIRST_PRESENT_DELAY, /* 15 buckets */
    GFX_TL_COUNTER_END = GFX_TL_FIRST_PRESENT_DELAY + 15
};

_Static_assert(GFX_TL_COUNTER_END == GFX_TL_COUNTERS, "TimelineCounter.COUNT");

/* Jank bits (SurfaceFlinger's JankInfo.h values; bit i is jank type i of the table). */
#define GFX_JANK_DISPLAY_HAL 0x1u
#define GFX_JANK_SF_CPU_DEADLINE_MISSED 0x2u
#define GFX_JANK_SF_GPU_DEADLINE_MISSED 0x4u
#define GFX_JANK_APP_DEADLINE_MISSED 0x8u
#define GFX_JANK_PREDICTION_ERROR 0x10u
#define GFX_JANK_SF_SCHEDULING 0x20u
#define GFX_JANK_BUFFER_STUFFING 0x40u
#define GFX_JANK_UNKNOWN 0x80u
#define GFX_JANK_SF_STUFFING 0x100u
#define GFX_JANK_DROPPED 0x200u
#define GFX_JANK_ALL 0x7FFFu
/* TimeStats' janky reasons: Unknown, both stuffings and Dropped are not janky. */
#define GFX_JANK_TIMESTATS                                                                       \
    (GFX_JANK_DISPLAY_HAL | GFX_JANK_SF_CPU_DEADLINE_MISSED | GFX_JANK_SF_GPU_DEADLINE_MISSED   \
     | GFX_JANK_APP_DEADLINE_MISSED | GFX_JANK_PREDICTION_ERROR | GFX_JANK_SF_SCHEDULING)

/* Android 16's legacy thresholds (Thresholds.ANDROID_16_LEGACY). */
#define GFX_TL_PRESENT_THRESHOLD_NS 2000000LL
#define GFX_TL_DEADLINE_THRESHOLD_NS 0LL

/* One committed frame awaiting its feedback (PendingFrames of the Java client). */
struct gfx_tl_slot {
    int64_t token;
    int64_t predicted_start;
    int64_t predicted_end;
    int64_t predicted_present;
    int64_t actual_start;
    int64_t actual_end;
    uint8_t used;
    uint8_t predicted; /* 1 valid prediction, 0 none */
    uint8_t awaiting;  /* presented, waiting for its compositor frame; the feedback below is kept */
    uint32_t flags_at;
    int64_t presented_at;
    int64_t refresh_at;
    int64_t latch_at;
    int64_t output_at;
    int64_t msc_at;
};

/* A tracker's recorder: fixed size, no allocation. Run by the drain of the tracker's ring, under
 * the session mutex, in the order of the tracker's gfxstats_timeline_* calls. */
struct gfx_timeline {
    struct gfx_tl_slot slot[GFX_TL_CAPACITY];
    int next; /* the oldest slot, reused by the next commit */
    int64_t prev_predicted_present; /* of the last vsynced presentation; INT64_MIN before any */
    int64_t prev_present;
    /* Compositor mode: the ring joined (NULL: client-only; set by the session), the join wait,
     * the newest present fed back (the clock of the join wait), where the output's entries were
     * found last, and how many frames were joined or given up waiting. */
    const struct gfx_dring *ring;
    int64_t join_wait;
    int64_t last_presented;
    struct gfx_dring_hint hint;
    int awaiting;
    uint64_t joined;
    uint64_t unjoined;
};

/* TimelineRecorder.DEFAULT_JOIN_WAIT_NANOS */
#define GFX_TL_DEFAULT_JOIN_WAIT_NS 100000000LL

void gfx_tl_init(struct gfx_timeline *tl);

/* Counting target c: GFX_TL_COUNTERS u32 the caller alone writes (a group stripe or local
 * memory), or NULL when the buffer has no FrameTimeline group (nothing is counted, as in Java). */

/* Commits a frame; a frame still pending in the slot it takes is given up as "present unknown". */
void gfx_tl_commit(struct gfx_timeline *tl, uint32_t *c, int64_t token, int predicted, int64_t predicted_start,
                   int64_t predicted_end, int64_t predicted_present, int64_t actual_start, int64_t actual_end);
/* The pending frame `token` was presented (on `output` at `msc`; msc 0: none): 1 when taken
 * (counted, or waiting for its compositor frame), 0 when the token was not pending. */
int gfx_tl_presented(struct gfx_timeline *tl, uint32_t *c, int64_t token, int64_t present_ns, int64_t refresh_ns,
                     uint32_t flags, int64_t msc, int64_t output);
/* Looks up the frames waiting for their compositor frame again; those presented more than the
 * join wait before now_ns are classified client-only (TimelineRecorder.poll). */
void gfx_tl_poll(struct gfx_timeline *tl, uint32_t *c, int64_t now_ns);
/* Classifies every frame waiting for its compositor frame: joined if the ring holds it now, else
 * client-only (TimelineRecorder.flush; also before the ring changes). */
void gfx_tl_flush(struct gfx_timeline *tl, uint32_t *c);
/* The pending frame `token` was never shown: 1 when counted, 0 when the token was not pending. */
int gfx_tl_discarded(struct gfx_timeline *tl, uint32_t *c, int64_t token, int64_t refresh_ns);
/* Frames committed and not yet classified. */
int gfx_tl_pending(const struct gfx_timeline *tl);

int gfx_tl_any(const uint32_t *c);
void gfx_tl_add(uint32_t *dst, const uint32_t *src);
/* Adds src into a stripe this thread alone writes (relaxed stores). */
void gfx_tl_add_owned(uint32_t *dst, const uint32_t *src);
/* Atomic adds of src into a shared stripe. */
void gfx_tl_add_atomic(uint32_t *dst, const uint32_t *src);

#endif
