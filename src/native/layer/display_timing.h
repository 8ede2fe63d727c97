/* Present times for one swapchain from VK_GOOGLE_display_timing (docs/native.md, "Present
 * times"): each present carries a VkPresentTimeGOOGLE with the layer's id, and the render thread
 * asks the driver for the presents it has newly displayed at its next present. The driver keeps
 * that history itself, so there is no thread and no ring between threads; the render thread's part
 * allocates nothing and takes no lock of ours (the driver's query is the driver's cost, like the
 * present itself).
 *
 * A driver's answer is believed only where it can be: an id the layer issued and not yet answered,
 * at most DISPLAY_TIMING_WINDOW presents back, and a time between that present's call and the
 * query. Anything else (a driver that leaves the array as it was, another clock, an id from before
 * a wrap) is not a present time, and that frame stays "present unknown". */
#ifndef GFXSTATS_DISPLAY_TIMING_H
#define GFXSTATS_DISPLAY_TIMING_H

#include <stdint.h>
#include <vulkan/vulkan.h>

/* Presents that can wait for their time; an older one stays unknown. */
#define DISPLAY_TIMING_WINDOW 64u
/* Records asked for per query (the query repeats while the driver has more). */
#define DISPLAY_TIMING_BATCH 16u

struct display_timing;

/* For a swapchain of a device on which the layer itself enabled VK_GOOGLE_display_timing; NULL
 * when out of memory. */
struct display_timing *display_timing_new(VkDevice device, PFN_vkGetPastPresentationTimingGOOGLE past,
                                          VkSwapchainKHR swapchain);

/* The driver's refresh cycle of the swapchain's display in ns, or 0 when it gives none that is
 * plausible (under 1 ms or over 1 s). Not on the frame path: once, when the swapchain is made. */
int64_t display_timing_refresh(VkDevice device, PFN_vkGetRefreshCycleDurationGOOGLE refresh, VkSwapchainKHR swapchain);

/* Render thread: the token (1, 2, 3, ...) and the driver's presentID for this present; its low
 * 32 bits, never 0 (a token whose low half is 0 is skipped). */
uint64_t display_timing_next(struct display_timing *t, uint32_t *present_id);

/* Render thread: the present with this token was queued at call_ns (the time the layer's present
 * began); its time may now be answered. */
void display_timing_queued(struct display_timing *t, uint64_t token, int64_t call_ns);

/* Render thread (or the thread destroying the swapchain): asks the driver what it displayed
 * since the last query, as of now_ns, and calls fn for each present it answers believably, oldest
 * first. Returns how many. */
int display_timing_take(struct display_timing *t, int64_t now_ns,
                        void (*fn)(void *ctx, uint64_t token, int64_t presented_ns), void *ctx);

void display_timing_free(struct display_timing *t);

#endif
