/* gfxstats-drive: records frames read from standard input through libgfxstats, as a real client
 * of the daemon. One frame per line, CLOCK_MONOTONIC ns, the format of `gfxstats record`:
 *   intended_vsync,vsync,frame_completed,gpu_completed,frame_interval
 * or, with --frameinfo, the 23 FrameInfo fields comma-separated. Blank lines and # comments are
 * skipped; a line "@SINCE,NAME" sets the scene of frames intended at or after SINCE (an empty
 * NAME: the default scene). FrameTimeline lines (gfxstats_timeline_*, to the first tracker, or the
 * one --timeline-tracker K names, 0-based):
 *   C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END   commit
 *   N,TOKEN,ACTUAL_START,ACTUAL_END                                                   commit, no prediction
 *   P,TOKEN,PRESENT,REFRESH,FLAGS                                                     presented
 *   D,TOKEN,REFRESH                                                                   discarded
 * (FLAGS: GFXSTATS_PRESENT_* bits, decimal); --rules-only skips them. --rules-only prints the 190 counters the rules give instead (no daemon), one per line.
 * Used by the differential and end-to-end tests; prints "recorded N frames" (and ", T timeline
 * lines" when there were any). */
#include "gfxstats.h"
#include "../lib/rules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void) {
    fprintf(stderr, "usage: gfxstats-drive [--package P] [--version-code N] [--pipeline 0|1|2] "
                    "[--refresh NS] [--frameinfo [--replay]] [--rules-only] [--wait-attached MS] [--trackers N] "
                    "[--timeline-tracker K] < frames\n"
                    "  frame lines: intended_vsync,vsync,frame_completed,gpu_completed,frame_interval "
                    "(--frameinfo: the 23 FrameInfo fields); scene lines: @SINCE,NAME;\n"
                    "  FrameTimeline lines: C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END | "
                    "N,TOKEN,ACTUAL_START,ACTUAL_END | P,TOKEN,PRESENT,REFRESH,FLAGS | D,TOKEN,REFRESH\n");
    exit(2);
}

