/* Android's jank rules in C: the same decisions as io.gfxstats.frame.ModernJankTracker, written
 * from the rules of docs/compatibility.md section 3. Arithmetic that could overflow wraps as
 * Java's long arithmetic does (two's complement), so no input is undefined behaviour. */
#include "rules.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>

#define MS 1000000LL
#define CAP_NANOS 10000000000LL
#define FAST_BUCKETS 57
#define SLOW_BUCKETS 97
#define FAST_MIN_MS 5
#define SLOW_START_MS 150
#define SLOW_STEP_MS 50
#define CPU_INDEX_LAST_MS (SLOW_START_MS + (SLOW_BUCKETS - 1) * SLOW_STEP_MS)

/* FrameInfo field indices and flags (io.gfxstats.frame.FrameInfo). */
enum {
    FI_FLAGS = 0, FI_INTENDED_VSYNC = 2, FI_VSYNC = 3, FI_FRAME_DEADLINE = 9, FI_FRAME_INTERVAL = 11,
    FI_SYNC_QUEUED = 12, FI_SYNC_START = 13, FI_ISSUE_DRAW_COMMANDS_START = 14, FI_SWAP_BUFFERS = 15,
    FI_FRAME_COMPLETED = 16, FI_GPU_COMPLETED = 19,
    FI_SWAP_BUFFERS_COMPLETED = 20
};
#define FLAG_SURFACE_CANVAS 4

static const char *const FIELD_NAMES[23] = {
    "Flags", "FrameTimelineVsyncId", "IntendedVsync", "Vsync", "InputEventId", "HandleInputStart",
    "AnimationStart", "PerformTraversalsStart", "DrawStart", "FrameDeadline", "FrameStartTime", "FrameInterval",
    "SyncQueued", "SyncStart", "IssueDrawCommandsStart", "SwapBuffers", "FrameCompleted", "DequeueBufferDuration",
    "QueueBufferDuration", "GpuCompleted", "SwapBuffersCompleted", "DisplayPresentTime",
    "CommandSubmissionCompleted",
};

static uint8_t cpu_index_by_ms[CPU_INDEX_LAST_MS + 1];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

const uint8_t gfx_rare_counter[32] = {
    [19] = GFX_JANKY_FRAMES_LEGACY,
    [20] = GFX_MISSED_DEADLINE_LEGACY,
    [21] = GFX_MISSED_DEADLINE,
    [22] = GFX_MISSED_VSYNC,
    [23] = GFX_SLOW_UI_THREAD,
    [24] = GFX_SLOW_BITMAP_UPLOAD,
    [25] = GFX_SLOW_DRAW,
    [26] = GFX_JANKY_FRAMES,
};

static inline int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Java's x % period for period > 0 (truncating; no overflow possible with a positive divisor
 * except none: INT64_MIN % p is fine in C for p != -1). */
static inline int64_t remainder64(int64_t x, int64_t period) {
    if (period > 0 && period <= (1LL << 60) && x >= 0 && x < (period << 2)) {
        int64_t twice = period << 1;
        int64_t r = x >= twice ? x - twice : x;
        return r >= period ? r - period : r;
    }
    return x % period;
}

/* Java's (long) cast of a double: truncation, saturating, NaN to 0. */
static int64_t d2l(double d) {
    if (d != d) {
        return 0;
    }
    if (d >= 9223372036854775807.0) {
        return INT64_MAX;
    }
    if (d <= -9223372036854775808.0) {
        return INT64_MIN;
    }
    return (int64_t)d;
}

