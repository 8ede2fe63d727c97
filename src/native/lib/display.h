/* The daemon's display-frame outcome ring (compositor mode, docs/frametimeline.md), read-only:
 * the C reader of the layout io.gfxstats.timeline.feed.DisplayOutcomeLayout defines (the one
 * place its offsets are defined; the constants below must follow it). The daemon writes each
 * entry seqlock-style; a reader that meets an entry being written sees "not there yet" and asks
 * again later, as the Java DisplayOutcomes does. */
#ifndef GFXSTATS_DISPLAY_H
#define GFXSTATS_DISPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define GFX_DRING_FILE "display-frames.gfxring"
#define GFX_DRING_MAGIC 0x474E495244584647ULL /* "GFXDRING" little-endian */
#define GFX_DRING_VERSION 1u
#define GFX_DRING_REGIONS 8
#define GFX_DRING_SLOTS 512
#define GFX_DRING_ENTRY 64
#define GFX_DRING_TABLE 64
#define GFX_DRING_ENTRIES (GFX_DRING_TABLE + GFX_DRING_REGIONS * 8)
#define GFX_DRING_LENGTH (GFX_DRING_ENTRIES + GFX_DRING_REGIONS * GFX_DRING_SLOTS * GFX_DRING_ENTRY)

/* A mapped ring and the file it was mapped from (a restarted daemon replaces the file). */
struct gfx_dring {
    const uint8_t *base;
    dev_t dev;
    ino_t ino;
};

/* The outcome of one compositor frame: what a client frame shown by it is classified with. */
struct gfx_doutcome {
    int64_t output;
    int64_t msc;
    int64_t actual_present; /* -1: the display frame's present fence never signalled */
    int64_t refresh;
    int64_t render;
    uint32_t jank;          /* the display frame's jank bits */
};

/* Where an output's entries were found last (DisplayOutcome's region hint): region -1 at first. */
struct gfx_dring_hint {
    int region;
    int64_t output;
};

/* Maps the ring at `path` read-only. 0 and *out; -ENOENT when there is none; another negative
 * errno with `why` (one line) when it cannot be read or is not a ring of this layout. */
int gfx_dring_open(const char *path, struct gfx_dring **out, char *why, size_t cap);
void gfx_dring_close(struct gfx_dring *r);

/* Fills *o with the outcome of (output, msc) and returns 1; 0 when the ring has no such entry
 * (not published yet, overwritten by newer frames, or being written right now). Lock-free,
 * allocation-free, no system call. */
int gfx_dring_find(const struct gfx_dring *r, struct gfx_dring_hint *hint, int64_t output, int64_t msc,
                   struct gfx_doutcome *o);

/* The ring's path beside a buffer path (same directory), into out; 0, or -1 when it does not fit. */
int gfx_dring_path_beside(const char *buffer_path, char *out, size_t cap);

#endif
