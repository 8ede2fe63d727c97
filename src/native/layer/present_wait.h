/* Real present times for one swapchain from VK_KHR_present_wait (docs/native.md, "Present
 * times"): the layer gives each present an id (VkPresentIdKHR), a thread of its own waits for
 * each id with vkWaitForPresentKHR and notes when the wait returned, and the render thread takes
 * those times at its next present and reports them to the tracker's FrameTimeline. Between the
 * two threads there are only two single-producer rings: the render thread's calls take no lock,
 * make no system call and allocate nothing. */
#ifndef GFXSTATS_PRESENT_WAIT_H
#define GFXSTATS_PRESENT_WAIT_H

#include <stdint.h>
#include <vulkan/vulkan.h>

struct present_wait;

/* Starts the waiting thread for a swapchain of a device with presentWait enabled; NULL (and one
 * log line) when it cannot. */
struct present_wait *present_wait_start(VkDevice device, PFN_vkWaitForPresentKHR wait, VkSwapchainKHR swapchain);

/* Render thread: the id for this present of the swapchain (increasing from 1). */
uint64_t present_wait_next_id(struct present_wait *w);

/* Render thread: the present with this id was queued; its time is waited for. Ignored once the
 * thread stopped, or when 64 presents already wait (that frame's present stays unknown). */
void present_wait_queued(struct present_wait *w, uint64_t id);

/* Render thread (or the thread closing the swapchain after the last present): one present the
 * thread saw complete, oldest first; 0 when there is none. */
int present_wait_take(struct present_wait *w, uint64_t *id, int64_t *presented_ns);

/* Ends the waiting thread and waits until it returned from the driver (before the swapchain is
 * retired or destroyed: vkWaitForPresentKHR may not run beside those). Idempotent. */
void present_wait_stop(struct present_wait *w);

/* Stops it and frees it. */
void present_wait_free(struct present_wait *w);

#endif
