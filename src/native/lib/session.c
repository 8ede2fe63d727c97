/* Sessions: gfxstats_session_open and _close, the scene switches, the waits for the daemon's
 * answer, fork() and exit(). The files of a session (lib/session.h): trackers (tracker.c), the
 * frame path (record.c), the drain and its checkpoints (drain.c), a move between rings (move.c),
 * the barrier behind streamed entries (barrier.c), compositor mode (compositor.c), the background
 * thread (thread.c) and the count of what a dead client left (finish.c).
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
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#endif

#define NANOS_60HZ 16666667LL
#define DEFAULT_CLOSE_WAIT_MS 2000

static int quiet = -1;

/* Open sessions, for fork(): a child must not write into its parent's buffer (the mapping is
 * shared), wake its parent's thread or release its stripes. The handlers hold every session's
 * mutex across fork, so the child's copies are not left locked by a thread it does not have. */
static pthread_mutex_t sessions_mu = PTHREAD_MUTEX_INITIALIZER;
static struct gfxstats_session *sessions;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* The parent counts what its rings hold before the fork, so the child's copies start empty. */
static void fork_prepare(void) {
    pthread_mutex_lock(&sessions_mu);
    for (struct gfxstats_session *s = sessions; s; s = s->next_session) {
        pthread_mutex_lock(&s->mu);
        gfx_drain_all_locked(s);
    }
}

static void fork_parent(void) {
    for (struct gfxstats_session *s = sessions; s; s = s->next_session) {
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&sessions_mu);
}

static void fork_child(void) {
    gfx_ring_stream_off();
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
            gfx_mapping_unref(t->cons_map);
            gfx_mapping_unref(t->next_map);
            t->cons_map = t->next_map = NULL;
        }
        gfx_drain_all_locked(s); /* forked: closes the rings */
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
int gfx_quiet(void) {
    if (quiet < 0) {
        const char *q = getenv("GFXSTATS_QUIET");
        quiet = q && q[0] && strcmp(q, "0") != 0;
    }
    return quiet;
}

