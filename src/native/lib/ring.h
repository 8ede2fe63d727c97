/* A tracker's ring of raw frames: one producer (the thread that records, which only writes an
 * entry and publishes it) and one consumer at a time (whoever holds the session mutex: the session
 * thread every drain period, or a call that needs the frames counted now), which runs the rules.
 *
 * Positions count bytes since the tracker began, in 64 bits (at 64 bytes a frame they do not
 * wrap in the lifetime of any program), so they compare as they are. The producer may start a one-unit frame at head while head <= limit:
 * the consumer publishes limit = tail + ring size - one unit after it has read up to tail
 * (release; the producer's acquire of limit orders its overwrite after those reads), and one unit
 * before tail once the session is closed, so that one comparison on the frame path covers both
 * "full" and "closed". */
#ifndef GFXSTATS_RING_H
#define GFXSTATS_RING_H

#include <stdint.h>

#include "gfxstats.h"

/* The ring is 1024 units of 64 bytes (64 KiB per tracker): a times-path frame takes one unit (one
 * cache line), a FrameInfo frame three. At the longest drain period (50 ms) that holds the frames
 * of a renderer at 20,000 presents a second (6,800 with FrameInfo); shorter drain periods follow
 * a busier ring. Positions count bytes, so a unit's address is the position masked. */
#define GFX_RING_UNIT 64u
#ifndef GFX_RING_UNITS
#define GFX_RING_UNITS 1024u /* a build may choose another power of two (tests/bench.c: 256) */
#endif
#define GFX_RING_BYTES (GFX_RING_UNIT * GFX_RING_UNITS)
#define GFX_RING_FRAMEINFO 1
/* FrameTimeline calls (one unit each: kind, then the call's arguments; session.c). */
#define GFX_RING_TL_COMMIT 2
#define GFX_RING_TL_UNPREDICTED 3
#define GFX_RING_TL_PRESENTED 4
#define GFX_RING_TL_DISCARDED 5
#define GFX_RING_TL_POLL 6 /* compositor mode; GFX_RING_TL_PRESENTED carries MSC and output */
#define GFX_RING_FI_UNITS 3u

#define GFX_RING_WORDS (GFX_RING_UNIT / 8)

/* A frame: word 0 is its kind, 0 for a times-path frame (the producer does not write it: the
 * consumer puts 0 back after reading a FrameInfo frame) and GFX_RING_FRAMEINFO for a FrameInfo
 * frame. Then the times path's intended, vsync, completed, gpu completed and interval, or the 23
 * FrameInfo fields, which run on through the next two units (past the end into the spare units,
 * so that a frame is always contiguous). */
_Static_assert(1 + GFXSTATS_FI_COUNT <= GFX_RING_FI_UNITS * GFX_RING_WORDS, "a FrameInfo frame fits in three units");
_Static_assert((GFX_RING_UNITS & (GFX_RING_UNITS - 1)) == 0, "the ring size is a power of two");

struct gfx_ring {
    /* The producer's line: head is written by the producer, limit and nothing else by the
     * consumer once per drain. */
    int64_t head;          /* bytes published */
    int64_t limit;         /* the last position a one-unit frame may start at */
    uint64_t dropped;      /* frames not recorded because the ring was full; written by the producer */
    /* The consumer's, under the session mutex. */
    int64_t tail __attribute__((aligned(64)));
    uint64_t dropped_logged;
    int64_t w[(GFX_RING_UNITS + GFX_RING_FI_UNITS - 1) * GFX_RING_WORDS] __attribute__((aligned(64)));
};

/* The first unit of a frame of `units` units to write next, or NULL when the ring has no room
 * for it or is closed; *next is the position to publish after it. Producer only. */
static inline int64_t *gfx_ring_slot(struct gfx_ring *r, int64_t units, int64_t *next) {
    int64_t h = r->head; /* plain: only this thread writes it */
    if (__builtin_expect(h + (units - 1) * (int64_t)GFX_RING_UNIT > __atomic_load_n(&r->limit, __ATOMIC_ACQUIRE), 0)) {
        return NULL;
    }
    *next = h + units * (int64_t)GFX_RING_UNIT;
    return &r->w[(h & (GFX_RING_BYTES - 1)) / 8];
}

/* Publishes the frame gfx_ring_slot returned (next: what it gave). Producer only. */
static inline void gfx_ring_publish(struct gfx_ring *r, int64_t next) {
    __atomic_store_n(&r->head, next, __ATOMIC_RELEASE);
}

/* Lets the producer write up to a ring's worth past what the consumer has read (open) or nothing
 * more (closed). Consumer only. */
static inline void gfx_ring_release(struct gfx_ring *r, int closed) {
    __atomic_store_n(&r->limit, r->tail + (closed ? 0 : (int64_t)GFX_RING_BYTES) - (int64_t)GFX_RING_UNIT,
                     __ATOMIC_RELEASE);
}

#endif
