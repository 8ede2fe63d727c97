/* The client side of docs/buffer-format.md: map a daemon-assigned buffer, claim stripes, count. */
#include "internal.h"
#include "ring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t u32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v; /* little-endian hosts only (x86-64, aarch64): checked at build time below */
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "gfxstats buffers are little-endian");

static uint32_t align64(uint32_t x) {
    return (x + 63u) & ~63u;
}

/* The group directory's entry count (*count) and its offset, when the directory is aligned, after
 * the stripes and inside the file; 0 otherwise (then no group is counted). */
static uint32_t group_directory(const uint8_t *b, uint64_t size, uint32_t n, uint32_t header_length,
                                uint32_t *count) {
    uint32_t dir = u32(b + GFX_OFF_GROUP_DIRECTORY);
    *count = u32(b + GFX_OFF_GROUP_COUNT);
    uint64_t stripes_end = (uint64_t)header_length + (uint64_t)(n + 1) * GFX_STRIPE_LENGTH;
    if (*count > 64 || dir % 64 != 0 || dir < stripes_end || (uint64_t)dir + 16u * *count > size) {
        return 0;
    }
    return dir;
}

/* A group's area, when the directory lists it (id, version) with its layout's exact length,
 * aligned, after the directory and inside the file; NULL otherwise (the group is not counted). */
static uint8_t *find_group(uint8_t *b, uint64_t size, uint32_t n, uint32_t header_length, uint32_t id,
                           uint32_t version, uint64_t length) {
    uint32_t count;
    uint32_t dir = group_directory(b, size, n, header_length, &count);
    for (uint32_t i = 0; dir != 0 && i < count; i++) {
        const uint8_t *e = b + dir + 16u * i;
        uint32_t off = u32(e + 8), len = u32(e + 12);
        if (u32(e) == id && u32(e + 4) == version) {
            if (off % 64 != 0 || off < (uint64_t)dir + 16u * count || len != length
                || (uint64_t)off + len > size) {
                return NULL;
            }
            return b + off;
        }
    }
    return NULL;
}

/* The version the directory lists for group id (the first entry with that id), 0 when none. */
static uint32_t listed_version(const uint8_t *b, uint64_t size, uint32_t n, uint32_t header_length, uint32_t id) {
    uint32_t count;
    uint32_t dir = group_directory(b, size, n, header_length, &count);
    for (uint32_t i = 0; dir != 0 && i < count; i++) {
        if (u32(b + dir + 16u * i) == id) {
            return u32(b + dir + 16u * i + 4);
        }
    }
    return 0;
}

int gfx_scene_version_note(struct gfx_mapping *m, const char *package, int scenes_on, char *line, size_t len) {
    if (!scenes_on || m->scenes || m->scene_version == 0 || m->scene_version == GFX_SCENE_GROUP_VERSION
        || m->scene_note_given) {
        return 0;
    }
    m->scene_note_given = 1;
    snprintf(line, len,
             "scenes of %s are not counted in %s: its scene group is version %u (a gfxstatsd of an earlier "
             "release made it), this library writes version %u; update gfxstatsd",
             package, m->path, m->scene_version, GFX_SCENE_GROUP_VERSION);
    return 1;
}

