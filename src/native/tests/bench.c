/* Render-thread cost of gfxstats_record against a stdatomic histogram (one atomic fetch-add into
 * a bucket array per frame), in one run, alternating rounds on the same frames.
 * Usage: bench [FRAMES] [ROUNDS] [CHUNK]    (defaults 1000000, 7 and 256)
 * Both paths run in chunks of CHUNK frames, alternating, each chunk timed alone; the medians are
 * over all chunks of all rounds, so that a chunk in which the thread was preempted (the machine
 * is shared) does not move them. After each chunk of
 * gfxstats_record the tracker's ring is drained with gfxstats_tracker_flush, outside the render
 * thread's time (in an app the session thread does that every 1-50 ms); the drain is timed
 * separately as the classification's cost per frame off the render thread. The session thread
 * drains too meanwhile, as in an app; no frame may be dropped.
 * Under valgrind --tool=callgrind --toggle-collect=gfxstats_record (or atomic_record, or
 * gfxstats_tracker_flush) with BENCH_CALLGRIND=1 it runs each path once over the frames, for
 * instructions per frame.
 * BENCH_IDLE_S=N: instead, the CPU time the process uses in N seconds with one open session and
 * tracker and no frames (the session thread's idle drain rounds).
 * BENCH_SCENES_OFF=1 opens the session with scenes off (gfxstats_options.scenes_off). */
#include "gfxstats.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>


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

static double cpu_s(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec
           + ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec) / 1e6;
}

static int idle(int seconds) {
    gfxstats_options o = {.struct_size = sizeof o, .package_name = "bench", .pipeline = 2,
                          .socket_path = "/nonexistent/bench.sock", .close_wait_ms = 0};
    gfxstats_session *s;
    gfxstats_tracker *tr;
    setenv("GFXSTATS_QUIET", "1", 1);
    if (gfxstats_session_open(&o, &s) || gfxstats_tracker_new(s, &tr)) {
        return 2;
    }
    struct timespec settle = {1, 0}, span = {seconds, 0};
    nanosleep(&settle, NULL); /* past the first registration attempts */
    double c0 = cpu_s();
    int64_t t0 = gfxstats_now_ns();
    nanosleep(&span, NULL);
    double c1 = cpu_s();
    int64_t t1 = gfxstats_now_ns();
    printf("idle session and tracker: %.1f us of CPU per second over %.1f s (%.4f%% of one core)\n",
           (c1 - c0) * 1e6 / ((double)(t1 - t0) / 1e9), (double)(t1 - t0) / 1e9,
           (c1 - c0) * 100 / ((double)(t1 - t0) / 1e9));
    gfxstats_tracker_close(tr);
    gfxstats_session_close(s);
    return 0;
}

int main(int argc, char **argv) {
    if (getenv("BENCH_IDLE_S")) {
        return idle(atoi(getenv("BENCH_IDLE_S")));
    }
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    long chunk = argc > 3 ? atol(argv[3]) : 256;
    if (n < 1 || rounds < 1 || chunk < 1 || chunk > 256) {
        fprintf(stderr, "usage: bench [FRAMES >= 1] [ROUNDS >= 1] [CHUNK 1..256]\n");
        return 2;
    }
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
    size_t chunks = (size_t)((n + chunk - 1) / chunk) * (size_t)rounds, k = 0;
    double *c_ns = calloc(chunks, sizeof(double)), *a_ns = calloc(chunks, sizeof(double));
    double *d_ns = calloc(chunks, sizeof(double));
    for (int r = 0; r < rounds; r++) {
        for (long c = 0; c < n; c += chunk, k++) {
            long end = c + chunk < n ? c + chunk : n;
            int64_t t0 = gfxstats_now_ns();
            for (long i = c; i < end; i++) {
                gfxstats_record(tr, f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], 16666667);
            }
            int64_t t1 = gfxstats_now_ns();
            gfxstats_tracker_flush(tr);
            int64_t t2 = gfxstats_now_ns();
            for (long i = c; i < end; i++) {
                atomic_record(f[3 * i], f[3 * i + 1]);
            }
            int64_t t3 = gfxstats_now_ns();
            c_ns[k] = (double)(t1 - t0) / (double)(end - c);
            d_ns[k] = (double)(t2 - t1) / (double)(end - c);
            a_ns[k] = (double)(t3 - t2) / (double)(end - c);
        }
    }
    if (gfxstats_tracker_dropped(tr) != 0) {
        fprintf(stderr, "bench: %llu frames dropped\n", (unsigned long long)gfxstats_tracker_dropped(tr));
        return 1;
    }
    if (!callgrind) {
        qsort(c_ns, chunks, sizeof(double), cmp);
        qsort(a_ns, chunks, sizeof(double), cmp);
        qsort(d_ns, chunks, sizeof(double), cmp);
        printf("frames per round: %ld in chunks of %ld, rounds: %d (medians over %zu chunks)\n", n, chunk, rounds,
               chunks);
        printf("gfxstats_record      median %.2f ns/frame (min %.2f)\n", c_ns[chunks / 2], c_ns[0]);
        printf("stdatomic histogram  median %.2f ns/frame (min %.2f)\n", a_ns[chunks / 2], a_ns[0]);
        printf("ratio (median)       %.2f\n", c_ns[chunks / 2] / a_ns[chunks / 2]);
        printf("drain (off the render thread) median %.2f ns/frame (min %.2f)\n", d_ns[chunks / 2], d_ns[0]);
    }
    gfxstats_tracker_close(tr);
    gfxstats_session_close(s);
    free(f);
    free(c_ns);
    free(a_ns);
    free(d_ns);
    return 0;
}
