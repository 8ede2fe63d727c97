/* Render-thread cost of gfxstats_record against a stdatomic histogram (one atomic fetch-add into
 * a bucket array per frame), in one run, alternating rounds on the same frames.
 * Usage: bench [FRAMES] [ROUNDS] [CHUNK]    (defaults 1000000, 7 and 256)
 * Both paths run in chunks of CHUNK frames, alternating, each chunk timed alone; the medians are
 * over all chunks of all rounds, so that a chunk in which the thread was preempted (the machine
 * is shared) does not move them. Each chunk's frames are read once, untimed, before either path
 * runs, so that both read them from L1. After each chunk of
 * gfxstats_record the tracker's ring is drained with gfxstats_tracker_flush, outside the render
 * thread's time (in an app the session thread does that every 1-50 ms); no frame may be dropped.
 * BENCH_METHOD says where (the same methods as the Java client's io.gfxstats.bench.RenderThreadBench,
 * on the same frames; with it set, the session thread is paused, a first round warms up and is not
 * counted, and the last line is "lang=c method=M record_ns=... peer_ns=... ratio=... work_ns=...
 * ... transfer_before_ns=... transfer_after_ns=...", the last two a cache line's time between the
 * two CPUs before and after the rounds, line_transfer_ns below):
 *   same (the default): on the render thread itself, so the ring's lines stay in its core's cache;
 *     the drain is timed separately as the classification's cost per frame off the render thread.
 *     Unset, the session thread drains too meanwhile, as in an app (the method before session 11).
 *   cross: on a second thread, while the render thread spins until it is done: the render thread
 *     then writes ring lines that the other core read last, as with the session thread in an app
 *     (ordinary stores take each line back; streamed entries, x86-64, do not: docs/native.md,
 *     "Streamed entries").
 *   paced: as cross, and every frame is followed by BENCH_WORK rounds of an unrelated computation
 *     (dependent multiply-adds, as between a render thread's frames); a third chunk runs the work
 *     alone, and each path's figure is its chunk minus that one (paired, per chunk).
 * Under valgrind --tool=callgrind --toggle-collect=gfxstats_record (or atomic_record, or
 * gfxstats_tracker_flush) with BENCH_CALLGRIND=1 it runs each path once over the frames, for
 * instructions per frame.
 * BENCH_IDLE_S=N: instead, the CPU time the process uses in N seconds with one open session and
 * tracker and no frames (the session thread's idle drain rounds).
 * BENCH_SCENES_OFF=1 opens the session with scenes off (gfxstats_options.scenes_off).
 * BENCH_TIMELINE=1: the measured path is FrameTimeline's instead of gfxstats_record: per frame one
 * gfxstats_timeline_commit and the gfxstats_timeline_presented of the frame two before, on the
 * frame stream of the Java benchmark's RecordLoop timeline-only (FrameStream.drawDuration with
 * SplittableRandom(42), 4096 durations, repeated); the drain then runs the FrameTimeline
 * classification. callgrind: --toggle-collect='gfxstats_timeline_*' (render thread) and
 * --toggle-collect=gfxstats_tracker_flush (the drain).
 * BENCH_COMPOSITOR=1 (with BENCH_TIMELINE=1): the feedback goes through
 * gfxstats_timeline_presented_on (with an MSC and an output) instead, the render thread's call in
 * compositor mode.
 * BENCH_RECORDER=client|compositor: the FrameTimeline recorder alone (the drain's work on the
 * same stream, without reading the frame ring), under callgrind --toggle-collect='gfx_tl_*':
 * client-only mode, or compositor mode joined with a display-frame ring this program writes (in a
 * temporary directory under TMPDIR, removed at the end), where each frame's compositor frame was
 * published before its feedback (the join at once), with a display jank on every fourth.
 * BENCH_RING_BUFFER=1: the session counts into a buffer this program writes as a gfxstatsd lays it
 * out, with the ring group (in a temporary directory under TMPDIR, removed at once), so the
 * tracker records into its ring stripe in that shared mapping and every drain that took frames
 * writes a checkpoint there (docs/native.md, "A SIGKILL of the app"). */
