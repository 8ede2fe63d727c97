/* For tests/unit.c and tests/bench.c: the bytes of a ready buffer as a gfxstatsd lays it out
 * (docs/buffer-format.md, "Layout version 2"). */
#ifndef GFXSTATS_TEST_BUFFER_H
#define GFXSTATS_TEST_BUFFER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/internal.h"
#include "../lib/ring.h"

static inline void test_buffer_put32(uint8_t *b, uint64_t off, uint32_t v) {
    memcpy(b + off, &v, 4);
}

/* A ready buffer of n stripes owned by pid, with `groups` groups (ids, versions and lengths given;
 * each starts on a 64-byte boundary after the group directory): a calloc'd image (NULL when out of
 * memory) of *total bytes, the groups' offsets in off[]. */
static inline uint8_t *test_buffer_groups(uint32_t n, uint32_t pid, uint32_t groups, const uint32_t *ids,
                                          const uint32_t *versions, const uint32_t *len, uint32_t *off,
                                          uint64_t *total) {
    const uint32_t header = (GFX_OFF_CLAIMS_V2 + 4 * n + 63) & ~63u;
    const uint32_t dir = header + (n + 1) * GFX_STRIPE_LENGTH;
    uint64_t at = (dir + 16u * groups + 63) & ~63u;
    for (uint32_t g = 0; g < groups; g++) {
        off[g] = (uint32_t)at;
        at = (at + len[g] + 63) & ~63u;
    }
    uint8_t *b = calloc(1, at);
    if (!b) {
        return NULL;
    }
    test_buffer_put32(b, GFX_OFF_MAGIC, GFX_MAGIC);
    test_buffer_put32(b, GFX_OFF_VERSION, GFX_LAYOUT_VERSION);
    test_buffer_put32(b, GFX_OFF_STATE, GFX_STATE_READY);
    test_buffer_put32(b, GFX_OFF_HEADER_LENGTH, header);
    memcpy(b + GFX_OFF_TOTAL_LENGTH, &at, 8);
    test_buffer_put32(b, GFX_OFF_STRIPES, n);
    test_buffer_put32(b, GFX_OFF_COUNTERS_PER_STRIPE, GFX_COUNTERS);
    test_buffer_put32(b, GFX_OFF_STRIPE_LENGTH, GFX_STRIPE_LENGTH);
    test_buffer_put32(b, GFX_OFF_PID, pid);
    test_buffer_put32(b, GFX_OFF_GROUP_DIRECTORY, dir);
    test_buffer_put32(b, GFX_OFF_GROUP_COUNT, groups);
    for (uint32_t g = 0; g < groups; g++) {
        test_buffer_put32(b, dir + 16 * g, ids[g]);
        test_buffer_put32(b, dir + 16 * g + 4, versions[g]);
        test_buffer_put32(b, dir + 16 * g + 8, off[g]);
        test_buffer_put32(b, dir + 16 * g + 12, len[g]);
    }
    *total = at;
    return b;
}

/* n stripes, owned by pid, with the current scene, FrameTimeline and client health groups and a
 * ring group of ring_len bytes unless 0: a calloc'd image (NULL when out of memory) of *total bytes;
 * the ring group's offset in *rings_off (0 without one). */
static inline uint8_t *test_buffer_image(uint32_t n, uint32_t pid, uint64_t ring_len, uint64_t *total,
                                         uint32_t *rings_off) {
    static const uint32_t ids[4] = {GFX_SCENE_GROUP_ID, GFX_TL_GROUP_ID, GFX_HEALTH_GROUP_ID, GFX_RING_GROUP_ID};
    static const uint32_t versions[4] = {GFX_SCENE_GROUP_VERSION, GFX_TL_GROUP_VERSION, GFX_HEALTH_GROUP_VERSION,
                                         GFX_RING_GROUP_VERSION};
    const uint32_t len[4] = {(uint32_t)GFX_SCENE_AREA_BYTES(n), (uint32_t)GFX_TL_AREA_BYTES(n),
                             (n + 1) * GFX_HEALTH_STRIPE_BYTES, (uint32_t)ring_len};
    uint32_t off[4];
    uint8_t *b = test_buffer_groups(n, pid, ring_len ? 4 : 3, ids, versions, len, off, total);
    if (rings_off) {
        *rings_off = b && ring_len ? off[3] : 0;
    }
    return b;
}

#endif
