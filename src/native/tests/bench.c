/* Render-thread cost of gfxstats_record against a stdatomic histogram (one atomic fetch-add into
 * a bucket array per frame), in one run, alternating rounds on the same frames.
 * Usage: bench [FRAMES] [ROUNDS]    (defaults 1000000 and 7)
 * Under valgrind --tool=callgrind --toggle-collect=gfxstats_record (or atomic_record) with
 * BENCH_CALLGRIND=1 it runs each path once over the frames, for instructions per frame.
 * BENCH_SCENES_OFF=1 opens the session with scenes off (gfxstats_options.scenes_off). */
#include "gfxstats.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 154

static atomic_uint_fast32_t histogram[BUCKETS];

/* The reference: a frame's duration in whole ms, clamped, one relaxed fetch-add. */
__attribute__((noinline)) void atomic_record(int64_t start, int64_t end);
__attribute__((noinline)) void atomic_record(int64_t start, int64_t end) {
    int64_t ms = (end - start) / 1000000;
    size_t i = ms < 0 ? 0 : ms >= BUCKETS ? BUCKETS - 1 : (size_t)ms;
    atomic_fetch_add_explicit(&histogram[i], 1, memory_order_relaxed);
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    int callgrind = getenv("BENCH_CALLGRIND") != NULL;
    if (callgrind) {
        rounds = 1;
    }
    /* Frames of a 60 Hz renderer: 2-15 ms of work, every 40th 20-60 ms, GPU 0-4 ms after. */
    int64_t *f = malloc(sizeof(int64_t) * 3 * (size_t)n);
    uint64_t x = 88172645463325252ULL;
    int64_t t = 1000000000LL;
    for (long i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t work = (i % 40 == 39) ? 20000000 + (int64_t)(x % 40000000) : 2000000 + (int64_t)(x % 13000000);
        f[3 * i] = t;
        f[3 * i + 1] = t + work;
        f[3 * i + 2] = t + work + (int64_t)((x >> 20) % 4000000);
        t += 16666667;
    }
    gfxstats_options o = {.struct_size = sizeof o, .package_name = "bench", .pipeline = 2,
                          .socket_path = "/nonexistent/bench.sock", .close_wait_ms = 0};
    o.scenes_off = getenv("BENCH_SCENES_OFF") != NULL; /* the path without scenes and Matrix levels */
    gfxstats_session *s;
    gfxstats_tracker *tr;
    setenv("GFXSTATS_QUIET", "1", 1);
    if (gfxstats_session_open(&o, &s) || gfxstats_tracker_new(s, &tr)) {
        return 2;
    }
    double *c_ns = calloc((size_t)rounds, sizeof(double)), *a_ns = calloc((size_t)rounds, sizeof(double));
    for (int r = 0; r < rounds; r++) {
        int64_t t0 = gfxstats_now_ns();
        for (long i = 0; i < n; i++) {
            gfxstats_record(tr, f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], 16666667);
        }
        int64_t t1 = gfxstats_now_ns();
        for (long i = 0; i < n; i++) {
            atomic_record(f[3 * i], f[3 * i + 1]);
        }
        int64_t t2 = gfxstats_now_ns();
        c_ns[r] = (double)(t1 - t0) / (double)n;
        a_ns[r] = (double)(t2 - t1) / (double)n;
    }
    if (!callgrind) {
        qsort(c_ns, (size_t)rounds, sizeof(double), cmp);
        qsort(a_ns, (size_t)rounds, sizeof(double), cmp);
        printf("frames per round: %ld, rounds: %d\n", n, rounds);
        printf("gfxstats_record      median %.2f ns/frame (min %.2f)\n", c_ns[rounds / 2], c_ns[0]);
        printf("stdatomic histogram  median %.2f ns/frame (min %.2f)\n", a_ns[rounds / 2], a_ns[0]);
        printf("ratio (median)       %.2f\n", c_ns[rounds / 2] / a_ns[rounds / 2]);
    }
    gfxstats_tracker_close(tr);
    gfxstats_session_close(s);
    free(f);
    free(c_ns);
    free(a_ns);
    return 0;
}