#include "gfxstats.h"
#include "../lib/internal.h"
#include "../lib/ring.h"
#include "../lib/timeline.h"
#include "test_buffer.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* The unrelated work of the paced method: rounds of a multiply-add, each dependent on the one before
 * (RenderThreadBench.spin, the same arithmetic). Not inlined: the three loops that call it then run
 * the same machine code for it, so that subtracting the work's chunk leaves the path alone (inlined,
 * each loop's copy may be scheduled differently, by more than the path costs). */
static uint64_t work_sink;

__attribute__((noinline)) static uint64_t spin(uint64_t x, int rounds) {
    for (int i = 0; i < rounds; i++) {
        x = x * 0x5851F42D4C957F2DULL + (uint64_t)i;
    }
    return x;
}

/* The cross and paced methods' drain thread: drains when asked, while the asking thread spins until
 * it is done; it sleeps between requests, so that it takes no CPU from other work on a shared
 * machine (its wake-up is outside the measured time). */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gfxstats_tracker *tr;
    _Atomic long asked, done;
    int stop;
} drainer = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

/* The first two CPUs this process may run on: the render thread's and the drain thread's. Pinned,
 * so that the drain runs on the other core whatever else the machine runs (otherwise the
 * scheduler may wake it on the render thread's CPU, and the other-core case is not measured). */
static int bench_cpus[2] = {-1, -1};

static void find_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return;
    }
    for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++) {
        if (CPU_ISSET(c, &set)) {
            bench_cpus[k++] = c;
        }
    }
}

static void pin(int cpu) {
    if (cpu < 0) {
        return;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
        fprintf(stderr, "bench: could not pin a thread to CPU %d\n", cpu);
    }
}

/* How long a cache line takes between the two CPUs right now (io.gfxstats.bench.LineTransfer in
 * C): the calling thread, pinned to bench_cpus[0], and a thread pinned to bench_cpus[1] pass a
 * counter back and forth in one line; half a round trip, median of LT_BURSTS bursts. On this
 * project's two-CPU virtual machines the host moves the two CPUs between physical cores every few
 * seconds, and this time with them (about 30-70 against 150-400 ns): the cross method pays it for
 * every ring line the render thread writes again, the peer never (docs/benchmarks.md, "Session 27"). */
#define LT_ROUND_TRIPS 2000
#define LT_BURSTS 5
static _Alignas(64) _Atomic long lt_ball;
static int cmp(const void *a, const void *b);

static inline void lt_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *lt_answer(void *arg) {
    (void)arg;
    pin(bench_cpus[1]);
    for (long mine = 2; mine <= 2L * LT_ROUND_TRIPS * (LT_BURSTS + 1); mine += 2) {
        while (atomic_load_explicit(&lt_ball, memory_order_acquire) != mine - 1) {
            lt_pause();
        }
        atomic_store_explicit(&lt_ball, mine, memory_order_release);
    }
    return NULL;
}

static double line_transfer_ns(void) {
    if (bench_cpus[0] < 0 || bench_cpus[1] < 0) {
        return -1;
    }
    pthread_t b;
    atomic_store(&lt_ball, 0);
    if (pthread_create(&b, NULL, lt_answer, NULL) != 0) {
        return -1;
    }
    double bursts[LT_BURSTS + 1];
    long mine = 1;
    for (int i = 0; i <= LT_BURSTS; i++) { /* burst 0 waits for the other thread to start: not counted */
        int64_t t0 = gfxstats_now_ns();
        for (int k = 0; k < LT_ROUND_TRIPS; k++, mine += 2) {
            atomic_store_explicit(&lt_ball, mine, memory_order_release);
            while (atomic_load_explicit(&lt_ball, memory_order_acquire) != mine + 1) {
                lt_pause();
            }
        }
        bursts[i] = (double)(gfxstats_now_ns() - t0) / (2.0 * LT_ROUND_TRIPS);
    }
    pthread_join(b, NULL);
    qsort(bursts + 1, LT_BURSTS, sizeof(double), cmp);
    return bursts[1 + LT_BURSTS / 2];
}

static void *drain_thread(void *arg) {
    (void)arg;
    long seen = 0;
    pin(bench_cpus[1]);
    pthread_mutex_lock(&drainer.mu);
    for (;;) {
        while (!drainer.stop && atomic_load(&drainer.asked) == seen) {
            pthread_cond_wait(&drainer.cv, &drainer.mu);
        }
        if (drainer.stop) {
            break;
        }
        seen = atomic_load(&drainer.asked);
        pthread_mutex_unlock(&drainer.mu);
        gfxstats_tracker_flush(drainer.tr);
        atomic_store(&drainer.done, seen);
        pthread_mutex_lock(&drainer.mu);
    }
    pthread_mutex_unlock(&drainer.mu);
    return NULL;
}

