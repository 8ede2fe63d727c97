#include "display_timing.h"

#include <stdlib.h>

/* A driver with more news than this many batches gives the rest at the next present. */
#define ROUNDS 4

struct queued_present {
    uint64_t token; /* 0: empty */
    int64_t call_ns;
};

struct display_timing {
    VkDevice device;
    PFN_vkGetPastPresentationTimingGOOGLE past;
    VkSwapchainKHR swapchain;
    int failed;        /* the driver refused a query: no more present times from it */
    uint64_t issued;   /* the last token given out */
    uint64_t answered; /* the last token answered; older ones are never answered */
    struct queued_present queued[DISPLAY_TIMING_WINDOW];
    VkPastPresentationTimingGOOGLE batch[DISPLAY_TIMING_BATCH];
};

struct display_timing *display_timing_new(VkDevice device, PFN_vkGetPastPresentationTimingGOOGLE past,
                                          VkSwapchainKHR swapchain) {
    struct display_timing *t = calloc(1, sizeof *t);
    if (t) {
        t->device = device;
        t->past = past;
        t->swapchain = swapchain;
    }
    return t;
}

int64_t display_timing_refresh(VkDevice device, PFN_vkGetRefreshCycleDurationGOOGLE refresh, VkSwapchainKHR swapchain) {
    VkRefreshCycleDurationGOOGLE d = {0};
    if (!refresh || refresh(device, swapchain, &d) != VK_SUCCESS) {
        return 0;
    }
    return d.refreshDuration >= 1000000u && d.refreshDuration <= 1000000000u ? (int64_t)d.refreshDuration : 0;
}

uint64_t display_timing_next(struct display_timing *t, uint32_t *present_id) {
    uint64_t token = ++t->issued;
    if ((uint32_t)token == 0) {
        token = ++t->issued; /* 0 is what an unwritten record holds */
    }
    *present_id = (uint32_t)token;
    return token;
}

void display_timing_queued(struct display_timing *t, uint64_t token, int64_t call_ns) {
    t->queued[token % DISPLAY_TIMING_WINDOW] = (struct queued_present){token, call_ns};
}

/* The token of a driver's presentID: the first one after the last answered with that low half,
 * if it was issued, queued and is still in the window; else 0. A record the driver did not write
 * (presentID 0, or one read before) never passes: no token with a low half of 0 is issued, and
 * none at or before the last answered one is taken again. */
static uint64_t token_of(const struct display_timing *t, uint32_t present_id) {
    uint64_t token = t->answered + (uint32_t)(present_id - (uint32_t)t->answered);
    if (token == t->answered || token > t->issued || t->issued - token >= DISPLAY_TIMING_WINDOW) {
        return 0;
    }
    return t->queued[token % DISPLAY_TIMING_WINDOW].token == token ? token : 0;
}

int display_timing_take(struct display_timing *t, int64_t now_ns,
                        void (*fn)(void *ctx, uint64_t token, int64_t presented_ns), void *ctx) {
    int taken = 0;
    for (int round = 0; round < ROUNDS && !t->failed && t->answered != t->issued; round++) {
        uint32_t n = DISPLAY_TIMING_BATCH;
        VkResult r = t->past(t->device, t->swapchain, &n, t->batch);
        if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
            t->failed = 1; /* out of date, surface or device lost */
            break;
        }
        if (n > DISPLAY_TIMING_BATCH) {
            n = DISPLAY_TIMING_BATCH;
        }
        for (uint32_t i = 0; i < n; i++) {
            const VkPastPresentationTimingGOOGLE *p = &t->batch[i];
            uint64_t token = token_of(t, p->presentID);
            if (token == 0 || p->actualPresentTime > (uint64_t)now_ns) {
                continue;
            }
            struct queued_present *q = &t->queued[token % DISPLAY_TIMING_WINDOW];
            if ((int64_t)p->actualPresentTime < q->call_ns) {
                continue; /* before its present was called: not our clock */
            }
            q->token = 0;
            t->answered = token;
            fn(ctx, token, (int64_t)p->actualPresentTime);
            taken++;
        }
        if (r != VK_INCOMPLETE) {
            break;
        }
    }
    return taken;
}

void display_timing_free(struct display_timing *t) {
    free(t);
}
