/* Android's jank rules (Android 12+ with the legacy swap-deadline accounting), ported from
 * io.gfxstats.frame.ModernJankTracker; differential-tested against it (tests/differential). */
#ifndef GFXSTATS_RULES_H
#define GFXSTATS_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counter numbering of io.gfxstats.stats.Counters (docs/buffer-format.md, "Counters"). */
#define GFX_TOTAL_FRAMES 0
#define GFX_JANKY_FRAMES 1
#define GFX_JANKY_FRAMES_LEGACY 2
#define GFX_JANK_TYPE_BASE 3
#define GFX_MISSED_VSYNC (GFX_JANK_TYPE_BASE + 0)
#define GFX_HIGH_INPUT_LATENCY (GFX_JANK_TYPE_BASE + 1)
#define GFX_SLOW_UI_THREAD (GFX_JANK_TYPE_BASE + 2)
#define GFX_SLOW_BITMAP_UPLOAD (GFX_JANK_TYPE_BASE + 3)
#define GFX_SLOW_DRAW (GFX_JANK_TYPE_BASE + 4)
#define GFX_MISSED_DEADLINE (GFX_JANK_TYPE_BASE + 5)
#define GFX_MISSED_DEADLINE_LEGACY (GFX_JANK_TYPE_BASE + 6)
#define GFX_CPU_BUCKETS 154
#define GFX_GPU_BUCKETS 26
#define GFX_CPU_BUCKET_BASE 10
#define GFX_GPU_BUCKET_BASE (GFX_CPU_BUCKET_BASE + GFX_CPU_BUCKETS)
#define GFX_COUNTERS (GFX_GPU_BUCKET_BASE + GFX_GPU_BUCKETS)

/* What one frame adds, packed as io.gfxstats.stats.FrameOutcome packs it. */
#define GFX_OUT_CPU_MASK 0xFFu
#define GFX_OUT_GPU_SHIFT 8
#define GFX_OUT_COUNTED (1u << 16)
#define GFX_OUT_LATENCY_SHIFT 17
#define GFX_OUT_LATENCY_ONE (1u << GFX_OUT_LATENCY_SHIFT)
#define GFX_OUT_JANKY_LEGACY (1u << 19)
#define GFX_OUT_MISSED_DEADLINE_LEGACY (1u << 20)
#define GFX_OUT_MISSED_DEADLINE (1u << 21)
#define GFX_OUT_MISSED_VSYNC (1u << 22)
#define GFX_OUT_SLOW_UI_THREAD (1u << 23)
#define GFX_OUT_SLOW_BITMAP_UPLOAD (1u << 24)
#define GFX_OUT_SLOW_DRAW (1u << 25)
#define GFX_OUT_JANKY (1u << 26)
#define GFX_OUT_MISSED_AND_JANKY (GFX_OUT_MISSED_DEADLINE | GFX_OUT_JANKY)
#define GFX_OUT_RARE (GFX_OUT_JANKY_LEGACY | GFX_OUT_MISSED_DEADLINE_LEGACY | GFX_OUT_MISSED_DEADLINE \
                      | GFX_OUT_MISSED_VSYNC | GFX_OUT_SLOW_UI_THREAD | GFX_OUT_SLOW_BITMAP_UPLOAD \
                      | GFX_OUT_SLOW_DRAW | GFX_OUT_JANKY)

struct gfx_thresholds {
    int64_t interval;
    int64_t tenth_bound;
    int64_t slow_ui_thread;
    int64_t slow_bitmap_upload;
    int64_t slow_draw;
};

/* Which rules a tracker runs (io.gfxstats.frame.ModernJankTracker or Android9JankTracker). */
enum gfx_rule_kind { GFX_RULES_MODERN = 0, GFX_RULES_ANDROID9 = 1 };

/* Told about a frame of GFX_DAVEY_NANOS or more, with its 23 FrameInfo fields (DaveyListener). */
typedef void (*gfx_davey_fn)(void *ctx, int64_t total, const int64_t *fields);
#define GFX_DAVEY_NANOS 700000000LL

struct gfx_rules {
    int kind;                     /* enum gfx_rule_kind */
    int64_t dequeue_forgiveness;  /* legacy accounting: DequeueBufferDuration up to this is forgiven */
    gfx_davey_fn davey;           /* NULL: Daveys are not reported */
    void *davey_ctx;
    int64_t refresh;
    int64_t default_interval;
    int64_t legacy_tenth_bound;
    bool extend_deadlines;
    int64_t swap_deadline;
    int64_t next_frame_start_unstuffed;
    struct gfx_thresholds t;
};

/* Builds the bucket table; call once before any classification (thread-safe, idempotent). */
void gfx_rules_global_init(void);

/* Live recording on a display of this refresh interval (> 0). */
void gfx_rules_init(struct gfx_rules *r, int64_t refresh_interval, bool deadlines_already_extended);

/* Any TrackerConfig: the kind, the refresh interval, the default frame interval of frames without
 * one (modern rules), the dequeue forgiveness (0: none), deadlines already extended (replay). */
void gfx_rules_init_config(struct gfx_rules *r, int kind, int64_t refresh_interval, int64_t default_interval,
                           int64_t dequeue_forgiveness, bool deadlines_already_extended);

/* The FrameInfo a frame known by its main times stands for (FrameInfo.setMainTimes). */
void gfx_main_times_fields(int64_t *f, int64_t intended, int64_t vsync, int64_t completed, int64_t gpu_completed,
                           int64_t interval);

/* The outcome of a frame given by its main times (interval > 0). */
uint32_t gfx_classify_times(struct gfx_rules *r, int64_t intended, int64_t vsync, int64_t completed,
                            int64_t gpu_completed, int64_t interval);

/* The outcome of a frame given by its 23 FrameInfo fields. */
uint32_t gfx_classify_frameinfo(struct gfx_rules *r, const int64_t *f);

/* The Davey line of a frame: "Davey! duration=Nms; Flags=..., ..." as the Java client's
 * DaveyListener.logging() words it (FrameInfo.describe()); returns its length (cap 2048 is ample). */
int gfx_davey_format(char *out, size_t cap, int64_t total, const int64_t *fields);

/* The counter of each rare outcome bit, by bit position (0 where none). */
extern const uint8_t gfx_rare_counter[32];

int gfx_cpu_bucket(int64_t nanos);
int gfx_gpu_bucket(int64_t nanos);
int64_t gfx_tenth_bound(int64_t interval);

/* Adds an outcome to a plain counter array (the order the buffer writer uses). */
void gfx_count_into(uint32_t outcome, uint32_t *counters);

#endif
