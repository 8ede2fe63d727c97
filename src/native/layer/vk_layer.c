/* VK_LAYER_GFXSTATS_frame_stats: an implicit Vulkan layer that counts every present of an
 * unmodified application with Android's rules, one tracker per swapchain (docs/native.md).
 * Enabled by GFXSTATS=1 (as MANGOHUD=1 enables MangoHud's); GFXSTATS_DISABLE=1 turns it off. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "common.h"

#define EXPORT __attribute__((visibility("default")))
#define LAYER_NAME "VK_LAYER_GFXSTATS_frame_stats"

struct instance_data {
    VkInstance instance;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkDestroyInstance destroy;
};

struct device_data {
    VkDevice device;
    PFN_vkGetDeviceProcAddr gdpa;
    PFN_vkDestroyDevice destroy;
    PFN_vkCreateSwapchainKHR create_swapchain;
    PFN_vkDestroySwapchainKHR destroy_swapchain;
    PFN_vkQueuePresentKHR present;
    PFN_vkAcquireNextImageKHR acquire;
    PFN_vkAcquireNextImage2KHR acquire2;
    PFN_vkGetDeviceQueue get_queue;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct hook_table instances; /* by dispatch key */
static struct hook_table devices;   /* by dispatch key: a device's queues share its key */

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
    struct instance_data *d = calloc(1, sizeof *d);
    if (d) {
        d->instance = *out;
        d->gipa = gipa;
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
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice");
    VkResult r = create(phys, info, alloc, out);
    if (r != VK_SUCCESS) {
        return r;
    }
    struct device_data *d = calloc(1, sizeof *d);
    if (d) {
        VkDevice dev = *out;
        d->device = dev;
        d->gdpa = gdpa;
        d->destroy = (PFN_vkDestroyDevice)gdpa(dev, "vkDestroyDevice");
        d->create_swapchain = (PFN_vkCreateSwapchainKHR)gdpa(dev, "vkCreateSwapchainKHR");
        d->destroy_swapchain = (PFN_vkDestroySwapchainKHR)gdpa(dev, "vkDestroySwapchainKHR");
        d->present = (PFN_vkQueuePresentKHR)gdpa(dev, "vkQueuePresentKHR");
        d->acquire = (PFN_vkAcquireNextImageKHR)gdpa(dev, "vkAcquireNextImageKHR");
        d->acquire2 = (PFN_vkAcquireNextImage2KHR)gdpa(dev, "vkAcquireNextImage2KHR");
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

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *info,
                                                               const VkAllocationCallbacks *alloc,
                                                               VkSwapchainKHR *out) {
    struct device_data *d = device_of(device);
    VkResult r = d->create_swapchain(device, info, alloc, out);
    if (r == VK_SUCCESS) {
        hook_surface_new((uint64_t)*out, GFXSTATS_PIPELINE_VULKAN);
    }
    return r;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                            const VkAllocationCallbacks *alloc) {
    struct device_data *d = device_of(device);
    if (swapchain != VK_NULL_HANDLE) {
        hook_surface_free(hook_surface_get((uint64_t)swapchain));
    }
    d->destroy_swapchain(device, swapchain, alloc);
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

/* One frame per swapchain presented: it ends when the application presents it. */
static VKAPI_ATTR VkResult VKAPI_CALL layer_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info) {
    struct device_data *d = device_of(queue);
    int64_t now = gfxstats_now_ns();
    for (uint32_t i = 0; i < info->swapchainCount; i++) {
        struct hook_surface *s = hook_surface_get((uint64_t)info->pSwapchains[i]);
        if (s) {
            hook_surface_present_begin(s, now);
        }
    }
    VkResult r = d->present(queue, info);
    now = gfxstats_now_ns();
    for (uint32_t i = 0; i < info->swapchainCount; i++) {
        struct hook_surface *s = hook_surface_get((uint64_t)info->pSwapchains[i]);
        if (s) {
            hook_surface_present_end(s, now);
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
