/* A tracker's ring of raw frames: one producer (the thread that records, which only writes an
 * entry and publishes it) and one consumer at a time (whoever holds the session mutex: the session
 * thread every drain period, or a call that needs the frames counted now), which runs the rules.
 *
 * Layout. The ring is GFX_RING_WORDS 8-byte words. An entry starts at any word and is contiguous:
 * a times-path frame is its five arguments as they are (5 words, 40 bytes, so 8 frames share 5
 * cache lines and every value stays exact without any encoding), a FrameInfo frame its 23 fields,
 * a FrameTimeline call 7 words (its kind, then its arguments). What kind an entry is lives apart,
 * in one byte per word (kind[]): 0 for a times-path frame, which therefore writes only its five
 * words; the other producers write their entry's kind byte, and the consumer puts 0 back before
 * it gives the words back (after its checkpoint, so that what a checkpoint covers keeps its
 * kinds), so every byte of a free word is 0. On x86-64 a times-path frame's words are
 * streamed (GFX_RING_STREAM below): a consumer then reads them only after a barrier that follows
 * its read of wp (barrier.c, gfx_ring_entries_visible).
 *
 * Positions. wp (the producer's next word, published with release after each entry) and rp (the
 * consumer's next word, published with release after each drain) are pointers into the ring. Once
 * a ring is marked GFX_RING_MOVED, rp is claimed with a CAS instead, by the consumer or by the
 * producer taking the ring's rest along (gfx_ring_claim). The
 * ring is empty when they are equal, so the producer never fills it to the last word. An entry that
 * does not fit before the end goes to the start, and the word where it would have begun gets the
 * kind GFX_RING_WRAP ("go on at the start"); kind[] has one byte more for an entry ending exactly
 * at the end.
 *
 * The frame path compares wp with one limit, wlim (the last address a times-path frame may start
 * at), which only the producer computes, in its slow path (gfx_ring_room), from rp. The consumer
 * may set it to 0 (gfx_ring_kick) to send the producer through the slow path at its next entry,
 * which is how a closed session reaches the frame path. The frame path also looks at it once more
 * right after each publication, so that an entry published into a ring just marked moved goes
 * along into the next ring before its call returns (record.c, frame_kicked). */
#ifndef GFXSTATS_RING_H
#define GFXSTATS_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gfxstats.h"

/* 8192 words, 64 KiB per tracker: 1638 times-path frames, 356 FrameInfo frames. At the longest
 * drain period (50 ms) that holds the frames of a renderer at 32,000 presents a second (7,100 with
 * FrameInfo); shorter drain periods follow a busier ring. A build may choose another size (the
 * unit tests' wrap checks do not depend on it). */
#ifndef GFX_RING_WORDS
#define GFX_RING_WORDS 8192u
#endif
/* Where times-path entries may be streamed: written with non-temporal stores (movnti), which
 * leave no copy in the recording core's cache, so the next lap's stores do not have to take the
 * lines back from the core that drained them (record.c, put_times, and barrier.c). Not
 * under AddressSanitizer or ThreadSanitizer, which see plain stores only, nor on other targets. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define GFX_RING_STREAM 1
#else
#define GFX_RING_STREAM 0
#endif
#define GFX_RING_TIMES_WORDS 5u                 /* intended, vsync, completed, gpu completed, interval */
#define GFX_RING_FI_WORDS ((unsigned)GFXSTATS_FI_COUNT)
#define GFX_RING_TL_WORDS 7u                    /* kind, then up to six arguments */
#define GFX_RING_FRAMES (GFX_RING_WORDS / GFX_RING_TIMES_WORDS)  /* times-path frames a ring holds */
#define GFX_RING_FI_FRAMES (GFX_RING_WORDS / GFX_RING_FI_WORDS)  /* FrameInfo frames a ring holds */

