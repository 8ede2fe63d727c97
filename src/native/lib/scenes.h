/* Scenes and Tencent Matrix's per-frame values, as the Java client counts them
 * (io.gfxstats.scene.SceneFrameCounter with SceneOptions.DEFAULT: the Matrix 2.1 rule, levels
 * 3/9/24/42, the refresh rate from each frame's interval). Layout of the scene group:
 * docs/buffer-format.md, "Scene group". */
#ifndef GFXSTATS_SCENES_H
#define GFXSTATS_SCENES_H

#include <stddef.h>
#include <stdint.h>

#define GFX_SCENE_GROUP_ID 1u
/* Version 2: the level sums in 64 bits (version 1, with u32 level sums that wrapped at 2^32 per
 * stripe, is read by the daemon only; this library counts no scenes in such a buffer). */
#define GFX_SCENE_GROUP_VERSION 2u
#define GFX_SCENE_SLOTS 16
#define GFX_SCENE_ENTRY_BYTES 128
#define GFX_SCENE_NAME_MAX 120
#define GFX_SCENE_PREFIX_BYTES (GFX_SCENE_SLOTS * GFX_SCENE_ENTRY_BYTES)
/* u32 counters of a slot (one cache line): the first ten Android counters, Matrix frames, 5 level
 * counts. Counts grow by at most one a frame, so 32 bits last over a year at 120 Hz. */
#define GFX_SCENE_MIRRORED 10
#define GFX_SCENE_MATRIX_FRAMES 10
#define GFX_SCENE_LEVEL_COUNT_BASE 11
#define GFX_SCENE_C32 16
/* u64 sums of a slot: Σ max(T, I), Σ dropped x 2^20, Σ refresh milli-Hz, 10 stage sums, 5 level
 * sums (a frame adds its whole dropped frames, up to 2^31 - 1: sums pass 2^32 within hours). */
#define GFX_SCENE_COST 0
#define GFX_SCENE_DROPPED_Q20 1
#define GFX_SCENE_REFRESH 2
#define GFX_SCENE_STAGE_BASE 3
#define GFX_SCENE_TOTAL_STAGE 8
#define GFX_SCENE_GPU_STAGE 9
#define GFX_SCENE_WIDE_LEVEL_SUM_BASE 13
#define GFX_SCENE_C64 18
#define GFX_SCENE_WIDE_OFFSET (GFX_SCENE_SLOTS * GFX_SCENE_C32 * 4)
#define GFX_SCENE_STRIPE_BYTES 3328u
#define GFX_SCENE_AREA_BYTES(stripes) \
    (GFX_SCENE_PREFIX_BYTES + ((size_t)(stripes) + 1) * GFX_SCENE_STRIPE_BYTES)
#define GFX_SCENE_OTHER "(other)"
#define GFX_SCENE_DEFAULT "default"

_Static_assert(GFX_SCENE_WIDE_OFFSET + GFX_SCENE_SLOTS * GFX_SCENE_C64 * 8 == GFX_SCENE_STRIPE_BYTES,
               "scene group stripe size");

/* One writer's scene counts, laid out as a group stripe (a tracker's counts before a buffer). */
struct gfx_scene_rec {
    uint32_t c[GFX_SCENE_SLOTS * GFX_SCENE_C32];
    /* 8-aligned on i386 too (where uint64_t members align to 4): an atomic 8-byte store or load
     * is single-copy atomic only when aligned. */
    _Alignas(8) uint64_t w[GFX_SCENE_SLOTS * GFX_SCENE_C64];
};
_Static_assert(sizeof(struct gfx_scene_rec) == GFX_SCENE_STRIPE_BYTES, "scene record size");
_Static_assert(_Alignof(struct gfx_scene_rec) == 8 && offsetof(struct gfx_scene_rec, w) % 8 == 0,
               "scene record sums 8-aligned");
_Static_assert(__atomic_always_lock_free(8, 0), "64-bit atomics must be lock-free (i686 or later at 32 bits)");