static void drain_elsewhere(void) {
    pthread_mutex_lock(&drainer.mu);
    long a = atomic_fetch_add(&drainer.asked, 1) + 1;
    pthread_cond_signal(&drainer.cv);
    pthread_mutex_unlock(&drainer.mu);
    while (atomic_load_explicit(&drainer.done, memory_order_acquire) < a) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

/* java.util.SplittableRandom (JDK 17), for the Java benchmark's exact frame stream. */
static uint64_t sr_seed;
static const uint64_t SR_GAMMA = 0x9e3779b97f4a7c15ULL;

static uint64_t sr_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int32_t sr_next_int(void) {
    uint64_t z = (sr_seed += SR_GAMMA);
    z = (z ^ (z >> 33)) * 0x62a9d9ed799705f5ULL;
    return (int32_t)(uint32_t)(((z ^ (z >> 28)) * 0xcb24d0a5c88c35b3ULL) >> 32);
}

static int32_t sr_bounded_int(int32_t bound) {
    int32_t r = sr_next_int(), m = bound - 1;
    if ((bound & m) == 0) {
        return r & m;
    }
    for (uint32_t u = (uint32_t)r >> 1;; u = (uint32_t)sr_next_int() >> 1) {
        r = (int32_t)(u % (uint32_t)bound);
        if ((int32_t)(u + (uint32_t)m - (uint32_t)r) >= 0) {
            return r;
        }
    }
}

static int64_t sr_bounded_long(int64_t origin, int64_t bound) {
    uint64_t n = (uint64_t)(bound - origin), m = n - 1;
    uint64_t r = sr_mix64(sr_seed += SR_GAMMA);
    if ((n & m) == 0) {
        return (int64_t)(r & m) + origin;
    }
    for (uint64_t u = r >> 1;; u = sr_mix64(sr_seed += SR_GAMMA) >> 1) {
        r = u % n;
        if ((int64_t)(u + m - r) >= 0) {
            return (int64_t)r + origin;
        }
    }
}

/* io.gfxstats.buffer.FrameStream.drawDuration. */
static int64_t draw_duration(void) {
    const int64_t ms = 1000000;
    int32_t p = sr_bounded_int(100);
    if (p < 90) {
        return sr_bounded_long(4 * ms, 17 * ms);
    }
    if (p < 98) {
        return sr_bounded_long(17 * ms, 51 * ms);
    }
    return sr_bounded_long(50 * ms, 801 * ms);
}

#define STREAM 4096
#define INTERVAL 16666667LL
#define GPU_NANOS 2000000LL
#define PRESENT_FLAGS (GFXSTATS_PRESENT_VSYNC | GFXSTATS_PRESENT_HW_CLOCK | GFXSTATS_PRESENT_HW_COMPLETION)

struct tl_walk {
    int compositor;
    int64_t intended, token;
    int64_t presents[4];
};

/* RecordLoop.timelineFrames: commit the frame, then the feedback of the frame two before, presented
 * at its predicted present or, when its work passed the deadline, the vsync after. */
static void timeline_frame(gfxstats_tracker *tr, struct tl_walk *w, int64_t d) {
    int64_t intended = w->intended;
    w->intended = intended + INTERVAL;
    int64_t gpu = intended + d + GPU_NANOS;
    int64_t t = w->token++;
    int64_t predicted = intended + 2 * INTERVAL;
    gfxstats_timeline_commit(tr, t, intended, intended + INTERVAL, predicted, intended, gpu);
    int64_t late = gpu - (intended + INTERVAL);
    late = late > 0 ? late : 0;
    w->presents[t & 3] = predicted + (late + INTERVAL - 1) / INTERVAL * INTERVAL;
    if (t >= 2) {
        if (w->compositor) {
            gfxstats_timeline_presented_on(tr, t - 2, w->presents[(t - 2) & 3], INTERVAL, PRESENT_FLAGS, t + 98, 1);
        } else {
            gfxstats_timeline_presented(tr, t - 2, w->presents[(t - 2) & 3], INTERVAL, PRESENT_FLAGS);
        }
    }
}

/* The daemon's side of a display-frame ring, as DisplayOutcomeWriter writes it (outside the
 * measured functions). */
static uint8_t *ring_map;

static int ring_create(const char *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, GFX_DRING_LENGTH) != 0) {
        return -1;
    }
    ring_map = mmap(NULL, GFX_DRING_LENGTH, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (ring_map == MAP_FAILED) {
        return -1;
    }
    uint32_t hdr[4] = {GFX_DRING_VERSION, GFX_DRING_REGIONS, GFX_DRING_SLOTS, GFX_DRING_ENTRY};
    memcpy(ring_map + 8, hdr, sizeof hdr);
    int64_t table[GFX_DRING_REGIONS] = {1, -1, -1, -1, -1, -1, -1, -1};
    memcpy(ring_map + GFX_DRING_TABLE, table, sizeof table);
    uint64_t magic = GFX_DRING_MAGIC;
    memcpy(ring_map, &magic, 8);
    return 0;
}

