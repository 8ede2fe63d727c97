/* A C program using libgfxstats through its public header and shared library only: two windows
 * (trackers) on two threads, each recording frames of a simple paced render loop with real
 * CLOCK_MONOTONIC times, paced at 60 Hz; every frame it records is also written as a `gfxstats record` line
 * (FRAMES_OUT_<window>), so a test can record the same frames through the Java client and
 * compare. Usage: example PACKAGE FRAMES_PER_WINDOW OUT_PREFIX */
#include <gfxstats.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct window {
    gfxstats_tracker *tracker;
    int frames;
    int index;
    FILE *out;
    int failed;
};

static void *render(void *arg) {
    struct window *w = arg;
    int64_t interval = 16666667;
    int64_t next = gfxstats_now_ns();
    for (int i = 0; i < w->frames; i++) {
        /* Paced to the interval, as a renderer waiting for vsync. */
        int64_t wait = next - gfxstats_now_ns();
        if (wait > 0) {
            struct timespec pause = {0, (long)wait};
            nanosleep(&pause, NULL);
        }
        next += interval;
        int64_t vsync = gfxstats_now_ns();
        /* A frame takes 0.2 to 3 ms of "work"; every 50th frame 25 ms (janky). */
        int64_t work = (i % 50 == 49) ? 25000000 : 200000 + (int64_t)((i * 7919 + w->index * 104729) % 2800) * 1000;
        struct timespec ts = {0, (long)work};
        nanosleep(&ts, NULL);
        int64_t done = gfxstats_now_ns();
        int64_t gpu = done + (i % 3) * 1000000;
        if (gfxstats_record(w->tracker, vsync, vsync, done, gpu, interval) != GFXSTATS_OK) {
            w->failed = 1;
        }
        fprintf(w->out, "%lld,%lld,%lld,%lld,%lld\n", (long long)vsync, (long long)vsync, (long long)done,
                (long long)gpu, (long long)interval);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: example PACKAGE FRAMES_PER_WINDOW OUT_PREFIX\n");
        return 2;
    }
    gfxstats_options o = {.struct_size = sizeof o, .package_name = argv[1], .version_code = 5,
                          .pipeline = GFXSTATS_PIPELINE_VULKAN, .close_wait_ms = -1};
    gfxstats_session *s;
    int rc = gfxstats_session_open(&o, &s);
    if (rc != GFXSTATS_OK) {
        fprintf(stderr, "example: %s\n", gfxstats_strerror(rc));
        return 2;
    }
    struct window w[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%d", argv[3], i);
        w[i] = (struct window){.frames = atoi(argv[2]), .index = i, .out = fopen(path, "w")};
        if (!w[i].out || gfxstats_tracker_new(s, &w[i].tracker) != GFXSTATS_OK) {
            fprintf(stderr, "example: cannot set up window %d\n", i);
            return 2;
        }
        pthread_create(&th[i], NULL, render, &w[i]);
    }
    int failed = 0;
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        gfxstats_tracker_close(w[i].tracker);
        fclose(w[i].out);
        failed |= w[i].failed;
    }
    gfxstats_session_close(s);
    printf("recorded %d frames\n", 2 * atoi(argv[2]));
    return failed;
}