struct gfx_mapping *gfx_map_buffer(const char *path, const char *reg_id, uint64_t size, char *why,
                                   size_t why_len) {
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_len, "cannot open buffer %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_len, "buffer %s is not a regular file", path);
        close(fd);
        return NULL;
    }
    if (st.st_uid != geteuid()) {
        snprintf(why, why_len, "buffer %s is not owned by this user", path);
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size != size || size < 1024 || size > (64u << 20)) {
        snprintf(why, why_len, "buffer %s is %lld bytes, the daemon said %llu", path, (long long)st.st_size,
                 (unsigned long long)size);
        close(fd);
        return NULL;
    }
    void *base = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) {
        snprintf(why, why_len, "cannot map buffer %s: %s", path, strerror(errno));
        return NULL;
    }
    uint8_t *b = base;
    uint32_t state = __atomic_load_n((uint32_t *)(b + GFX_OFF_STATE), __ATOMIC_ACQUIRE);
    uint32_t n = u32(b + GFX_OFF_STRIPES);
    uint64_t total;
    memcpy(&total, b + GFX_OFF_TOTAL_LENGTH, 8);
    const char *bad = NULL;
    if (u32(b + GFX_OFF_MAGIC) != GFX_MAGIC) {
        bad = "wrong magic";
    } else if (u32(b + GFX_OFF_VERSION) != GFX_LAYOUT_VERSION) {
        bad = "unsupported layout version";
    } else if (state != GFX_STATE_READY) {
        bad = "not ready";
    } else if (n < 1 || n > 255 || u32(b + GFX_OFF_COUNTERS_PER_STRIPE) != GFX_COUNTERS
               || u32(b + GFX_OFF_STRIPE_LENGTH) != GFX_STRIPE_LENGTH
               || u32(b + GFX_OFF_HEADER_LENGTH) != align64(GFX_OFF_CLAIMS_V2 + 4 * n)
               || total != size
               || (uint64_t)u32(b + GFX_OFF_HEADER_LENGTH) + (uint64_t)(n + 1) * GFX_STRIPE_LENGTH > size) {
        bad = "corrupt header";
    } else if ((uint32_t)getpid() != u32(b + GFX_OFF_PID)) {
        bad = "registered for another process";
    }
    if (bad) {
        snprintf(why, why_len, "buffer %s: %s", path, bad);
        munmap(base, (size_t)size);
        return NULL;
    }
    struct gfx_mapping *m = calloc(1, sizeof *m);
    if (!m) {
        munmap(base, (size_t)size);
        snprintf(why, why_len, "out of memory");
        return NULL;
    }
    m->base = b;
    m->length = (size_t)size;
    m->stripes = n;
    m->header_length = u32(b + GFX_OFF_HEADER_LENGTH);
    m->scenes = find_group(b, (uint64_t)size, n, m->header_length, GFX_SCENE_GROUP_ID, GFX_SCENE_GROUP_VERSION,
                           GFX_SCENE_AREA_BYTES(n));
    m->scene_version = listed_version(b, (uint64_t)size, n, m->header_length, GFX_SCENE_GROUP_ID);
    m->timeline = find_group(b, (uint64_t)size, n, m->header_length, GFX_TL_GROUP_ID, GFX_TL_GROUP_VERSION,
                             GFX_TL_AREA_BYTES(n));
    m->health = find_group(b, (uint64_t)size, n, m->header_length, GFX_HEALTH_GROUP_ID, GFX_HEALTH_GROUP_VERSION,
                           (uint64_t)(n + 1) * GFX_HEALTH_STRIPE_BYTES);
    /* The client's rings move here only when the area is exactly N ring stripes of this layout;
     * otherwise they stay in process memory, as with a daemon that made no ring group. */
    m->rings = find_group(b, (uint64_t)size, n, m->header_length, GFX_RING_GROUP_ID, GFX_RING_GROUP_VERSION,
                          (uint64_t)n * GFX_RING_STRIPE_BYTES);
    snprintf(m->path, sizeof m->path, "%s", path);
    snprintf(m->reg_id, sizeof m->reg_id, "%s", reg_id);
    return m;
}

void gfx_unmap_buffer(struct gfx_mapping *m) {
    if (m) {
        munmap(m->base, m->length);
        free(m);
    }
}

uint32_t *gfx_stripe(struct gfx_mapping *m, uint32_t index) {
    return (uint32_t *)(m->base + m->header_length + (size_t)index * GFX_STRIPE_LENGTH);
}

struct gfx_ring *gfx_ring_stripe(struct gfx_mapping *m, uint32_t index) {
    return m->rings ? (struct gfx_ring *)(m->rings + (size_t)(index - 1) * GFX_RING_STRIPE_BYTES) : NULL;
}

void gfx_ring_stripe_populate(struct gfx_ring *r) {
#ifdef MADV_POPULATE_WRITE
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = (uintptr_t)r & ~(page - 1), to = ((uintptr_t)r + sizeof *r + page - 1) & ~(page - 1);
    (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE); /* before Linux 5.14 EINVAL: faulted as used */
#else
    (void)r;
#endif
}

static uint32_t *claim_word(struct gfx_mapping *m, uint32_t index) {
    return (uint32_t *)(m->base + GFX_OFF_CLAIMS_V2 + 4 * (index - 1));
}