/* Kinds (kind[]): 0 is a times-path frame. */
#define GFX_RING_FRAMEINFO 1
/* FrameTimeline calls (GFX_RING_TL_WORDS each: kind, then the call's arguments; record.c). Any
 * kind from 2 to GFX_RING_WRAP - 1 is one of these. */
#define GFX_RING_TL_COMMIT 2
#define GFX_RING_TL_UNPREDICTED 3
#define GFX_RING_TL_PRESENTED 4
#define GFX_RING_TL_DISCARDED 5
#define GFX_RING_TL_POLL 6 /* compositor mode; GFX_RING_TL_PRESENTED carries MSC and output */
#define GFX_RING_WRAP 255 /* no entry: the next one is at the start */

_Static_assert(GFX_RING_WORDS >= 64 && (GFX_RING_WORDS & (GFX_RING_WORDS - 1)) == 0,
               "the ring is a power of two of at least 64 words");

/* The ring group's ring stripe (docs/buffer-format.md, "Ring group"): the same struct is a
 * tracker's private ring in process memory and, once the session's buffer has the group, the ring
 * stripe of the tracker's claimed stripe in the daemon's buffer, where the daemon can count what it
 * holds after the process died. So its layout is the spec's on i386 and x86-64 alike: every
 * pointer sits in an 8-byte slot (a 32-bit client's in the low four bytes, the high four stay 0
 * because the ring is zeroed before first use), every u64 is 8-aligned. */
#define GFX_RING_GROUP_ID 4u
#define GFX_RING_GROUP_VERSION 1u
#define GFX_RING_STRIPE_BYTES 87424u
#define GFX_RING_CKPT_BYTES 6720u
#define GFX_RING_OFF_COMMITTED 73920u
#define GFX_RING_OFF_SLOTS 73984u
#define GFX_RING_MOVED 2 /* closed: the consumer published another ring (gfxstats_tracker.next) */

struct gfx_ring {
    /* The producer's line: wp and dropped are written by the producer only; wlim by the producer,
     * and set to 0 by the consumer (kick). */
    union {
        int64_t *wp;      /* the next word to write; published with release */
        uint64_t wp_slot;
    };
    union {
        uintptr_t wlim;   /* the last address a times-path frame may start at; 0: take the slow path */
        uint64_t wlim_slot;
    };
    _Alignas(8) uint64_t dropped; /* frames not recorded because the ring was full */
    uint8_t producer_pad[40];     /* the consumer's line is another cache line */
    /* The consumer's, under the session mutex; rp and closed are read by the producer. */
    union {
        int64_t *rp;      /* the next word to read; published with release */
        uint64_t rp_slot;
    };
    int closed;           /* 1 closed, GFX_RING_MOVED: go on in the tracker's next ring */
    _Alignas(8) uint64_t dropped_logged;
    union {
        int64_t *base;    /* the client address of w[0], for a reader in another process */
        uint64_t base_slot;
    };
    uint32_t words;
    int64_t w[GFX_RING_WORDS] __attribute__((aligned(64)));
    uint8_t kind[GFX_RING_WORDS + 1];
    /* The consumer's checkpoints (drain.c): the slot `committed` names is complete. */
    _Alignas(64) uint64_t committed;
    uint8_t slot[2][GFX_RING_CKPT_BYTES] __attribute__((aligned(64)));
};

#if GFX_RING_WORDS == 8192u
_Static_assert(offsetof(struct gfx_ring, wp) == 0 && offsetof(struct gfx_ring, wlim) == 8
                   && offsetof(struct gfx_ring, dropped) == 16 && offsetof(struct gfx_ring, rp) == 64
                   && offsetof(struct gfx_ring, closed) == 72 && offsetof(struct gfx_ring, dropped_logged) == 80
                   && offsetof(struct gfx_ring, base) == 88 && offsetof(struct gfx_ring, words) == 96
                   && offsetof(struct gfx_ring, w) == 128 && offsetof(struct gfx_ring, kind) == 65664,
               "ring stripe lines (docs/buffer-format.md)");
