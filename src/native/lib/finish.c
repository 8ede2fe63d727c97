/* What a client killed by SIGKILL left in a ring stripe, counted as the daemon counts it
 * (docs/native.md, "After the app died"): the checkpoint's images and the drain's own code over a
 * copy of the ring. The daemon's is RingFinisher (Java); this one serves the tests and tools. */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gfx_ring_finish(const struct gfx_ring *r, uint32_t *counters, struct gfx_scene_rec *scenes, uint32_t *timeline,
                    uint32_t *health, const struct gfx_dring *dring, char *why, size_t why_len) {
    uint64_t n = __atomic_load_n(&r->committed, __ATOMIC_ACQUIRE);
    uint64_t base = r->base_slot, wp = __atomic_load_n(&r->wp_slot, __ATOMIC_ACQUIRE);
    gfx_ring_entries_visible(); /* a ring of a live thread of this process (the tests' finish) */
    const uint64_t ring_bytes = (uint64_t)GFX_RING_WORDS * 8u;
    if (r->words != GFX_RING_WORDS || wp < base || wp - base > ring_bytes || (wp - base) % 8 != 0) {
        snprintf(why, why_len, "the ring's write position is outside the ring");
        return -1;
    }
    uint32_t wpi = (uint32_t)((wp - base) / 8);
    if (n == 0) {
        if (r->rp_slot == wp) {
            return 0; /* nothing to count, and no counts that a checkpoint would have to restore */
        }
        snprintf(why, why_len, "the ring holds entries but has no checkpoint");
        return -1;
    }
    const uint8_t *c = r->slot[n & 1];
    uint32_t rp = gfx_get_u32(c + 8), flags = gfx_get_u32(c + 12), kind = gfx_get_u32(c + 24), ext = gfx_get_u32(c + 28);
    uint32_t mode = gfx_get_u32(c + 80);
    uint32_t own_slot = gfx_get_u32(c + 104), own_prev = gfx_get_u32(c + 108), def_slot = gfx_get_u32(c + 120),
             def_prev = gfx_get_u32(c + 124), tl_next = gfx_get_u32(c + 136);
    if (gfx_get_u64(c) != n || rp > GFX_RING_WORDS || kind > 1 || ext > 1 || mode > 2 || own_slot >= GFX_SCENE_SLOTS
        || own_prev >= GFX_SCENE_SLOTS || def_slot >= GFX_SCENE_SLOTS || def_prev >= GFX_SCENE_SLOTS
        || tl_next >= GFX_TL_CAPACITY || gfx_get_i64(c + 32) <= 0 || gfx_get_i64(c + 40) <= 0 || gfx_get_i64(c + 72) <= 0) {
        snprintf(why, why_len, "the ring's checkpoint %llu is out of range", (unsigned long long)n);
        return -1;
    }
    /* Every entry first: nothing is written unless all of them can be counted. From rp the
     * entries run to wp, going on at the start once (a wrap mark) when rp is ahead of wp. */
    int same_lap = rp <= wpi;
    for (uint32_t i = rp; i != wpi;) {
        uint32_t k = r->kind[i];
        if (k == GFX_RING_WRAP && !same_lap) {
            same_lap = 1;
            i = 0;
            continue;
        }
        uint32_t w = gfx_ring_words(k);
        if (k >= GFX_RING_WRAP || i + w > GFX_RING_WORDS || (same_lap && i + w > wpi)) {
            snprintf(why, why_len, "the ring holds an entry of unknown kind %u or one past its end at word %u", k, i);
            return -1;
        }
        i += w;
    }
    struct gfxstats_session *s = calloc(1, sizeof *s);
    struct gfxstats_tracker *t = NULL;
    if (!s || posix_memalign((void **)&t, 64, sizeof *t) != 0) {
        free(s);
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    memset(t, 0, sizeof *t);
    t->s = s;
    memcpy(counters, c + 2304, sizeof(uint32_t) * GFX_COUNTERS);
    t->counters = counters;
    if ((flags & 1) && scenes) {
        memcpy(scenes, c + 3072, GFX_SCENE_STRIPE_BYTES);
        t->scenes = scenes;
    }
    if ((flags & 2) && timeline) {
        memcpy(timeline, c + 6400, GFX_TL_STRIPE_BYTES);
        t->tl_counters = timeline;
    }
    if ((flags & 16) && health) {
        memcpy(health, c + 6656, GFX_HEALTH_STRIPE_BYTES);
    }
    gfx_rules_init_config(&t->rules, (int)kind, gfx_get_i64(c + 32), gfx_get_i64(c + 40), gfx_get_i64(c + 48), ext != 0);
    t->rules.swap_deadline = gfx_get_i64(c + 56);
    t->rules.next_frame_start_unstuffed = gfx_get_i64(c + 64);
    t->default_interval = gfx_get_i64(c + 72);
    int32_t levels[4];
    memcpy(levels, c + 84, sizeof levels);
    float hz;
    memcpy(&hz, c + 100, 4);
    gfx_matrix_configure(&t->matrix, (int)mode, levels, hz);
    t->own_scene = (flags & 4) != 0;
    t->scene_slot = (int)own_slot;
    t->scene_prev = (int)own_prev;
    t->scene_since = gfx_get_i64(c + 112);
    s->default_slot = (int)def_slot;
    s->default_prev = (int)def_prev;
    s->default_since = gfx_get_i64(c + 128);
    gfx_tl_init(&t->tl);
    t->tl.next = (int)tl_next;
    t->tl.awaiting = (int)gfx_get_u32(c + 140);
    t->tl.prev_predicted_present = gfx_get_i64(c + 144);
    t->tl.prev_present = gfx_get_i64(c + 152);
    t->tl.join_wait = gfx_get_i64(c + 160);
    t->tl.last_presented = gfx_get_i64(c + 168);
    t->tl.ring = (flags & 8) ? dring : NULL;
    for (int j = 0; j < GFX_TL_CAPACITY; j++) {
        struct gfx_tl_slot *e = &t->tl.slot[j];
        const uint8_t *q = c + 256 + 128 * j;
        e->token = gfx_get_i64(q);
        e->predicted_start = gfx_get_i64(q + 8);
        e->predicted_end = gfx_get_i64(q + 16);
        e->predicted_present = gfx_get_i64(q + 24);
        e->actual_start = gfx_get_i64(q + 32);
        e->actual_end = gfx_get_i64(q + 40);
        e->used = q[48];
        e->predicted = q[49];
        e->awaiting = q[50];
        e->flags_at = gfx_get_u32(q + 52);
        e->presented_at = gfx_get_i64(q + 56);
        e->refresh_at = gfx_get_i64(q + 64);
        e->latch_at = gfx_get_i64(q + 72);
        e->output_at = gfx_get_i64(q + 80);
        e->msc_at = gfx_get_i64(q + 88);
    }
    /* The drain's own code over a copy (it puts the kind bytes it read back to 0, and the ring
     * stripe is never written), positioned as the checkpoint and the write position say. */
    struct gfx_ring *copy = NULL;
    if (posix_memalign((void **)&copy, 64, sizeof *copy) != 0) {
        free(t);
        free(s);
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    memcpy(copy, r, sizeof *copy);
    copy->rp = copy->w + rp;
    copy->wp = copy->w + wpi;
    gfx_drain_ring_locked(t, copy);
    free(copy);
    if ((flags & 16) && health) {
        health[0] += (uint32_t)(__atomic_load_n(&r->dropped, __ATOMIC_RELAXED) - (uint64_t)gfx_get_i64(c + 16));
    }
    free(t);
    free(s);
    return 0;
}