/* Matrix modes (io.gfxstats.matrix.MatrixMode). */
enum gfx_matrix_mode { GFX_MATRIX_2_1 = 0, GFX_MATRIX_LEGACY = 1, GFX_MATRIX_TIME = 2 };

/* Matrix's settings (SceneOptions) and the values of the last frame interval seen
 * (SceneFrameCounter's cache). */
struct gfx_matrix {
    int mode;                /* enum gfx_matrix_mode */
    int32_t levels[4];       /* inclusive lower bounds of NORMAL, MIDDLE, HIGH, FROZEN */
    float configured_hz;     /* > 0: the display's rate instead of 1e9 / interval */
    float refresh_hz;        /* r of the last interval */
    int on_time_level;       /* the level of 0 dropped frames (not BEST in the time mode at low rates) */
    int64_t interval;        /* INT64_MIN: none yet */
    float interval_ns;       /* I = 1e9 / r, in float */
    int64_t refresh_millihz; /* (int64_t)(r x 1000), truncated */
    int64_t on_time_max;     /* largest T with (float) T <= I; 0 in the legacy mode */
    int64_t inline_max;      /* on_time_max when the level of 0 is BEST (the inline case), else -1 */
    int64_t on_time_cost;    /* (long) max(0, I) */
};

/* The defaults: Matrix 2.1, levels 3/9/24/42, the rate from each frame's interval. */
void gfx_matrix_init(struct gfx_matrix *m);
/* Other settings (validated by the caller: levels 1 <= n <= m <= h <= f, hz 0 or 1..1000). */
void gfx_matrix_configure(struct gfx_matrix *m, int mode, const int32_t levels[4], float configured_hz);

/* Matrix's values of a frame the Android rules counted (total > 0), into a slot's u32 counters
 * and u64 sums: the on-time case inline (most frames), the rest out of line. */
void gfx_matrix_count_slow(struct gfx_matrix *m, int64_t total, int64_t interval, uint32_t *c, uint64_t *w);

static inline void gfx_matrix_count_counted(struct gfx_matrix *m, int64_t total, int64_t interval, uint32_t *c,
                                            uint64_t *w) {
    /* total >= 0 here, so an inline_max of -1 sends every frame out of line. */
    if (__builtin_expect(interval == m->interval && total <= m->inline_max, 1)) {
        /* Within one interval nothing dropped: level BEST, cost I, no dropped sums (SceneStripe's
         * addMatrixFrame with its adds of zero left out). The time mode at low rates, where 0
         * dropped frames are above BEST, and the legacy mode go out of line. */
        __atomic_store_n(&c[GFX_SCENE_MATRIX_FRAMES], c[GFX_SCENE_MATRIX_FRAMES] + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&c[GFX_SCENE_LEVEL_COUNT_BASE], c[GFX_SCENE_LEVEL_COUNT_BASE] + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&w[GFX_SCENE_COST], w[GFX_SCENE_COST] + (uint64_t)m->on_time_cost, __ATOMIC_RELAXED);
        __atomic_store_n(&w[GFX_SCENE_REFRESH], w[GFX_SCENE_REFRESH] + (uint64_t)m->refresh_millihz, __ATOMIC_RELAXED);
        uint64_t *t = &w[GFX_SCENE_STAGE_BASE + GFX_SCENE_TOTAL_STAGE];
        __atomic_store_n(t, *t + (uint64_t)total, __ATOMIC_RELAXED);
        return;
    }
    gfx_matrix_count_slow(m, total, interval, c, w);
}

/* Matrix's values and the stage sums of a frame given by its 23 FrameInfo fields. */
void gfx_matrix_count_frameinfo(struct gfx_matrix *m, const int64_t *f, uint32_t *c, uint64_t *w);

/* The largest T >= 0 with (float) T <= i, for i > 0 (SceneFrameCounter.largestAtMost). */
int64_t gfx_largest_at_most(float i);

/* Java's Math.round of a non-negative float, saturating at INT32_MAX. */
int32_t gfx_round_nonneg(float d);

/* Why a scene name is refused (1..120 bytes of UTF-8 without control characters), or NULL. */
const char *gfx_scene_name_problem(const char *name);

#endif