_Static_assert(offsetof(struct gfx_ring, committed) == GFX_RING_OFF_COMMITTED
                   && offsetof(struct gfx_ring, slot) == GFX_RING_OFF_SLOTS
                   && sizeof(struct gfx_ring) == GFX_RING_STRIPE_BYTES,
               "ring stripe checkpoints (docs/buffer-format.md)");
#endif

/* An empty, open ring: the first entry takes the slow path, which sets the limit. Only while no
 * producer uses it: committed 0 first, so that a reader never pairs a new position with an old
 * checkpoint. */
static inline void gfx_ring_reset(struct gfx_ring *r) {
    __atomic_store_n(&r->committed, 0, __ATOMIC_RELEASE);
    r->wp_slot = 0;
    r->rp_slot = 0;
    r->base_slot = 0;
    r->wlim_slot = 0;
    r->wp = r->w;
    r->rp = r->w;
    r->base = r->w;
    r->words = GFX_RING_WORDS;
    r->closed = 0;
    r->dropped = 0;
    r->dropped_logged = 0;
    memset(r->kind, 0, sizeof r->kind);
}

/* A ring in freshly zeroed memory. */
static inline void gfx_ring_init(struct gfx_ring *r) {
    r->wp = r->w;
    r->rp = r->w;
    r->base = r->w;
    r->words = GFX_RING_WORDS;
    r->wlim = 0;
}

/* Whether an entry of n words (n >= GFX_RING_TIMES_WORDS) at p passes the limit. On x86 the
 * comparison reads wlim in the cmp itself: the same single aligned load a relaxed atomic load is,
 * which GCC does not fold into the cmp (an instruction more on every frame). */
static inline int gfx_ring_over(struct gfx_ring *r, const int64_t *p, unsigned n) {
    uintptr_t at = (uintptr_t)p + (n - GFX_RING_TIMES_WORDS) * sizeof(int64_t);
#if defined(__x86_64__) || defined(__i386__)
    /* asm goto rather than a flag output: with that GCC kept the flag in a register as the
     * frame path's return value (two instructions more). */
    __asm__ goto("cmp %[lim], %[at]\n\tja %l[over]" : : [at] "r"(at), [lim] "m"(r->wlim) : "cc" : over);
    return 0;
over:
    return 1;
#else
    return at > __atomic_load_n(&r->wlim, __ATOMIC_RELAXED);
#endif
}

/* Whether the consumer kicked ring r (its limit is 0), looked at right after a publication, so that
 * an entry published into a ring just marked moved goes along at once (record.c, frame_kicked).
 * The signal fence keeps the compiler from moving the load before the publication; the processor
 * may still do so (x86 lets a load pass an earlier store), which the consumer's barrier after its
 * kick covers. On x86 compared in memory, as in gfx_ring_over (a load into a register and a test
 * cost an instruction more). Producer only. */
static inline int gfx_ring_kicked(struct gfx_ring *r) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
#if defined(__x86_64__) || defined(__i386__)
    __asm__ goto("cmp%z[lim] $0, %[lim]\n\tje %l[kicked]" : : [lim] "m"(r->wlim) : "cc" : kicked);
    return 0;
kicked:
    return 1;
#else
    return __atomic_load_n(&r->wlim, __ATOMIC_RELAXED) == 0;
#endif
}

/* gfx_ring_room's answer for a full ring: NULL, and whether the ring is closed, so that a producer
 * whose full ring was moved switches (and takes the ring's rest along) instead of counting drops
 * in a ring nobody checkpoints. */
static inline int64_t *gfx_ring_full(struct gfx_ring *r, int *closed) {
    *closed = __atomic_load_n(&r->closed, __ATOMIC_ACQUIRE);
    return NULL;
}

/* The producer's slow path, for an entry of n words: goes on at the start of the ring when the
 * entry does not fit before the end, and sets the limit for the entries after it. Returns where to
 * write the entry (then publish with gfx_ring_publish), or NULL when the ring is full (*closed 0)
 * or closed (*closed 1, or GFX_RING_MOVED; also when it is full). Producer only. */