__attribute__((noinline)) static void ring_publish(int64_t msc, int64_t present, uint32_t jank) {
    uint8_t *e = ring_map + GFX_DRING_ENTRIES + ((uint64_t)msc & (GFX_DRING_SLOTS - 1)) * GFX_DRING_ENTRY;
    int64_t seq, output = 1, period = INTERVAL;
    uint32_t meta = 0;
    memcpy(&seq, e, 8);
    seq++;
    __atomic_store_n((int64_t *)(void *)e, seq, __ATOMIC_RELAXED);
    memcpy(e + 8, &output, 8);
    memcpy(e + 16, &msc, 8);
    memcpy(e + 24, &present, 8);
    memcpy(e + 32, &period, 8);
    memcpy(e + 40, &period, 8);
    memcpy(e + 48, &jank, 4);
    memcpy(e + 52, &meta, 4);
    __atomic_store_n((int64_t *)(void *)e, seq + 1, __ATOMIC_RELEASE);
}

/* BENCH_RING_BUFFER: a ready 1-stripe buffer for this process with the scene, FrameTimeline,
 * client health and ring groups, installed as the session's buffer. 0, or -1. */
static int install_ring_buffer(gfxstats_session *s) {
    char dir[512], path[600], why[700];
    snprintf(dir, sizeof dir, "%s/gfxstats-bench.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        return -1;
    }
    snprintf(path, sizeof path, "%s/bench.buffer", dir);
    uint64_t at = 0;
    uint8_t *b = test_buffer_image(1, (uint32_t)getpid(), GFX_RING_STRIPE_BYTES, &at, NULL);
    if (!b) {
        rmdir(dir);
        return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int ok = fd >= 0 && write(fd, b, at) == (ssize_t)at;
    if (fd >= 0) {
        close(fd);
    }
    free(b);
    struct gfx_mapping *m = ok ? gfx_map_buffer(path, "bench", at, why, sizeof why) : NULL;
    unlink(path);
    rmdir(dir);
    if (!m || !m->rings) {
        fprintf(stderr, "bench: no buffer with a ring group%s%s\n", m ? "" : ": ", m ? "" : why);
        return -1;
    }
    gfx_session_install(s, m);
    return 0;
}

/* The recorder alone on the timeline stream (BENCH_RECORDER). */
static int recorder(long n, const int64_t *durations, int compositor) {
    static struct gfx_timeline tl;
    static uint32_t counters[GFX_TL_COUNTERS];
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/gfxstats-bench.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    struct gfx_dring *ring = NULL;
    char why[700];
    gfx_tl_init(&tl);
    if (compositor) {
        if (!mkdtemp(dir)) {
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s", dir, GFX_DRING_FILE);
        if (ring_create(path) != 0 || gfx_dring_open(path, &ring, why, sizeof why) != 0) {
            fprintf(stderr, "bench: no ring: %s\n", why);
            return 2;
        }
        tl.ring = ring;
    }
    int64_t intended = 1000000000LL, presents[4] = {0};
    for (long t = 0; t < n; t++) {
        int64_t d = durations[t & (STREAM - 1)];
        int64_t gpu = intended + d + GPU_NANOS;
        int64_t predicted = intended + 2 * INTERVAL;
        gfx_tl_commit(&tl, counters, t, 1, intended, intended + INTERVAL, predicted, intended, gpu);
        int64_t late = gpu - (intended + INTERVAL);
        late = late > 0 ? late : 0;
        presents[t & 3] = predicted + (late + INTERVAL - 1) / INTERVAL * INTERVAL;
        intended += INTERVAL;
        if (t >= 2) {
            if (compositor) {
                ring_publish(t + 98, presents[(t - 2) & 3], (t & 3) == 0 ? 0x20u /* SF scheduling */ : 0);
            }
            gfx_tl_presented(&tl, counters, t - 2, presents[(t - 2) & 3], INTERVAL, PRESENT_FLAGS,
                             compositor ? t + 98 : 0, 1);
        }
    }
    printf("recorder (%s): %ld frames, %u counted, %llu joined\n", compositor ? "compositor" : "client-only", n,
           counters[GFX_TL_FRAMES], (unsigned long long)tl.joined);
    if (compositor) {
        gfx_dring_close(ring);
        munmap(ring_map, GFX_DRING_LENGTH);
        unlink(path);
        rmdir(dir);
    }
    return 0;
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
    int timeline = getenv("BENCH_TIMELINE") != NULL;
    int64_t durations[STREAM];
    sr_seed = 42;
    for (int i = 0; i < STREAM; i++) {
        durations[i] = draw_duration();
    }
    struct tl_walk walk = {.intended = 1000000000LL, .compositor = getenv("BENCH_COMPOSITOR") != NULL};
    if (getenv("BENCH_RECORDER")) {
        return recorder(n, durations, strcmp(getenv("BENCH_RECORDER"), "compositor") == 0);
    }
    if (callgrind) {
        rounds = 1;
    }
    /* BENCH_METHOD: who drains the ring (see the top). 0 unset (same, with the session thread). */
    const char *method_name = getenv("BENCH_METHOD");
    enum { UNSET, SAME, CROSS, PACED } method = UNSET;
    int paced_work = getenv("BENCH_WORK") ? atoi(getenv("BENCH_WORK")) : 0;
    if (method_name) {
        method = strcmp(method_name, "same") == 0 ? SAME : strcmp(method_name, "cross") == 0 ? CROSS
               : strcmp(method_name, "paced") == 0 ? PACED : UNSET;
        if (method == UNSET || timeline || callgrind || (method == PACED) != (paced_work > 0)) {
            fprintf(stderr, "bench: BENCH_METHOD is same, cross or paced (paced with BENCH_WORK > 0), "
                            "without BENCH_TIMELINE and BENCH_CALLGRIND\n");
            return 2;
        }
        /* The session thread counts nothing meanwhile: the method says who drains. */
        setenv("GFXSTATS_TEST_DRAIN_PAUSED", "1", 1);
    } else if (paced_work != 0) {
        fprintf(stderr, "bench: BENCH_WORK needs BENCH_METHOD=paced\n");
        return 2;
    }
    /* With a method, round 0 warms up and is not counted (as in the Java benchmark, for its JIT). */
    int first = method == UNSET ? 0 : 1;
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
    if (gfxstats_session_open(&o, &s) || (getenv("BENCH_RING_BUFFER") && install_ring_buffer(s) != 0)
        || gfxstats_tracker_new(s, &tr)) {
        return 2;
    }
    pthread_t drain_tid;
    if (method != UNSET) {
        find_cpus();
        pin(bench_cpus[0]);
    }
    if (method == CROSS || method == PACED) {
        drainer.tr = tr;
        if (pthread_create(&drain_tid, NULL, drain_thread, NULL) != 0) {
            return 2;
        }
    }
    /* The cross-core figures mean little without the line's time between the CPUs at that moment. */
    double transfer_before = method == UNSET ? -1 : line_transfer_ns();
    size_t chunks = (size_t)((n + chunk - 1) / chunk) * (size_t)rounds, k = 0;
    double *c_ns = calloc(chunks, sizeof(double)), *a_ns = calloc(chunks, sizeof(double));
    double *d_ns = calloc(chunks, sizeof(double)), *w_ns = calloc(chunks, sizeof(double));
    volatile int64_t warm = 0;
    uint64_t w = work_sink;
    for (int r = 0; r < rounds + first; r++) {
        for (long c = 0; c < n; c += chunk) {
            long end = c + chunk < n ? c + chunk : n;
            /* Both paths read the chunk's frames from L1: whichever ran first would otherwise
             * wait for them from memory (24 bytes a frame of a 24 MB array) and the other not. */
            for (long i = c; i < end; i++) {
                warm += f[3 * i] ^ f[3 * i + 1] ^ f[3 * i + 2];
            }
            int64_t t0 = gfxstats_now_ns();
            if (timeline) {
                for (long i = c; i < end; i++) {
                    timeline_frame(tr, &walk, durations[i & (STREAM - 1)]);
                }
            } else if (method == PACED) {
                for (long i = c; i < end; i++) {
                    gfxstats_record(tr, f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], 16666667);
                    w = spin(w, paced_work);
                }
            } else {
                for (long i = c; i < end; i++) {
                    gfxstats_record(tr, f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], 16666667);
                }
            }
            int64_t t1 = gfxstats_now_ns();
            if (method == CROSS || method == PACED) {
                drain_elsewhere();
            } else {
                gfxstats_tracker_flush(tr);
            }
            int64_t t2 = gfxstats_now_ns();
            if (method == PACED) {
                for (long i = c; i < end; i++) {
                    atomic_record(f[3 * i], f[3 * i + 1]);
                    w = spin(w, paced_work);
                }
            } else {
                for (long i = c; i < end; i++) {
                    atomic_record(f[3 * i], f[3 * i + 1]);
                }
            }
            int64_t t3 = gfxstats_now_ns(), t4 = t3;
            if (method == PACED) {
                for (long i = c; i < end; i++) {
                    w = spin(w, paced_work);
                }
                t4 = gfxstats_now_ns();
            }
            if (r >= first) {
                double frames = (double)(end - c);
                c_ns[k] = (double)(t1 - t0) / frames;
                d_ns[k] = (double)(t2 - t1) / frames;
                a_ns[k] = (double)(t3 - t2) / frames;
                w_ns[k] = (double)(t4 - t3) / frames;
                c_ns[k] -= w_ns[k]; /* paced: each path's chunk minus the work's alone; else 0 */
                a_ns[k] -= w_ns[k];
                k++;
            }
        }
    }
    work_sink = w;
    double transfer_after = method == UNSET ? -1 : line_transfer_ns();
    if (method == CROSS || method == PACED) {
        pthread_mutex_lock(&drainer.mu);
        drainer.stop = 1;
        pthread_cond_signal(&drainer.cv);
        pthread_mutex_unlock(&drainer.mu);
        pthread_join(drain_tid, NULL);
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
        printf("%s median %.2f ns/frame (min %.2f)\n", timeline ? "gfxstats_timeline_*" : "gfxstats_record     ",
               c_ns[chunks / 2], c_ns[0]);
        printf("stdatomic histogram  median %.2f ns/frame (min %.2f)\n", a_ns[chunks / 2], a_ns[0]);
        printf("ratio (median)       %.2f\n", c_ns[chunks / 2] / a_ns[chunks / 2]);
        if (method == UNSET || method == SAME) {
            printf("drain (off the render thread) median %.2f ns/frame (min %.2f)\n", d_ns[chunks / 2], d_ns[0]);
        }
        if (method != UNSET) {
            qsort(w_ns, chunks, sizeof(double), cmp);
            printf("lang=c method=%s record_ns=%.2f peer_ns=%.2f ratio=%.2f work_ns=%.1f frames=%ld rounds=%d chunk=%ld "
                   "work=%d record_min=%.2f peer_min=%.2f transfer_before_ns=%.1f transfer_after_ns=%.1f\n",
                   method_name, c_ns[chunks / 2], a_ns[chunks / 2], c_ns[chunks / 2] / a_ns[chunks / 2],
                   w_ns[chunks / 2], n, rounds, chunk, paced_work, c_ns[0], a_ns[0], transfer_before, transfer_after);
        }
    }
    if (getenv("BENCH_PRINT_STREAM")) { /* to check the stream against Java's */
        for (int i = 0; i < 8; i++) printf("%lld\n", (long long)durations[i]);
    }
    gfxstats_tracker_close(tr);
    gfxstats_session_close(s);
    free(f);
    free(c_ns);
    free(a_ns);
    free(d_ns);
    free(w_ns);
    return 0;
}