void gfx_logf(const char *fmt, ...) {
    if (gfx_quiet()) {
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

uint64_t gfx_wall_ms(void) {
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
int gfx_session_unref_locked(struct gfxstats_session *s) {
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

void gfx_mapping_unref(struct gfx_mapping *m) {
    if (m && --m->refs == 0) {
        gfx_unmap_buffer(m);
    }
}

void gfx_add_counts(uint32_t *dst, const uint32_t *src) {
    for (int i = 0; i < GFX_COUNTERS; i++) {
        dst[i] += src[i];
    }
}

int gfx_any_counts(const uint32_t *c) {
    for (int i = 0; i < GFX_COUNTERS; i++) {
        if (c[i]) return 1;
    }
    return 0;
}

/* Atomic adds of FrameTimeline counts into the shared group stripe 0 (nothing without the group). */
void gfx_add_shared_tl(struct gfx_mapping *m, const uint32_t *c) {
    uint32_t *shared = gfx_timeline_stripe(m, 0);
    if (shared) {
        gfx_tl_add_atomic(shared, c);
    }
}

int gfxstats_session_open(const gfxstats_options *o, gfxstats_session **out) {
    if (!out) {
        return GFXSTATS_EINVAL;
    }
    *out = NULL;
    if (!o || o->struct_size < GFXSTATS_OPTIONS_SIZE_V2) {
        gfx_logf("session not opened: gfxstats_options.struct_size must be sizeof(gfxstats_options)");
        return GFXSTATS_EINVAL;
    }
    /* A caller built against an older header passes fewer fields: the rest keep their defaults. */
    gfxstats_options given;
    memset(&given, 0, sizeof given);
    memcpy(&given, o, o->struct_size < sizeof given ? o->struct_size : sizeof given);
    o = &given;
    if (o->davey < GFXSTATS_DAVEY_LOG || o->davey > GFXSTATS_DAVEY_CALLBACK
        || (o->davey == GFXSTATS_DAVEY_CALLBACK && !o->davey_callback)) {
        gfx_logf("session not opened: davey must be GFXSTATS_DAVEY_LOG, GFXSTATS_DAVEY_OFF or GFXSTATS_DAVEY_CALLBACK "
              "with a davey_callback");
        return GFXSTATS_EINVAL;
    }
    const char *problem = gfx_package_problem(o->package_name);
    if (problem) {
        gfx_logf("session not opened: package name %s%s%s %s", o->package_name ? "\"" : "",
              o->package_name ? o->package_name : "", o->package_name ? "\"" : "", problem);
        return GFXSTATS_EINVAL;
    }
    if (o->version_code < 0 || o->pipeline < 0 || o->pipeline > 2 || o->refresh_interval_ns < 0) {
        gfx_logf("session not opened: version code, pipeline or refresh interval out of range");
        return GFXSTATS_EINVAL;
    }
    static const int32_t default_levels[4] = {3, 9, 24, 42};
    const int32_t *lv = o->matrix_levels;
    int levels_given = lv[0] || lv[1] || lv[2] || lv[3];
    const char *default_scene = o->default_scene ? o->default_scene : GFX_SCENE_DEFAULT;
    const char *scene_problem = gfx_scene_name_problem(default_scene);
    if (scene_problem || strcmp(default_scene, GFX_SCENE_OTHER) == 0) {
        gfx_logf("session not opened: default_scene must be 1..120 bytes of UTF-8 without control characters and not "
              "\"(other)\"; it is %s", scene_problem ? scene_problem : "\"(other)\"");
        return GFXSTATS_EINVAL;
    }
    if (o->scene_max < 0 || o->scene_max > GFX_SCENE_SLOTS - 1 || o->matrix_mode < GFXSTATS_MATRIX_2_1
        || o->matrix_mode > GFXSTATS_MATRIX_TIME
        || (levels_given && (lv[0] < 1 || lv[1] < lv[0] || lv[2] < lv[1] || lv[3] < lv[2]))
        || !(o->refresh_rate_hz == 0.0f || (o->refresh_rate_hz >= 1.0f && o->refresh_rate_hz <= 1000.0f))) {
        gfx_logf("session not opened: scene_max must be 0..15, matrix_mode a GFXSTATS_MATRIX_*, matrix_levels all 0 or "
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
    s->open_ms = gfx_wall_ms();
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
    gfx_poll_scene_file(s); /* so that a scene named before the program started holds from its first frame */
    if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        free(s);
        return GFXSTATS_ENOMEM;
    }
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
        gfx_logf("scene not set: the name must be 1..120 bytes of UTF-8 without control characters, bidi controls or line separators; it is %s", problem);
        return GFXSTATS_EINVAL;
    }
    struct gfxstats_session *s = t->s;
    pthread_mutex_lock(&s->mu);
    /* Frames recorded before the switch are counted with the scenes in effect when they were
     * recorded: the ring is drained before the switch changes them. */
    gfx_drain_locked(t);
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
    gfx_checkpoint_locked(t); /* the next frame is counted with the new switch */
    pthread_mutex_unlock(&s->mu);
    return GFXSTATS_OK;
}

int gfxstats_set_scene(gfxstats_tracker *t, const char *name) {
    return gfxstats_set_scene_since(t, name, gfxstats_now_ns());
}

int gfxstats_set_default_scene_since(gfxstats_session *s, const char *name, int64_t since_ns) {
    if (!s) {
        return GFXSTATS_EINVAL;
    }
    const char *problem = name ? gfx_scene_name_problem(name) : NULL;
    if (problem) {
        gfx_logf("default scene not set: the name must be 1..120 bytes of UTF-8 without control characters, bidi controls or line separators; it is %s", problem);
        return GFXSTATS_EINVAL;
    }
    pthread_mutex_lock(&s->mu);
    if (s->closed) {
        pthread_mutex_unlock(&s->mu);
        return GFXSTATS_ECLOSED;
    }
    /* Frames recorded before the switch are counted with the scenes in effect when they were
     * recorded, as gfxstats_set_scene does for its tracker. */
    gfx_drain_all_locked(s);
    int slot = name ? scene_slot_locked(s, name) : DEFAULT_SCENE_SLOT;
    /* Frames intended before since_ns keep the scene the default gave them. */
    int64_t before_since = (int64_t)((uint64_t)since_ns - 1u);
    s->default_prev = before_since >= s->default_since ? s->default_slot : s->default_prev;
    s->default_slot = slot;
    s->default_since = since_ns;
    for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
        gfx_checkpoint_locked(t);
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
            if (!gfx_session_unref_locked(s)) {
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
    if ((s->cur != NULL || gfx_any_counts(s->pending) || gfx_tl_any(s->pending_tl)) && s->close_wait_ms > 0) {
        struct timespec until;
        deadline_after(&until, s->close_wait_ms);
        while (s->conn == CONN_INIT || s->conn == CONN_WAITING) {
            if (pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT) {
                break;
            }
        }
        if (s->cur == NULL) {
            gfx_logf("%u frames of %s were counted before a daemon answered and are not kept (%s)", s->pending[0],
                  s->package, s->conn == CONN_WAITING ? "the daemon did not answer in time"
                  : s->refused && s->unusable ? "the buffer the daemon named could not be used"
                  : s->refused ? "the daemon refused the registration" : "no daemon");
        } else if (s->conn == CONN_WAITING) {
            gfx_logf("the daemon did not answer %s's re-registration in time; its buffer keeps the counts", s->package);
        }
    }
    gfx_drain_all_locked(s); /* what the rings hold counts where the trackers' counts are */
    s->closed = 1;
    s->stop = 1;
    /* Odd epoch: every tracker stops at its next frame (the rings closed below send it to look). */
    __atomic_store_n(&s->epoch, (__atomic_load_n(&s->epoch, __ATOMIC_RELAXED) | 1) + 2, __ATOMIC_RELEASE);
    gfx_drain_all_locked(s);
    pthread_mutex_unlock(&s->mu);
    ssize_t w = write(s->wake[1], "x", 1);
    (void)w;
    pthread_join(s->thread, NULL);
    close(s->wake[0]);
    close(s->wake[1]);
    list_remove(s);
    pthread_mutex_lock(&s->mu);
    if (!gfx_session_unref_locked(s)) {
        pthread_mutex_unlock(&s->mu);
    }
}

void gfx_session_test_hook(struct gfxstats_session *s, enum gfx_move_hook at, void (*fn)(void *arg), void *arg) {
    pthread_mutex_lock(&s->mu);
    s->hook[at].fn = fn;
    s->hook[at].arg = arg;
    pthread_mutex_unlock(&s->mu);
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
            gfx_drain_all_locked(s);
            pthread_mutex_unlock(&s->mu);
        }
    }
    pthread_mutex_unlock(&sessions_mu);
}
