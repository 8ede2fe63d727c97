/* Sessions and trackers: the public API of gfxstats.h.
 *
 * Threads: a tracker is used by one rendering thread at a time; the session has one background
 * thread (registration, heartbeat, re-registration, draining). The rendering thread only appends
 * a frame's raw times to the tracker's ring (lib/ring.h). Everything else about a tracker - its
 * rules, scenes, Matrix state, counters, stripe - belongs to whoever holds the session mutex: the
 * background thread drains every ring each drain period (1-50 ms, shorter while rings fill), and
 * the calls that need a tracker's frames counted now (set_scene, flush, tracker and session close,
 * fork, process exit) drain it themselves first. So nothing on the frame path waits for anyone. */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "display.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#endif

#define NANOS_60HZ 16666667LL
#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000
#define DEFAULT_CLOSE_WAIT_MS 2000
#define DEFAULT_SCENE_SLOT 1
#define DRAIN_MIN_MS 1
#define DRAIN_MAX_MS 50
#define SCENE_FILE_POLL_NS 250000000LL /* the scene file is looked at 4 times a second */
/* The display-frame ring is looked for once a second while a tracker is in compositor mode (as
 * often as the Java docs suggest calling CompositorLink.refresh). */
#define COMPOSITOR_POLL_NS 1000000000LL

enum conn_state { CONN_INIT, CONN_WAITING, CONN_ATTACHED, CONN_DOWN };

struct gfxstats_session {
    _Alignas(8) uint64_t epoch; /* atomic: changes when the buffer changes or the session closes */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct gfx_mapping *cur; /* under mu */
    uint32_t pending[GFX_COUNTERS]; /* counts of trackers that ended before a buffer, under mu */
    struct gfx_scene_rec pending_scenes; /* their scene counts, under mu */
    uint32_t pending_tl[GFX_TL_COUNTERS]; /* their FrameTimeline counts, under mu */
    uint32_t pending_drops; /* their ring drops (client health group), under mu */
    /* Scene names by slot, under mu: slot 0 "(other)", 1 "default", then in the order first set;
     * the same slots in memory and in every buffer (SceneTable of the Java client). */
    char scene_names[GFX_SCENE_SLOTS][GFX_SCENE_NAME_MAX + 1];
    int scenes_used;
    int scenes_on;   /* 0: no scene is counted or named (gfxstats_options.scenes_off) */
    int scene_max;   /* names besides "(other)" */
    int matrix_mode;
    int32_t matrix_levels[4];
    float refresh_rate_hz;
    /* The default scene switch (StatsSession.defaultScene) of trackers that set no scene of their
     * own, under mu: frames intended at or after default_since count in default_slot, earlier
     * ones in default_prev. */
    int default_slot;
    int default_prev;
    int64_t default_since;
    int64_t scene_file_polled; /* when the session thread last looked at the scene file */
    int refs;        /* the session's own + one per open tracker, under mu */
    int closed;      /* under mu */
    int stop;        /* under mu: the background thread ends */
    int conn;        /* enum conn_state, under mu */
    int thread_started;
    int forked;      /* this is a child's copy after fork(): nothing of the parent's is touched */
    struct gfxstats_session *next_session; /* in the list of open sessions, under sessions_mu */
    pthread_t thread;
    int wake[2];
    uint32_t pid;
    uint64_t open_ms;
    char package[256];
    int64_t version;
    int32_t pipeline;
    int64_t refresh;
    int32_t close_wait_ms;
    int deadlines_extended;
    char socket_path[4096];
    int logged_absent, logged_refused;
    /* gfxstats_options.scene_file, polled by the session thread only (no lock): its path, what
     * stat said last time, and the name it gave ("" for none) */
    char scene_file[4096];
    struct stat scene_file_stat;
    int scene_file_seen;      /* 0: never looked, 1: present, 2: absent */
    char scene_file_name[GFX_SCENE_NAME_MAX + 2];
    int davey;                       /* GFXSTATS_DAVEY_* */
    gfxstats_davey_fn davey_callback;
    void *davey_user;
    int refused;     /* under mu: the last registration ended without a buffer */
    struct gfxstats_tracker *trackers; /* open trackers, under mu */
    int drain_ms;    /* the background thread's drain period, under mu */
    int drain_paused; /* GFXSTATS_TEST_DRAIN_PAUSED: only explicit drains (tests fill a ring) */
    /* Tests (gfx_session_test_hook): run under mu at points of a move. NULL otherwise. */
    struct {
        void (*fn)(void *arg);
        void *arg;
    } hook[GFX_HOOKS];
    /* Compositor mode, under mu: the display-frame ring beside the buffer (NULL: none mapped), the
     * trackers joined with it, when the session thread last looked for it, and whether its last
     * failure to map a ring was logged. */
    struct gfx_dring *dring;
    int compositor_trackers;
    int64_t compositor_polled;
    int dring_logged;
};

struct gfxstats_tracker {
    /* frame path: the producer's ring (own, or the ring stripe of its stripe in the daemon's
     * buffer); only the producer changes it, with release, when its ring says GFX_RING_MOVED */
    struct gfx_ring *ring;
    struct gfxstats_session *s;
    int closed;          /* the frame path's: the session was seen closed */
    int64_t default_interval; /* of gfxstats_record frames without one: the session's refresh (as Java) */
    /* The ring the producer is to go on in (the consumer publishes it with release before it marks
     * the current one GFX_RING_MOVED); equal to cons when no move is under way. */
    struct gfx_ring *next;
    /* the consumer's, under s->mu: the ring it drains (the producer's old one until it is seen to
     * have switched to next), and the buffers those two rings are in (a reference each; NULL for
     * own) */
    struct gfx_ring *cons;
    struct gfx_mapping *cons_map;
    struct gfx_mapping *next_map;
    /* At a move, the old ring's entries from carried_from to carried_to are in the next ring
     * already (carry_ahead_locked), so that neither the drain's claim nor the producer's switch
     * takes them again. Written under s->mu before the old ring is marked moved; read by the
     * producer when it switches. */
    int64_t *carried_from;
    int64_t *carried_to;
    /* everything else under s->mu (the ring's consumer) */
    struct gfxstats_tracker *next_tracker;
    uint32_t *counters;  /* where frames are counted: a claimed stripe or local */
    uint64_t epoch;      /* the session's epoch the tracker's stripe follows */
    struct gfx_rules rules;
    struct gfx_mapping *map; /* the buffer its stripe is in, NULL while counting locally */
    uint32_t stripe;         /* 1..N, or 0 when counting locally */
    uint32_t local[GFX_COUNTERS];
    /* scenes: where scene counts go (the group stripe of its stripe, or local_scenes;
     * NULL when the buffer has no scene group) and the scene switch in effect: frames intended at
     * or after scene_since count in scene_slot, earlier ones in scene_prev */
    struct gfx_scene_rec *scenes;
    int scene_slot;
    int scene_prev;
    int64_t scene_since;
    int own_scene;           /* 0: it follows the session's default scene switch */
    struct gfx_matrix matrix;
    struct gfx_scene_rec local_scenes; /* under s->mu, like local */
    /* FrameTimeline (timeline.c), under s->mu like the rest (the drain runs the recorder): counted
     * into the group stripe of its stripe, or local_tl (NULL when the buffer has no FrameTimeline
     * group); the recorder's pending table */
    uint32_t *tl_counters;
    uint32_t local_tl[GFX_TL_COUNTERS]; /* under s->mu, like local */
    struct gfx_timeline tl;
    int compositor; /* under s->mu: joined with the session's display-frame ring (tl.ring follows it) */
    /* ring drops (client health group), under s->mu: how many of ring.dropped are counted, and
     * those counted while the tracker had no stripe with the group */
    uint64_t drops_counted;
    uint32_t local_drops;
    /* the private ring: before a buffer with a ring group, while counting locally, after fork */
    struct gfx_ring own __attribute__((aligned(64)));
};

static int quiet = -1;

static int compositor_refresh_locked(struct gfxstats_session *s);

/* Open sessions, for fork(): a child must not write into its parent's buffer (the mapping is
 * shared), wake its parent's thread or release its stripes. The handlers hold every session's
 * mutex across fork, so the child's copies are not left locked by a thread it does not have. */
static pthread_mutex_t sessions_mu = PTHREAD_MUTEX_INITIALIZER;
static struct gfxstats_session *sessions;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void drain_all_locked(struct gfxstats_session *s);
static void mapping_unref(struct gfx_mapping *m);
static void checkpoint_locked(struct gfxstats_tracker *t);
static void checkpoint_at_locked(struct gfxstats_tracker *t, const int64_t *rp);
static void run_hook(struct gfxstats_session *s, enum gfx_move_hook at);
static struct gfx_ring *ring_want(struct gfxstats_tracker *t);
static void ring_stream_off(void);
static void ring_entries_visible(void);

/* The parent counts what its rings hold before the fork, so the child's copies start empty. */
static void fork_prepare(void) {
    pthread_mutex_lock(&sessions_mu);
    for (struct gfxstats_session *s = sessions; s; s = s->next_session) {
        pthread_mutex_lock(&s->mu);
        drain_all_locked(s);
    }
}

static void fork_parent(void) {
    for (struct gfxstats_session *s = sessions; s; s = s->next_session) {
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&sessions_mu);
}

static void fork_child(void) {
    ring_stream_off();
    for (struct gfxstats_session *s = sessions; s; s = s->next_session) {
        s->forked = 1;
        s->closed = 1;
        s->stop = 1;
        __atomic_store_n(&s->epoch, (s->epoch | 1) + 2, __ATOMIC_RELEASE);
        /* The rings in the parent's buffer are the parent's: every copy of a tracker goes on in its
         * private ring, emptied and closed (drained above, the rest is a parent thread's). */
        for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
            gfx_ring_reset(&t->own);
            t->ring = t->next = t->cons = &t->own;
            mapping_unref(t->cons_map);
            mapping_unref(t->next_map);
            t->cons_map = t->next_map = NULL;
        }
        drain_all_locked(s); /* forked: closes the rings */
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&sessions_mu);
}

