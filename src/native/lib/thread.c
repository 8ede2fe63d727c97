/* The session's background thread: registration with the daemon (register.c) and re-registration
 * after a restart, the buffer the daemon assigns installed (a handover moves everything over), the
 * drain period, the heartbeat, the scene file and the display-frame ring looked at. */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000
#define SCENE_FILE_POLL_NS 250000000LL /* the scene file is looked at 4 times a second */
/* The display-frame ring is looked for once a second while a tracker is in compositor mode (as
 * often as the Java docs suggest calling CompositorLink.refresh). */
#define COMPOSITOR_POLL_NS 1000000000LL

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
        if (gfx_any_counts(s->pending) || gfx_tl_any(s->pending_tl)) {
            gfx_add_shared(m, s->pending);
            gfx_add_shared_scenes(m, &s->pending_scenes);
            gfx_add_shared_tl(m, s->pending_tl);
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
        gfx_add_counts(sum, gfx_stripe(old, 0));
        if (old->scenes) {
            gfx_add_scenes(&scene_sum, gfx_scene_stripe(old, 0));
        }
        if (old->timeline) {
            gfx_tl_add(tl_sum, gfx_timeline_stripe(old, 0));
        }
        for (uint32_t i = 1; i <= old->stripes; i++) {
            if (gfx_stripe_claim(old, i) == 0) {
                gfx_add_counts(sum, gfx_stripe(old, i));
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
        gfx_add_shared_tl(m, tl_sum);
        gfx_retire(old, m->reg_id);
        gfx_mapping_unref(old);
    }
    s->cur = m;
    if (s->conn != CONN_DOWN) {
        s->conn = CONN_ATTACHED;
    }
    __atomic_store_n(&s->epoch, __atomic_load_n(&s->epoch, __ATOMIC_RELAXED) + 2, __ATOMIC_RELEASE);
    /* Each tracker counts what its ring holds where it counted so far, then moves here. */
    gfx_drain_all_locked(s);
    pthread_cond_broadcast(&s->cv);
}

void gfx_session_install(struct gfxstats_session *s, struct gfx_mapping *m) {
    pthread_mutex_lock(&s->mu);
    install_locked(s, m);
    pthread_mutex_unlock(&s->mu);
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
        gfx_logf("scene file %s is not a regular file: ignored (write the scene name into a file)", s->scene_file);
    } else if (present) {
        int fd = open(s->scene_file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0) {
            gfx_logf("scene file %s cannot be read (%s): ignored", s->scene_file, strerror(errno));
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
            unsigned long n = gfx_drain_locked(t);
            most = n > most ? n : most;
        }
    }
    if (most > GFX_RING_FRAMES / 8) {
        s->drain_ms = s->drain_ms / 2 < DRAIN_MIN_MS ? DRAIN_MIN_MS : s->drain_ms / 2;
    } else if (most < GFX_RING_FRAMES / 32) {
        s->drain_ms = s->drain_ms * 2 > DRAIN_MAX_MS ? DRAIN_MAX_MS : s->drain_ms * 2;
    }
    if (s->cur) {
        gfx_heartbeat(s->cur, gfx_wall_ms());
    }
    if (s->compositor_trackers > 0 && gfxstats_now_ns() - s->compositor_polled >= COMPOSITOR_POLL_NS) {
        gfx_compositor_refresh_locked(s);
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
    gfx_register_render_threads_barrier(); /* before the first answer's move */
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
            s->unusable = 0;
            pthread_mutex_unlock(&s->mu);
            rc = gfx_reg_send(&c, s->package, s->version, s->pipeline, adopt_path, adopt_id);
        }
        if (rc != 0) {
            if (!s->logged_absent) {
                s->logged_absent = 1;
                gfx_logf("no daemon at %s (%s); counting in memory and retrying", s->socket_path, strerror(-rc));
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
                    /* One line, as for a refusal, until a buffer is taken: the call is made again
                     * every few seconds, and the answer is likely the same. */
                    if (!s->logged_refused) {
                        s->logged_refused = 1;
                        gfx_logf("cannot count into the daemon's buffer: %s", why);
                    }
                    pthread_mutex_lock(&s->mu);
                    s->unusable = 1;
                    pthread_mutex_unlock(&s->mu);
                    e = GFX_REG_ENDED;
                    break;
                }
                char note[sizeof m->path + 256];
                if (gfx_scene_version_note(m, s->package, s->scenes_on, note, sizeof note)) {
                    /* Without it, an older daemon's buffer would drop this session's scenes silently. */
                    gfx_logf("%s", note);
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
                    gfx_logf("the daemon did not register %s: %s%s%s", s->package, status_name(c.grpc_status),
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
