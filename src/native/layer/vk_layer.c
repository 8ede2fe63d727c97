/* VK_LAYER_GFXSTATS_frame_stats: an implicit Vulkan layer that counts every present of an
 * unmodified application with Android's rules, one tracker per swapchain (docs/native.md).
 * Enabled by GFXSTATS=1 (as MANGOHUD=1 enables MangoHud's); GFXSTATS_DISABLE=1 turns it off. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "common.h"
#include "display_timing.h"
#include "present_wait.h"

#define EXPORT __attribute__((visibility("default")))
#define LAYER_NAME "VK_LAYER_GFXSTATS_frame_stats"

struct instance_data {
    VkInstance instance;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkDestroyInstance destroy;
    int gl_implementation; /* made by an OpenGL implementation on Vulkan (gl_implementation_engine) */
};

struct device_data {
    VkDevice device;
    int gl_implementation; /* its instance's */
    PFN_vkGetDeviceProcAddr gdpa;
    PFN_vkDestroyDevice destroy;
    PFN_vkCreateSwapchainKHR create_swapchain;
    PFN_vkDestroySwapchainKHR destroy_swapchain;
    PFN_vkQueuePresentKHR present;
    PFN_vkAcquireNextImageKHR acquire;
    PFN_vkAcquireNextImage2KHR acquire2;
    PFN_vkGetDeviceQueue get_queue;
    PFN_vkWaitForPresentKHR wait_for_present; /* NULL: presentWait not enabled on the device */
    /* NULL: the layer did not enable VK_GOOGLE_display_timing on the device */
    PFN_vkGetPastPresentationTimingGOOGLE past_timing;
    PFN_vkGetRefreshCycleDurationGOOGLE refresh_cycle;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct hook_table instances; /* by dispatch key */
static struct hook_table devices;   /* by dispatch key: a device's queues share its key */

/* The GL hook's gfxstats_gl_in_swap, when the hook is loaded too (gfxstats run preloads it): a
 * present made inside a GL swap on the same thread is the GL implementation's own (ANGLE on its
 * Vulkan backend, zink), and the hook counts that swap already. Looked up when an instance is
 * made, until found. */
typedef int (*gl_in_swap_fn)(void);
static gl_in_swap_fn gl_in_swap;

/* The engine names (VkApplicationInfo) of OpenGL implementations that present through Vulkan:
 * Mesa's zink, and ANGLE on its Vulkan backend. When the GL hook is loaded, it counts the
 * application's swaps, and the swapchains of such an instance get no tracker: their presents are
 * those swaps again, made on whatever thread the implementation presents from (zink presents from
 * a thread of its own, after the application's swap has returned, where gfxstats_gl_in_swap
 * cannot see them). Without the hook, they are the application's frames and are counted. */
static int gl_implementation_engine(const VkApplicationInfo *app) {
    static const char *const engines[] = {"mesa zink", "ANGLE"};
    const char *name = app ? app->pEngineName : NULL;
    for (size_t i = 0; name && i < sizeof engines / sizeof engines[0]; i++) {
        if (strcmp(name, engines[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static uint64_t key_of(const void *dispatchable) {
    return (uint64_t)(uintptr_t) * (void *const *)dispatchable;
}

static struct instance_data *instance_of(const void *h) {
    return hook_table_get(&instances, key_of(h));
}

static struct device_data *device_of(const void *h) {
    return hook_table_get(&devices, key_of(h));
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateInstance(const VkInstanceCreateInfo *info,
                                                           const VkAllocationCallbacks *alloc, VkInstance *out) {
    VkLayerInstanceCreateInfo *chain = (VkLayerInstanceCreateInfo *)info->pNext;
    while (chain && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO
                      && chain->function == VK_LAYER_LINK_INFO)) {
        chain = (VkLayerInstanceCreateInfo *)chain->pNext;
    }
    if (!chain) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    PFN_vkGetInstanceProcAddr gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    VkResult r = create(info, alloc, out);
    if (r != VK_SUCCESS) {
        return r;
    }
    if (!__atomic_load_n(&gl_in_swap, __ATOMIC_RELAXED)) {
        __atomic_store_n(&gl_in_swap, (gl_in_swap_fn)dlsym(RTLD_DEFAULT, "gfxstats_gl_in_swap"), __ATOMIC_RELAXED);
    }
    struct instance_data *d = calloc(1, sizeof *d);
    if (d) {
        d->instance = *out;
        d->gipa = gipa;
        d->gl_implementation = gl_implementation_engine(info->pApplicationInfo);
        d->destroy = (PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
        pthread_mutex_lock(&mu);
        hook_table_put(&instances, key_of(*out), d);
        pthread_mutex_unlock(&mu);
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc) {
    pthread_mutex_lock(&mu);
    struct instance_data *d = hook_table_remove(&instances, key_of(instance));
    pthread_mutex_unlock(&mu);
    if (d) {
        d->destroy(instance, alloc);
        free(d);
    }
}

static const VkBaseInStructure *find_in_chain(const void *next, VkStructureType type) {
    for (const VkBaseInStructure *p = next; p; p = p->pNext) {
        if (p->sType == type) {
            return p;
        }
    }
    return NULL;
}

static int has_name(const char *const *names, uint32_t count, const char *name) {
    for (uint32_t i = 0; i < count; i++) {
        if (strcmp(names[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

static int turned_off(const char *variable) {
    const char *env = getenv(variable);
    return env && strcmp(env, "0") == 0;
}

/* The present-time extensions the device offers: VK_KHR_present_id with VK_KHR_present_wait
 * (GFXSTATS_PRESENT_WAIT=0: not used), VK_GOOGLE_display_timing (GFXSTATS_DISPLAY_TIMING=0). */
struct present_time_extensions {
    int present_wait;
    int display_timing;
};

static struct present_time_extensions offered_present_times(VkPhysicalDevice phys) {
    struct present_time_extensions offered = {0, 0};
    struct instance_data *inst = instance_of(phys);
    if (!inst) {
        return offered;
    }
    PFN_vkEnumerateDeviceExtensionProperties list =
            (PFN_vkEnumerateDeviceExtensionProperties)inst->gipa(inst->instance, "vkEnumerateDeviceExtensionProperties");
    uint32_t n = 0;
    if (!list || list(phys, NULL, &n, NULL) != VK_SUCCESS || n == 0) {
        return offered;
    }
    VkExtensionProperties *props = calloc(n, sizeof *props);
    int id = 0, wait = 0, timing = 0;
    if (props && list(phys, NULL, &n, props) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n; i++) {
            id |= strcmp(props[i].extensionName, VK_KHR_PRESENT_ID_EXTENSION_NAME) == 0;
            wait |= strcmp(props[i].extensionName, VK_KHR_PRESENT_WAIT_EXTENSION_NAME) == 0;
            timing |= strcmp(props[i].extensionName, VK_GOOGLE_DISPLAY_TIMING_EXTENSION_NAME) == 0;
        }
    }
    free(props);
    offered.present_wait = id && wait && !turned_off("GFXSTATS_PRESENT_WAIT");
    offered.display_timing = timing && !turned_off("GFXSTATS_DISPLAY_TIMING");
    return offered;
}

/* The application's extension names and up to two more, or NULL when out of memory. */
static const char **names_with(const VkDeviceCreateInfo *info, uint32_t *n) {
    const char **names = calloc(info->enabledExtensionCount + 2u, sizeof *names);
    for (*n = 0; names && *n < info->enabledExtensionCount; (*n)++) {
        names[*n] = info->ppEnabledExtensionNames[*n];
    }
    return names;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice phys, const VkDeviceCreateInfo *info,
                                                         const VkAllocationCallbacks *alloc, VkDevice *out) {
    VkLayerDeviceCreateInfo *chain = (VkLayerDeviceCreateInfo *)info->pNext;
    while (chain && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO
                      && chain->function == VK_LAYER_LINK_INFO)) {
        chain = (VkLayerDeviceCreateInfo *)chain->pNext;
    }
    if (!chain) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    PFN_vkGetInstanceProcAddr gipa = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = chain->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
    VkLayerDeviceLink *next_link = chain->u.pLayerInfo;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice");

    /* Present times: enable VK_KHR_present_id and VK_KHR_present_wait with their features where
     * the device offers them, unless the application set those features itself (then the layer
     * uses them if it enabled both). Else VK_GOOGLE_display_timing where the device offers it and
     * the application did not enable it: its queries hand each record out once, so the layer
     * must not take them from an application that asks for them itself. A device that refuses
     * what the layer added is created as the application asked. */
    struct present_time_extensions offered = offered_present_times(phys);
    int present_wait = 0;
    int display_timing = 0;
    VkDeviceCreateInfo with = *info;
    const char **names = NULL;
    uint32_t n = 0;
    VkPhysicalDevicePresentIdFeaturesKHR id_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR, .pNext = (void *)info->pNext, .presentId = VK_TRUE};
    VkPhysicalDevicePresentWaitFeaturesKHR wait_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR, .pNext = &id_features, .presentWait = VK_TRUE};
    if (offered.present_wait) {
        const VkBaseInStructure *app_id = find_in_chain(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR);
        const VkBaseInStructure *app_wait = find_in_chain(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR);
        if (app_id || app_wait) {
            present_wait = app_id && app_wait && ((const VkPhysicalDevicePresentIdFeaturesKHR *)app_id)->presentId
                    && ((const VkPhysicalDevicePresentWaitFeaturesKHR *)app_wait)->presentWait
                    && has_name(info->ppEnabledExtensionNames, info->enabledExtensionCount, VK_KHR_PRESENT_ID_EXTENSION_NAME)
                    && has_name(info->ppEnabledExtensionNames, info->enabledExtensionCount, VK_KHR_PRESENT_WAIT_EXTENSION_NAME);
        } else if ((names = names_with(info, &n)) != NULL) {
            if (!has_name(names, n, VK_KHR_PRESENT_ID_EXTENSION_NAME)) {
                names[n++] = VK_KHR_PRESENT_ID_EXTENSION_NAME;
            }
            if (!has_name(names, n, VK_KHR_PRESENT_WAIT_EXTENSION_NAME)) {
                names[n++] = VK_KHR_PRESENT_WAIT_EXTENSION_NAME;
            }
            with.pNext = &wait_features;
            present_wait = 1;
        }
    } else if (offered.display_timing
               && !has_name(info->ppEnabledExtensionNames, info->enabledExtensionCount, VK_GOOGLE_DISPLAY_TIMING_EXTENSION_NAME)
               && (names = names_with(info, &n)) != NULL) {
        names[n++] = VK_GOOGLE_DISPLAY_TIMING_EXTENSION_NAME;
        display_timing = 1;
    }
    with.enabledExtensionCount = n;
    with.ppEnabledExtensionNames = names;
    VkResult r = create(phys, names ? &with : info, alloc, out);
    if (names && (r == VK_ERROR_FEATURE_NOT_PRESENT || r == VK_ERROR_EXTENSION_NOT_PRESENT)) {
        chain->u.pLayerInfo = next_link; /* the layers below advanced it */
        present_wait = 0;
        display_timing = 0;
        r = create(phys, info, alloc, out);
    }
    free(names);
    if (r != VK_SUCCESS) {
        return r;
    }
    struct device_data *d = calloc(1, sizeof *d);
    if (d) {
        VkDevice dev = *out;
        d->device = dev;
        struct instance_data *inst = instance_of(phys); /* a physical device has its instance's key */
        d->gl_implementation = inst && inst->gl_implementation;
        d->gdpa = gdpa;
        d->destroy = (PFN_vkDestroyDevice)gdpa(dev, "vkDestroyDevice");
        d->create_swapchain = (PFN_vkCreateSwapchainKHR)gdpa(dev, "vkCreateSwapchainKHR");
        d->destroy_swapchain = (PFN_vkDestroySwapchainKHR)gdpa(dev, "vkDestroySwapchainKHR");
        d->present = (PFN_vkQueuePresentKHR)gdpa(dev, "vkQueuePresentKHR");
        d->acquire = (PFN_vkAcquireNextImageKHR)gdpa(dev, "vkAcquireNextImageKHR");
        d->acquire2 = (PFN_vkAcquireNextImage2KHR)gdpa(dev, "vkAcquireNextImage2KHR");
        d->wait_for_present = present_wait ? (PFN_vkWaitForPresentKHR)gdpa(dev, "vkWaitForPresentKHR") : NULL;
        if (display_timing) {
            d->past_timing = (PFN_vkGetPastPresentationTimingGOOGLE)gdpa(dev, "vkGetPastPresentationTimingGOOGLE");
            d->refresh_cycle = (PFN_vkGetRefreshCycleDurationGOOGLE)gdpa(dev, "vkGetRefreshCycleDurationGOOGLE");
        }
        pthread_mutex_lock(&mu);
        hook_table_put(&devices, key_of(dev), d);
        pthread_mutex_unlock(&mu);
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc) {
    pthread_mutex_lock(&mu);
    struct device_data *d = hook_table_remove(&devices, key_of(device));
    pthread_mutex_unlock(&mu);
    if (d) {
        d->destroy(device, alloc);
        free(d);
    }
}

/* The frames' present times, once the swapchain ends: the waiter stopped, what it saw goes in. */
static void present_times_close(struct hook_surface *s);

/* A present whose time the layer learnt (from the waiting thread or the driver's display timing)
 * goes to the FrameTimeline and moves the grid. */
static void report_present(void *ctx, uint64_t token, int64_t at) {
    struct hook_surface *s = ctx;
    gfxstats_timeline_presented(s->tracker, (int64_t)token, at, s->interval, s->present_flags);
    s->grid_present = at;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *info,
                                                               const VkAllocationCallbacks *alloc,
                                                               VkSwapchainKHR *out) {
    struct device_data *d = device_of(device);
    if (info->oldSwapchain != VK_NULL_HANDLE) {
        /* Retired by this call: no wait for its presents may run from now on. */
        struct hook_surface *old = hook_surface_get((uint64_t)info->oldSwapchain);
        if (old && old->present_wait) {
            present_wait_stop(old->present_wait);
        }
    }
    VkResult r = d->create_swapchain(device, info, alloc, out);
    if (r == VK_SUCCESS && !(d->gl_implementation && __atomic_load_n(&gl_in_swap, __ATOMIC_RELAXED))) {
        struct hook_surface *s = hook_surface_new((uint64_t)*out, GFXSTATS_PIPELINE_VULKAN, NULL);
        /* Without vsync (immediate mode) a present may tear: its time says nothing of a vsync. */
        uint32_t vsync = info->presentMode == VK_PRESENT_MODE_IMMEDIATE_KHR ? 0 : GFXSTATS_PRESENT_VSYNC;
        if (s && d->wait_for_present) {
            s->present_flags = vsync;
            s->present_wait = present_wait_start(device, d->wait_for_present, *out);
            if (s->present_wait) {
                s->before_close = present_times_close;
            }
        } else if (s && d->past_timing) {
            /* The driver's own time of the display (the spec's actualPresentTime), not the time
             * the layer learnt of it: a late present can then count as a prediction error. */
            s->present_flags = vsync | GFXSTATS_PRESENT_HW_CLOCK;
            int64_t refresh = display_timing_refresh(device, d->refresh_cycle, *out);
            if (refresh != 0) {
                s->interval = refresh;
            }
            s->display_timing = display_timing_new(device, d->past_timing, *out);
            if (s->display_timing) {
                s->before_close = present_times_close;
            }
        }
    }
    return r;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                            const VkAllocationCallbacks *alloc) {
    struct device_data *d = device_of(device);
    if (swapchain != VK_NULL_HANDLE) {
        struct hook_surface *s = hook_surface_get((uint64_t)swapchain);
        if (s && s->display_timing) {
            /* The application destroys the swapchain: no present of it runs beside this query. */
            display_timing_take(s->display_timing, gfxstats_now_ns(), report_present, s);
        }
        hook_surface_free(s);
    }
    d->destroy_swapchain(device, swapchain, alloc);
}

/* The presents the waiter saw complete go to the FrameTimeline, and the last one moves the grid. */
static void take_present_times(struct hook_surface *s) {
    uint64_t id;
    int64_t at;
    while (present_wait_take(s->present_wait, &id, &at)) {
        report_present(s, id, at);
    }
}

static void present_times_close(struct hook_surface *s) {
    if (s->present_wait) {
        present_wait_stop(s->present_wait);
        take_present_times(s);
        present_wait_free(s->present_wait);
        s->present_wait = NULL;
    }
    if (s->display_timing) {
        /* Its last answers were asked for at vkDestroySwapchainKHR; at unload or exit the driver
         * may be gone, so it is not asked again. */
        display_timing_free(s->display_timing);
        s->display_timing = NULL;
    }
}

/* A frame's prediction from the vsync grid of its swapchain's last present, as VsyncGrid does for
 * a Wayland client (docs/frametimeline.md, "Linux clients"): the first vsync reachable with the
 * app's budget (one refresh) and the compositor's (refresh - 1 ms); before the first present
 * time the frame is counted without a prediction. */
static void commit_frame(struct hook_surface *s, uint64_t id, int64_t start, int64_t end) {
    int64_t refresh = s->interval;
    if (s->grid_present == 0 || refresh <= 0) {
        gfxstats_timeline_commit_unpredicted(s->tracker, (int64_t)id, start, end);
        return;
    }
    int64_t compositor = refresh > 1000000 ? refresh - 1000000 : 0;
    int64_t reach = start + refresh + compositor;
    int64_t present = s->grid_present;
    if (reach > present) {
        present += (reach - present + refresh - 1) / refresh * refresh;
    }
    int64_t deadline = present - compositor;
    gfxstats_timeline_commit(s->tracker, (int64_t)id, deadline - refresh, deadline, present, start, end);
}

/* Time blocked for an image is not the frame's work; the first acquire starts the first frame. */
static void acquired(VkSwapchainKHR swapchain, int64_t before, int64_t after) {
    struct hook_surface *s = hook_surface_get((uint64_t)swapchain);
    if (!s) {
        return;
    }
    if (s->frame_start == 0) {
        s->frame_start = after;
    } else {
        __atomic_fetch_add(&s->blocked, after - before, __ATOMIC_RELAXED);
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                                uint64_t timeout, VkSemaphore semaphore,
                                                                VkFence fence, uint32_t *index) {
    struct device_data *d = device_of(device);
    int64_t before = gfxstats_now_ns();
    VkResult r = d->acquire(device, swapchain, timeout, semaphore, fence, index);
    acquired(swapchain, before, gfxstats_now_ns());
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_AcquireNextImage2KHR(VkDevice device,
                                                                 const VkAcquireNextImageInfoKHR *info,
                                                                 uint32_t *index) {
    struct device_data *d = device_of(device);
    int64_t before = gfxstats_now_ns();
    VkResult r = d->acquire2(device, info, index);
    acquired(info->swapchain, before, gfxstats_now_ns());
    return r;
}

/* Swapchains of one present that get present ids (more in one call go untimed). */
#define TIMED_MAX 8

/* One frame per swapchain presented: it ends when the application presents it. With present
 * times, the frame also goes to the FrameTimeline under the present's id (the application's own
 * VkPresentIdKHR if it chains one, else the layer's), and the present is waited for; or, with
 * display timing, under the layer's VkPresentTimeGOOGLE id, and the driver is asked later. */
static VKAPI_ATTR VkResult VKAPI_CALL layer_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info) {
    struct device_data *d = device_of(queue);
    gl_in_swap_fn in_gl = __atomic_load_n(&gl_in_swap, __ATOMIC_RELAXED);
    if (in_gl && in_gl()) {
        return d->present(queue, info);
    }
    int64_t now = gfxstats_now_ns();
    const int64_t called = now;
    const VkPresentIdKHR *app_ids = (const VkPresentIdKHR *)find_in_chain(info->pNext, VK_STRUCTURE_TYPE_PRESENT_ID_KHR);
    uint64_t ids[TIMED_MAX] = {0};
    VkPresentTimeGOOGLE times[TIMED_MAX] = {{0}};
    int timed = 0;
    int timed_by_display = 0;
    for (uint32_t i = 0; i < info->swapchainCount; i++) {
        struct hook_surface *s = hook_surface_get((uint64_t)info->pSwapchains[i]);
        if (!s) {
            continue;
        }
        int64_t start = hook_surface_present_begin(s, now);
        if (s->display_timing && start != 0 && info->swapchainCount <= TIMED_MAX) {
            display_timing_take(s->display_timing, now, report_present, s);
            ids[i] = display_timing_next(s->display_timing, &times[i].presentID);
            commit_frame(s, ids[i], start, now);
            timed_by_display = 1;
        } else if (s->present_wait && start != 0 && i < TIMED_MAX && (app_ids || info->swapchainCount <= TIMED_MAX)) {
            take_present_times(s);
            uint64_t id = !app_ids ? present_wait_next_id(s->present_wait)
                    : app_ids->pPresentIds && i < app_ids->swapchainCount ? app_ids->pPresentIds[i] : 0;
            if (id != 0) {
                commit_frame(s, id, start, now);
                ids[i] = id;
                timed = 1;
            }
        }
    }
    VkPresentIdKHR present_ids;
    VkPresentTimesInfoGOOGLE present_times;
    VkPresentInfoKHR with_ids;
    const VkPresentInfoKHR *call = info;
    if (timed && !app_ids) {
        present_ids = (VkPresentIdKHR){.sType = VK_STRUCTURE_TYPE_PRESENT_ID_KHR, .pNext = info->pNext,
                                       .swapchainCount = info->swapchainCount, .pPresentIds = ids};
        with_ids = *info;
        with_ids.pNext = &present_ids;
        call = &with_ids;
    } else if (timed_by_display) {
        /* One entry per swapchain of the call (a swapchain without a tracker gets id 0). */
        present_times = (VkPresentTimesInfoGOOGLE){.sType = VK_STRUCTURE_TYPE_PRESENT_TIMES_INFO_GOOGLE,
                                                   .pNext = info->pNext, .swapchainCount = info->swapchainCount,
                                                   .pTimes = times};
        with_ids = *info;
        with_ids.pNext = &present_times;
        call = &with_ids;
    }
    VkResult r = d->present(queue, call);
    now = gfxstats_now_ns();
    for (uint32_t i = 0; i < info->swapchainCount; i++) {
        struct hook_surface *s = hook_surface_get((uint64_t)info->pSwapchains[i]);
        if (!s) {
            continue;
        }
        hook_surface_present_end(s, now);
        VkResult ri = info->pResults ? info->pResults[i] : r;
        if (i < TIMED_MAX && ids[i] != 0 && (ri == VK_SUCCESS || ri == VK_SUBOPTIMAL_KHR)) {
            if (s->display_timing) {
                display_timing_queued(s->display_timing, ids[i], called);
            } else {
                present_wait_queued(s->present_wait, ids[i]);
            }
        }
    }
    return r;
}

static PFN_vkVoidFunction device_hook(const char *name) {
#define HOOK(fn) \
    if (strcmp(name, "vk" #fn) == 0) return (PFN_vkVoidFunction)layer_##fn;
    HOOK(DestroyDevice)
    HOOK(CreateSwapchainKHR)
    HOOK(DestroySwapchainKHR)
    HOOK(AcquireNextImageKHR)
    HOOK(AcquireNextImage2KHR)
    HOOK(QueuePresentKHR)
    return NULL;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gfxstats_vkGetDeviceProcAddr(VkDevice device, const char *name);

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gfxstats_vkGetDeviceProcAddr(VkDevice device, const char *name) {
    if (strcmp(name, "vkGetDeviceProcAddr") == 0) {
        return (PFN_vkVoidFunction)gfxstats_vkGetDeviceProcAddr;
    }
    struct device_data *d = device_of(device);
    PFN_vkVoidFunction hook = device_hook(name);
    if (hook && d) {
        /* Hook only what the device has (a device without the swapchain extension has none). */
        PFN_vkVoidFunction next = d->gdpa(device, name);
        return next ? hook : NULL;
    }
    return d ? d->gdpa(device, name) : NULL;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gfxstats_vkGetInstanceProcAddr(VkInstance instance, const char *name);

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gfxstats_vkGetInstanceProcAddr(VkInstance instance, const char *name) {
    if (strcmp(name, "vkGetInstanceProcAddr") == 0) {
        return (PFN_vkVoidFunction)gfxstats_vkGetInstanceProcAddr;
    }
    if (strcmp(name, "vkCreateInstance") == 0) {
        return (PFN_vkVoidFunction)layer_CreateInstance;
    }
    if (strcmp(name, "vkDestroyInstance") == 0) {
        return (PFN_vkVoidFunction)layer_DestroyInstance;
    }
    if (strcmp(name, "vkCreateDevice") == 0) {
        return (PFN_vkVoidFunction)layer_CreateDevice;
    }
    if (strcmp(name, "vkGetDeviceProcAddr") == 0) {
        return (PFN_vkVoidFunction)gfxstats_vkGetDeviceProcAddr;
    }
    if (instance == VK_NULL_HANDLE) {
        return NULL;
    }
    PFN_vkVoidFunction hook = device_hook(name);
    if (hook) {
        return hook;
    }
    struct instance_data *d = instance_of(instance);
    return d ? d->gipa(instance, name) : NULL;
}

/* Unloaded (the loader's dlclose at vkDestroyInstance) or process exit: hand everything over. */
__attribute__((destructor)) static void layer_unload(void) {
    hook_shutdown();
}
