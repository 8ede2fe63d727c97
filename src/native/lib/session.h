/* The state of a session and its trackers, shared by the files that make up a session: session.c
 * (open, close, scenes, fork, exit), tracker.c, record.c (the frame path), drain.c, move.c,
 * barrier.c, compositor.c, thread.c (the background thread) and finish.c. Nothing here is part of
 * the library's ABI: the functions are hidden (lib/exports.map exports gfxstats_* only). */
#ifndef GFXSTATS_SESSION_H
#define GFXSTATS_SESSION_H

#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>

#include "gfxstats.h"
#include "internal.h"
#include "ring.h"

#define DEFAULT_SCENE_SLOT 1
#define DRAIN_MIN_MS 1
#define DRAIN_MAX_MS 50

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
    int unusable;    /* under mu: ... because the buffer it named could not be used here */
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

#pragma GCC visibility push(hidden)

/* session.c */
/* GFXSTATS_QUIET, read once: no log lines and no Davey lines on stderr. */
int gfx_quiet(void);
/* One line on stderr, "gfxstats: " first (none when quiet). */
void gfx_logf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t gfx_wall_ms(void);
/* Drops one reference to the session; frees it (and unmaps) with the last. Called with mu held;
 * returns 1 when it freed the session (mu is then gone). */
int gfx_session_unref_locked(struct gfxstats_session *s);
void gfx_mapping_unref(struct gfx_mapping *m);
void gfx_add_counts(uint32_t *dst, const uint32_t *src);
int gfx_any_counts(const uint32_t *c);
/* Atomic adds of FrameTimeline counts into the shared group stripe 0 (nothing without the group). */
void gfx_add_shared_tl(struct gfx_mapping *m, const uint32_t *c);

/* tracker.c */
void gfx_tracker_move_locked(struct gfxstats_tracker *t);
void gfx_tracker_hand_over_locked(struct gfxstats_tracker *t);

/* drain.c */
unsigned long gfx_drain_locked(struct gfxstats_tracker *t);
void gfx_drain_all_locked(struct gfxstats_session *s);
unsigned long gfx_drain_ring_locked(struct gfxstats_tracker *t, struct gfx_ring *r);
void gfx_checkpoint_locked(struct gfxstats_tracker *t);
void gfx_count_drops_locked(struct gfxstats_tracker *t, uint64_t dropped);
void gfx_raise_dropped(struct gfx_ring *r, uint64_t v);
struct gfx_ring *gfx_ring_want(struct gfxstats_tracker *t);

/* move.c */
void gfx_start_move_locked(struct gfxstats_tracker *t, struct gfx_ring *to, struct gfx_mapping *m);
void gfx_run_hook(struct gfxstats_session *s, enum gfx_move_hook at);

/* barrier.c */
extern int gfx_barrier_registered;
void gfx_register_render_threads_barrier(void);
void gfx_render_threads_barrier(void);
void gfx_ring_entries_visible(void);
void gfx_ring_stream_off(void);

/* compositor.c */
int gfx_compositor_refresh_locked(struct gfxstats_session *s);

/* thread.c */
void *gfx_session_thread(void *arg);
void gfx_poll_scene_file(struct gfxstats_session *s);

#pragma GCC visibility pop

/* The scene slot of a frame intended at `intended`: the tracker's own switch, else the session's
 * default switch (both read under mu, where frames are counted). */
static inline int scene_slot_of(const struct gfxstats_tracker *t, int64_t intended) {
    if (t->own_scene) {
        return intended >= t->scene_since ? t->scene_slot : t->scene_prev;
    }
    const struct gfxstats_session *s = t->s;
    return intended >= s->default_since ? s->default_slot : s->default_prev;
}

#endif