static int parse_line(char *line, int64_t *v, int want) {
    int n = 0;
    char *p = line;
    while (n < want) {
        errno = 0;
        char *end;
        long long x = strtoll(p, &end, 10);
        if (end == p || errno) return -1;
        v[n++] = x;
        while (*end == ' ') end++;
        if (n < want) {
            if (*end != ',') return -1;
            p = end + 1;
        } else if (*end == ',' && (end[1] == 0 || end[1] == '\n' || end[1] == '\r')) {
            return 0;
        } else if (*end && *end != '\n' && *end != '\r') {
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *pkg = "drive";
    int64_t version = 1, refresh = 0;
    int pipeline = 1, frameinfo = 0, rules_only = 0, wait_ms = -1, replay = 0, ntrackers = 1, tl_tracker = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--package") && v) { pkg = v; i++; }
        else if (!strcmp(a, "--version-code") && v) { version = strtoll(v, NULL, 10); i++; }
        else if (!strcmp(a, "--pipeline") && v) { pipeline = atoi(v); i++; }
        else if (!strcmp(a, "--refresh") && v) { refresh = strtoll(v, NULL, 10); i++; }
        else if (!strcmp(a, "--wait-attached") && v) { wait_ms = atoi(v); i++; }
        else if (!strcmp(a, "--trackers") && v) { ntrackers = atoi(v); i++; }
        else if (!strcmp(a, "--timeline-tracker") && v) { tl_tracker = atoi(v); i++; }
        else if (!strcmp(a, "--frameinfo")) frameinfo = 1;
        else if (!strcmp(a, "--replay")) replay = 1;
        else if (!strcmp(a, "--rules-only")) rules_only = 1;
        else usage();
    }
    int want = frameinfo ? GFXSTATS_FI_COUNT : 5;
    if (ntrackers < 1 || ntrackers > 1024 || tl_tracker < 0 || tl_tracker >= ntrackers) usage();
    gfxstats_session *s = NULL;
    gfxstats_tracker *trackers[1024] = {0};
    gfxstats_tracker *t = NULL;
    struct gfx_rules rules;
    static uint32_t counters[GFX_COUNTERS];
    if (rules_only) {
        gfx_rules_init(&rules, refresh > 0 ? refresh : 16666667, replay);
    } else {
        gfxstats_options o = {.struct_size = sizeof o, .package_name = pkg, .version_code = version,
                              .pipeline = pipeline, .refresh_interval_ns = refresh, .close_wait_ms = 10000,
                              .deadlines_already_extended = replay};
        int rc = gfxstats_session_open(&o, &s);
        if (rc) {
            fprintf(stderr, "gfxstats-drive: cannot open a session: %s\n", gfxstats_strerror(rc));
            return 2;
        }
        if (wait_ms >= 0 && !gfxstats_session_wait_attached(s, wait_ms)) {
            fprintf(stderr, "gfxstats-drive: no daemon answered within %d ms\n", wait_ms);
        }
        for (int k = 0; k < ntrackers; k++) {
            if ((rc = gfxstats_tracker_new(s, &trackers[k]))) {
                fprintf(stderr, "gfxstats-drive: cannot create a tracker: %s\n", gfxstats_strerror(rc));
                return 2;
            }
        }
    }
    char line[4096];
    long long lineno = 0, frames = 0, bad = 0, timeline = 0;
    int64_t v[GFXSTATS_FI_COUNT];
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\n' || *p == '\r' || *p == '#' || *p == 0) continue;
        if (*p == '@') {
            /* "@SINCE,NAME": every tracker's scene is NAME for frames intended at or after SINCE
             * ("@SINCE," with no name: back to the default scene). */
            char *end;
            long long since = strtoll(p + 1, &end, 10);
            if (end == p + 1 || *end != ',') {
                fprintf(stderr, "gfxstats-drive: line %lld: a scene line is @SINCE,NAME\n", lineno);
                bad++;
                continue;
            }
            char *name = end + 1;
            name[strcspn(name, "\r\n")] = 0;
            for (int k = 0; k < ntrackers && !rules_only; k++) {
                int rc = gfxstats_set_scene_since(trackers[k], *name ? name : NULL, since);
                if (rc) {
                    fprintf(stderr, "gfxstats-drive: line %lld: %s\n", lineno, gfxstats_strerror(rc));
                    bad++;
                }
            }
            continue;
        }
        if (*p == 'C' || *p == 'N' || *p == 'P' || *p == 'D') {
            char kind = *p;
            int n = kind == 'C' ? 7 : kind == 'P' ? 5 : kind == 'N' ? 4 : 3;
            if (p[1] != ',' || parse_line(p + 2, v, n - 1)) {
                fprintf(stderr, "gfxstats-drive: line %lld: a %c line is %s\n", lineno, kind,
                        kind == 'C' ? "C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END"
                        : kind == 'N' ? "N,TOKEN,ACTUAL_START,ACTUAL_END"
                        : kind == 'P' ? "P,TOKEN,PRESENT,REFRESH,FLAGS" : "D,TOKEN,REFRESH");
                bad++;
                continue;
            }
            if (rules_only) {
                continue;
            }
            int rc = kind == 'C' ? gfxstats_timeline_commit(trackers[tl_tracker], v[0], v[1], v[2], v[3], v[4], v[5])
                     : kind == 'N' ? gfxstats_timeline_commit_unpredicted(trackers[tl_tracker], v[0], v[1], v[2])
                     : kind == 'P' ? gfxstats_timeline_presented(trackers[tl_tracker], v[0], v[1], v[2], (uint32_t)v[3])
                                   : gfxstats_timeline_discarded(trackers[tl_tracker], v[0], v[1]);
            if (rc < 0) {
                fprintf(stderr, "gfxstats-drive: line %lld: %s\n", lineno, gfxstats_strerror(rc));
                return 2;
            }
            /* They share the tracker's ring with its frames: count it before it fills. */
            if (++timeline % 256 == 0) {
                gfxstats_tracker_flush(trackers[tl_tracker]);
            }
            continue;
        }
        if (parse_line(p, v, want)) {
            fprintf(stderr, "gfxstats-drive: line %lld: not %d comma-separated integers\n", lineno, want);
            bad++;
            continue;
        }
        if (rules_only) {
            uint32_t out = frameinfo ? gfx_classify_frameinfo(&rules, v)
                                     : gfx_classify_times(&rules, v[0], v[1], v[2], v[3],
                                                          v[4] > 0 ? v[4] : rules.default_interval);
            gfx_count_into(out, counters);
        } else {
            t = trackers[frames % ntrackers]; /* --trackers N: frames dealt round-robin */
            int rc = frameinfo ? gfxstats_record_frameinfo(t, v) : gfxstats_record(t, v[0], v[1], v[2], v[3], v[4]);
            if (rc) {
                fprintf(stderr, "gfxstats-drive: line %lld: %s\n", lineno, gfxstats_strerror(rc));
                return 2;
            }
            /* Lines arrive far faster than any display presents: count each tracker's ring
             * before it fills (it holds 341 FrameInfo frames), so that no frame is dropped. */
            if ((frames / ntrackers) % 256 == 255) {
                gfxstats_tracker_flush(t);
            }
        }
        frames++;
    }
    if (rules_only) {
        for (int i = 0; i < GFX_COUNTERS; i++) printf("%u\n", counters[i]);
    } else {
        uint64_t dropped = 0;
        /* Newest first: a tracker without a stripe then finds every stripe still held, so its
         * counts take the shared-stripe path at close (oldest first, it would claim a freed one). */
        for (int k = ntrackers - 1; k >= 0; k--) {
            dropped += gfxstats_tracker_dropped(trackers[k]);
            gfxstats_tracker_close(trackers[k]);
        }
        if (dropped) {
            fprintf(stderr, "gfxstats-drive: %llu frames dropped (a ring was full)\n", (unsigned long long)dropped);
            bad++;
        }
        int attached = gfxstats_session_attached(s);
        gfxstats_session_close(s);
        if (timeline) {
            printf("recorded %lld frames, %lld timeline lines%s\n", frames, timeline, attached ? "" : " (no daemon)");
        } else {
            printf("recorded %lld frames%s\n", frames, attached ? "" : " (no daemon)");
        }
    }
    return bad ? 1 : 0;
}