static inline int64_t *gfx_ring_room(struct gfx_ring *r, unsigned n, int *closed) {
    int64_t *w0 = r->w, *end = r->w + GFX_RING_WORDS;
    int64_t *rp = __atomic_load_n(&r->rp, __ATOMIC_ACQUIRE); /* orders our writes after its reads */
    int64_t *p = r->wp;
    *closed = 0;
    if (p >= rp && (size_t)(end - p) < n) { /* not before the end: from the start, if it fits there */
        if ((size_t)(rp - w0) <= n) {
            return gfx_ring_full(r, closed);
        }
        r->kind[p - w0] = GFX_RING_WRAP; /* published with the entry */
        p = w0;
    }
    /* Up to one word before rp when rp is ahead (equal would read as empty), else to the end. */
    int64_t *stop = p < rp ? rp - 1 : end;
    if ((size_t)(stop - p) < n) {
        return gfx_ring_full(r, closed);
    }
    /* Then closed: either the consumer's kick comes after this store and stays, or its closed
     * flag, set before its kick, is seen here (both sides sequentially consistent). */
    __atomic_store_n(&r->wlim, (uintptr_t)stop - GFX_RING_TIMES_WORDS * sizeof(int64_t), __ATOMIC_SEQ_CST);
    int c = __atomic_load_n(&r->closed, __ATOMIC_SEQ_CST);
    if (c) {
        __atomic_store_n(&r->wlim, 0, __ATOMIC_RELAXED);
        *closed = c;
        return NULL;
    }
    return p;
}

/* Publishes an entry of n words written at p (from r->wp or gfx_ring_room). Producer only. */
static inline void gfx_ring_publish(struct gfx_ring *r, int64_t *p, unsigned n) {
    __atomic_store_n(&r->wp, p + n, __ATOMIC_RELEASE);
}

/* The words of an entry of kind k. */
static inline unsigned gfx_ring_words(unsigned k) {
    return k == 0 ? GFX_RING_TIMES_WORDS : k == GFX_RING_FRAMEINFO ? GFX_RING_FI_WORDS : GFX_RING_TL_WORDS;
}

/* The entry at *q, which must not be the published wp: returns its first word and its kind (*k),
 * and moves *q past it, following a GFX_RING_WRAP (an entry always comes after one). Reads only:
 * the kind bytes stay until gfx_ring_clear, after the drain's checkpoint, so that a process
 * killed in between leaves the entries that checkpoint covers as they were. Consumer only. */
static inline int64_t *gfx_ring_peek(const struct gfx_ring *r, int64_t **q, unsigned *k) {
    int64_t *e = *q;
    /* Relaxed atomics (plain moves on x86): a producer forwarding a moved ring may read these bytes
     * of a range this consumer claimed first; it then discards what it read (gfx_ring_forward). */
    unsigned kind = __atomic_load_n(&r->kind[e - r->w], __ATOMIC_RELAXED);
    if (kind == GFX_RING_WRAP) {
        e = (int64_t *)r->w;
        kind = __atomic_load_n(&r->kind[0], __ATOMIC_RELAXED);
    }
    *k = kind;
    *q = e + gfx_ring_words(kind);
    return e;
}

/* Puts 0 back in the kind bytes of the entries from `from` to `to` (as gfx_ring_peek walked
 * them), so that every free word's kind is 0 again (the times path does not write it) before the
 * words go back to the producer (gfx_ring_consumed). Consumer only. */
static inline void gfx_ring_clear(struct gfx_ring *r, int64_t *from, const int64_t *to) {
    for (unsigned steps = 0; from != to && steps <= GFX_RING_WORDS; steps++) {
        int64_t *at = from;
        unsigned kind;
        int64_t *e = gfx_ring_peek(r, &from, &kind);
        if (e != at) { /* the wrap mark it followed */
            __atomic_store_n(&r->kind[at - r->w], 0, __ATOMIC_RELAXED);
        }
        if (kind != 0) {
            __atomic_store_n(&r->kind[e - r->w], 0, __ATOMIC_RELAXED);
        }
    }
}

