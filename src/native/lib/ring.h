/* A tracker's ring of raw frames: one producer (the thread that records, which only writes an
 * entry and publishes it) and one consumer at a time (whoever holds the session mutex: the session
 * thread every drain period, or a call that needs the frames counted now), which runs the rules.
 *
 * Positions count entries since the tracker began and wrap as unsigned long; they are compared by
 * their signed difference. The producer may write while head - limit < 0: the consumer publishes
 * limit = tail + GFX_RING_FRAMES after it has read entries up to tail (release; the producer's
 * acquire of limit orders its overwrite after those reads), and limit = tail once the session is
 * closed, so that one comparison on the frame path covers both "full" and "closed". */
#ifndef GFXSTATS_RING_H
#define GFXSTATS_RING_H

#include <stdint.h>

#include "gfxstats.h"

/* 512 entries of 256 bytes (128 KiB) per tracker: at the longest drain period (50 ms) that holds
 * frames of a renderer at 10,000 presents a second; shorter periods follow a busier ring. */
#define GFX_RING_FRAMES 512u
#define GFX_RING_TIMES 1
#define GFX_RING_FRAMEINFO 2

/* A power of two in bytes, so an entry's address is a mask and a shift from its position. */
struct gfx_ring_entry {
    int64_t kind;
    int64_t f[31]; /* times path: intended, vsync, completed, gpu completed, interval; else FrameInfo */
};

_Static_assert(GFXSTATS_FI_COUNT <= 31, "a FrameInfo frame fits in one ring entry");
_Static_assert((GFX_RING_FRAMES & (GFX_RING_FRAMES - 1)) == 0, "the ring size is a power of two");

struct gfx_ring {
    /* The producer's line: head is written by the producer, limit and nothing else by the
     * consumer once per drain. */
    unsigned long head;    /* entries published */
    unsigned long limit;   /* head may not reach it */
    unsigned long dropped; /* frames not recorded because the ring was full; written by the producer */
    /* The consumer's, under the session mutex. */
    unsigned long tail __attribute__((aligned(64)));
    unsigned long dropped_logged;
    struct gfx_ring_entry e[GFX_RING_FRAMES] __attribute__((aligned(64)));
};

/* The entry to write next, or NULL when the ring is full or closed. Producer only. */
static inline struct gfx_ring_entry *gfx_ring_slot(struct gfx_ring *r) {
    unsigned long h = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    if (__builtin_expect((long)(h - __atomic_load_n(&r->limit, __ATOMIC_ACQUIRE)) >= 0, 0)) {
        return NULL;
    }
    return &r->e[h & (GFX_RING_FRAMES - 1)];
}

/* Publishes the entry gfx_ring_slot returned. Producer only. */
static inline void gfx_ring_publish(struct gfx_ring *r) {
    __atomic_store_n(&r->head, __atomic_load_n(&r->head, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

/* Lets the producer write up to a ring's worth past what the consumer has read (open) or nothing
 * more (closed). Consumer only. */
static inline void gfx_ring_release(struct gfx_ring *r, int closed) {
    __atomic_store_n(&r->limit, closed ? r->tail : r->tail + GFX_RING_FRAMES, __ATOMIC_RELEASE);
}

#endif
