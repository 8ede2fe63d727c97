#include "present_wait.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gfxstats.h"

#define SLOTS 64u
/* A wait is cut into slices so that stop never waits long for the driver to return. */
#define SLICE_NS 20000000ull

struct completed {
    uint64_t id;
    int64_t at;
};

struct present_wait {
    VkDevice device;
    PFN_vkWaitForPresentKHR wait;
    VkSwapchainKHR swapchain;
    pthread_t thread;
    int started;
    int stop;                  /* atomic */
    uint64_t next_id;          /* render thread only */
    /* queued: render thread -> waiter */
    uint64_t queued[SLOTS];
    uint64_t queued_head;      /* written by the render thread */
    uint64_t queued_tail;      /* written by the waiter */
    /* done: waiter -> render thread */
    struct completed done[SLOTS];
    uint64_t done_head;        /* written by the waiter */
    uint64_t done_tail;        /* written by the taker */
};

static int settled(VkResult r) {
    return r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR;
}

static void pause_briefly(void) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* The oldest queued present completed at `at`: handed to the render thread. */
static void hand_over(struct present_wait *w, uint64_t tail, uint64_t id, int64_t at) {
    uint64_t head = w->done_head;
    if (head - __atomic_load_n(&w->done_tail, __ATOMIC_ACQUIRE) < SLOTS) {
        w->done[head % SLOTS] = (struct completed){id, at};
        __atomic_store_n(&w->done_head, head + 1, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&w->queued_tail, tail + 1, __ATOMIC_RELEASE);
}

static void *run(void *arg) {
    struct present_wait *w = arg;
    uint64_t last = 0;
    /* Nothing queued: wait for the id after the last one, which a driver answers only once that
     * present completed (it has to be queued first). A driver that answers at once instead would
     * make that a busy loop; after three such answers the thread polls every millisecond. */
    int blocks = 1;
    int early = 0;
    int failed = 0;
    while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
        uint64_t tail = w->queued_tail;
        if (tail == __atomic_load_n(&w->queued_head, __ATOMIC_ACQUIRE)) {
            if (!blocks) {
                pause_briefly();
                continue;
            }
            VkResult r = w->wait(w->device, w->swapchain, last + 1, SLICE_NS);
            if (r == VK_TIMEOUT) {
                continue;
            }
            if (!settled(r)) {
                failed = 1;
                break;
            }
            if (tail == __atomic_load_n(&w->queued_head, __ATOMIC_ACQUIRE) && ++early >= 3) {
                blocks = 0;
            }
            continue;
        }
        uint64_t id = w->queued[tail % SLOTS];
        VkResult r = w->wait(w->device, w->swapchain, id, SLICE_NS);
        if (r == VK_TIMEOUT) {
            continue;
        }
        if (!settled(r)) {
            failed = 1; /* out of date, surface or device lost: no more present times from it */
            break;
        }
        early = 0;
        last = id;
        hand_over(w, tail, id, gfxstats_now_ns());
    }
    /* Stopped (the swapchain is about to go): the presents already done still get a time, the one
     * at which the layer learnt of them; the others stay unknown. */
    for (uint64_t tail = w->queued_tail; !failed && tail != __atomic_load_n(&w->queued_head, __ATOMIC_ACQUIRE); tail++) {
        uint64_t id = w->queued[tail % SLOTS];
        if (!settled(w->wait(w->device, w->swapchain, id, 0))) {
            break;
        }
        hand_over(w, tail, id, gfxstats_now_ns());
    }
    __atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
    return NULL;
}

struct present_wait *present_wait_start(VkDevice device, PFN_vkWaitForPresentKHR wait, VkSwapchainKHR swapchain) {
    struct present_wait *w = calloc(1, sizeof *w);
    if (!w) {
        return NULL;
    }
    w->device = device;
    w->wait = wait;
    w->swapchain = swapchain;
    if (pthread_create(&w->thread, NULL, run, w) != 0) {
        fprintf(stderr, "gfxstats: no thread to wait for presents: frames get no present times\n");
        free(w);
        return NULL;
    }
    w->started = 1;
    return w;
}

uint64_t present_wait_next_id(struct present_wait *w) {
    return ++w->next_id;
}

void present_wait_queued(struct present_wait *w, uint64_t id) {
    if (__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
        return;
    }
    uint64_t head = w->queued_head;
    if (head - __atomic_load_n(&w->queued_tail, __ATOMIC_ACQUIRE) >= SLOTS) {
        return;
    }
    w->queued[head % SLOTS] = id;
    __atomic_store_n(&w->queued_head, head + 1, __ATOMIC_RELEASE);
}

int present_wait_take(struct present_wait *w, uint64_t *id, int64_t *presented_ns) {
    uint64_t tail = w->done_tail;
    if (tail == __atomic_load_n(&w->done_head, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    struct completed c = w->done[tail % SLOTS];
    __atomic_store_n(&w->done_tail, tail + 1, __ATOMIC_RELEASE);
    *id = c.id;
    *presented_ns = c.at;
    return 1;
}

void present_wait_stop(struct present_wait *w) {
    if (!w || !w->started) {
        return;
    }
    __atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
    pthread_join(w->thread, NULL);
    w->started = 0;
}

void present_wait_free(struct present_wait *w) {
    if (w) {
        present_wait_stop(w);
        free(w);
    }
}