static void install_fork_handlers(void) {
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void list_add(struct gfxstats_session *s) {
    pthread_once(&fork_once, install_fork_handlers);
    pthread_mutex_lock(&sessions_mu);
    s->next_session = sessions;
    sessions = s;
    pthread_mutex_unlock(&sessions_mu);
}

static void list_remove(struct gfxstats_session *s) {
    pthread_mutex_lock(&sessions_mu);
    for (struct gfxstats_session **p = &sessions; *p; p = &(*p)->next_session) {
        if (*p == s) {
            *p = s->next_session;
            break;
        }
    }
    pthread_mutex_unlock(&sessions_mu);
}

/* GFXSTATS_QUIET, read once: no log lines and no Davey lines on stderr. */
static int is_quiet(void) {
    if (quiet < 0) {
        const char *q = getenv("GFXSTATS_QUIET");
        quiet = q && q[0] && strcmp(q, "0") != 0;
    }
    return quiet;
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...) {
    if (is_quiet()) {
        return;
    }
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gfxstats: %s\n", line);
}

int64_t gfxstats_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint64_t wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

const char *gfxstats_strerror(int status) {
    switch (status) {
    case GFXSTATS_OK: return "ok";
    case GFXSTATS_EINVAL: return "invalid argument";
    case GFXSTATS_ENOMEM: return "out of memory";
    case GFXSTATS_ECLOSED: return "closed";
    default: return "unknown status";
    }
}

static void socket_path_of(const gfxstats_options *o, char *out, size_t cap) {
    const char *env;
    if (o->socket_path && o->socket_path[0]) {
        snprintf(out, cap, "%s", o->socket_path);
    } else if ((env = getenv("GFXSTATS_SOCKET")) && env[0]) {
        snprintf(out, cap, "%s", env);
    } else if ((env = getenv("XDG_STATE_HOME")) && env[0]) {
        snprintf(out, cap, "%s/gfxstats/gfxstatsd.sock", env);
    } else {
        const char *home = getenv("HOME");
        snprintf(out, cap, "%s/.local/state/gfxstats/gfxstatsd.sock", home ? home : "");
    }
}

/* Drops one reference; frees the session (and unmaps) with the last. Called with mu held;
 * returns 1 when it freed the session (mu is then gone). */
static int unref_locked(struct gfxstats_session *s) {
    if (--s->refs > 0) {
        return 0;
    }
    struct gfx_mapping *m = s->cur;
    s->cur = NULL;
    if (m && --m->refs == 0) {
        gfx_unmap_buffer(m);
    }
    gfx_dring_close(s->dring);
    s->dring = NULL;
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    return 1;
}

static void mapping_unref(struct gfx_mapping *m) {
    if (m && --m->refs == 0) {
        gfx_unmap_buffer(m);
    }
}

static void add_counts(uint32_t *dst, const uint32_t *src) {
    for (int i = 0; i < GFX_COUNTERS; i++) {
        dst[i] += src[i];
    }
}

static int any_counts(const uint32_t *c) {
    for (int i = 0; i < GFX_COUNTERS; i++) {
        if (c[i]) return 1;
    }
    return 0;
}

/* Atomic adds of FrameTimeline counts into the shared group stripe 0 (nothing without the group). */
static void add_shared_tl(struct gfx_mapping *m, const uint32_t *c) {
    uint32_t *shared = gfx_timeline_stripe(m, 0);
    if (shared) {
        gfx_tl_add_atomic(shared, c);
    }
}

/* The tracker's counts leave where they are (its old stripe or local memory) for the session's
 * current buffer: a stripe of its own there when one is free, else local memory. Under mu. */
static void tracker_move_locked(struct gfxstats_tracker *t) {
    struct gfxstats_session *s = t->s;
    struct gfx_mapping *m = s->cur;
    t->epoch = __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE);
    if (s->closed) {
        return;
    }
    if (m == NULL || (t->map == m && t->stripe != 0)) {
        return;
    }
    uint32_t moving[GFX_COUNTERS];
    if (t->stripe != 0) {
        memcpy(moving, gfx_stripe(t->map, t->stripe), sizeof moving);
        if (t->map->scenes) {
            gfx_add_scenes(&t->local_scenes, gfx_scene_stripe(t->map, t->stripe));
        }
        if (t->map->timeline) {
            gfx_tl_add(t->local_tl, gfx_timeline_stripe(t->map, t->stripe));
        }
        if (t->map->health) {
            t->local_drops += *gfx_health_dropped(t->map, t->stripe);
        }
        gfx_release_stripe(t->map, t->stripe);
        mapping_unref(t->map);
        t->map = NULL;
        t->stripe = 0;
        add_counts(t->local, moving);
    }
    uint32_t idx = gfx_claim_stripe(m, s->pid);
    if (idx == 0) {
        t->counters = t->local; /* every stripe taken: counted here, handed over at close */
        t->scenes = s->scenes_on ? &t->local_scenes : NULL;
        t->tl_counters = t->local_tl;
        return;
    }
    struct gfx_ring *rs = gfx_ring_stripe(m, idx);
    if (rs) {
        /* A checkpoint left by the stripe's previous tracker would give the daemon that tracker's
         * images for counts that now grow: none until this tracker's first (drain_locked). */
        __atomic_store_n(&rs->committed, 0, __ATOMIC_RELEASE);
        /* Before the drain that decides the move, not during it: what the producer appends from
         * that drain on is lost to a SIGKILL until the move has it in the ring stripe, and the
         * stripe's first touches (page faults: 1-2 us a page on tmpfs, more where the kernel
         * allocates file blocks) would otherwise be made while it waits there. */
        gfx_ring_stripe_populate(rs);
    }
    uint32_t *dst = gfx_stripe(m, idx);
    /* The tracker is this stripe's only writer from now on: plain adds, total first. */
    __atomic_store_n(&dst[0], dst[0] + t->local[0], __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (int i = 1; i < GFX_COUNTERS; i++) {
        if (t->local[i]) {
            __atomic_store_n(&dst[i], dst[i] + t->local[i], __ATOMIC_RELAXED);
        }
    }
    memset(t->local, 0, sizeof t->local);
    if (m->scenes && s->scenes_on) {
        struct gfx_scene_rec *sd = gfx_scene_stripe(m, idx);
        for (size_t i = 0; i < sizeof sd->c / sizeof sd->c[0]; i++) {
            if (t->local_scenes.c[i]) {
                __atomic_store_n(&sd->c[i], sd->c[i] + t->local_scenes.c[i], __ATOMIC_RELAXED);
            }
        }
        for (size_t i = 0; i < sizeof sd->w / sizeof sd->w[0]; i++) {
            if (t->local_scenes.w[i]) {
                __atomic_store_n(&sd->w[i], sd->w[i] + t->local_scenes.w[i], __ATOMIC_RELAXED);
            }
        }
        t->scenes = sd;
    } else {
        t->scenes = NULL; /* scenes off, or a buffer without the scene group: none counted, as in Java */
    }
    memset(&t->local_scenes, 0, sizeof t->local_scenes);
    /* FrameTimeline counts move like the Android ones (none counted without the group, as in Java). */
    t->tl_counters = gfx_timeline_stripe(m, idx);
    if (t->tl_counters) {
        gfx_tl_add_owned(t->tl_counters, t->local_tl);
    }
    memset(t->local_tl, 0, sizeof t->local_tl);
    if (m->health) {
        uint32_t *d = gfx_health_dropped(m, idx);
        __atomic_store_n(d, *d + t->local_drops, __ATOMIC_RELAXED);
        t->local_drops = 0;
    }
    t->map = m;
    m->refs++;
    t->stripe = idx;
    t->counters = dst;
}


int gfxstats_session_open(const gfxstats_options *o, gfxstats_session **out) {
    if (!out) {
        return GFXSTATS_EINVAL;
    }
    *out = NULL;
    if (!o || o->struct_size < GFXSTATS_OPTIONS_SIZE_V2) {
        logf_("session not opened: gfxstats_options.struct_size must be sizeof(gfxstats_options)");
        return GFXSTATS_EINVAL;
    }
    /* A caller built against an older header passes fewer fields: the rest keep their defaults. */
    gfxstats_options given;
    memset(&given, 0, sizeof given);
    memcpy(&given, o, o->struct_size < sizeof given ? o->struct_size : sizeof given);
    o = &given;
    if (o->davey < GFXSTATS_DAVEY_LOG || o->davey > GFXSTATS_DAVEY_CALLBACK
        || (o->davey == GFXSTATS_DAVEY_CALLBACK && !o->davey_callback)) {
        logf_("session not opened: davey must be GFXSTATS_DAVEY_LOG, GFXSTATS_DAVEY_OFF or GFXSTATS_DAVEY_CALLBACK "
              "with a davey_callback");
        return GFXSTATS_EINVAL;
    }
    const char *problem = gfx_package_problem(o->package_name);
    if (problem) {
        logf_("session not opened: package name %s%s%s %s", o->package_name ? "\"" : "",
              o->package_name ? o->package_name : "", o->package_name ? "\"" : "", problem);
        return GFXSTATS_EINVAL;
    }
    if (o->version_code < 0 || o->pipeline < 0 || o->pipeline > 2 || o->refresh_interval_ns < 0) {
        logf_("session not opened: version code, pipeline or refresh interval out of range");
        return GFXSTATS_EINVAL;
    }
    static const int32_t default_levels[4] = {3, 9, 24, 42};
    const int32_t *lv = o->matrix_levels;
    int levels_given = lv[0] || lv[1] || lv[2] || lv[3];
    const char *default_scene = o->default_scene ? o->default_scene : GFX_SCENE_DEFAULT;
    const char *scene_problem = gfx_scene_name_problem(default_scene);
    if (scene_problem || strcmp(default_scene, GFX_SCENE_OTHER) == 0) {
        logf_("session not opened: default_scene must be 1..120 bytes of UTF-8 without control characters and not "
              "\"(other)\"; it is %s", scene_problem ? scene_problem : "\"(other)\"");
        return GFXSTATS_EINVAL;
    }
    if (o->scene_max < 0 || o->scene_max > GFX_SCENE_SLOTS - 1 || o->matrix_mode < GFXSTATS_MATRIX_2_1
        || o->matrix_mode > GFXSTATS_MATRIX_TIME
        || (levels_given && (lv[0] < 1 || lv[1] < lv[0] || lv[2] < lv[1] || lv[3] < lv[2]))
        || !(o->refresh_rate_hz == 0.0f || (o->refresh_rate_hz >= 1.0f && o->refresh_rate_hz <= 1000.0f))) {
        logf_("session not opened: scene_max must be 0..15, matrix_mode a GFXSTATS_MATRIX_*, matrix_levels all 0 or "
              "1 <= normal <= middle <= high <= frozen, refresh_rate_hz 0 or 1..1000");
        return GFXSTATS_EINVAL;
    }
    gfx_rules_global_init();
    struct gfxstats_session *s = calloc(1, sizeof *s);
    if (!s) {
        return GFXSTATS_ENOMEM;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    s->refs = 1;
    snprintf(s->scene_names[0], sizeof s->scene_names[0], "%s", GFX_SCENE_OTHER);
    snprintf(s->scene_names[1], sizeof s->scene_names[1], "%s", default_scene);
    s->scenes_used = 2;
    s->scenes_on = !o->scenes_off;
    s->scene_max = o->scene_max > 0 ? o->scene_max : GFX_SCENE_SLOTS - 1;
    s->matrix_mode = o->matrix_mode;
    memcpy(s->matrix_levels, levels_given ? lv : default_levels, sizeof s->matrix_levels);
    s->refresh_rate_hz = o->refresh_rate_hz;
    s->default_slot = s->default_prev = DEFAULT_SCENE_SLOT;
    s->default_since = INT64_MIN;
    s->pid = (uint32_t)getpid();
    s->open_ms = wall_ms();
    snprintf(s->package, sizeof s->package, "%s", o->package_name);
    s->version = o->version_code;
    s->pipeline = o->pipeline;
    s->refresh = o->refresh_interval_ns > 0 ? o->refresh_interval_ns : NANOS_60HZ;
    s->close_wait_ms = o->close_wait_ms >= 0 ? o->close_wait_ms : DEFAULT_CLOSE_WAIT_MS;
    s->deadlines_extended = o->deadlines_already_extended != 0;
    if (o->scene_file && o->scene_file[0]) {
        snprintf(s->scene_file, sizeof s->scene_file, "%s", o->scene_file);
    }
    s->davey = o->davey;
    s->davey_callback = o->davey_callback;
    s->davey_user = o->davey_user;
    s->drain_ms = DRAIN_MAX_MS;
    const char *paused = getenv("GFXSTATS_TEST_DRAIN_PAUSED");
    s->drain_paused = paused && paused[0] && strcmp(paused, "0") != 0;
    socket_path_of(o, s->socket_path, sizeof s->socket_path);
    extern void gfx_poll_scene_file(struct gfxstats_session *);
    gfx_poll_scene_file(s); /* so that a scene named before the program started holds from its first frame */
    if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        free(s);
        return GFXSTATS_ENOMEM;
    }
    extern void *gfx_session_thread(void *);
    /* The thread must not take signals meant for the application's threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&s->thread, NULL, gfx_session_thread, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        close(s->wake[0]);
        close(s->wake[1]);
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        free(s);
        return GFXSTATS_ENOMEM;
    }
    s->thread_started = 1;
    list_add(s);
    *out = s;
    return GFXSTATS_OK;
}

/* A Davey frame (700 ms or more), from the rules: the only frames whose classification may make
 * a system call (the log line's write), as in the Java client. */
static void session_davey(void *ctx, int64_t total, const int64_t *fields) {
    struct gfxstats_session *s = ctx;
    if (s->davey == GFXSTATS_DAVEY_CALLBACK) {
        s->davey_callback(s->davey_user, total, fields);
        return;
    }
    if (is_quiet()) {
        return;
    }
    char line[2048];
    gfx_davey_format(line, sizeof line, total, fields);
    fprintf(stderr, "gfxstats: %s\n", line);
}

int gfxstats_tracker_new(gfxstats_session *s, gfxstats_tracker **out) {
    return gfxstats_tracker_new_with(s, NULL, out);
}

int gfxstats_tracker_new_with(gfxstats_session *s, const gfxstats_tracker_options *o, gfxstats_tracker **out) {
    if (!out) {
        return GFXSTATS_EINVAL;
    }
    *out = NULL;
    if (!s) {
        return GFXSTATS_EINVAL;
    }
    gfxstats_tracker_options opt = {.struct_size = sizeof opt, .rules = GFXSTATS_RULES_ANDROID12};
    if (o) {
        if (o->struct_size < sizeof opt) {
            logf_("tracker not created: gfxstats_tracker_options.struct_size must be sizeof(gfxstats_tracker_options)");
            return GFXSTATS_EINVAL;
        }
        opt = *o;
    }
    if ((opt.rules != GFXSTATS_RULES_ANDROID12 && opt.rules != GFXSTATS_RULES_ANDROID9) || opt.refresh_interval_ns < 0
        || opt.default_frame_interval_ns < 0 || opt.dequeue_forgiveness_ns < 0) {
        logf_("tracker not created: rules must be GFXSTATS_RULES_ANDROID12 or GFXSTATS_RULES_ANDROID9 and the "
              "intervals and the dequeue forgiveness 0 or more");
        return GFXSTATS_EINVAL;
    }
    int64_t refresh = opt.refresh_interval_ns > 0 ? opt.refresh_interval_ns : s->refresh;
    struct gfxstats_tracker *t = NULL;
    if (posix_memalign((void **)&t, 64, sizeof *t) != 0) { /* the ring's lines are 64-byte aligned */
        return GFXSTATS_ENOMEM;
    }
    memset(t, 0, sizeof *t);
    gfx_ring_init(&t->own);
    t->ring = t->next = t->cons = &t->own;
    t->s = s;
    t->counters = t->local;
    t->scenes = s->scenes_on ? &t->local_scenes : NULL;
    t->tl_counters = t->local_tl;
    gfx_tl_init(&t->tl);
    t->scene_slot = t->scene_prev = DEFAULT_SCENE_SLOT;
    t->scene_since = INT64_MIN;
    gfx_matrix_configure(&t->matrix, s->matrix_mode, s->matrix_levels, s->refresh_rate_hz);
    t->default_interval = s->refresh;
    gfx_rules_init_config(&t->rules, opt.rules == GFXSTATS_RULES_ANDROID9 ? GFX_RULES_ANDROID9 : GFX_RULES_MODERN,
                          refresh, opt.default_frame_interval_ns > 0 ? opt.default_frame_interval_ns : refresh,
                          opt.dequeue_forgiveness_ns, s->deadlines_extended);
    if (s->davey != GFXSTATS_DAVEY_OFF) {
        t->rules.davey = session_davey;
        t->rules.davey_ctx = s;
    }
    pthread_mutex_lock(&s->mu);
    if (s->closed) {
        pthread_mutex_unlock(&s->mu);
        free(t);
        return GFXSTATS_ECLOSED;
    }
    s->refs++;
    t->next_tracker = s->trackers;
    s->trackers = t;
    tracker_move_locked(t);
    /* No frame yet: it starts in its ring stripe (if the buffer has one), with a checkpoint before
     * its first frame. */
    struct gfx_ring *want = ring_want(t);
    if (want != &t->own) {
        gfx_ring_reset(want);
        t->ring = t->next = t->cons = want;
        t->cons_map = t->map;
        t->map->refs++;
        checkpoint_locked(t);
    }
    pthread_mutex_unlock(&s->mu);
    *out = t;
    return GFXSTATS_OK;
}

/* Counts one outcome: plain stores (this thread is the counters' only writer), the total first
 * and a release fence after it, so a reader that sees the frame in a bucket sees it in the total. */
static inline void count(uint32_t *c, uint32_t outcome) {
    if (outcome & GFX_OUT_COUNTED) {
        __atomic_store_n(&c[GFX_TOTAL_FRAMES], c[GFX_TOTAL_FRAMES] + 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        uint32_t *b = &c[GFX_CPU_BUCKET_BASE + (outcome & GFX_OUT_CPU_MASK)];
        __atomic_store_n(b, *b + 1, __ATOMIC_RELAXED);
    }
    uint32_t latency = (outcome >> GFX_OUT_LATENCY_SHIFT) & 3;
    if (latency) {
        __atomic_store_n(&c[GFX_HIGH_INPUT_LATENCY], c[GFX_HIGH_INPUT_LATENCY] + latency, __ATOMIC_RELAXED);
    }
    for (uint32_t rare = outcome & GFX_OUT_RARE; rare != 0; rare &= rare - 1) {
        uint32_t *r = &c[gfx_rare_counter[__builtin_ctz(rare)]];
        __atomic_store_n(r, *r + 1, __ATOMIC_RELAXED);
    }
    uint32_t gpu = (outcome >> GFX_OUT_GPU_SHIFT) & 0xFF;
    if (gpu) {
        uint32_t *g = &c[GFX_GPU_BUCKET_BASE + gpu - 1];
        __atomic_store_n(g, *g + 1, __ATOMIC_RELAXED);
    }
}

/* The Android counters a scene mirrors (the first ten): total, High input latency, the rare ones. */
static inline void count_scene(uint32_t *c, uint32_t outcome) {
    if (outcome & GFX_OUT_COUNTED) {
        __atomic_store_n(&c[GFX_TOTAL_FRAMES], c[GFX_TOTAL_FRAMES] + 1, __ATOMIC_RELAXED);
    }
    uint32_t latency = (outcome >> GFX_OUT_LATENCY_SHIFT) & 3;
    if (latency) {
        __atomic_store_n(&c[GFX_HIGH_INPUT_LATENCY], c[GFX_HIGH_INPUT_LATENCY] + latency, __ATOMIC_RELAXED);
    }
    for (uint32_t rare = outcome & GFX_OUT_RARE; rare != 0; rare &= rare - 1) {
        uint32_t *p = &c[gfx_rare_counter[__builtin_ctz(rare)]];
        __atomic_store_n(p, *p + 1, __ATOMIC_RELAXED);
    }
}

/* The scene slot of a frame intended at `intended`: the tracker's own switch, else the session's
 * default switch (both read under mu, where frames are counted). */
static inline int scene_slot_of(const struct gfxstats_tracker *t, int64_t intended) {
    if (t->own_scene) {
        return intended >= t->scene_since ? t->scene_slot : t->scene_prev;
    }
    const struct gfxstats_session *s = t->s;
    return intended >= s->default_since ? s->default_slot : s->default_prev;
}

/* ---- the consumer: a drained frame is counted as gfxstats_record counted it on the rendering
 * thread before the ring, in the same order, so every count is the same. Under mu. */

static void count_times_locked(struct gfxstats_tracker *t, int64_t intended_vsync, int64_t vsync,
                               int64_t frame_completed, int64_t gpu_completed, int64_t frame_interval_ns) {
    int64_t interval = frame_interval_ns > 0 ? frame_interval_ns : t->default_interval;
    uint32_t outcome = gfx_classify_times(&t->rules, intended_vsync, vsync, frame_completed, gpu_completed, interval);
    count(t->counters, outcome);
    struct gfx_scene_rec *r = t->scenes;
    if (r) {
        int slot = scene_slot_of(t, intended_vsync);
        uint32_t *c = r->c + slot * GFX_SCENE_C32;
        count_scene(c, outcome);
        int64_t total = (int64_t)((uint64_t)frame_completed - (uint64_t)intended_vsync);
        /* SceneFrameCounter: a frame the rules counted, else one with a valid total (0 included). */
        if ((outcome & GFX_OUT_COUNTED)
            || (total >= 0 && total < (INT64_MAX >> 1) && intended_vsync > 0)) {
            gfx_matrix_count_counted(&t->matrix, total, interval, c, r->w + slot * GFX_SCENE_C64);
        }
    }
}

static void count_frameinfo_locked(struct gfxstats_tracker *t, const int64_t fields[GFXSTATS_FI_COUNT]) {
    uint32_t outcome = gfx_classify_frameinfo(&t->rules, fields);
    count(t->counters, outcome);
    struct gfx_scene_rec *r = t->scenes;
    if (r) {
        int slot = scene_slot_of(t, fields[GFXSTATS_FI_INTENDED_VSYNC]);
        uint32_t *c = r->c + slot * GFX_SCENE_C32;
        count_scene(c, outcome);
        gfx_matrix_count_frameinfo(&t->matrix, fields, c, r->w + slot * GFX_SCENE_C64);
    }
}

/* A FrameTimeline call from the ring (gfxstats_timeline_*: word 0 its kind), run by the recorder.
 * Under mu. */
static void drain_tl_locked(struct gfxstats_tracker *t, const int64_t *e) {
    switch (e[0]) {
    case GFX_RING_TL_COMMIT:
        gfx_tl_commit(&t->tl, t->tl_counters, e[1], 1, e[2], e[3], e[4], e[5], e[6]);
        break;
    case GFX_RING_TL_UNPREDICTED:
        gfx_tl_commit(&t->tl, t->tl_counters, e[1], 0, 0, 0, 0, e[2], e[3]);
        break;
    case GFX_RING_TL_PRESENTED: /* e[5], e[6]: MSC and output (0, 0 without: client-only) */
        gfx_tl_presented(&t->tl, t->tl_counters, e[1], e[2], e[3], (uint32_t)e[4], e[5], e[6]);
        break;
    case GFX_RING_TL_POLL:
        gfx_tl_poll(&t->tl, t->tl_counters, e[1]);
        break;
    case GFX_RING_TL_DISCARDED:
        gfx_tl_discarded(&t->tl, t->tl_counters, e[1], e[2]);
        break;
    default: /* no other kind is written */
        break;
    }
}

/* The ring's drops since the last drain go where the tracker counts (its stripe's client health
 * counter, else local memory) so that the daemon shows them; the drain is the stripe's only
 * writer, the recording thread never touches the buffer for a drop. Under mu. */
static void count_drops_locked(struct gfxstats_tracker *t, uint64_t dropped) {
    uint32_t delta = (uint32_t)(dropped - t->drops_counted);
    if (delta == 0) {
        return;
    }
    t->drops_counted = dropped;
    if (t->stripe == 0) {
        t->local_drops += delta;
    } else if (t->map->health) {
        uint32_t *d = gfx_health_dropped(t->map, t->stripe);
        __atomic_store_n(d, *d + delta, __ATOMIC_RELAXED);
    } /* else a buffer without the group (an older daemon): the log and gfxstats_tracker_dropped show them */
}

/* Counts every entry ring r holds, oldest first; returns how many. A ring the producer was moved
 * away from is claimed first (gfx_ring_claim): what the producer claimed instead went along into
 * its next ring. The ring the producer records into (t->next) is checkpointed right after its
 * entries are counted and before their kind bytes are cleared and their words given back to the
 * producer, so that a SIGKILL at any point leaves a checkpoint whose entries are in the ring as
 * they were recorded (docs/native.md, "What is kept"). Under mu. */
static unsigned long drain_ring_locked(struct gfxstats_tracker *t, struct gfx_ring *r) {
    int64_t *head = __atomic_load_n(&r->wp, __ATOMIC_ACQUIRE);
    int64_t *q = __atomic_load_n(&r->rp, __ATOMIC_ACQUIRE);
    int moved = __atomic_load_n(&r->closed, __ATOMIC_RELAXED) == GFX_RING_MOVED;
    if (moved) {
        int64_t *from = q;
        if (q == head || !gfx_ring_claim(r, &from, head)) {
            return 0;
        }
    }
    if (q == head) {
        return 0;
    }
    ring_entries_visible();
    int64_t *first = q;
    int marked = 0; /* a kind byte to clear: an entry that is not a times-path frame, or a wrap */
    unsigned long n = 0;
    /* At most a ring of entries: a wrong size would otherwise step past head and go round. */
    for (; q != head && n <= GFX_RING_WORDS; n++) {
        unsigned k;
        int64_t *at = q;
        int64_t *e = gfx_ring_peek(r, &q, &k);
        marked |= k != 0 || e != at;
        if (k == 0) {
            count_times_locked(t, e[0], e[1], e[2], e[3], e[4]);
        } else if (k == GFX_RING_FRAMEINFO) {
            count_frameinfo_locked(t, e);
        } else {
            drain_tl_locked(t, e);
        }
    }
    run_hook(t->s, GFX_HOOK_DRAIN_COUNTED);
    if (r == t->next) {
        checkpoint_at_locked(t, q);
        run_hook(t->s, GFX_HOOK_DRAIN_CHECKPOINTED);
    }
    if (marked) {
        gfx_ring_clear(r, first, q);
    }
    if (!moved) {
        gfx_ring_consumed(r, q);
    }
    return n;
}

/* The ring the tracker should record into: the ring stripe of its stripe when its buffer has the
 * ring group, else its private ring. Under mu. */
static struct gfx_ring *ring_want(struct gfxstats_tracker *t) {
    struct gfx_ring *r = t->stripe != 0 && !t->s->forked ? gfx_ring_stripe(t->map, t->stripe) : NULL;
    return r ? r : &t->own;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v) {
    memcpy(p, &v, 4);
    return p + 4;
}

static uint8_t *put_u64(uint8_t *p, uint64_t v) {
    memcpy(p, &v, 8);
    return p + 8;
}

/* A checkpoint of the consumer's state into the tracker's ring stripe (docs/buffer-format.md,
 * "Ring group"): the slot of n = committed + 1 first, then committed (release), so that the slot
 * committed names is always complete. Into the ring the producer records into or moves to
 * (t->next), when that is the ring stripe of the stripe the tracker counts in. While a move is
 * under way the new ring's entries are not counted yet, so its checkpoint says rp 0, and everything
 * the old ring held up to the last drain is in the state: a SIGKILL before the move completes then
 * loses only what the producer appended to the old ring after that drain (it switches at its next
 * entry). The old ring is never checkpointed during the move: its checkpoint would pair its entries
 * with counts that are elsewhere. Under mu. */
static void checkpoint_locked(struct gfxstats_tracker *t) {
    checkpoint_at_locked(t, t->next->rp);
}

/* checkpoint_locked with the ring's position rp, which the drain gives the producer back only
 * after this (drain_ring_locked). Under mu. */
static void checkpoint_at_locked(struct gfxstats_tracker *t, const int64_t *rp) {
    struct gfx_ring *r = t->next;
    struct gfxstats_session *s = t->s;
    if (s->forked || r == &t->own || t->stripe == 0 || r != gfx_ring_stripe(t->map, t->stripe)) {
        return;
    }
    struct gfx_mapping *m = t->map;
    uint64_t n = r->committed + 1;
    uint8_t *slot = r->slot[n & 1];
    memset(slot, 0, GFX_RING_CKPT_BYTES);
    uint8_t *p = slot;
    p = put_u64(p, n);
    p = put_u32(p, (uint32_t)(rp - r->w));
    uint32_t flags = (t->scenes ? 1u : 0u) | (t->tl_counters ? 2u : 0u) | (t->own_scene ? 4u : 0u)
                     | (t->compositor ? 8u : 0u) | (m->health ? 16u : 0u);
    p = put_u32(p, flags);
    p = put_u64(p, t->drops_counted);
    p = put_u32(p, (uint32_t)t->rules.kind);
    p = put_u32(p, t->rules.extend_deadlines ? 0u : 1u);
    p = put_u64(p, (uint64_t)t->rules.refresh);
    p = put_u64(p, (uint64_t)t->rules.default_interval);
    p = put_u64(p, (uint64_t)t->rules.dequeue_forgiveness);
    p = put_u64(p, (uint64_t)t->rules.swap_deadline);
    p = put_u64(p, (uint64_t)t->rules.next_frame_start_unstuffed);
    p = put_u64(p, (uint64_t)t->default_interval);
    p = put_u32(p, (uint32_t)t->matrix.mode);
    for (int i = 0; i < 4; i++) {
        p = put_u32(p, (uint32_t)t->matrix.levels[i]);
    }
    memcpy(p, &t->matrix.configured_hz, 4);
    p += 4;
    p = put_u32(p, (uint32_t)t->scene_slot);
    p = put_u32(p, (uint32_t)t->scene_prev);
    p = put_u64(p, (uint64_t)t->scene_since);
    p = put_u32(p, (uint32_t)s->default_slot);
    p = put_u32(p, (uint32_t)s->default_prev);
    p = put_u64(p, (uint64_t)s->default_since);
    p = put_u32(p, (uint32_t)t->tl.next);
    p = put_u32(p, (uint32_t)t->tl.awaiting);
    p = put_u64(p, (uint64_t)t->tl.prev_predicted_present);
    p = put_u64(p, (uint64_t)t->tl.prev_present);
    p = put_u64(p, (uint64_t)t->tl.join_wait);
    p = put_u64(p, (uint64_t)t->tl.last_presented);
    for (int i = 0; i < GFX_TL_CAPACITY; i++) {
        const struct gfx_tl_slot *e = &t->tl.slot[i];
        uint8_t *q = slot + 256 + 128 * i;
        q = put_u64(q, (uint64_t)e->token);
        q = put_u64(q, (uint64_t)e->predicted_start);
        q = put_u64(q, (uint64_t)e->predicted_end);
        q = put_u64(q, (uint64_t)e->predicted_present);
        q = put_u64(q, (uint64_t)e->actual_start);
        q = put_u64(q, (uint64_t)e->actual_end);
        q[0] = e->used;
        q[1] = e->predicted;
        q[2] = e->awaiting;
        q = put_u32(q + 4, e->flags_at);
        q = put_u64(q, (uint64_t)e->presented_at);
        q = put_u64(q, (uint64_t)e->refresh_at);
        q = put_u64(q, (uint64_t)e->latch_at);
        q = put_u64(q, (uint64_t)e->output_at);
        put_u64(q, (uint64_t)e->msc_at);
    }
    memcpy(slot + 2304, gfx_stripe(m, t->stripe), sizeof(uint32_t) * GFX_COUNTERS);
    if (m->scenes) {
        memcpy(slot + 3072, gfx_scene_stripe(m, t->stripe), GFX_SCENE_STRIPE_BYTES);
    }
    if (m->timeline) {
        memcpy(slot + 6400, gfx_timeline_stripe(m, t->stripe), GFX_TL_STRIPE_BYTES);
    }
    if (m->health) {
        memcpy(slot + 6656, gfx_health_dropped(m, t->stripe), GFX_HEALTH_STRIPE_BYTES);
    }
    __atomic_store_n(&r->committed, n, __ATOMIC_RELEASE);
}

/* Raises a ring's drop count to at least v (never lowers it). The producer may store its own count
 * there at any time after the ring was published; that one is never below what was counted. */
static void raise_dropped(struct gfx_ring *r, uint64_t v) {
    uint64_t have = __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
    while (have < v && !__atomic_compare_exchange_n(&r->dropped, &have, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Whether this process may use membarrier's private expedited command (Linux 4.14 and later).
 * Registering takes 12-16 ms in a process with threads (the kernel waits for an RCU grace
 * period), so the session thread does it once per process before it first connects, outside the
 * session mutex; a move before that, or without the command (a seccomp filter that refuses it),
 * uses the drain's own fence, and the entry in flight at its mark then goes along at the
 * producer's next entry or is counted at the next drain. */
static int barrier_registered;
static pthread_once_t barrier_once = PTHREAD_ONCE_INIT;

/* Streamed times-path entries (GFX_RING_STREAM) follow barrier_registered: once the command is
 * registered, never in a child after fork (its registration is not known). A non-temporal store
 * is not ordered before the release store that publishes it, nor flushed by it; what makes it
 * visible to a consumer on another core is an interrupt or a locked instruction on the recording
 * core (both drain its write-combining buffers), which membarrier's command brings about on every
 * running thread of the process before it returns. So every consumer reads the published position
 * first, then calls render_threads_barrier, then reads the entries up to that position
 * (ring_entries_visible); entries published after the call wait for the next drain. The recording
 * thread itself pays nothing: no fence, and its next lap's stores find no line to take back from
 * the draining core (docs/native.md, "Streamed entries"). */
static void register_barrier_once(void) {
    int ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    __atomic_store_n(&barrier_registered, ok, __ATOMIC_RELEASE);
}

static void register_render_threads_barrier(void) {
    pthread_once(&barrier_once, register_barrier_once);
}

/* A full memory barrier on every running thread of the process (the render threads included), so
 * that their frame path needs none: Dekker's pattern with the cost on this side (3-11 us). Under
 * the session mutex, once per move. */
static void render_threads_barrier(void) {
    if (!__atomic_load_n(&barrier_registered, __ATOMIC_ACQUIRE)
        || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}

/* Makes the entries published up to the positions this consumer has read visible to it: with
 * streamed entries, render_threads_barrier (see barrier_registered); else the acquire load of the
 * position did it already. Called after reading the positions and before reading any entry; the
 * flag is read after the positions too, so a producer that streamed an entry this consumer saw
 * published is seen streaming here. */
static void ring_entries_visible(void) {
    if (GFX_RING_STREAM && __atomic_load_n(&barrier_registered, __ATOMIC_ACQUIRE)) {
        render_threads_barrier();
    }
}

/* In a child after fork: its registration is not known, so no streaming and no membarrier. */
static void ring_stream_off(void) {
    __atomic_store_n(&barrier_registered, 0, __ATOMIC_RELEASE);
}

int gfx_ring_streams(void) {
    return GFX_RING_STREAM && __atomic_load_n(&barrier_registered, __ATOMIC_ACQUIRE);
}

/* A test's hook at that point of a move (gfx_session_test_hook), if one is set. Under mu. */
static void run_hook(struct gfxstats_session *s, enum gfx_move_hook at) {
    if (s->hook[at].fn) {
        s->hook[at].fn(s->hook[at].arg);
    }
}

/* Before the mark this drain is the old ring's only consumer and the new ring's only writer: it
 * copies what the producer appended to the old ring since the drain that decided the move (from
 * t->carried_to on) into the new ring and publishes it there, where the daemon counts it after a
 * SIGKILL (the new ring's first checkpoint, written just before, counts everything older, rp 0).
 * Published an entry or a few at a time (a release store: a plain one on x86), as a SIGKILL during
 * the copy loses what is not published yet; the drops go along once a page of words. The old
 * ring's rp stays where it is until after the mark, so that the producer's room there does not
 * grow: the copy and what the producer appends behind it come out of one lap and fit into the new
 * ring together. Each pass copies what the one before took the time for. */
static void carry_ahead_locked(struct gfxstats_tracker *t, struct gfx_ring *old, struct gfx_ring *to, int passes) {
    enum { STEP_WORDS = GFX_RING_FI_WORDS + 1, DROPS_WORDS = 4096 / sizeof(int64_t) };
    uint32_t since_drops = 0;
    for (int pass = 0; pass < passes; pass++) {
        int64_t *end = __atomic_load_n(&old->wp, __ATOMIC_ACQUIRE);
        if (end == t->carried_to) {
            break;
        }
        ring_entries_visible();
        while (t->carried_to != end) {
            uint32_t at = (uint32_t)(to->wp - to->w);
            uint32_t limit = at + STEP_WORDS < GFX_RING_WORDS ? at + STEP_WORDS : GFX_RING_WORDS;
            const int64_t *stop;
            uint32_t words = gfx_ring_forward(old, t->carried_to, end, to, at, limit, &stop);
            if (words == 0) { /* not expected (see gfx_ring_forward): the rest goes along as without a copy */
                pass = passes;
                break;
            }
            gfx_ring_publish(to, to->wp, words);
            t->carried_to = (int64_t *)stop;
            if ((since_drops += words) >= DROPS_WORDS) {
                raise_dropped(to, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
                since_drops = 0;
            }
        }
    }
    raise_dropped(to, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
}

/* Starts moving the producer to ring `to` (in buffer m, NULL for its own): resets it, publishes it
 * as next, then marks the current ring moved, which sends the producer's next entry through its
 * slow path, where it switches (ring_room). Nothing waits: drain_locked completes the move once it
 * sees the switch. One move at a time. Under mu.
 *
 * The new ring gets its first checkpoint before the mark, so that its entries always have one;
 * when it is a ring stripe, the old ring's entries since the drain that decided the move are
 * copied into it right after that checkpoint, before the mark (carry_ahead_locked: until the
 * checkpoint is committed nothing in the new ring counts, so the copy does not delay it); then the
 * old ring is drained once more after the mark and the new ring checkpointed again. From the mark
 * on, the old ring's rest is claimed (gfx_ring_claim) by this drain or by the producer, which takes
 * it along into the new ring when it switches: at its next entry, or right after publishing the
 * one that had passed the limit check before the mark (frame_kicked). So once this returns, each
 * entry is either in a checkpoint of the new ring or among its entries, or goes there before its
 * call returns; what a SIGKILL can still take is what this is handling while it runs: the entry
 * being copied, and what the drain claims after the mark, counted and checkpointed below, which
 * with the copy is at most what the producer appended while the last pass of the copy ran
 * (docs/native.md, "The window"). */
static void start_move_locked(struct gfxstats_tracker *t, struct gfx_ring *to, struct gfx_mapping *m) {
    struct gfx_ring *old = t->cons;
    gfx_ring_reset(to);
    if (m) {
        m->refs++;
    }
    t->next_map = m;
    /* The drops counted so far, until the producer brings its own count along (ring_room): a
     * checkpoint's drops never exceed its ring's. */
    __atomic_store_n(&to->dropped, t->drops_counted, __ATOMIC_RELAXED);
    __atomic_store_n(&t->next, to, __ATOMIC_RELEASE);
    checkpoint_locked(t); /* before the producer can switch: the first entry there has one */
    run_hook(t->s, GFX_HOOK_AFTER_CHECKPOINT);
    t->carried_from = t->carried_to = m ? old->rp : NULL;
    if (m) {
        carry_ahead_locked(t, old, to, 3);
    }
    run_hook(t->s, GFX_HOOK_BEFORE_MARK);
    gfx_ring_close_as(old, GFX_RING_MOVED);
    /* A full barrier on the render thread too, so that either the drain below sees the entry that
     * was past the limit check at the mark, or that entry's publication sees the kick and goes
     * along into the next ring (frame_kicked) before its call returns. The render thread's side
     * is then only a load, no fence on the frame path. */
    render_threads_barrier();
    run_hook(t->s, GFX_HOOK_AFTER_MARK);
    uint64_t before = t->drops_counted;
    if (t->carried_from != t->carried_to) {
        /* The copy first (the oldest), with whatever the producer put behind it if it switched
         * (the new ring is checkpointed by its drain); then the copied range of the old ring is
         * claimed, unless the producer claimed past it. */
        drain_ring_locked(t, to);
        int64_t *from = t->carried_from;
        gfx_ring_claim(old, &from, t->carried_to);
    }
    unsigned long taken = drain_ring_locked(t, old);
    count_drops_locked(t, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
    if (taken > 0 || before != t->drops_counted) {
        raise_dropped(to, t->drops_counted);
        checkpoint_locked(t);
    }
}

/* Counts every frame the tracker's rings hold, oldest first, after moving the tracker's counts
 * into the session's current buffer if that changed; moves the producer to the ring it should
 * record into; checkpoints. Returns how many entries it counted. Under mu. */
static unsigned long drain_locked(struct gfxstats_tracker *t) {
    struct gfxstats_session *s = t->s;
    if (s->forked) {
        /* A child's copy, in its private ring since fork_child: what is there was written by the
         * copy of a parent's thread and belongs to the parent's buffer, which is not ours. */
        struct gfx_ring *r = t->cons;
        gfx_ring_consumed(r, __atomic_load_n(&r->wp, __ATOMIC_ACQUIRE));
        gfx_ring_close(r);
        return 0;
    }
    if (t->epoch != __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE)) {
        tracker_move_locked(t);
    }
    unsigned long n = 0;
    if (t->next != t->cons && __atomic_load_n(&t->ring, __ATOMIC_ACQUIRE) == t->next) {
        /* The producer switched: it claimed what was left in the old ring and took it along, so
         * the old ring has nothing more (a claim finds it empty), and the new ring is counted from
         * where start_move_locked left it (its start, or behind the copy made before the mark). */
        struct gfx_ring *old = t->cons;
        n += drain_ring_locked(t, old);
        count_drops_locked(t, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
        t->next->dropped_logged = old->dropped_logged;
        mapping_unref(t->cons_map);
        t->cons_map = t->next_map;
        t->next_map = NULL;
        t->cons = t->next;
        checkpoint_locked(t); /* the first one in the ring the producer records into */
    }
    struct gfx_ring *r = t->cons;
    unsigned long taken = drain_ring_locked(t, r);
    n += taken;
    if (s->closed) {
        gfx_ring_close(r);
        if (t->next != r) {
            gfx_ring_close(t->next);
        }
    }
    uint64_t dropped = __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
    uint64_t before = t->drops_counted;
    count_drops_locked(t, dropped);
    if (dropped != r->dropped_logged) {
        if (r->dropped_logged == 0) {
            logf_("frames of %s are not counted: a tracker's ring (%u frames) was full before it was drained"
                  " (gfxstats_tracker_dropped counts them)", s->package, GFX_RING_FRAMES);
        }
        r->dropped_logged = dropped;
    }
    /* The drain checkpointed r if the producer records there; the drops since need one more. */
    if ((taken > 0 && r != t->next) || before != t->drops_counted) {
        checkpoint_locked(t);
    }
    if (t->next == t->cons && !s->closed) {
        struct gfx_ring *want = ring_want(t);
        if (want != t->cons) {
            run_hook(s, GFX_HOOK_BEFORE_MOVE);
            start_move_locked(t, want, want == &t->own ? NULL : t->map);
        }
    }
    return n;
}

static void drain_all_locked(struct gfxstats_session *s) {
    for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
        drain_locked(t);
    }
}

/* ---- the producer: the frame path */

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
 * before the call returns (see start_move_locked). */
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
    /* Atomic loads too: the consumer raises this count (raise_dropped) once the ring it moved the
     * producer to is published, possibly while the producer counts a drop here (TSan saw it). The
     * producer's count is never below the one raised, so the plain increment loses nothing. */
    struct gfx_ring *full = t->ring;
    __atomic_store_n(&full->dropped, __atomic_load_n(&full->dropped, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    /* A drop counted in a ring marked moved after the fullness check above, and after the drain
     * that follows the mark read the count, goes along now (the switch carries the count), as an
     * entry does (frame_kicked). Ordered against the mark by a fence: only a full ring pays it.
     * An acquire load (a plain one on x86): what the consumer wrote before the mark (its copy into
     * the next ring and where that copy ends, start_move_locked) is seen by the switch. */
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
    if (__builtin_expect(__atomic_load_n(&barrier_registered, __ATOMIC_RELAXED), 1)) {
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

int gfxstats_tracker_flush(gfxstats_tracker *t) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&t->s->mu);
    drain_locked(t);
    pthread_mutex_unlock(&t->s->mu);
    return GFXSTATS_OK;
}

void gfx_tracker_counted(struct gfxstats_tracker *t, uint32_t *counters, struct gfx_scene_rec *scenes) {
    pthread_mutex_lock(&t->s->mu);
    memcpy(counters, t->counters, sizeof(uint32_t) * GFX_COUNTERS);
    if (scenes) {
        if (t->scenes) {
            memcpy(scenes, t->scenes, sizeof *scenes);
        } else {
            memset(scenes, 0, sizeof *scenes);
        }
    }
    pthread_mutex_unlock(&t->s->mu);
}

void gfx_tracker_timeline_counted(struct gfxstats_tracker *t, uint32_t *counters) {
    pthread_mutex_lock(&t->s->mu);
    if (t->tl_counters) {
        memcpy(counters, t->tl_counters, sizeof(uint32_t) * GFX_TL_COUNTERS);
    } else {
        memset(counters, 0, sizeof(uint32_t) * GFX_TL_COUNTERS);
    }
    pthread_mutex_unlock(&t->s->mu);
}

uint32_t gfx_tracker_drops_counted(struct gfxstats_tracker *t) {
    pthread_mutex_lock(&t->s->mu);
    uint32_t n = t->stripe != 0 ? (t->map->health ? *gfx_health_dropped(t->map, t->stripe) : 0) : t->local_drops;
    pthread_mutex_unlock(&t->s->mu);
    return n;
}

void gfx_session_pending(struct gfxstats_session *s, uint32_t *counters) {
    pthread_mutex_lock(&s->mu);
    memcpy(counters, s->pending, sizeof s->pending);
    pthread_mutex_unlock(&s->mu);
}

struct gfx_ring *gfx_tracker_ring(struct gfxstats_tracker *t) {
    return t->ring;
}

uint64_t gfxstats_tracker_dropped(const gfxstats_tracker *t) {
    if (!t) {
        return 0;
    }
    const struct gfx_ring *r = __atomic_load_n(&t->ring, __ATOMIC_ACQUIRE); /* its drops went along */
    return __atomic_load_n(&r->dropped, __ATOMIC_RELAXED);
}

void gfxstats_tracker_close(gfxstats_tracker *t) {
    if (!t) {
        return;
    }
    struct gfxstats_session *s = t->s;
    pthread_mutex_lock(&s->mu);
    drain_locked(t); /* moves it too when the buffer changed */
    for (struct gfxstats_tracker **p = &s->trackers; *p; p = &(*p)->next_tracker) {
        if (*p == t) {
            *p = t->next_tracker;
            break;
        }
    }
    if (t->compositor) {
        s->compositor_trackers--;
    }
    if (t->ring->dropped && !s->forked) {
        logf_("%llu frames of %s were not counted: the tracker's ring was full",
              (unsigned long long)t->ring->dropped, s->package);
    }
    mapping_unref(t->cons_map); /* the ring stripes stay as they are: the claim below ends them */
    mapping_unref(t->next_map);
    if (t->stripe != 0 && s->forked) {
        mapping_unref(t->map); /* the claim is the parent's */
    } else if (t->stripe != 0) {
        gfx_release_stripe(t->map, t->stripe); /* its counts stay in the stripe */
        mapping_unref(t->map);
    } else if ((any_counts(t->local) || gfx_tl_any(t->local_tl) || t->local_drops) && !s->forked) {
        if (s->cur && !s->closed) {
            gfx_add_shared(s->cur, t->local);
            gfx_add_shared_scenes(s->cur, &t->local_scenes);
            add_shared_tl(s->cur, t->local_tl);
            if (s->cur->health && t->local_drops) {
                __atomic_fetch_add(gfx_health_dropped(s->cur, 0), t->local_drops, __ATOMIC_RELAXED);
            }
        } else if (!s->closed) {
            add_counts(s->pending, t->local);
            gfx_add_scenes(&s->pending_scenes, &t->local_scenes);
            gfx_tl_add(s->pending_tl, t->local_tl);
            s->pending_drops += t->local_drops;
        } else {
            logf_("%u frames of %s were counted after its session ended and are not kept", t->local[0],
                  s->package);
        }
    }
    free(t);
    if (!unref_locked(s)) {
        pthread_mutex_unlock(&s->mu);
    }
}

/* The slot of a scene name, taken now if new (and named in the current buffer), "(other)" beyond
 * the session's scene_max names besides it (SceneTable). Under mu. */
static int scene_slot_locked(struct gfxstats_session *s, const char *name) {
    for (int i = 0; i < s->scenes_used; i++) {
        if (strcmp(s->scene_names[i], name) == 0) {
            return i;
        }
    }
    if (s->scenes_used > s->scene_max) {
        return 0;
    }
    int slot = s->scenes_used++;
    snprintf(s->scene_names[slot], sizeof s->scene_names[slot], "%s", name);
    if (s->cur && !s->forked && s->scenes_on) {
        gfx_name_scene(s->cur, slot, name);
    }
    return slot;
}

int gfxstats_set_scene_since(gfxstats_tracker *t, const char *name, int64_t since_ns) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    if (t->closed) {
        return GFXSTATS_ECLOSED;
    }
    const char *problem = name ? gfx_scene_name_problem(name) : NULL;
    if (problem) {
        logf_("scene not set: the name must be 1..120 bytes of UTF-8 without control characters, bidi controls or line separators; it is %s", problem);
        return GFXSTATS_EINVAL;
    }
    struct gfxstats_session *s = t->s;
    pthread_mutex_lock(&s->mu);
    /* Frames recorded before the switch are counted with the scenes in effect when they were
     * recorded: the ring is drained before the switch changes them. */
    drain_locked(t);
    /* The scene of frames intended just before the switch stays theirs (attribution by intended
     * vsync). since_ns - 1 wraps as Java's long does. */
    int64_t before_since = (int64_t)((uint64_t)since_ns - 1u);
    int before = scene_slot_of(t, before_since);
    if (name == NULL) {
        /* Back to following the session's default, for every frame recorded from now on. */
        t->own_scene = 0;
    } else {
        t->scene_slot = scene_slot_locked(s, name);
        t->scene_prev = before;
        t->scene_since = since_ns;
        t->own_scene = 1;
    }
    checkpoint_locked(t); /* the next frame is counted with the new switch */
    pthread_mutex_unlock(&s->mu);
    return GFXSTATS_OK;
}

int gfxstats_set_scene(gfxstats_tracker *t, const char *name) {
    return gfxstats_set_scene_since(t, name, gfxstats_now_ns());
}

/* ---- FrameTimeline (timeline.c): frame-path calls that append to the ring like gfxstats_record;
 * the drain classifies and counts them in their order (drain_tl_locked). */

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

int gfxstats_timeline_flush(gfxstats_tracker *t) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&t->s->mu);
    drain_locked(t);
    gfx_tl_flush(&t->tl, t->tl_counters);
    checkpoint_locked(t);
    pthread_mutex_unlock(&t->s->mu);
    return GFXSTATS_OK;
}

/* ---- compositor mode: the session keeps the display-frame ring beside its buffer mapped, and
 * maps it again when a restarted daemon replaced it (CompositorLink.refresh), for its joined
 * trackers; all under mu, which the drain (the ring's only reader) holds too. */

/* Makes `ring` (NULL: none) the joined trackers' ring: each first counts what its frame ring
 * holds and settles its frames waiting for a compositor frame with the old one
 * (TimelineRecorder.joinCompositor flushes first). Under mu. */
static void compositor_switch_locked(struct gfxstats_session *s, struct gfx_dring *ring) {
    for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
        if (t->compositor) {
            drain_locked(t);
            gfx_tl_flush(&t->tl, t->tl_counters);
            t->tl.ring = ring;
            checkpoint_locked(t);
        }
    }
    gfx_dring_close(s->dring);
    s->dring = ring;
}

/* Looks at the ring beside the session's buffer: maps it when it is new or replaced, lets go of
 * it when it is gone. Returns 1 when a ring is mapped now. Under mu; takes system calls (stat,
 * open, mmap), so only the session thread and the non-frame calls run it. */
static int compositor_refresh_locked(struct gfxstats_session *s) {
    s->compositor_polled = gfxstats_now_ns();
    if (s->forked || s->cur == NULL) {
        return s->dring != NULL; /* no buffer (yet, or between daemons): the ring stays as it is */
    }
    char path[4096 + 64];
    if (gfx_dring_path_beside(s->cur->path, path, sizeof path) != 0) {
        return s->dring != NULL;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT && s->dring) {
            compositor_switch_locked(s, NULL); /* the daemon takes no compositor feed now: client-only */
        }
        return 0;
    }
    if (s->dring && s->dring->dev == st.st_dev && s->dring->ino == st.st_ino) {
        return 1;
    }
    struct gfx_dring *ring = NULL;
    char why[4096 + 160];
    int rc = gfx_dring_open(path, &ring, why, sizeof why);
    if (rc != 0) {
        if (rc != -ENOENT && !s->dring_logged) {
            logf_("compositor mode of %s stays as it was: %s", s->package, why);
            s->dring_logged = 1;
        }
        return s->dring != NULL;
    }
    s->dring_logged = 0;
    compositor_switch_locked(s, ring);
    return 1;
}

int gfxstats_session_refresh_compositor(gfxstats_session *s) {
    if (!s) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&s->mu);
    int joined = compositor_refresh_locked(s);
    pthread_mutex_unlock(&s->mu);
    return joined;
}

int gfxstats_timeline_join_compositor(gfxstats_tracker *t, int64_t join_wait_ns) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    struct gfxstats_session *s = t->s;
    pthread_mutex_lock(&s->mu);
    /* The calls recorded so far are counted in the mode they were recorded in, and the frames
     * waiting for a compositor frame are settled first, as joinCompositor does. */
    drain_locked(t);
    gfx_tl_flush(&t->tl, t->tl_counters);
    if (join_wait_ns < 0) {
        if (t->compositor) {
            t->compositor = 0;
            s->compositor_trackers--;
        }
        t->tl.ring = NULL;
    } else {
        if (!t->compositor) {
            t->compositor = 1;
            s->compositor_trackers++;
        }
        t->tl.join_wait = join_wait_ns;
        if (!s->dring) {
            compositor_refresh_locked(s); /* maps the ring now if the session has a buffer */
        }
        t->tl.ring = s->dring;
    }
    checkpoint_locked(t);
    pthread_mutex_unlock(&s->mu);
    return GFXSTATS_OK;
}

int gfxstats_timeline_discarded(gfxstats_tracker *t, int64_t token, int64_t refresh_ns) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    return tl_append(t, GFX_RING_TL_DISCARDED, token, refresh_ns, 0, 0, 0, 0);
}

int gfxstats_timeline_pending(gfxstats_tracker *t) {
    if (!t) {
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&t->s->mu);
    drain_locked(t);
    int n = gfx_tl_pending(&t->tl);
    pthread_mutex_unlock(&t->s->mu);
    return n;
}

int gfxstats_set_default_scene_since(gfxstats_session *s, const char *name, int64_t since_ns) {
    if (!s) {
        return GFXSTATS_EINVAL;
    }
    const char *problem = name ? gfx_scene_name_problem(name) : NULL;
    if (problem) {
        logf_("default scene not set: the name must be 1..120 bytes of UTF-8 without control characters, bidi controls or line separators; it is %s", problem);
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&s->mu);
    if (s->closed) {
        pthread_mutex_unlock(&s->mu);
        return GFXSTATS_ECLOSED;
    }
    /* Frames recorded before the switch are counted with the scenes in effect when they were
     * recorded, as gfxstats_set_scene does for its tracker. */
    drain_all_locked(s);
    int slot = name ? scene_slot_locked(s, name) : DEFAULT_SCENE_SLOT;
    /* Frames intended before since_ns keep the scene the default gave them. */
    int64_t before_since = (int64_t)((uint64_t)since_ns - 1u);
    s->default_prev = before_since >= s->default_since ? s->default_slot : s->default_prev;
    s->default_slot = slot;
    s->default_since = since_ns;
    for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
        checkpoint_locked(t);
    }
    pthread_mutex_unlock(&s->mu);
    return GFXSTATS_OK;
}

int gfxstats_set_default_scene(gfxstats_session *s, const char *name) {
    return gfxstats_set_default_scene_since(s, name, gfxstats_now_ns());
}

int gfxstats_session_attached(gfxstats_session *s) {
    if (!s) {
        return 0;
    }
    pthread_mutex_lock(&s->mu);
    int a = s->cur != NULL;
    pthread_mutex_unlock(&s->mu);
    return a;
}

static void deadline_after(struct timespec *ts, int32_t ms) {
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

/* Waits up to timeout_ms until the session has the daemon's buffer or is closed; with
 * only_while_asking, also until the thread finds no daemon to ask (CONN_DOWN: no socket, a
 * refusal, a lost connection), as close's wait does. */
static int wait_for_buffer(struct gfxstats_session *s, int32_t timeout_ms, int only_while_asking) {
    if (!s) {
        return 0;
    }
    struct timespec until;
    deadline_after(&until, timeout_ms < 0 ? 0 : timeout_ms);
    pthread_mutex_lock(&s->mu);
    while (s->cur == NULL && !s->closed && (!only_while_asking || s->conn == CONN_INIT || s->conn == CONN_WAITING)) {
        if (pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT) {
            break;
        }
    }
    int a = s->cur != NULL;
    pthread_mutex_unlock(&s->mu);
    return a;
}

int gfxstats_session_wait_attached(gfxstats_session *s, int32_t timeout_ms) {
    return wait_for_buffer(s, timeout_ms, 0);
}

int gfxstats_session_wait_answer(gfxstats_session *s, int32_t timeout_ms) {
    return wait_for_buffer(s, timeout_ms, 1);
}

void gfxstats_session_close(gfxstats_session *s) {
    if (!s) {
        return;
    }
    pthread_mutex_lock(&s->mu);
    if (s->forked) {
        /* A child's copy: the parent's thread is not here; only this process's resources go. */
        if (s->thread_started) {
            s->thread_started = 0;
            close(s->wake[0]);
            close(s->wake[1]);
            pthread_mutex_unlock(&s->mu);
            list_remove(s);
            pthread_mutex_lock(&s->mu);
            if (!unref_locked(s)) {
                pthread_mutex_unlock(&s->mu);
            }
            return;
        }
        pthread_mutex_unlock(&s->mu);
        return;
    }
    if (s->closed) {
        pthread_mutex_unlock(&s->mu);
        return;
    }
    /* Frames counted before a daemon answered (the first registration, or a re-registration
     * after a daemon restart, which may hand out a new buffer that everything must move into):
     * wait for a daemon that is there, never for one that is not. */
    if ((s->cur != NULL || any_counts(s->pending) || gfx_tl_any(s->pending_tl)) && s->close_wait_ms > 0) {
        struct timespec until;
        deadline_after(&until, s->close_wait_ms);
        while (s->conn == CONN_INIT || s->conn == CONN_WAITING) {
            if (pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT) {
                break;
            }
        }
        if (s->cur == NULL) {
            logf_("%u frames of %s were counted before a daemon answered and are not kept (%s)", s->pending[0],
                  s->package, s->conn == CONN_WAITING ? "the daemon did not answer in time"
                  : s->refused ? "the daemon refused the registration" : "no daemon");
        } else if (s->conn == CONN_WAITING) {
            logf_("the daemon did not answer %s's re-registration in time; its buffer keeps the counts", s->package);
        }
    }
    drain_all_locked(s); /* what the rings hold counts where the trackers' counts are */
    s->closed = 1;
    s->stop = 1;
    /* Odd epoch: every tracker stops at its next frame (the rings closed below send it to look). */
    __atomic_store_n(&s->epoch, (__atomic_load_n(&s->epoch, __ATOMIC_RELAXED) | 1) + 2, __ATOMIC_RELEASE);
    drain_all_locked(s);
    pthread_mutex_unlock(&s->mu);
    ssize_t w = write(s->wake[1], "x", 1);
    (void)w;
    pthread_join(s->thread, NULL);
    close(s->wake[0]);
    close(s->wake[1]);
    list_remove(s);
    pthread_mutex_lock(&s->mu);
    if (!unref_locked(s)) {
        pthread_mutex_unlock(&s->mu);
    }
}

/* ---- the background thread */

/* Installs an assigned buffer: the first (pending counts go in), or a new one after a daemon
 * restart (everything moves over, the old one is retired). Under mu. */
static void install_locked(struct gfxstats_session *s, struct gfx_mapping *m) {
    struct gfx_mapping *old = s->cur;
    m->refs = 1;
    /* Every slot named so far, before any count of it lands here (docs/buffer-format.md). */
    for (int i = 0; i < s->scenes_used && s->scenes_on; i++) {
        gfx_name_scene(m, i, s->scene_names[i]);
    }
    if (old == NULL) {
        gfx_lower_stats_start(m, s->open_ms);
        if (any_counts(s->pending) || gfx_tl_any(s->pending_tl)) {
            gfx_add_shared(m, s->pending);
            gfx_add_shared_scenes(m, &s->pending_scenes);
            add_shared_tl(m, s->pending_tl);
            memset(s->pending, 0, sizeof s->pending);
            memset(&s->pending_scenes, 0, sizeof s->pending_scenes);
            memset(s->pending_tl, 0, sizeof s->pending_tl);
        }
        if (s->pending_drops && m->health) {
            __atomic_fetch_add(gfx_health_dropped(m, 0), s->pending_drops, __ATOMIC_RELAXED);
            s->pending_drops = 0;
        }
    } else {
        /* Handover (docs/buffer-format.md): the shared stripe and every stripe no open tracker
         * holds move now; each open tracker moves its own stripe at its next frame. */
        uint32_t sum[GFX_COUNTERS] = {0};
        uint32_t tl_sum[GFX_TL_COUNTERS] = {0};
        static struct gfx_scene_rec scene_sum; /* 3 KB, off the thread's stack; under mu */
        memset(&scene_sum, 0, sizeof scene_sum);
        uint32_t drops = old->health ? *gfx_health_dropped(old, 0) : 0;
        add_counts(sum, gfx_stripe(old, 0));
        if (old->scenes) {
            gfx_add_scenes(&scene_sum, gfx_scene_stripe(old, 0));
        }
        if (old->timeline) {
            gfx_tl_add(tl_sum, gfx_timeline_stripe(old, 0));
        }
        for (uint32_t i = 1; i <= old->stripes; i++) {
            if (gfx_stripe_claim(old, i) == 0) {
                add_counts(sum, gfx_stripe(old, i));
                if (old->scenes) {
                    gfx_add_scenes(&scene_sum, gfx_scene_stripe(old, i));
                }
                if (old->timeline) {
                    gfx_tl_add(tl_sum, gfx_timeline_stripe(old, i));
                }
                drops += old->health ? *gfx_health_dropped(old, i) : 0;
            }
        }
        if (drops && m->health) {
            __atomic_fetch_add(gfx_health_dropped(m, 0), drops, __ATOMIC_RELAXED);
        }
        gfx_lower_stats_start(m, gfx_stats_start(old));
        gfx_add_shared(m, sum);
        gfx_add_shared_scenes(m, &scene_sum);
        add_shared_tl(m, tl_sum);
        gfx_retire(old, m->reg_id);
        mapping_unref(old);
    }
    s->cur = m;
    if (s->conn != CONN_DOWN) {
        s->conn = CONN_ATTACHED;
    }
    __atomic_store_n(&s->epoch, __atomic_load_n(&s->epoch, __ATOMIC_RELAXED) + 2, __ATOMIC_RELEASE);
    /* Each tracker counts what its ring holds where it counted so far, then moves here. */
    drain_all_locked(s);
    pthread_cond_broadcast(&s->cv);
}

void gfx_session_install(struct gfxstats_session *s, struct gfx_mapping *m) {
    pthread_mutex_lock(&s->mu);
    install_locked(s, m);
    pthread_mutex_unlock(&s->mu);
}

void gfx_session_test_hook(struct gfxstats_session *s, enum gfx_move_hook at, void (*fn)(void *arg), void *arg) {
    pthread_mutex_lock(&s->mu);
    s->hook[at].fn = fn;
    s->hook[at].arg = arg;
    pthread_mutex_unlock(&s->mu);
}

int gfx_tracker_test_record_at(struct gfxstats_tracker *t, struct gfx_ring *r, int64_t *e, int64_t intended_vsync,
                               int64_t vsync, int64_t frame_completed, int64_t gpu_completed,
                               int64_t frame_interval_ns) {
    return put_times(t, r, e, intended_vsync, vsync, frame_completed, gpu_completed, frame_interval_ns);
}

static uint32_t get_u32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static int64_t get_i64(const uint8_t *p) {
    int64_t v;
    memcpy(&v, p, 8);
    return v;
}

int gfx_ring_finish(const struct gfx_ring *r, uint32_t *counters, struct gfx_scene_rec *scenes, uint32_t *timeline,
                    uint32_t *health, const struct gfx_dring *dring, char *why, size_t why_len) {
    uint64_t n = __atomic_load_n(&r->committed, __ATOMIC_ACQUIRE);
    uint64_t base = r->base_slot, wp = __atomic_load_n(&r->wp_slot, __ATOMIC_ACQUIRE);
    ring_entries_visible(); /* a ring of a live thread of this process (the tests' finish) */
    const uint64_t ring_bytes = (uint64_t)GFX_RING_WORDS * 8u;
    if (r->words != GFX_RING_WORDS || wp < base || wp - base > ring_bytes || (wp - base) % 8 != 0) {
        snprintf(why, why_len, "the ring's write position is outside the ring");
        return -1;
    }
    uint32_t wpi = (uint32_t)((wp - base) / 8);
    if (n == 0) {
        if (r->rp_slot == wp) {
            return 0; /* nothing to count, and no counts that a checkpoint would have to restore */
        }
        snprintf(why, why_len, "the ring holds entries but has no checkpoint");
        return -1;
    }
    const uint8_t *c = r->slot[n & 1];
    uint32_t rp = get_u32(c + 8), flags = get_u32(c + 12), kind = get_u32(c + 24), ext = get_u32(c + 28);
    uint32_t mode = get_u32(c + 80);
    uint32_t own_slot = get_u32(c + 104), own_prev = get_u32(c + 108), def_slot = get_u32(c + 120),
             def_prev = get_u32(c + 124), tl_next = get_u32(c + 136);
    if ((uint64_t)get_i64(c) != n || rp > GFX_RING_WORDS || kind > 1 || ext > 1 || mode > 2 || own_slot >= GFX_SCENE_SLOTS
        || own_prev >= GFX_SCENE_SLOTS || def_slot >= GFX_SCENE_SLOTS || def_prev >= GFX_SCENE_SLOTS
        || tl_next >= GFX_TL_CAPACITY || get_i64(c + 32) <= 0 || get_i64(c + 40) <= 0 || get_i64(c + 72) <= 0) {
        snprintf(why, why_len, "the ring's checkpoint %llu is out of range", (unsigned long long)n);
        return -1;
    }
    /* Every entry first: nothing is written unless all of them can be counted. From rp the
     * entries run to wp, going on at the start once (a wrap mark) when rp is ahead of wp. */
    int same_lap = rp <= wpi;
    for (uint32_t i = rp; i != wpi;) {
        uint32_t k = r->kind[i];
        if (k == GFX_RING_WRAP && !same_lap) {
            same_lap = 1;
            i = 0;
            continue;
        }
        uint32_t w = gfx_ring_words(k);
        if (k >= GFX_RING_WRAP || i + w > GFX_RING_WORDS || (same_lap && i + w > wpi)) {
            snprintf(why, why_len, "the ring holds an entry of unknown kind %u or one past its end at word %u", k, i);
            return -1;
        }
        i += w;
    }
    struct gfxstats_session *s = calloc(1, sizeof *s);
    struct gfxstats_tracker *t = NULL;
    if (!s || posix_memalign((void **)&t, 64, sizeof *t) != 0) {
        free(s);
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    memset(t, 0, sizeof *t);
    t->s = s;
    memcpy(counters, c + 2304, sizeof(uint32_t) * GFX_COUNTERS);
    t->counters = counters;
    if ((flags & 1) && scenes) {
        memcpy(scenes, c + 3072, GFX_SCENE_STRIPE_BYTES);
        t->scenes = scenes;
    }
    if ((flags & 2) && timeline) {
        memcpy(timeline, c + 6400, GFX_TL_STRIPE_BYTES);
        t->tl_counters = timeline;
    }
    if ((flags & 16) && health) {
        memcpy(health, c + 6656, GFX_HEALTH_STRIPE_BYTES);
    }
    gfx_rules_init_config(&t->rules, (int)kind, get_i64(c + 32), get_i64(c + 40), get_i64(c + 48), ext != 0);
    t->rules.swap_deadline = get_i64(c + 56);
    t->rules.next_frame_start_unstuffed = get_i64(c + 64);
    t->default_interval = get_i64(c + 72);
    int32_t levels[4];
    memcpy(levels, c + 84, sizeof levels);
    float hz;
    memcpy(&hz, c + 100, 4);
    gfx_matrix_configure(&t->matrix, (int)mode, levels, hz);
    t->own_scene = (flags & 4) != 0;
    t->scene_slot = (int)own_slot;
    t->scene_prev = (int)own_prev;
    t->scene_since = get_i64(c + 112);
    s->default_slot = (int)def_slot;
    s->default_prev = (int)def_prev;
    s->default_since = get_i64(c + 128);
    gfx_tl_init(&t->tl);
    t->tl.next = (int)tl_next;
    t->tl.awaiting = (int)get_u32(c + 140);
    t->tl.prev_predicted_present = get_i64(c + 144);
    t->tl.prev_present = get_i64(c + 152);
    t->tl.join_wait = get_i64(c + 160);
    t->tl.last_presented = get_i64(c + 168);
    t->tl.ring = (flags & 8) ? dring : NULL;
    for (int j = 0; j < GFX_TL_CAPACITY; j++) {
        struct gfx_tl_slot *e = &t->tl.slot[j];
        const uint8_t *q = c + 256 + 128 * j;
        e->token = get_i64(q);
        e->predicted_start = get_i64(q + 8);
        e->predicted_end = get_i64(q + 16);
        e->predicted_present = get_i64(q + 24);
        e->actual_start = get_i64(q + 32);
        e->actual_end = get_i64(q + 40);
        e->used = q[48];
        e->predicted = q[49];
        e->awaiting = q[50];
        e->flags_at = get_u32(q + 52);
        e->presented_at = get_i64(q + 56);
        e->refresh_at = get_i64(q + 64);
        e->latch_at = get_i64(q + 72);
        e->output_at = get_i64(q + 80);
        e->msc_at = get_i64(q + 88);
    }
    /* The drain's own code over a copy (it puts the kind bytes it read back to 0, and the ring
     * stripe is never written), positioned as the checkpoint and the write position say. */
    struct gfx_ring *copy = NULL;
    if (posix_memalign((void **)&copy, 64, sizeof *copy) != 0) {
        free(t);
        free(s);
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    memcpy(copy, r, sizeof *copy);
    copy->rp = copy->w + rp;
    copy->wp = copy->w + wpi;
    drain_ring_locked(t, copy);
    free(copy);
    if ((flags & 16) && health) {
        health[0] += (uint32_t)(__atomic_load_n(&r->dropped, __ATOMIC_RELAXED) - (uint64_t)get_i64(c + 16));
    }
    free(t);
    free(s);
    return 0;
}

static void set_conn(struct gfxstats_session *s, int state) {
    pthread_mutex_lock(&s->mu);
    s->conn = state;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

static int stopping(struct gfxstats_session *s) {
    pthread_mutex_lock(&s->mu);
    int stop = s->stop;
    pthread_mutex_unlock(&s->mu);
    return stop;
}

/* The scene file (gfxstats_options.scene_file): when stat says it changed, its first line (up to
 * a newline) becomes the default scene; missing or empty, the configured one. Session thread
 * (and once in open, before the thread exists). */
void gfx_poll_scene_file(struct gfxstats_session *s) {
    if (!s->scene_file[0]) {
        return;
    }
    struct stat st;
    int present = stat(s->scene_file, &st) == 0;
    const struct stat *o = &s->scene_file_stat;
    if (s->scene_file_seen == (present ? 1 : 2)
        && (!present || (st.st_ino == o->st_ino && st.st_dev == o->st_dev && st.st_size == o->st_size
                         && st.st_mtim.tv_sec == o->st_mtim.tv_sec && st.st_mtim.tv_nsec == o->st_mtim.tv_nsec))) {
        return;
    }
    s->scene_file_seen = present ? 1 : 2;
    if (present) {
        s->scene_file_stat = st;
    }
    char name[GFX_SCENE_NAME_MAX + 2] = "";
    /* A regular file only: opening a FIFO (`mkfifo`, for `echo menu > PATH`) waits for a writer,
     * in the app's thread at open and in the session thread after, and reading a device may never
     * end. Non-blocking, and checked again on the open file, in case the path changed between.
     * The path turning into one of those, or into a file that cannot be opened, gets a line. */
    if (present && !S_ISREG(st.st_mode)) {
        logf_("scene file %s is not a regular file: ignored (write the scene name into a file)", s->scene_file);
    } else if (present) {
        int fd = open(s->scene_file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0) {
            logf_("scene file %s cannot be read (%s): ignored", s->scene_file, strerror(errno));
        } else {
            struct stat fst;
            if (fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode)) {
                ssize_t n = read(fd, name, sizeof name - 1);
                name[n > 0 ? n : 0] = 0;
                name[strcspn(name, "\r\n")] = 0;
            }
            close(fd);
        }
    }
    if (strcmp(name, s->scene_file_name) == 0) {
        return;
    }
    memcpy(s->scene_file_name, name, sizeof name);
    (void)gfxstats_set_default_scene(s, name[0] ? name : NULL); /* a bad name: one line, the scene stays */
}

const char *gfx_session_scene_file_name(struct gfxstats_session *s) {
    return s->scene_file_name;
}

/* One round of the background thread's upkeep: drains every ring and beats the heartbeat.
 * Returns the time to the next round in ms: the drain period halves while a ring held more than
 * an eighth of its size at a drain and doubles (up to 50 ms) while every ring held under a 32nd. */
static int service(struct gfxstats_session *s) {
    pthread_mutex_lock(&s->mu);
    unsigned long most = 0;
    if (!s->drain_paused) {
        for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
            unsigned long n = drain_locked(t);
            most = n > most ? n : most;
        }
    }
    if (most > GFX_RING_FRAMES / 8) {
        s->drain_ms = s->drain_ms / 2 < DRAIN_MIN_MS ? DRAIN_MIN_MS : s->drain_ms / 2;
    } else if (most < GFX_RING_FRAMES / 32) {
        s->drain_ms = s->drain_ms * 2 > DRAIN_MAX_MS ? DRAIN_MAX_MS : s->drain_ms * 2;
    }
    if (s->cur) {
        gfx_heartbeat(s->cur, wall_ms());
    }
    if (s->compositor_trackers > 0 && gfxstats_now_ns() - s->compositor_polled >= COMPOSITOR_POLL_NS) {
        compositor_refresh_locked(s);
    }
    int next = s->drain_ms;
    pthread_mutex_unlock(&s->mu);
    if (s->scene_file[0] && gfxstats_now_ns() - s->scene_file_polled >= SCENE_FILE_POLL_NS) {
        s->scene_file_polled = gfxstats_now_ns();
        gfx_poll_scene_file(s); /* takes mu itself when the scene changes */
    }
    return next;
}

/* Waits up to ms for the wake pipe (or fd, when >= 0, to become readable), draining the rings
 * and beating the heartbeat meanwhile. Returns 1 when fd is readable, 0 on time-out, -1 when
 * woken to stop. */
static int wait_for(struct gfxstats_session *s, int fd, int ms) {
    int64_t end = gfxstats_now_ns() + (int64_t)ms * 1000000LL;
    for (;;) {
        int next = service(s);
        int64_t left = (end - gfxstats_now_ns()) / 1000000LL;
        if (left <= 0) {
            return 0;
        }
        struct pollfd p[2] = {{.fd = s->wake[0], .events = POLLIN}, {.fd = fd, .events = POLLIN}};
        int n = poll(p, fd >= 0 ? 2 : 1, (int)(left < next ? left : next));
        if (n < 0 && errno != EINTR) {
            return 0;
        }
        if (n > 0 && (p[0].revents & POLLIN)) {
            return -1;
        }
        if (n > 0 && fd >= 0 && p[1].revents) {
            return 1;
        }
    }
}

static const char *status_name(int32_t code) {
    static const char *names[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
                                  "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                                  "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
                                  "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
    return code >= 0 && code <= 16 ? names[code] : "no status";
}

void *gfx_session_thread(void *arg) {
    struct gfxstats_session *s = arg;
    int backoff = BACKOFF_MIN_MS;
    register_render_threads_barrier(); /* before the first answer's move */
    while (!stopping(s)) {
        struct gfx_reg_conn c;
        int rc = gfx_reg_connect(&c, s->socket_path);
        if (rc == 0) {
            char adopt_path[4096] = "", adopt_id[GFX_ID_MAX + 1] = "";
            pthread_mutex_lock(&s->mu);
            if (s->cur) {
                snprintf(adopt_path, sizeof adopt_path, "%s", s->cur->path);
                snprintf(adopt_id, sizeof adopt_id, "%s", s->cur->reg_id);
            }
            s->conn = CONN_WAITING; /* until the daemon answers: close waits for that */
            pthread_mutex_unlock(&s->mu);
            rc = gfx_reg_send(&c, s->package, s->version, s->pipeline, adopt_path, adopt_id);
        }
        if (rc != 0) {
            if (!s->logged_absent) {
                s->logged_absent = 1;
                logf_("no daemon at %s (%s); counting in memory and retrying", s->socket_path, strerror(-rc));
            }
            gfx_reg_close(&c);
            set_conn(s, CONN_DOWN);
            if (wait_for(s, -1, backoff) < 0) {
                break;
            }
            backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
            continue;
        }
        int assigned = 0;
        for (;;) {
            int w = wait_for(s, c.fd, 3600 * 1000);
            if (w < 0) {
                break;
            }
            if (w == 0) {
                continue;
            }
            struct gfx_assigned a;
            int e;
            while ((e = gfx_reg_read(&c, &a)) == GFX_REG_ASSIGNED) {
                char why[512];
                int same = 0;
                pthread_mutex_lock(&s->mu);
                same = s->cur && a.adopted && strcmp(s->cur->reg_id, a.reg_id) == 0;
                if (same) {
                    s->conn = CONN_ATTACHED;
                    pthread_cond_broadcast(&s->cv);
                }
                pthread_mutex_unlock(&s->mu);
                if (same) {
                    assigned = 1;
                    continue;
                }
                struct gfx_mapping *m = gfx_map_buffer(a.path, a.reg_id, (uint64_t)a.size, why, sizeof why);
                if (!m) {
                    logf_("cannot count into the daemon's buffer: %s", why);
                    e = GFX_REG_ENDED;
                    break;
                }
                char note[sizeof m->path + 256];
                if (gfx_scene_version_note(m, s->package, s->scenes_on, note, sizeof note)) {
                    /* Without it, an older daemon's buffer would drop this session's scenes silently. */
                    logf_("%s", note);
                }
                pthread_mutex_lock(&s->mu);
                install_locked(s, m);
                pthread_mutex_unlock(&s->mu);
                assigned = 1;
                s->logged_absent = 0;
            }
            if (e == GFX_REG_ENDED) {
                pthread_mutex_lock(&s->mu);
                s->refused = !assigned;
                pthread_mutex_unlock(&s->mu);
                if (!assigned && !s->logged_refused) {
                    s->logged_refused = 1;
                    logf_("the daemon did not register %s: %s%s%s", s->package, status_name(c.grpc_status),
                          c.grpc_message[0] ? ": " : "", c.grpc_message);
                }
                break;
            }
        }
        gfx_reg_close(&c);
        set_conn(s, CONN_DOWN);
        if (stopping(s)) {
            break;
        }
        if (assigned) {
            backoff = BACKOFF_MIN_MS;
            s->logged_refused = 0;
        }
        if (wait_for(s, -1, backoff) < 0) {
            break;
        }
        backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
    }
    return NULL;
}

/* A program that exits without closing its sessions (exit() runs this; a crash or SIGKILL does
 * not) still has what its rings hold counted. The other threads still run during exit(), so a
 * session thread that holds a mutex (draining, or installing a buffer) lets go within
 * microseconds: wait for it, but boundedly, so that an exit is never held up for long. */
#define EXIT_DRAIN_WAIT_MS 250

/* pthread_mutex_clocklock (the monotonic deadline: a clock step during exit neither shortens nor
 * lengthens the wait). ThreadSanitizer (gcc 12's libtsan) has no interceptor for it, so it would
 * not see the lock and would report the unlock after it as the unlock of an unlocked mutex. Under
 * TSan the same call is announced to it as a lock that may fail, as a try-lock is: the annotations
 * rather than pthread_mutex_timedlock with a CLOCK_REALTIME deadline, so that the TSan build runs
 * the very call the product makes. Returns 0 once locked. */
static int lock_until(pthread_mutex_t *m, const struct timespec *until) {
#ifdef __SANITIZE_THREAD__
    __tsan_mutex_pre_lock(m, __tsan_mutex_try_lock);
    int rc = pthread_mutex_clocklock(m, CLOCK_MONOTONIC, until);
    __tsan_mutex_post_lock(m, __tsan_mutex_try_lock | (rc != 0 ? __tsan_mutex_try_lock_failed : 0), 0);
    return rc;
#else
    return pthread_mutex_clocklock(m, CLOCK_MONOTONIC, until);
#endif
}

__attribute__((destructor)) static void drain_at_exit(void) {
    struct timespec until;
    deadline_after(&until, EXIT_DRAIN_WAIT_MS);
    if (lock_until(&sessions_mu, &until) != 0) {
        return;
    }
    for (struct gfxstats_session *s = sessions; s; s = s->next_session) {
        if (lock_until(&s->mu, &until) == 0) {
            drain_all_locked(s);
            pthread_mutex_unlock(&s->mu);
        }
    }
    pthread_mutex_unlock(&sessions_mu);
}