/* Gives the words before q back to the producer. Consumer only. */
static inline void gfx_ring_consumed(struct gfx_ring *r, int64_t *q) {
    __atomic_store_n(&r->rp, q, __ATOMIC_RELEASE);
}

/* A moved ring's entries from *from to `to`, claimed for whoever counts them: the consumer (which
 * then counts them) or the producer (which then forwards them into its next ring). Both may try at
 * once; the one whose *from is still rp wins, the other gets false and the current rp in *from.
 * Only for a ring marked GFX_RING_MOVED: the producer writes no entry there any more (but the one
 * that had passed the limit check before the mark), so a claimed range stays as it is. */
static inline int gfx_ring_claim(struct gfx_ring *r, int64_t **from, int64_t *to) {
    return __atomic_compare_exchange_n(&r->rp, from, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Copies the entries of ring r from `from` to `end` into ring `to` from its word `at` on, without a
 * wrap and not up to word `limit` (at most GFX_RING_WORDS); returns how many words they take there
 * (kind bytes set for the kinds that have one) and, when stop is not NULL, where in r it stopped
 * (`end` when it copied them all). Reads r's kind bytes with relaxed atomics: when the consumer
 * claims the range meanwhile, it may zero some, and the producer's claim then fails and it copies
 * again from the new rp. The entries a ring holds take fewer words than the ring has, and what `to`
 * holds before `at` came out of r's same lap (gfx_start_move_locked in move.c), so they always fit.
 * The producer's, or the consumer's before the producer may switch. */
static inline uint32_t gfx_ring_forward(const struct gfx_ring *r, const int64_t *from, const int64_t *end,
                                        struct gfx_ring *to, uint32_t at, uint32_t limit, const int64_t **stop) {
    const int64_t *q = from;
    uint32_t n = 0;
    for (unsigned steps = 0; q != end && steps <= GFX_RING_WORDS; steps++) {
        unsigned kind = __atomic_load_n(&r->kind[q - r->w], __ATOMIC_RELAXED);
        if (kind == GFX_RING_WRAP) {
            q = r->w;
            continue;
        }
        unsigned w = gfx_ring_words(kind);
        if (q + w > r->w + GFX_RING_WORDS || at + n + w >= limit) {
            break; /* the limit, or a torn read of a claimed range: the claim fails, the caller copies again */
        }
        memcpy(to->w + at + n, q, w * sizeof(int64_t));
        to->kind[at + n] = (uint8_t)kind;
        n += w;
        q += w;
    }
    if (stop) {
        *stop = q;
    }
    return n;
}

/* Sends the producer through its slow path at its next entry. Consumer only. */
static inline void gfx_ring_kick(struct gfx_ring *r) {
    __atomic_store_n(&r->wlim, 0, __ATOMIC_SEQ_CST);
}

/* No entry is accepted any more (the producer gets NULL and *closed = how). Consumer only. */
static inline void gfx_ring_close_as(struct gfx_ring *r, int how) {
    __atomic_store_n(&r->closed, how, __ATOMIC_SEQ_CST);
    gfx_ring_kick(r);
}

static inline void gfx_ring_close(struct gfx_ring *r) {
    /* A moved ring stays moved: its rest is still claimed (gfx_ring_claim), not drained as an open
     * ring's, while a producer may be taking it along; that producer then finds its next ring
     * closed. */
    if (__atomic_load_n(&r->closed, __ATOMIC_RELAXED) != GFX_RING_MOVED) {
        __atomic_store_n(&r->closed, 1, __ATOMIC_SEQ_CST);
    }
    gfx_ring_kick(r);
}

#endif
