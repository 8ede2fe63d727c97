/* Shared between the parts of libgfxstats; not installed. */
#ifndef GFXSTATS_INTERNAL_H
#define GFXSTATS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "scenes.h"
#include "timeline.h"

/* A little-endian field at any byte of a copy (a ring stripe's checkpoint, a buffer's header),
 * aligned or not. */
static inline uint32_t gfx_get_u32(const uint8_t *p) {
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

static inline uint64_t gfx_get_u64(const uint8_t *p) {
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
    return v;
}

static inline int64_t gfx_get_i64(const uint8_t *p) {
    return (int64_t)gfx_get_u64(p);
}

/* Buffer layout (docs/buffer-format.md). */
#define GFX_MAGIC 0x53584647u
#define GFX_LAYOUT_VERSION 2u
#define GFX_OFF_MAGIC 0
#define GFX_OFF_VERSION 4
#define GFX_OFF_STATE 8
#define GFX_OFF_HEADER_LENGTH 12
#define GFX_OFF_TOTAL_LENGTH 16
#define GFX_OFF_STRIPES 24
#define GFX_OFF_COUNTERS_PER_STRIPE 28
#define GFX_OFF_STRIPE_LENGTH 32
#define GFX_OFF_PID 40
#define GFX_OFF_STATS_START 56
#define GFX_OFF_HEARTBEAT 64
#define GFX_OFF_REG_ID 332
#define GFX_OFF_SUCCESSOR_ID 468
#define GFX_OFF_GROUP_DIRECTORY 536
#define GFX_OFF_GROUP_COUNT 540
#define GFX_OFF_CLAIMS_V2 544
#define GFX_STRIPE_LENGTH 768u
#define GFX_STATE_READY 1u
#define GFX_STATE_RETIRED 2u
#define GFX_ID_MAX 64

/* A daemon buffer mapped read-write. */
struct gfx_mapping {
    uint8_t *base;
    size_t length;
    uint32_t stripes;       /* writer stripes N (stripe 0 is the shared one) */
    uint32_t header_length;
    uint8_t *scenes;        /* the scene group's area (slot table first), NULL when the buffer has none */
    uint32_t scene_version; /* the scene group's version in the directory (0: none); scenes is NULL unless it
                             * is GFX_SCENE_GROUP_VERSION (an earlier one is the daemon's to read, not ours) */
    int scene_note_given;   /* gfx_scene_version_note gave its line for this buffer */
    uint8_t *timeline;      /* the FrameTimeline group's area, NULL when the buffer has none */
    uint8_t *health;        /* the client health group's area, NULL when the buffer has none */
    uint8_t *rings;         /* the ring group's area (ring stripe s - 1 for stripe s), NULL when none */
    int refs;               /* the session's and each tracker's; under the session mutex */
    char path[4096];
    char reg_id[GFX_ID_MAX + 1];
};

/* Maps and validates the buffer the daemon assigned; NULL with a reason in why. */
struct gfx_mapping *gfx_map_buffer(const char *path, const char *reg_id, uint64_t size, char *why,
                                   size_t why_len);
void gfx_unmap_buffer(struct gfx_mapping *m);
/* Once per buffer, when the session counts scenes but m's scene group is a version this library
 * does not write (a gfxstatsd of an earlier release made it): 1 with the line for the log in
 * line; 0 otherwise. */
int gfx_scene_version_note(struct gfx_mapping *m, const char *package, int scenes_on, char *line, size_t len);
uint32_t *gfx_stripe(struct gfx_mapping *m, uint32_t index);
/* Claims a free writer stripe for this pid: its index 1..N, or 0 when all are taken. */
uint32_t gfx_claim_stripe(struct gfx_mapping *m, uint32_t pid);
void gfx_release_stripe(struct gfx_mapping *m, uint32_t index);
uint32_t gfx_stripe_claim(struct gfx_mapping *m, uint32_t index);
/* Atomic adds of counts into the shared stripe 0. */
void gfx_add_shared(struct gfx_mapping *m, const uint32_t *counts);
/* Group stripe index of the scene group (0 shared, 1..N writers); the group must exist. */
struct gfx_scene_rec *gfx_scene_stripe(struct gfx_mapping *m, uint32_t index);
/* FrameTimeline group stripe `index` (0 shared, 1..N writers); NULL when the buffer has no group. */
uint32_t *gfx_timeline_stripe(struct gfx_mapping *m, uint32_t index);
/* Names scene slot `slot` (no-op when already named; the name first, then the state, released). */
void gfx_name_scene(struct gfx_mapping *m, int slot, const char *name);
/* Atomic adds of scene counts into the shared group stripe 0 (nothing without a scene group). */
void gfx_add_shared_scenes(struct gfx_mapping *m, const struct gfx_scene_rec *r);
void gfx_add_scenes(struct gfx_scene_rec *dst, const struct gfx_scene_rec *src);
/* Client health group (docs/buffer-format.md, id 3 version 1): per stripe one u32, the frames a
 * tracker's ring dropped, written by the drain; 64-byte group stripes, no prefix. */
#define GFX_HEALTH_GROUP_ID 3u
#define GFX_HEALTH_GROUP_VERSION 1u
#define GFX_HEALTH_STRIPE_BYTES 64u
/* The ring-dropped counter of group stripe `index` (0 shared, 1..N); the group must exist. */
uint32_t *gfx_health_dropped(struct gfx_mapping *m, uint32_t index);
/* Lowers the stats start to epoch_ms (never raises it). */
void gfx_lower_stats_start(struct gfx_mapping *m, uint64_t epoch_ms);
uint64_t gfx_stats_start(struct gfx_mapping *m);
void gfx_heartbeat(struct gfx_mapping *m, uint64_t epoch_ms);
/* Successor id, then state retired (release). */
void gfx_retire(struct gfx_mapping *m, const char *successor_id);

/* The Register call over the daemon's Unix socket (register.c). */
struct gfx_assigned {
    char path[4096];
    char reg_id[GFX_ID_MAX + 1];
    int32_t layout_version;
    int64_t size;
    int adopted;
};

enum gfx_reg_event { GFX_REG_ASSIGNED = 1, GFX_REG_ENDED = 2, GFX_REG_IDLE = 3 };

struct gfx_reg_conn {
    int fd;
    uint8_t *in;
    size_t in_len;
    size_t in_cap;
    uint8_t *msg;        /* gRPC message being assembled from DATA frames */
    size_t msg_len;
    size_t msg_cap;
    int headers_seen;
    int32_t grpc_status; /* -1 unknown */
    char grpc_message[256];
};

/* Connects; 0, or -errno (ENOENT/ECONNREFUSED: no daemon there). */
int gfx_reg_connect(struct gfx_reg_conn *c, const char *socket_path);
/* Sends the Register request (adopt_* may be NULL). 0 or -errno. */
int gfx_reg_send(struct gfx_reg_conn *c, const char *package, int64_t version, int32_t pipeline,
                 const char *adopt_path, const char *adopt_id);
/* Reads what is there (the socket is readable): GFX_REG_ASSIGNED (filled in), GFX_REG_ENDED
 * (call or connection over), GFX_REG_IDLE (nothing complete yet). */
int gfx_reg_read(struct gfx_reg_conn *c, struct gfx_assigned *out);
void gfx_reg_close(struct gfx_reg_conn *c);
/* An HTTP/2 frame header (9 bytes) at p; returns 9. */
size_t gfx_h2_frame_header(uint8_t *p, uint32_t length, uint8_t type, uint8_t flags, uint32_t stream);
/* An HPACK literal header field without indexing, new name (lengths under 127, no Huffman) at p;
 * returns its length. */
size_t gfx_hpack_literal(uint8_t *p, const char *name, const char *value);

/* Package-name rule of io.gfxstats.stats.PackageRules: NULL when valid, else the problem. */
const char *gfx_package_problem(const char *name);

/* For tests/unit.c: a copy of what a tracker has counted so far where it counts now (its stripe
 * or local memory; scenes may be NULL), and of the counts of trackers that ended before a buffer.
 * Neither drains the ring. */
struct gfxstats_tracker;
struct gfxstats_session;
void gfx_tracker_counted(struct gfxstats_tracker *t, uint32_t *counters, struct gfx_scene_rec *scenes);
void gfx_session_pending(struct gfxstats_session *s, uint32_t *counters);
/* The FrameTimeline counts a tracker has made so far (tests). */
void gfx_tracker_timeline_counted(struct gfxstats_tracker *t, uint32_t *counters);
/* Tests: the ring drops the tracker has counted (its stripe's client health counter, or local). */
uint32_t gfx_tracker_drops_counted(struct gfxstats_tracker *t);
/* Tests: the tracker's ring, to read its entries as they were written (only while nothing else
 * drains it: GFXSTATS_TEST_DRAIN_PAUSED and no flush). */
struct gfx_ring;
struct gfx_ring *gfx_tracker_ring(struct gfxstats_tracker *t);
/* The ring stripe of writer stripe `index` (1..N); NULL when the buffer has no ring group. */
struct gfx_ring *gfx_ring_stripe(struct gfx_mapping *m, uint32_t index);
/* Faults the pages of ring stripe r in, writable, without writing them (page-aligned outward: the
 * neighbours' pages are left as they are): a ring stripe's first use then takes no page faults. */
void gfx_ring_stripe_populate(struct gfx_ring *r);
/* Tests: installs m as the session's buffer, as an answer of the daemon does (a test without a
 * daemon counts into a real mapped buffer with it). */
void gfx_session_install(struct gfxstats_session *s, struct gfx_mapping *m);
/* Tests: points in a move between rings (move.c, gfx_start_move_locked) and in a ring's drain
 * (drain.c, gfx_drain_ring_locked) where fn(arg) runs under the session's mutex, as a render thread's frames
 * could arrive there; fn must not take the mutex (recording frames is fine). NULL: nothing. */
enum gfx_move_hook {
    GFX_HOOK_BEFORE_MOVE,       /* after the drain that decided the move, before the move starts */
    GFX_HOOK_AFTER_CHECKPOINT,  /* right after the new ring's first checkpoint, before the copy */
    GFX_HOOK_BEFORE_MARK,       /* after the copy, right before the old ring is marked moved */
    GFX_HOOK_AFTER_MARK,        /* right after the mark, before the drain that follows it */
    GFX_HOOK_DRAIN_COUNTED,     /* a drain counted a ring's entries, before it checkpoints */
    GFX_HOOK_DRAIN_CHECKPOINTED, /* and checkpointed, before it clears their kinds and gives them back */
    GFX_HOOKS
};
void gfx_session_test_hook(struct gfxstats_session *s, enum gfx_move_hook at, void (*fn)(void *arg), void *arg);
/* Tests: the scene name the scene file gave when last read ("" for none). */
const char *gfx_session_scene_file_name(struct gfxstats_session *s);
/* Whether times-path entries are streamed now (barrier.c, gfx_barrier_registered): for the tests. */
int gfx_ring_streams(void);
/* Tests: the rest of gfxstats_record for a frame whose limit check passed at e of ring r (which
 * must be the tracker's ring, e its wp, and the check passed then): writes, publishes and looks at
 * the limit again, as the frame path does. For a frame in flight while the consumer acts. */
int gfx_tracker_test_record_at(struct gfxstats_tracker *t, struct gfx_ring *r, int64_t *e, int64_t intended_vsync,
                               int64_t vsync, int64_t frame_completed, int64_t gpu_completed,
                               int64_t frame_interval_ns);
/* What the daemon does with a dead client's ring stripe (docs/buffer-format.md, "Ring group",
 * "After the client died"): writes the last checkpoint's images back over the stripes given
 * (scenes, timeline, health may be NULL: the buffer has no such group), then counts the entries
 * from its rp to wp with its state, exactly as the drain would have, and adds the drops it had
 * not counted. Never writes the ring stripe. 0, or -1 with the reason in why (then nothing is
 * written). For the unit tests' post-mortem check; the daemon has its own (Java) copy. */
struct gfx_dring;
int gfx_ring_finish(const struct gfx_ring *r, uint32_t *counters, struct gfx_scene_rec *scenes, uint32_t *timeline,
                    uint32_t *health, const struct gfx_dring *dring, char *why, size_t why_len);

#endif
