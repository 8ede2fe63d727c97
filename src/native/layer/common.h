/* Shared by the Vulkan layer and the GL hook: the process's one session, per-surface frame
 * timing, and a handle-to-record table whose lookups take no lock. */
#ifndef GFXSTATS_HOOK_COMMON_H
#define GFXSTATS_HOOK_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstats.h"

/* The process's session for this pipeline, opened on first use from the environment
 * (GFXSTATS_PACKAGE, GFXSTATS_VERSION_CODE, GFXSTATS_REFRESH_HZ); NULL when it cannot be. */
gfxstats_session *hook_session(int32_t pipeline);
/* Closes the session (at unload or exit): trackers of live surfaces first. */
void hook_shutdown(void);
/* The package name: GFXSTATS_PACKAGE as it is, else the program's name mapped onto the package
 * rule, written into out (cap bytes). */
const char *hook_package_name(char *out, size_t cap);

/* Frame timing of one surface (swapchain, GLX drawable, EGL surface). A frame starts when the
 * previous present returned (the first frame: when the surface was first acquired or made
 * current), and ends when the application calls present; time blocked waiting for an image
 * (vkAcquireNextImageKHR) is not part of the frame's work, like Android's dequeue forgiveness. */
struct hook_surface {
    uint64_t handle;
    gfxstats_tracker *tracker;
    int64_t frame_start;   /* 0 until known */
    int64_t blocked;       /* ns blocked in acquire since the frame started (atomic) */
    int64_t interval;      /* GFXSTATS_REFRESH_HZ's period */
    /* Present times (the Vulkan layer with VK_KHR_present_wait or VK_GOOGLE_display_timing; both
     * NULL otherwise, at most one set): the waiter or the driver's history, the last present time
     * the vsync grid starts from and the presents' flags (render thread only). */
    struct present_wait *present_wait;
    struct display_timing *display_timing;
    int64_t grid_present;
    uint32_t present_flags;
    /* Called before the tracker closes (the last present times go in), if set. */
    void (*before_close)(struct hook_surface *s);
    struct hook_surface *next_retired; /* hook_surface_retire's list */
    /* What the surface belongs to, for hook_surfaces_retire_owner: the GL hook's X Display or
     * EGLDisplay of its first swap; NULL in the Vulkan layer. Compared, never dereferenced. */
    const void *owner;
};

struct hook_surface *hook_surface_new(uint64_t handle, int32_t pipeline, const void *owner);
/* The surface of a handle, or NULL; takes no lock. */
struct hook_surface *hook_surface_get(uint64_t handle);
/* Records one frame ending now (at present): call right before the driver's present. Returns
 * the frame's start, or 0 when no frame was recorded (no start known). */
int64_t hook_surface_present_begin(struct hook_surface *s, int64_t now);
/* The present returned: the next frame starts. */
void hook_surface_present_end(struct hook_surface *s, int64_t now);
void hook_surface_free(struct hook_surface *s);
/* The GL hook's swaps: enter before the surface is looked up, leave after the present's end. */
void hook_swap_enter(void);
void hook_swap_leave(void);
/* The application destroyed the surface of this handle (a GL hook's EGL surface or GLX drawable):
 * its tracker closes and its entry leaves the table, now or - when a swap on another thread may
 * still hold it - at a later retirement or at unload. */
void hook_surface_retire(uint64_t handle);
/* The application closed what these surfaces belong to (XCloseDisplay, eglTerminate), which ends
 * them without a destroy call of their own: every surface of that owner is retired as above. */
void hook_surfaces_retire_owner(const void *owner);

/* Lock-free lookup table, handle -> pointer (inserts and removals under a mutex). */
#define HOOK_TABLE_SLOTS 1024
struct hook_table {
    uint64_t keys[HOOK_TABLE_SLOTS];
    void *values[HOOK_TABLE_SLOTS];
};
void *hook_table_get(struct hook_table *t, uint64_t key);
int hook_table_put(struct hook_table *t, uint64_t key, void *value);
void *hook_table_remove(struct hook_table *t, uint64_t key);
/* Calls fn for every entry and removes it (shutdown). */
void hook_table_drain(struct hook_table *t, void (*fn)(void *));

#endif
