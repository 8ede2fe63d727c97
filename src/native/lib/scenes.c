/* Matrix's per-frame values in C, computed exactly as the Java client computes them
 * (io.gfxstats.matrix.MatrixRule, io.gfxstats.scene.SceneFrameCounter): the same float
 * operations in the same order (x86-64 and aarch64 evaluate float in float, FLT_EVAL_METHOD 0),
 * and Java's saturating conversions written out, because C's are undefined out of range. */
#include "scenes.h"

#include "gfxstats.h"

#include <float.h>
#include <string.h>

_Static_assert(FLT_EVAL_METHOD == 0, "Matrix's float arithmetic must be evaluated in float, as Java does");

#define NANOS_PER_SECOND_F 1000000000.0f
#define DEFAULT_REFRESH_HZ_F 60.0f
#define INVALID_DURATION_FROM (INT64_MAX >> 1)
#define Q20_F 1048576.0f

static int valid_duration(int64_t d) {
    return d >= 0 && d < INVALID_DURATION_FROM;
}

/* Java's (long) of a float: truncation, saturating (no NaN reaches here). */
static int64_t f2l(float x) {
    if (x >= 0x1p63f) return INT64_MAX;
    if (x <= -0x1p63f) return INT64_MIN;
    return (int64_t)x;
}

int32_t gfx_round_nonneg(float d) {
    /* Math.round for d >= 0: d + 0.5 is exact in double, so truncating it is floor(d + 0.5). */
    double x = (double)d + 0.5;
    return x >= 2147483648.0 ? INT32_MAX : (int32_t)x;
}

