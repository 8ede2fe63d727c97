/* The Vulkan layer's VK_GOOGLE_display_timing part (layer/display_timing.c) against driver answers
 * that hold times, which no driver on this machine kind gives (docs/native.md, "Present times"):
 * the answers are this file's, shaped as the extension's specification says a driver gives them
 * (each record once, oldest first, VK_INCOMPLETE when more are left), plus the wrong ones a driver
 * can give. The layer's calls themselves run against Khronos' mock driver under Khronos'
 * validation layer in tests/display-timing.sh. Built with ASan and UBSan by `make test`. */
#include "../layer/display_timing.c"

#include <string.h>

#include "check.h"


/* The driver: what the next queries answer, in order. */
#define MAX_RECORDS 128
static struct {
    VkPastPresentationTimingGOOGLE records[MAX_RECORDS];
    uint32_t count; /* records not yet handed out */
    uint32_t next;
    VkResult fail;       /* VK_SUCCESS, or what every query returns */
    int leave_untouched; /* as Khronos' mock driver: VK_SUCCESS, nothing written, the count as given */
    int queries;
} driver;

static VKAPI_ATTR VkResult VKAPI_CALL past(VkDevice device, VkSwapchainKHR swapchain, uint32_t *count,
                                           VkPastPresentationTimingGOOGLE *out) {
    (void)device;
    (void)swapchain;
    driver.queries++;
    if (driver.fail != VK_SUCCESS) {
        return driver.fail;
    }
    if (driver.leave_untouched) {
        return VK_SUCCESS;
    }
    uint32_t left = driver.count - driver.next;
    uint32_t n = *count < left ? *count : left;
    for (uint32_t i = 0; i < n; i++) {
        out[i] = driver.records[driver.next++];
    }
    *count = n;
    return n < left ? VK_INCOMPLETE : VK_SUCCESS;
}

static void driver_reset(void) {
    memset(&driver, 0, sizeof driver);
}

static void driver_says(uint32_t present_id, uint64_t actual) {
    driver.records[driver.count++] = (VkPastPresentationTimingGOOGLE){.presentID = present_id, .actualPresentTime = actual};
}

/* What the layer was told. */
static struct {
    uint64_t token[MAX_RECORDS];
    int64_t at[MAX_RECORDS];
    int n;
} told;

static void presented(void *ctx, uint64_t token, int64_t at) {
    (void)ctx;
    told.token[told.n] = token;
    told.at[told.n] = at;
    told.n++;
}

static int take(struct display_timing *t, int64_t now) {
    told.n = 0;
    return display_timing_take(t, now, presented, NULL);
}

static struct display_timing *fresh(void) {
    driver_reset();
    struct display_timing *t = display_timing_new((VkDevice)(uintptr_t)1, past, (VkSwapchainKHR)2);
    CHECK(t != NULL, "display_timing_new");
    return t;
}

/* Presents n frames: ids from the layer, each queued at 1000 * its token ns. */
static void present(struct display_timing *t, int n) {
    for (int i = 0; i < n; i++) {
        uint32_t id;
        uint64_t token = display_timing_next(t, &id);
        CHECK(id == (uint32_t)token && id != 0, "id %u of token %llu", id, (unsigned long long)token);
        display_timing_queued(t, token, (int64_t)token * 1000);
    }
}

static void should_hand_out_the_drivers_times_oldest_first(void) {
    struct display_timing *t = fresh();
    present(t, 3);
    driver_says(1, 1500);
    driver_says(2, 2700);
    CHECK(take(t, 5000) == 2 && driver.queries == 1, "two answered in one query");
    CHECK(told.token[0] == 1 && told.at[0] == 1500 && told.token[1] == 2 && told.at[1] == 2700, "tokens and times");
    driver_says(3, 3999);
    CHECK(take(t, 5000) == 1 && told.token[0] == 3 && told.at[0] == 3999, "the third later");
    int queries = driver.queries;
    CHECK(take(t, 6000) == 0 && driver.queries == queries, "every present answered: the driver is not asked");
    display_timing_free(t);
}

static void should_believe_nothing_from_a_driver_that_writes_nothing(void) {
    struct display_timing *t = fresh();
    driver.leave_untouched = 1; /* Khronos' mock driver: success, the array as it was */
    present(t, 20);
    CHECK(take(t, 1000000) == 0, "no record written, none believed");
    CHECK(take(t, 1000000) == 0, "again");
    display_timing_free(t);
}

static void should_refuse_times_that_cannot_be_the_presents(void) {
    struct display_timing *t = fresh();
    present(t, 4);
    driver_says(1, 999);  /* before its present was called (at 1000): another clock */
    driver_says(2, 9000); /* after the query's now */
    driver_says(3, 0);    /* no time */
    driver_says(4, 4000); /* at its call: believed */
    CHECK(take(t, 8000) == 1 && told.token[0] == 4 && told.at[0] == 4000, "only the fourth: %d", told.n);
    present(t, 1);        /* the fifth, at 5000: the driver is asked again */
    driver_says(2, 2500); /* after a later one was answered: too late, never counted twice */
    driver_says(4, 4100); /* again */
    driver_says(5, 5500);
    CHECK(take(t, 9000) == 1 && told.token[0] == 5, "nothing older than the last answer");
    display_timing_free(t);
}

static void should_refuse_ids_it_did_not_give(void) {
    struct display_timing *t = fresh();
    present(t, 2);
    driver_says(7, 1500); /* not issued */
    driver_says(0, 1500); /* an unwritten record */
    driver_says(2, 2500);
    CHECK(take(t, 5000) == 1 && told.token[0] == 2, "only the issued id");
    display_timing_free(t);
}

