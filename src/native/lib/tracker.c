/* Trackers: made, closed, and moved with their counts into the session's current buffer (a
 * stripe of their own when one is free); what the tests read of them. Under the session mutex
 * but gfxstats_tracker_dropped. */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tracker's counts leave where they are (its old stripe or local memory) for the session's
 * current buffer: a stripe of its own there when one is free, else local memory. Under mu. */
void gfx_tracker_move_locked(struct gfxstats_tracker *t) {
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
        gfx_mapping_unref(t->map);
        t->map = NULL;
        t->stripe = 0;
        gfx_add_counts(t->local, moving);
    }
    uint32_t idx = gfx_claim_stripe(m, s->pid);
    if (idx == 0) {
        t->counters = t->local; /* every stripe taken: counted here, handed over at each drain */
        t->scenes = s->scenes_on ? &t->local_scenes : NULL;
        t->tl_counters = t->local_tl;
        return;
    }
    struct gfx_ring *rs = gfx_ring_stripe(m, idx);
    if (rs) {
        /* A checkpoint left by the stripe's previous tracker would give the daemon that tracker's
         * images for counts that now grow: none until this tracker's first (gfx_drain_locked). */
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

/* A Davey frame (700 ms or more), from the rules: the only frames whose classification may make
 * a system call (the log line's write), as in the Java client. */
static void session_davey(void *ctx, int64_t total, const int64_t *fields) {
    struct gfxstats_session *s = ctx;
    if (s->davey == GFXSTATS_DAVEY_CALLBACK) {
        s->davey_callback(s->davey_user, total, fields);
        return;
    }
    if (gfx_quiet()) {
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
            gfx_logf("tracker not created: gfxstats_tracker_options.struct_size must be "
                     "sizeof(gfxstats_tracker_options)");
            return GFXSTATS_EINVAL;
        }
        opt = *o;
    }
    if ((opt.rules != GFXSTATS_RULES_ANDROID12 && opt.rules != GFXSTATS_RULES_ANDROID9) || opt.refresh_interval_ns < 0
        || opt.default_frame_interval_ns < 0 || opt.dequeue_forgiveness_ns < 0) {
        gfx_logf("tracker not created: rules must be GFXSTATS_RULES_ANDROID12 or GFXSTATS_RULES_ANDROID9 and the "
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
    gfx_tracker_move_locked(t);
    /* No frame yet: it starts in its ring stripe (if the buffer has one), with a checkpoint before
     * its first frame. */
    struct gfx_ring *want = gfx_ring_want(t);
    if (want != &t->own) {
        gfx_ring_reset(want);
        t->ring = t->next = t->cons = want;
        t->cons_map = t->map;
        t->map->refs++;
        gfx_checkpoint_locked(t);
    }
    pthread_mutex_unlock(&s->mu);
    *out = t;
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

/* A tracker without a stripe of its own (every one was taken when it was made or moved) counts in
 * its own memory; what it counted goes to the current buffer's shared stripe (atomic adds, as
 * other such trackers may add there too), and its memory starts again from zero. At each drain,
 * not only at its close: the daemon then shows its frames within a drain period, and a SIGKILL
 * loses only what its private ring holds. Under mu, with a current buffer. */
void gfx_tracker_hand_over_locked(struct gfxstats_tracker *t) {
    struct gfx_mapping *m = t->s->cur;
    if (gfx_any_counts(t->local)) {
        gfx_add_shared(m, t->local);
        memset(t->local, 0, sizeof t->local);
    }
    gfx_add_shared_scenes(m, &t->local_scenes);
    memset(&t->local_scenes, 0, sizeof t->local_scenes);
    if (gfx_tl_any(t->local_tl)) {
        gfx_add_shared_tl(m, t->local_tl);
        memset(t->local_tl, 0, sizeof t->local_tl);
    }
    if (m->health && t->local_drops) {
        __atomic_fetch_add(gfx_health_dropped(m, 0), t->local_drops, __ATOMIC_RELAXED);
        t->local_drops = 0;
    }
}

void gfxstats_tracker_close(gfxstats_tracker *t) {
    if (!t) {
        return;
    }
    struct gfxstats_session *s = t->s;
    pthread_mutex_lock(&s->mu);
    gfx_drain_locked(t); /* moves it too when the buffer changed */
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
        gfx_logf("%llu frames of %s were not counted: the tracker's ring was full",
              (unsigned long long)t->ring->dropped, s->package);
    }
    gfx_mapping_unref(t->cons_map); /* the ring stripes stay as they are: the claim below ends them */
    gfx_mapping_unref(t->next_map);
    if (t->stripe != 0 && s->forked) {
        gfx_mapping_unref(t->map); /* the claim is the parent's */
    } else if (t->stripe != 0) {
        gfx_release_stripe(t->map, t->stripe); /* its counts stay in the stripe */
        gfx_mapping_unref(t->map);
    } else if ((gfx_any_counts(t->local) || gfx_tl_any(t->local_tl) || t->local_drops) && !s->forked) {
        /* With a current buffer the drain above handed everything over: these came before one. */
        if (!s->closed) {
            gfx_add_counts(s->pending, t->local);
            gfx_add_scenes(&s->pending_scenes, &t->local_scenes);
            gfx_tl_add(s->pending_tl, t->local_tl);
            s->pending_drops += t->local_drops;
        } else {
            gfx_logf("%u frames of %s were counted after its session ended and are not kept", t->local[0],
                  s->package);
        }
    }
    free(t);
    if (!gfx_session_unref_locked(s)) {
        pthread_mutex_unlock(&s->mu);
    }
}