uint32_t gfx_claim_stripe(struct gfx_mapping *m, uint32_t pid) {
    for (uint32_t i = 1; i <= m->stripes; i++) {
        uint32_t expected = 0;
        if (__atomic_compare_exchange_n(claim_word(m, i), &expected, pid, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            return i;
        }
    }
    return 0;
}

void gfx_release_stripe(struct gfx_mapping *m, uint32_t index) {
    __atomic_store_n(claim_word(m, index), 0, __ATOMIC_RELEASE);
}

uint32_t gfx_stripe_claim(struct gfx_mapping *m, uint32_t index) {
    return __atomic_load_n(claim_word(m, index), __ATOMIC_ACQUIRE);
}

void gfx_add_shared(struct gfx_mapping *m, const uint32_t *counts) {
    uint32_t *s = gfx_stripe(m, 0);
    /* The total first, so that a reader that sees a frame's other counters sees its total. */
    if (counts[GFX_TOTAL_FRAMES]) {
        __atomic_fetch_add(&s[GFX_TOTAL_FRAMES], counts[GFX_TOTAL_FRAMES], __ATOMIC_RELEASE);
    }
    for (int i = 1; i < GFX_COUNTERS; i++) {
        if (counts[i]) {
            __atomic_fetch_add(&s[i], counts[i], __ATOMIC_RELAXED);
        }
    }
}

uint32_t *gfx_health_dropped(struct gfx_mapping *m, uint32_t index) {
    return (uint32_t *)(m->health + (size_t)index * GFX_HEALTH_STRIPE_BYTES);
}

struct gfx_scene_rec *gfx_scene_stripe(struct gfx_mapping *m, uint32_t index) {
    return (struct gfx_scene_rec *)(m->scenes + GFX_SCENE_PREFIX_BYTES + (size_t)index * GFX_SCENE_STRIPE_BYTES);
}

void gfx_name_scene(struct gfx_mapping *m, int slot, const char *name) {
    if (!m->scenes) {
        return;
    }
    uint8_t *e = m->scenes + (size_t)slot * GFX_SCENE_ENTRY_BYTES;
    if (__atomic_load_n((uint32_t *)e, __ATOMIC_ACQUIRE) == 1u) {
        return; /* named by this session before (slots never change within a session) */
    }
    uint32_t len = (uint32_t)strlen(name);
    memcpy(e + 8, name, len);
    memcpy(e + 4, &len, 4);
    __atomic_store_n((uint32_t *)e, 1u, __ATOMIC_RELEASE);
}

void gfx_add_scenes(struct gfx_scene_rec *dst, const struct gfx_scene_rec *src) {
    for (size_t i = 0; i < sizeof dst->c / sizeof dst->c[0]; i++) {
        dst->c[i] += src->c[i];
    }
    for (size_t i = 0; i < sizeof dst->w / sizeof dst->w[0]; i++) {
        dst->w[i] += src->w[i];
    }
}

void gfx_add_shared_scenes(struct gfx_mapping *m, const struct gfx_scene_rec *r) {
    if (!m->scenes) {
        return;
    }
    struct gfx_scene_rec *s = gfx_scene_stripe(m, 0);
    for (size_t i = 0; i < sizeof r->c / sizeof r->c[0]; i++) {
        if (r->c[i]) {
            __atomic_fetch_add(&s->c[i], r->c[i], __ATOMIC_RELAXED);
        }
    }
    for (size_t i = 0; i < sizeof r->w / sizeof r->w[0]; i++) {
        if (r->w[i]) {
            __atomic_fetch_add(&s->w[i], r->w[i], __ATOMIC_RELAXED);
        }
    }
}

uint32_t *gfx_timeline_stripe(struct gfx_mapping *m, uint32_t index) {
    return m->timeline ? (uint32_t *)(m->timeline + (size_t)index * GFX_TL_STRIPE_BYTES) : NULL;
}

void gfx_lower_stats_start(struct gfx_mapping *m, uint64_t epoch_ms) {
    uint64_t *p = (uint64_t *)(m->base + GFX_OFF_STATS_START);
    uint64_t cur = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    while (epoch_ms < cur
           && !__atomic_compare_exchange_n(p, &cur, epoch_ms, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
}

uint64_t gfx_stats_start(struct gfx_mapping *m) {
    return __atomic_load_n((uint64_t *)(m->base + GFX_OFF_STATS_START), __ATOMIC_ACQUIRE);
}

void gfx_heartbeat(struct gfx_mapping *m, uint64_t epoch_ms) {
    __atomic_store_n((uint64_t *)(m->base + GFX_OFF_HEARTBEAT), epoch_ms, __ATOMIC_RELEASE);
}

void gfx_retire(struct gfx_mapping *m, const char *successor_id) {
    uint32_t len = (uint32_t)strnlen(successor_id, GFX_ID_MAX);
    memcpy(m->base + GFX_OFF_SUCCESSOR_ID + 4, successor_id, len);
    memcpy(m->base + GFX_OFF_SUCCESSOR_ID, &len, 4);
    __atomic_store_n((uint32_t *)(m->base + GFX_OFF_STATE), GFX_STATE_RETIRED, __ATOMIC_RELEASE);
}

const char *gfx_package_problem(const char *name) {
    if (!name) {
        return "missing";
    }
    size_t n = strlen(name);
    if (n == 0) {
        return "empty";
    }
    if (n > 255) {
        return "longer than 255 characters";
    }
    int start = 1;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        int other = (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (c == '.') {
            if (start) {
                return i == 0 ? "starts with '.'" : "has an empty segment ('..')";
            }
            start = 1;
        } else if (letter) {
            start = 0;
        } else if (other) {
            if (start) {
                return "has a segment not starting with a letter";
            }
        } else {
            return "contains a character other than ASCII letters, digits, '_', '-' and '.'";
        }
    }
    return start ? "ends with '.'" : NULL;
}