int64_t gfx_tenth_bound(int64_t interval) {
    double tenth = 0.1 * (double)interval;
    int64_t lo = d2l(floor(tenth));
    double ulp = fabs(nextafter(tenth, INFINITY) - tenth);
    if (tenth < 0) {
        ulp = fabs(tenth - nextafter(tenth, -INFINITY));
    }
    int64_t step = max64(1, d2l(ulp));
    int64_t hi = lo + step;
    while ((double)hi <= tenth) {
        lo = hi;
        hi += step;
    }
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((double)mid <= tenth) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static int cpu_index_arith(int64_t nanos) {
    int64_t ms = nanos / MS;
    if (ms <= FAST_MIN_MS) {
        return 0;
    }
    int64_t x = ms;
    if (x > 48) {
        x = ((x - 48) >> 1) + 48;
    }
    if (x > 32) {
        x = ((x - 32) >> 1) + 32;
    }
    int64_t fast = x - FAST_MIN_MS;
    if (fast < FAST_BUCKETS) {
        return (int)fast;
    }
    int64_t slow = (ms - SLOW_START_MS) / SLOW_STEP_MS;
    if (slow < 0) {
        slow = 0;
    } else if (slow > SLOW_BUCKETS - 1) {
        slow = SLOW_BUCKETS - 1;
    }
    return FAST_BUCKETS + (int)slow;
}

static void build_table(void) {
    for (int ms = 0; ms <= CPU_INDEX_LAST_MS; ms++) {
        cpu_index_by_ms[ms] = (uint8_t)cpu_index_arith(ms * MS);
    }
}

void gfx_rules_global_init(void) {
    pthread_once(&table_once, build_table);
}

int gfx_cpu_bucket(int64_t nanos) {
    int64_t ms = nanos / MS;
    int i = ms <= 0 ? 0 : (int)min64(ms, CPU_INDEX_LAST_MS);
    return cpu_index_by_ms[i];
}

int gfx_gpu_bucket(int64_t nanos) {
    int64_t ms = nanos / MS;
    return (int)min64(max64(ms, 0), GFX_GPU_BUCKETS - 1);
}

static void thresholds_update(struct gfx_thresholds *t, int64_t interval) {
    if (interval != t->interval) {
        t->interval = interval;
        t->tenth_bound = gfx_tenth_bound(interval);
        t->slow_ui_thread = d2l(0.5 * (double)interval);
        t->slow_bitmap_upload = d2l(0.2 * (double)interval);
        t->slow_draw = d2l(0.75 * (double)interval);
    }
}

void gfx_rules_init_config(struct gfx_rules *r, int kind, int64_t refresh, int64_t default_interval,
                           int64_t dequeue_forgiveness, bool deadlines_already_extended) {
    gfx_rules_global_init();
    r->kind = kind;
    r->dequeue_forgiveness = dequeue_forgiveness;
    r->davey = NULL;
    r->davey_ctx = NULL;
    r->refresh = refresh;
    r->default_interval = default_interval;
    r->legacy_tenth_bound = gfx_tenth_bound(refresh);
    r->extend_deadlines = !deadlines_already_extended;
    r->swap_deadline = -1;
    r->next_frame_start_unstuffed = -1;
    r->t.interval = INT64_MIN;
    /* The Android 9 rules judge causes against the refresh interval, the modern ones against the
     * frame's interval (the default until a frame brings its own). */
    thresholds_update(&r->t, kind == GFX_RULES_ANDROID9 ? refresh : default_interval);
}

void gfx_rules_init(struct gfx_rules *r, int64_t refresh, bool deadlines_already_extended) {
    gfx_rules_init_config(r, GFX_RULES_MODERN, refresh, refresh, 0, deadlines_already_extended);
}

int gfx_davey_format(char *out, size_t cap, int64_t total, const int64_t *f) {
    int n = snprintf(out, cap, "Davey! duration=%lldms; ", (long long)(total / MS));
    for (int i = 0; i < 23 && n >= 0 && (size_t)n < cap; i++) {
        n += snprintf(out + n, cap - (size_t)n, "%s%s=%lld", i > 0 ? ", " : "", FIELD_NAMES[i], (long long)f[i]);
    }
    return n;
}

/* Out of line: only frames of 700 ms or more come here, and the report may block (a log line). */
static void __attribute__((noinline, cold)) report_davey(struct gfx_rules *r, int64_t total, const int64_t *f) {
    r->davey(r->davey_ctx, total, f);
}

static void __attribute__((noinline, cold)) report_davey_times(struct gfx_rules *r, int64_t total, int64_t intended,
                                                               int64_t vsync, int64_t completed,
                                                               int64_t gpu_completed, int64_t interval);

void gfx_main_times_fields(int64_t *f, int64_t intended, int64_t vsync, int64_t completed, int64_t gpu_completed,
                           int64_t interval) {
    for (int i = 0; i < 23; i++) {
        f[i] = 0;
    }
    f[FI_INTENDED_VSYNC] = intended;
    f[FI_VSYNC] = vsync;
    f[FI_FRAME_DEADLINE] = wadd(intended, interval);
    f[FI_FRAME_INTERVAL] = interval;
    f[FI_SWAP_BUFFERS] = completed;
    f[FI_FRAME_COMPLETED] = completed;
    f[FI_SWAP_BUFFERS_COMPLETED] = completed;
    f[FI_GPU_COMPLETED] = gpu_completed;
}

static uint32_t account_legacy(struct gfx_rules *r, int64_t swap_time, int64_t intended, int64_t vsync,
                               int64_t completed) {
    int64_t rf = r->refresh;
    uint32_t outcome = swap_time > rf ? GFX_OUT_JANKY_LEGACY : 0;
    int64_t deadline = r->swap_deadline;
    if (deadline < 0) {
        deadline = wadd(intended, rf);
    }
    bool stuffed = wsub(deadline, intended) > r->legacy_tenth_bound;
    deadline = max64(wadd(deadline, rf), wadd(intended, rf));
    if (completed < deadline || swap_time < rf) {
        if (stuffed) {
            outcome += GFX_OUT_LATENCY_ONE;
        }
    } else {
        outcome |= GFX_OUT_MISSED_DEADLINE_LEGACY;
        deadline = wadd(wsub(completed, remainder64(wsub(completed, vsync), rf)), rf);
    }
    r->swap_deadline = deadline;
    return outcome;
}

static uint32_t misses_deadline(struct gfx_rules *r, int64_t interval, int64_t intended, int64_t vsync,
                                int64_t deadline, int64_t gpu_completed) {
    bool triple = wsub(r->next_frame_start_unstuffed, intended) > r->t.tenth_bound;
    if (triple && r->extend_deadlines) {
        deadline = wadd(deadline, interval);
    }
    if (gpu_completed < deadline) {
        if (triple) {
            r->next_frame_start_unstuffed = wadd(r->next_frame_start_unstuffed, interval);
            return GFX_OUT_LATENCY_ONE;
        }
        return 0;
    }
    int64_t jitter = wsub(gpu_completed, vsync);
    r->next_frame_start_unstuffed = wadd(wsub(gpu_completed, remainder64(jitter, interval)), interval);
    return GFX_OUT_MISSED_AND_JANKY;
}

static uint32_t gpu_bits(int64_t gpu_completed, int64_t swap_buffers) {
    if (gpu_completed > 0) {
        int64_t gpu = wsub(gpu_completed, swap_buffers);
        if (gpu >= 0) {
            return (uint32_t)(gfx_gpu_bucket(gpu) + 1) << GFX_OUT_GPU_SHIFT;
        }
    }
    return 0;
}

static uint32_t classify_android9(struct gfx_rules *r, const int64_t *f);

/* Other rules than the modern ones see a frame known by its times as the FrameInfo the Java
 * client's WindowTracker hands them (setMainTimes on an otherwise empty frame). */
static uint32_t __attribute__((noinline)) classify_times_other(struct gfx_rules *r, int64_t intended, int64_t vsync,
                                                               int64_t completed, int64_t gpu_completed,
                                                               int64_t interval) {
    int64_t f[23];
    gfx_main_times_fields(f, intended, vsync, completed, gpu_completed, interval);
    return classify_android9(r, f);
}

uint32_t gfx_classify_times(struct gfx_rules *r, int64_t intended, int64_t vsync, int64_t completed,
                            int64_t gpu_completed, int64_t interval) {
    if (__builtin_expect(r->kind != GFX_RULES_MODERN, 0)) {
        return classify_times_other(r, intended, vsync, completed, gpu_completed, interval);
    }
    int64_t total = wsub(completed, intended);
    if (intended <= 0 || total <= 0) {
        return 0;
    }
    uint32_t outcome = account_legacy(r, total, intended, vsync, completed)
            | GFX_OUT_COUNTED | (uint32_t)gfx_cpu_bucket(total);
    int64_t iv = interval > 0 ? interval : r->default_interval;
    thresholds_update(&r->t, iv);
    uint32_t modern = misses_deadline(r, iv, intended, vsync, wadd(intended, interval), gpu_completed);
    outcome += modern;
    if (modern == GFX_OUT_MISSED_AND_JANKY) {
        int64_t missed = max64(wsub(vsync, intended), 0);
        if (missed >= 1 && missed < CAP_NANOS) {
            outcome |= GFX_OUT_MISSED_VSYNC;
        }
        if (r->t.slow_ui_thread <= 0) {
            outcome |= GFX_OUT_SLOW_UI_THREAD;
        }
        if (r->t.slow_bitmap_upload <= 0) {
            outcome |= GFX_OUT_SLOW_BITMAP_UPLOAD;
        }
        if (r->t.slow_draw <= 0) {
            outcome |= GFX_OUT_SLOW_DRAW;
        }
    }
    if (__builtin_expect(total >= GFX_DAVEY_NANOS, 0) && r->davey) {
        report_davey_times(r, total, intended, vsync, completed, gpu_completed, interval);
    }
    return outcome | gpu_bits(gpu_completed, completed);
}

static void report_davey_times(struct gfx_rules *r, int64_t total, int64_t intended, int64_t vsync,
                               int64_t completed, int64_t gpu_completed, int64_t interval) {
    int64_t f[23];
    gfx_main_times_fields(f, intended, vsync, completed, gpu_completed, interval);
    report_davey(r, total, f);
}

/* FrameInfo.duration: end - start, 0 when start is not set, less the SyncQueued-SyncStart stall
 * for spans that cross SyncQueued, never negative. */
static int64_t duration(const int64_t *f, int start, int end) {
    int64_t gap = wsub(f[end], f[start]);
    if (f[start] <= 0) {
        gap = 0;
    }
    if (end > FI_SYNC_QUEUED && start < FI_SYNC_QUEUED) {
        int64_t stall = wsub(f[FI_SYNC_START], f[FI_SYNC_QUEUED]);
        if (stall > 0) {
            gap = wsub(gap, stall);
        }
    }
    return max64(gap, 0);
}

static uint32_t check(const int64_t *f, int start, int end, int64_t threshold, uint32_t bit) {
    int64_t d = duration(f, start, end);
    return d >= threshold && d < CAP_NANOS ? bit : 0;
}

uint32_t gfx_classify_frameinfo(struct gfx_rules *r, const int64_t *f) {
    if (r->kind != GFX_RULES_MODERN) {
        return classify_android9(r, f);
    }
    int64_t intended = f[FI_INTENDED_VSYNC];
    int64_t vsync = f[FI_VSYNC];
    int64_t completed = f[FI_FRAME_COMPLETED];
    bool canvas = (f[FI_FLAGS] & FLAG_SURFACE_CANVAS) != 0;
    int64_t stall = max64(wsub(f[FI_SYNC_START], f[FI_SYNC_QUEUED]), 0);
    int64_t total = 0;
    int64_t swap_time = 0;
    if (intended > 0) {
        total = max64(wsub(wsub(completed, intended), stall), 0);
        swap_time = max64(wsub(wsub(f[FI_SWAP_BUFFERS_COMPLETED], intended), stall), 0);
    }
    if (r->dequeue_forgiveness > 0) {
        /* TrackerConfig.dequeueForgivenessNanos: time blocked dequeuing a buffer, up to the
         * forgiveness, is not charged to the legacy swap span. */
        int64_t dequeue = f[17];
        if (dequeue > 0) {
            swap_time = wsub(swap_time, min64(dequeue, r->dequeue_forgiveness));
        }
    }
    uint32_t outcome = swap_time > 0 && !canvas ? account_legacy(r, swap_time, intended, vsync, completed) : 0;
    if (total <= 0) {
        return outcome;
    }
    outcome |= GFX_OUT_COUNTED | (uint32_t)gfx_cpu_bucket(total);
    if (canvas) {
        return outcome;
    }
    int64_t interval = f[FI_FRAME_INTERVAL];
    if (interval <= 0) {
        interval = r->default_interval;
    }
    thresholds_update(&r->t, interval);
    int64_t gpu_completed = f[FI_GPU_COMPLETED];
    uint32_t modern = misses_deadline(r, interval, intended, vsync, f[FI_FRAME_DEADLINE], gpu_completed);
    outcome += modern;
    if (modern == GFX_OUT_MISSED_AND_JANKY) {
        outcome |= check(f, FI_INTENDED_VSYNC, FI_VSYNC, 1, GFX_OUT_MISSED_VSYNC)
                | check(f, FI_VSYNC, FI_SYNC_START, r->t.slow_ui_thread, GFX_OUT_SLOW_UI_THREAD)
                | check(f, FI_SYNC_START, FI_ISSUE_DRAW_COMMANDS_START, r->t.slow_bitmap_upload,
                        GFX_OUT_SLOW_BITMAP_UPLOAD)
                | check(f, FI_ISSUE_DRAW_COMMANDS_START, FI_FRAME_COMPLETED, r->t.slow_draw, GFX_OUT_SLOW_DRAW);
    }
    if (__builtin_expect(total >= GFX_DAVEY_NANOS, 0) && r->davey) {
        report_davey(r, total, f);
    }
    return outcome | gpu_bits(gpu_completed, f[FI_SWAP_BUFFERS]);
}

/* Android9JankTracker: janky means longer than one refresh; the swap-chain deadline decides
 * missed deadlines and high input latency; no GPU histogram, no legacy counters. */
static uint32_t classify_android9(struct gfx_rules *r, const int64_t *f) {
    int64_t total = duration(f, FI_INTENDED_VSYNC, FI_FRAME_COMPLETED);
    if (total <= 0) {
        return 0;
    }
    uint32_t outcome = GFX_OUT_COUNTED | (uint32_t)gfx_cpu_bucket(total);
    if (f[FI_FLAGS] & FLAG_SURFACE_CANVAS) {
        return outcome;
    }
    if (total >= GFX_DAVEY_NANOS && r->davey) {
        report_davey(r, total, f);
    }
    int64_t rf = r->refresh;
    if (total > rf) {
        outcome |= GFX_OUT_JANKY;
    }
    int64_t intended = f[FI_INTENDED_VSYNC];
    bool triple = r->swap_deadline > intended;
    r->swap_deadline = max64(wadd(r->swap_deadline, rf), wadd(intended, rf));
    int64_t completed = f[FI_FRAME_COMPLETED];
    if (completed < r->swap_deadline) {
        if (triple) {
            outcome += GFX_OUT_LATENCY_ONE;
        }
        return outcome;
    }
    outcome |= GFX_OUT_MISSED_DEADLINE;
    r->swap_deadline = wadd(wsub(completed, remainder64(wsub(completed, f[FI_VSYNC]), rf)), rf);
    return outcome
            | check(f, FI_INTENDED_VSYNC, FI_VSYNC, 1, GFX_OUT_MISSED_VSYNC)
            | check(f, FI_VSYNC, FI_SYNC_START, r->t.slow_ui_thread, GFX_OUT_SLOW_UI_THREAD)
            | check(f, FI_SYNC_START, FI_ISSUE_DRAW_COMMANDS_START, r->t.slow_bitmap_upload, GFX_OUT_SLOW_BITMAP_UPLOAD)
            | check(f, FI_ISSUE_DRAW_COMMANDS_START, FI_FRAME_COMPLETED, r->t.slow_draw, GFX_OUT_SLOW_DRAW);
}

void gfx_count_into(uint32_t outcome, uint32_t *c) {
    if (outcome & GFX_OUT_COUNTED) {
        c[GFX_TOTAL_FRAMES]++;
        c[GFX_CPU_BUCKET_BASE + (outcome & GFX_OUT_CPU_MASK)]++;
    }
    c[GFX_HIGH_INPUT_LATENCY] += (outcome >> GFX_OUT_LATENCY_SHIFT) & 3;
    for (uint32_t rare = outcome & GFX_OUT_RARE; rare != 0; rare &= rare - 1) {
        c[gfx_rare_counter[__builtin_ctz(rare)]]++;
    }
    uint32_t gpu = (outcome >> GFX_OUT_GPU_SHIFT) & 0xFF;
    if (gpu != 0) {
        c[GFX_GPU_BUCKET_BASE + gpu - 1]++;
    }
}
