/* A move between rings: the tracker's producer goes on in another ring (its ring stripe after the
 * daemon's answer, the new buffer's after a handover, its private ring without a buffer), and what
 * the old ring holds is copied, counted or taken along so that no entry is lost or counted twice
 * (docs/native.md, "The window"). Under the session mutex. */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <string.h>

/* A test's hook at that point of a move (gfx_session_test_hook), if one is set. Under mu. */
void gfx_run_hook(struct gfxstats_session *s, enum gfx_move_hook at) {
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
        gfx_ring_entries_visible();
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
                gfx_raise_dropped(to, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
                since_drops = 0;
            }
        }
    }
    gfx_raise_dropped(to, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
}

/* Starts moving the producer to ring `to` (in buffer m, NULL for its own): resets it, publishes it
 * as next, then marks the current ring moved, which sends the producer's next entry through its
 * slow path, where it switches (ring_room). Nothing waits: gfx_drain_locked completes the move once
 * it sees the switch. One move at a time. Under mu.
 *
 * The new ring gets its first checkpoint before the mark, so that its entries always have one; when
 * it is a ring stripe, the old ring's entries since the drain that decided the move are copied into
 * it right after that checkpoint, before the mark (carry_ahead_locked: until the checkpoint is
 * committed nothing in the new ring counts, so the copy does not delay it); then the old ring is
 * drained once more after the mark and the new ring checkpointed again. From the mark on, the old
 * ring's rest is claimed (gfx_ring_claim) by this drain or by the producer, which takes it along
 * into the new ring when it switches: at its next entry, or right after publishing the one that had
 * passed the limit check before the mark (frame_kicked). So once this returns, each entry is either
 * in a checkpoint of the new ring or among its entries, or goes there before its call returns; what
 * a SIGKILL can still take is what this is handling while it runs: the entry being copied, and what
 * the drain claims after the mark, counted and checkpointed below, which with the copy is at most
 * what the producer appended while the last pass of the copy ran (docs/native.md, "The window"). */
void gfx_start_move_locked(struct gfxstats_tracker *t, struct gfx_ring *to, struct gfx_mapping *m) {
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
    gfx_checkpoint_locked(t); /* before the producer can switch: the first entry there has one */
    gfx_run_hook(t->s, GFX_HOOK_AFTER_CHECKPOINT);
    t->carried_from = t->carried_to = m ? old->rp : NULL;
    if (m) {
        carry_ahead_locked(t, old, to, 3);
    }
    gfx_run_hook(t->s, GFX_HOOK_BEFORE_MARK);
    gfx_ring_close_as(old, GFX_RING_MOVED);
    /* A full barrier on the render thread too, so that either the drain below sees the entry that
     * was past the limit check at the mark, or that entry's publication sees the kick and goes
     * along into the next ring (frame_kicked) before its call returns. The render thread's side
     * is then only a load, no fence on the frame path. */
    gfx_render_threads_barrier();
    gfx_run_hook(t->s, GFX_HOOK_AFTER_MARK);
    uint64_t before = t->drops_counted;
    if (t->carried_from != t->carried_to) {
        /* The copy first (the oldest), with whatever the producer put behind it if it switched
         * (the new ring is checkpointed by its drain); then the copied range of the old ring is
         * claimed, unless the producer claimed past it. */
        gfx_drain_ring_locked(t, to);
        int64_t *from = t->carried_from;
        gfx_ring_claim(old, &from, t->carried_to);
    }
    unsigned long taken = gfx_drain_ring_locked(t, old);
    gfx_count_drops_locked(t, __atomic_load_n(&old->dropped, __ATOMIC_RELAXED));
    if (taken > 0 || before != t->drops_counted) {
        gfx_raise_dropped(to, t->drops_counted);
        gfx_checkpoint_locked(t);
    }
}
