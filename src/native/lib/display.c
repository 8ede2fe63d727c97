/* Reading the daemon's display-frame outcome ring (display.h), as io.gfxstats.timeline.feed.
 * DisplayOutcomes reads it: the same header checks, the same seqlock read and validation, the
 * same region lookup with the caller's hint (so that C finds exactly the entry Java finds, even
 * when more outputs than regions made the daemon reuse one). */
#include "display.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdlib.h>

/* Header offsets. */
#define OFF_VERSION 8
#define OFF_REGIONS 12
#define OFF_SLOTS 16
#define OFF_ENTRY 20
/* Entry offsets. */
#define E_SEQ 0
#define E_OUTPUT 8
#define E_MSC 16
#define E_PRESENT 24
#define E_REFRESH 32
#define E_RENDER 40
#define E_JANK 48
#define E_META 52
/* How many values the ring's metadata bytes may take (PresentMetadata, FinishMetadata, Severity,
 * Prediction): an entry with a byte out of range is not read, as in Java. */
#define PRESENT_TYPES 4u
#define FINISH_TYPES 3u
#define SEVERITIES 4u
#define PREDICTIONS 3u

_Static_assert(GFX_DRING_LENGTH == 262272, "the ring's length (docs/frametimeline.md)");

static inline int64_t ld64(const uint8_t *p) {
    return __atomic_load_n((const int64_t *)(const void *)p, __ATOMIC_RELAXED);
}

static inline uint32_t ld32(const uint8_t *p) {
    return __atomic_load_n((const uint32_t *)(const void *)p, __ATOMIC_RELAXED);
}

int gfx_dring_open(const char *path, struct gfx_dring **out, char *why, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(why, cap, "cannot open the display-frame ring %s: %s", path, strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        snprintf(why, cap, "cannot read the display-frame ring %s: %s", path, strerror(e));
        return -e;
    }
    if (st.st_size < GFX_DRING_LENGTH) {
        close(fd);
        snprintf(why, cap, "%s is not a display-frame ring: %lld bytes, expected %d", path, (long long)st.st_size,
                 GFX_DRING_LENGTH);
        return -EINVAL;
    }
    void *m = mmap(NULL, GFX_DRING_LENGTH, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        int e = errno;
        snprintf(why, cap, "cannot map the display-frame ring %s: %s", path, strerror(e));
        return -e;
    }
    const uint8_t *b = m;
    /* The daemon writes the magic last: a reader that sees it sees a whole header. */
    uint64_t magic = __atomic_load_n((const uint64_t *)(const void *)b, __ATOMIC_ACQUIRE);
    if (magic != GFX_DRING_MAGIC) {
        munmap(m, GFX_DRING_LENGTH);
        snprintf(why, cap, "%s is not a display-frame ring (bad magic)", path);
        return -EINVAL;
    }
    if (ld32(b + OFF_VERSION) != GFX_DRING_VERSION || ld32(b + OFF_REGIONS) != GFX_DRING_REGIONS
        || ld32(b + OFF_SLOTS) != GFX_DRING_SLOTS || ld32(b + OFF_ENTRY) != GFX_DRING_ENTRY) {
        snprintf(why, cap, "%s: display-frame ring layout %u is not the layout %u this client reads", path,
                 ld32(b + OFF_VERSION), GFX_DRING_VERSION);
        munmap(m, GFX_DRING_LENGTH);
        return -EINVAL;
    }
    struct gfx_dring *r = calloc(1, sizeof *r);
    if (!r) {
        munmap(m, GFX_DRING_LENGTH);
        snprintf(why, cap, "out of memory");
        return -ENOMEM;
    }
    r->base = b;
    r->dev = st.st_dev;
    r->ino = st.st_ino;
    *out = r;
    return 0;
}

void gfx_dring_close(struct gfx_dring *r) {
    if (r) {
        munmap((void *)r->base, GFX_DRING_LENGTH);
        free(r);
    }
}

/* Reads the entry of (output, msc) in `region` if it is there, whole. */
static int read_entry(const struct gfx_dring *r, int region, int64_t output, int64_t msc, struct gfx_doutcome *o) {
    const uint8_t *e = r->base + GFX_DRING_ENTRIES
                       + ((size_t)region * GFX_DRING_SLOTS + ((uint64_t)msc & (GFX_DRING_SLOTS - 1))) * GFX_DRING_ENTRY;
    int64_t seq = __atomic_load_n((const int64_t *)(const void *)(e + E_SEQ), __ATOMIC_ACQUIRE);
    if (seq == 0 || (seq & 1) != 0) {
        return 0;
    }
    int64_t out = ld64(e + E_OUTPUT);
    int64_t m = ld64(e + E_MSC);
    int64_t present = ld64(e + E_PRESENT);
    int64_t refresh = ld64(e + E_REFRESH);
    int64_t render = ld64(e + E_RENDER);
    uint32_t jank = ld32(e + E_JANK);
    uint32_t meta = ld32(e + E_META);
    /* The fields' loads before the second sequence load (Java: loadLoadFence). */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (ld64(e + E_SEQ) != seq || out != output || m != msc) {
        return 0;
    }
    if ((meta & 0xff) >= PRESENT_TYPES || (meta >> 8 & 0xff) >= FINISH_TYPES || (meta >> 16 & 0xff) >= SEVERITIES
        || (meta >> 24) >= PREDICTIONS) {
        return 0;
    }
    o->output = out;
    o->msc = m;
    o->actual_present = present;
    o->refresh = refresh;
    o->render = render;
    o->jank = jank;
    return 1;
}

static int region_of(const struct gfx_dring *r, int64_t output) {
    for (int i = 0; i < GFX_DRING_REGIONS; i++) {
        if (__atomic_load_n((const int64_t *)(const void *)(r->base + GFX_DRING_TABLE + i * 8), __ATOMIC_ACQUIRE)
            == output) {
            return i;
        }
    }
    return -1;
}

int gfx_dring_find(const struct gfx_dring *r, struct gfx_dring_hint *hint, int64_t output, int64_t msc,
                   struct gfx_doutcome *o) {
    int region = hint->output == output ? hint->region : -1;
    if (region < 0 || !read_entry(r, region, output, msc, o)) {
        region = region_of(r, output);
        if (region < 0 || !read_entry(r, region, output, msc, o)) {
            return 0;
        }
        hint->region = region;
        hint->output = output;
    }
    return 1;
}

int gfx_dring_path_beside(const char *buffer_path, char *out, size_t cap) {
    const char *slash = strrchr(buffer_path, '/');
    int n = slash ? snprintf(out, cap, "%.*s/%s", (int)(slash - buffer_path), buffer_path, GFX_DRING_FILE)
                  : snprintf(out, cap, "%s", GFX_DRING_FILE);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}