static void should_not_believe_a_present_that_failed(void) {
    struct display_timing *t = fresh();
    uint32_t id;
    uint64_t failed = display_timing_next(t, &id); /* issued, never queued */
    present(t, 1);
    driver_says((uint32_t)failed, 1500);
    driver_says((uint32_t)failed + 1, 2500);
    CHECK(take(t, 5000) == 1 && told.token[0] == failed + 1, "the queued one only");
    display_timing_free(t);
}

static void should_ask_again_while_the_driver_has_more(void) {
    struct display_timing *t = fresh();
    present(t, 40);
    for (uint32_t i = 1; i <= 40; i++) {
        driver_says(i, i * 1000 + 10);
    }
    CHECK(take(t, 100000) == 40, "40 in three queries: %d", told.n);
    CHECK(driver.queries == 3, "queries %d", driver.queries);
    for (int i = 0; i < told.n; i++) {
        CHECK(told.token[i] == (uint64_t)i + 1, "in order");
    }
    display_timing_free(t);
}

static void should_leave_the_rest_for_the_next_present(void) {
    struct display_timing *t = fresh();
    present(t, 70); /* the first 6 out of the window: their records are read and refused */
    for (uint32_t i = 1; i <= 70; i++) {
        driver_says(i, i * 1000);
    }
    CHECK(take(t, 100000) == 58 && driver.queries == 4, "four batches a present: %d in %d", told.n, driver.queries);
    CHECK(take(t, 100000) == 6 && told.token[5] == 70, "the rest at the next: %d", told.n);
    display_timing_free(t);
}

static void should_stop_asking_a_driver_that_refused(void) {
    struct display_timing *t = fresh();
    present(t, 2);
    driver.fail = VK_ERROR_OUT_OF_DATE_KHR;
    CHECK(take(t, 5000) == 0 && driver.queries == 1, "refused");
    driver.fail = VK_SUCCESS;
    driver_says(1, 1500);
    CHECK(take(t, 5000) == 0 && driver.queries == 1, "not asked again");
    display_timing_free(t);
}

static void should_forget_presents_older_than_the_window(void) {
    struct display_timing *t = fresh();
    present(t, DISPLAY_TIMING_WINDOW);
    uint32_t id;
    display_timing_next(t, &id); /* the 65th present failed: the first one's slot still holds it */
    driver_says(1, 1500);        /* 65 presents back */
    driver_says(2, 2500);        /* 64 back */
    CHECK(take(t, 1000000) == 1 && told.token[0] == 2, "the first is out of the window");
    display_timing_free(t);
}

static void should_map_ids_across_the_32_bit_wrap(void) {
    struct display_timing *t = fresh();
    t->issued = t->answered = 0xFFFFFFFEu; /* 4 billion presents later */
    uint32_t ids[3];
    uint64_t tokens[3];
    for (int i = 0; i < 3; i++) {
        tokens[i] = display_timing_next(t, &ids[i]);
        display_timing_queued(t, tokens[i], 1000);
    }
    CHECK(ids[0] == 0xFFFFFFFFu && ids[1] == 1 && ids[2] == 2, "ids %x %x %x (0 skipped)", ids[0], ids[1], ids[2]);
    CHECK(tokens[1] == 0x100000001ull, "token %llx", (unsigned long long)tokens[1]);
    driver_says(0xFFFFFFFFu, 2000);
    driver_says(1, 2100);
    driver_says(2, 2200);
    CHECK(take(t, 5000) == 3 && told.token[0] == tokens[0] && told.token[1] == tokens[1] && told.token[2] == tokens[2],
          "all three across the wrap");
    display_timing_free(t);
}

static uint64_t refresh_answer;
static VkResult refresh_result;
static VKAPI_ATTR VkResult VKAPI_CALL refresh(VkDevice device, VkSwapchainKHR swapchain, VkRefreshCycleDurationGOOGLE *d) {
    (void)device;
    (void)swapchain;
    if (refresh_result == VK_SUCCESS) {
        d->refreshDuration = refresh_answer;
    }
    return refresh_result;
}

static void should_take_a_plausible_refresh_cycle_only(void) {
    VkDevice dev = (VkDevice)(uintptr_t)1;
    refresh_answer = 16666667;
    CHECK(display_timing_refresh(dev, refresh, (VkSwapchainKHR)2) == 16666667, "60 Hz");
    refresh_answer = 999999;
    CHECK(display_timing_refresh(dev, refresh, (VkSwapchainKHR)2) == 0, "over 1000 Hz");
    refresh_answer = 1000000001;
    CHECK(display_timing_refresh(dev, refresh, (VkSwapchainKHR)2) == 0, "under 1 Hz");
    refresh_result = VK_ERROR_SURFACE_LOST_KHR;
    refresh_answer = 16666667;
    CHECK(display_timing_refresh(dev, refresh, (VkSwapchainKHR)2) == 0, "refused");
    CHECK(display_timing_refresh(dev, NULL, (VkSwapchainKHR)2) == 0, "no function");
}

int main(void) {
    should_hand_out_the_drivers_times_oldest_first();
    should_believe_nothing_from_a_driver_that_writes_nothing();
    should_refuse_times_that_cannot_be_the_presents();
    should_refuse_ids_it_did_not_give();
    should_not_believe_a_present_that_failed();
    should_ask_again_while_the_driver_has_more();
    should_leave_the_rest_for_the_next_present();
    should_stop_asking_a_driver_that_refused();
    should_forget_presents_older_than_the_window();
    should_map_ids_across_the_32_bit_wrap();
    should_take_a_plausible_refresh_cycle_only();
    if (failures) {
        fprintf(stderr, "display-timing-unit: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("display-timing-unit: %d checks passed\n", checks);
    return 0;
}