int64_t gfx_largest_at_most(float i) {
    if (i >= 0x1p63f) {
        return INT64_MAX;
    }
    int64_t whole = (int64_t)i;
    uint32_t bits;
    memcpy(&bits, &i, 4);
    int e = (int)((bits >> 23) & 0xFF) - 150; /* ulp(i) = 2^e for a normal positive float */
    int64_t ulp = e <= 0 ? 1 : (int64_t)1 << e;
    int64_t lo = whole - ulp > 0 ? whole - ulp : 0;
    int64_t hi = whole > INT64_MAX - ulp - 1 ? INT64_MAX : whole + ulp + 1;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((float)mid <= i) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void gfx_matrix_init(struct gfx_matrix *m) {
    static const int32_t defaults[4] = {3, 9, 24, 42};
    gfx_matrix_configure(m, GFX_MATRIX_2_1, defaults, 0.0f);
}

void gfx_matrix_configure(struct gfx_matrix *m, int mode, const int32_t levels[4], float configured_hz) {
    memset(m, 0, sizeof *m);
    m->interval = INT64_MIN;
    m->mode = mode;
    memcpy(m->levels, levels, sizeof m->levels);
    m->configured_hz = configured_hz;
}

/* MatrixRule.level: inclusive lower bounds, tested from FROZEN down. */
static int level_by(int32_t dropped, int32_t normal, int32_t middle, int32_t high, int32_t frozen) {
    return dropped >= frozen ? 4 : dropped >= high ? 3 : dropped >= middle ? 2 : dropped >= normal ? 1 : 0;
}

/* MatrixLevels.level(mode, dropped, r): the time mode scales each bound by r / 60 and rounds it. */
static int level_of(const struct gfx_matrix *m, int32_t dropped) {
    const int32_t *b = m->levels;
    if (m->mode == GFX_MATRIX_TIME) {
        float scale = m->refresh_hz / DEFAULT_REFRESH_HZ_F;
        return level_by(dropped, gfx_round_nonneg((float)b[0] * scale), gfx_round_nonneg((float)b[1] * scale),
                        gfx_round_nonneg((float)b[2] * scale), gfx_round_nonneg((float)b[3] * scale));
    }
    return level_by(dropped, b[0], b[1], b[2], b[3]);
}

static void interval_changed(struct gfx_matrix *m, int64_t interval) {
    m->interval = interval;
    /* MatrixRule.refreshHz: the configured rate, else 1e9 / interval in float, else 60 Hz. */
    float hz = m->configured_hz > 0.0f ? m->configured_hz
            : interval > 0 ? NANOS_PER_SECOND_F / (float)interval : DEFAULT_REFRESH_HZ_F;
    m->refresh_hz = hz;
    m->interval_ns = NANOS_PER_SECOND_F / hz;
    /* Truncated like the Java client: Matrix prints (int) of the mean rate, so 119.99999 Hz stays 119. */
    m->refresh_millihz = (int64_t)((double)hz * 1000.0);
    m->on_time_cost = f2l(m->interval_ns > 0.0f ? m->interval_ns : 0.0f);
    m->on_time_level = level_of(m, 0);
    /* The legacy mode's dropped frames come from another span: no frame is known on time. */
    m->on_time_max = m->mode == GFX_MATRIX_LEGACY ? 0 : gfx_largest_at_most(m->interval_ns);
    m->inline_max = m->on_time_level == 0 ? m->on_time_max : -1; /* -1: even a total of 0 goes out of line */
}

/* MatrixRule.legacyDroppedFrames: span / interval in long division, saturated to an int. */
static int32_t legacy_dropped(int64_t span, int64_t interval) {
    int64_t q = span / interval;
    return q > INT32_MAX ? INT32_MAX : q < INT32_MIN ? INT32_MIN : (int32_t)q;
}

/* The legacy divisor: the frame's interval, else (long) I. */
static int64_t legacy_interval(struct gfx_matrix *m, int64_t interval) {
    if (interval > 0) {
        return interval;
    }
    if (interval != m->interval) {
        interval_changed(m, interval);
    }
    return f2l(m->interval_ns);
}

static inline void add32(uint32_t *p, uint32_t v) {
    __atomic_store_n(p, *p + v, __ATOMIC_RELAXED);
}

static inline void add64(uint64_t *p, uint64_t v) {
    __atomic_store_n(p, *p + v, __ATOMIC_RELAXED); /* one aligned 8-byte store */
}

/* SceneStripe.addMatrixFrame. */
static void add_frame(uint32_t *c, uint64_t *w, int level, int32_t dropped, int64_t cost, int64_t q20,
                      int64_t millihz, int64_t total) {
    add32(&c[GFX_SCENE_MATRIX_FRAMES], 1);
    add32(&c[GFX_SCENE_LEVEL_COUNT_BASE + level], 1);
    if (dropped != 0) {
        /* dropped is 0..INT32_MAX (gfx_round_nonneg saturates as Java's Math.round does): widened
         * whole into the 64-bit level sum, as SceneStripe does. */
        add64(&w[GFX_SCENE_WIDE_LEVEL_SUM_BASE + level], (uint64_t)(uint32_t)dropped);
    }
    add64(&w[GFX_SCENE_COST], (uint64_t)cost);
    if (q20 != 0) {
        add64(&w[GFX_SCENE_DROPPED_Q20], (uint64_t)q20);
    }
    add64(&w[GFX_SCENE_REFRESH], (uint64_t)millihz);
    add64(&w[GFX_SCENE_STAGE_BASE + GFX_SCENE_TOTAL_STAGE], (uint64_t)total);
}

/* SceneFrameCounter.countMatrix for any valid frame: dropped = max(0, (T - I) / I) in float;
 * the whole dropped frames are its rounding, or legacy_whole when that is 0 or more (the legacy
 * mode; a negative legacy span falls back to the rounding, as in Java). */
static void count_matrix(struct gfx_matrix *m, int64_t total, int64_t interval, int32_t legacy_whole, uint32_t *c,
                         uint64_t *w) {
    if (interval != m->interval) {
        interval_changed(m, interval);
    }
    float i = m->interval_ns;
    float t = (float)total;
    float d = (t - i) / i;
    float dropped = d > 0.0f ? d : 0.0f;
    int32_t whole = legacy_whole >= 0 ? legacy_whole : gfx_round_nonneg(dropped);
    float cost = t > i ? t : i;
    add_frame(c, w, level_of(m, whole), whole, f2l(cost), f2l(dropped * Q20_F), m->refresh_millihz, total);
}

void gfx_matrix_count_slow(struct gfx_matrix *m, int64_t total, int64_t interval, uint32_t *c, uint64_t *w) {
    if (interval != m->interval) {
        interval_changed(m, interval);
    }
    if (total <= m->on_time_max) {
        /* Most frames: within one interval nothing dropped, so the values are known constants. */
        add_frame(c, w, m->on_time_level, 0, m->on_time_cost, 0, m->refresh_millihz, total);
    } else if (valid_duration(total)) {
        /* SceneFrameCounter.countLate: the legacy span of a frame known by its times is its total. */
        int32_t legacy = m->mode == GFX_MATRIX_LEGACY ? legacy_dropped(total, legacy_interval(m, interval)) : -1;
        count_matrix(m, total, interval, legacy, c, w);
    }
}

/* FrameMetrics durations UNKNOWN_DELAY .. TOTAL, GPU: end field minus start field. */
static const uint8_t metric_start[10] = {
    GFXSTATS_FI_INTENDED_VSYNC, GFXSTATS_FI_HANDLE_INPUT_START, GFXSTATS_FI_ANIMATION_START,
    GFXSTATS_FI_PERFORM_TRAVERSALS_START, GFXSTATS_FI_DRAW_START, GFXSTATS_FI_SYNC_START,
    GFXSTATS_FI_ISSUE_DRAW_COMMANDS_START, GFXSTATS_FI_SWAP_BUFFERS, GFXSTATS_FI_INTENDED_VSYNC,
    GFXSTATS_FI_COMMAND_SUBMISSION_COMPLETED,
};
static const uint8_t metric_end[10] = {
    GFXSTATS_FI_HANDLE_INPUT_START, GFXSTATS_FI_ANIMATION_START, GFXSTATS_FI_PERFORM_TRAVERSALS_START,
    GFXSTATS_FI_DRAW_START, GFXSTATS_FI_SYNC_QUEUED, GFXSTATS_FI_ISSUE_DRAW_COMMANDS_START,
    GFXSTATS_FI_SWAP_BUFFERS, GFXSTATS_FI_SWAP_BUFFERS_COMPLETED, GFXSTATS_FI_FRAME_COMPLETED,
    GFXSTATS_FI_GPU_COMPLETED,
};

static int64_t metric(const int64_t *f, int m) {
    /* Java's long subtraction wraps; so does this one, through unsigned arithmetic. */
    return (int64_t)((uint64_t)f[metric_end[m]] - (uint64_t)f[metric_start[m]]);
}

void gfx_matrix_count_frameinfo(struct gfx_matrix *m, const int64_t *f, uint32_t *c, uint64_t *w) {
    int64_t d[GFX_SCENE_TOTAL_STAGE + 1];
    for (int k = 0; k <= GFX_SCENE_TOTAL_STAGE; k++) {
        d[k] = metric(f, k);
        if (!valid_duration(d[k])) {
            return; /* Matrix 2.1 leaves the whole frame out */
        }
    }
    /* A total of 0 is valid for Matrix 2.1: a frame that dropped nothing (SceneFrameCounter.count). */
    int64_t total = d[GFX_SCENE_TOTAL_STAGE];
    int64_t interval = f[GFXSTATS_FI_FRAME_INTERVAL];
    int32_t legacy = -1;
    if (m->mode == GFX_MATRIX_LEGACY) {
        /* SceneFrameCounter.legacyDropped: IssueDrawCommandsStart - IntendedVsync, else TOTAL. */
        int64_t issue = f[GFXSTATS_FI_ISSUE_DRAW_COMMANDS_START];
        int64_t span = issue > 0 ? (int64_t)((uint64_t)issue - (uint64_t)f[GFXSTATS_FI_INTENDED_VSYNC]) : total;
        legacy = legacy_dropped(span, legacy_interval(m, interval));
    }
    count_matrix(m, total, interval, legacy, c, w);
    for (int k = 0; k < GFX_SCENE_TOTAL_STAGE; k++) {
        if (d[k] != 0) {
            add64(&w[GFX_SCENE_STAGE_BASE + k], (uint64_t)d[k]);
        }
    }
    /* Matrix 2.1 adds GPU_DURATION unchecked, 0 or below too (two's complement in the u64 sum). */
    int64_t gpu = metric(f, GFX_SCENE_GPU_STAGE);
    if (gpu != 0) {
        add64(&w[GFX_SCENE_STAGE_BASE + GFX_SCENE_GPU_STAGE], (uint64_t)gpu);
    }
}

const char *gfx_scene_name_problem(const char *name) {
    if (!name) {
        return "missing";
    }
    size_t n = strlen(name);
    if (n == 0 || n > GFX_SCENE_NAME_MAX) {
        return "not 1..120 UTF-8 bytes";
    }
    const unsigned char *p = (const unsigned char *)name;
    for (size_t k = 0; k < n;) {
        unsigned char b = p[k];
        uint32_t cp;
        size_t len;
        if (b < 0x80) {
            cp = b;
            len = 1;
        } else if ((b & 0xE0) == 0xC0) {
            cp = b & 0x1Fu;
            len = 2;
        } else if ((b & 0xF0) == 0xE0) {
            cp = b & 0x0Fu;
            len = 3;
        } else if ((b & 0xF8) == 0xF0) {
            cp = b & 0x07u;
            len = 4;
        } else {
            return "not valid UTF-8";
        }
        if (k + len > n) {
            return "not valid UTF-8";
        }
        for (size_t j = 1; j < len; j++) {
            if ((p[k + j] & 0xC0) != 0x80) {
                return "not valid UTF-8";
            }
            cp = (cp << 6) | (p[k + j] & 0x3Fu);
        }
        static const uint32_t min_of_len[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min_of_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return "not valid UTF-8";
        }
        /* Java's Character.isISOControl: U+0000..U+001F and U+007F..U+009F. */
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
            return "contains a control character";
        }
        /* Bidi embeddings, overrides, isolates and the line separators: they reorder or break the
         * terminal line a name is printed in (the Java rule, SceneGroup.refusedInName). */
        if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029) {
            return "contains a bidi control or a line separator";
        }
        k += len;
    }
    return NULL;
}
