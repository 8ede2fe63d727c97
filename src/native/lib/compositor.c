/* Compositor mode: the session keeps the display-frame ring beside its buffer mapped, and maps it
 * again when a restarted daemon replaced it (CompositorLink.refresh), for its joined trackers; all
 * under the session mutex, which the drain (the ring's only reader) holds too. */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"
#include "display.h"

#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>

/* Makes `ring` (NULL: none) the joined trackers' ring: each first counts what its frame ring
 * holds and settles its frames waiting for a compositor frame with the old one
 * (TimelineRecorder.joinCompositor flushes first). Under mu. */
static void compositor_switch_locked(struct gfxstats_session *s, struct gfx_dring *ring) {
    for (struct gfxstats_tracker *t = s->trackers; t; t = t->next_tracker) {
        if (t->compositor) {
            gfx_drain_locked(t);
            gfx_tl_flush(&t->tl, t->tl_counters);
            t->tl.ring = ring;
            gfx_checkpoint_locked(t);
        }
    }
    gfx_dring_close(s->dring);
    s->dring = ring;
}

/* Looks at the ring beside the session's buffer: maps it when it is new or replaced, lets go of
 * it when it is gone. Returns 1 when a ring is mapped now. Under mu; takes system calls (stat,
 * open, mmap), so only the session thread and the non-frame calls run it. */
int gfx_compositor_refresh_locked(struct gfxstats_session *s) {
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
            gfx_logf("compositor mode of %s stays as it was: %s", s->package, why);
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
    int joined = gfx_compositor_refresh_locked(s);
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
    gfx_drain_locked(t);
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
            gfx_compositor_refresh_locked(s); /* maps the ring now if the session has a buffer */
        }
        t->tl.ring = s->dring;
    }
    gfx_checkpoint_locked(t);
    pthread_mutex_unlock(&s->mu);
    return GFXSTATS_OK;
}
