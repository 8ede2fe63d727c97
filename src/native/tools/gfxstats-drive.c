/* gfxstats-drive: records frames read from standard input through libgfxstats, as a real client
 * of the daemon. One frame per line, CLOCK_MONOTONIC ns, the format of `gfxstats record`:
 *   intended_vsync,vsync,frame_completed,gpu_completed,frame_interval
 * or, with --frameinfo, the 23 FrameInfo fields comma-separated. Blank lines and # comments are
 * skipped; a line "@SINCE,NAME" sets the scene of frames intended at or after SINCE (an empty
 * NAME: the default scene); "@@SINCE,NAME" sets the session's default scene (gfxstats_set_default_scene_since).
 * Scene options: --no-scenes, --scene-max N, --default-scene NAME, --matrix 2.1|legacy|time,
 * --levels N,M,H,F, --refresh-hz HZ (the gfxstats_options fields). --rules android9 runs the Android 9 rules, --dequeue-forgiveness NS
 * forgives that much dequeue time (gfxstats_tracker_new_with). Davey lines (frames of 700 ms or
 * more) are off unless --davey log (the library's default line on stderr). --rules-only prints the 190 counters the rules give instead (no daemon), one per line.
 * FrameTimeline lines (gfxstats_timeline_*, to the first tracker, or the one --timeline-tracker K
 * names, 0-based):
 *   C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END   commit
 *   N,TOKEN,ACTUAL_START,ACTUAL_END                                                   commit, no prediction
 *   P,TOKEN,PRESENT,REFRESH,FLAGS                                                     presented
 *   D,TOKEN,REFRESH                                                                   discarded
 *   Q,TOKEN,PRESENT,REFRESH,FLAGS,MSC,OUTPUT                                         presented on an output
 *   W,NOW                                                                             poll
 *   F                                                                                 flush (gfxstats_timeline_flush)
 * (FLAGS: GFXSTATS_PRESENT_* bits, decimal); --rules-only skips them. --compositor WAIT_NS joins
 * that tracker with the daemon's display-frame ring (gfxstats_timeline_join_compositor). A line
 * "S" (sync) counts what the tracker's ring holds, looks for the display-frame ring
 * (gfxstats_session_refresh_compositor) and then prints "synced" on standard output, for a test
 * that must know when the driver's frames were counted. A line "A" waits until the daemon answered
 * the registration (gfxstats_session_wait_attached, up to --wait-attached MS, else 30 s), for a
 * test that starts the daemon while the driver records (tests/postmortem.sh).
 * --sigkill-at-end: after the last line the driver SIGKILLs itself instead of closing, leaving what
 * the rings hold (with GFXSTATS_TEST_DRAIN_PAUSED, all since the last explicit drain) to the daemon
 * (tests/postmortem.sh); it says on stderr how many frames that is. --exec-at-end CMD: the same, but
 * the driver replaces itself with `sh -c CMD` (the same process, its mappings and connection gone).
 * --drain-at-end: before that, every tracker is drained (tests/clients.sh: what a tracker without a
 * stripe of its own counted must then be in the buffer, not only in the process's memory).
 * Used by the differential and end-to-end tests; prints "recorded N frames" (and ", T timeline
 * lines" when there were any). */
#include "gfxstats.h"
#include "../lib/rules.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void) {
    fprintf(stderr, "usage: gfxstats-drive [--package P] [--version-code N] [--pipeline 0|1|2] "
                    "[--refresh NS] [--frameinfo [--replay]] [--rules android12|android9] [--dequeue-forgiveness NS] [--davey off|log] [--no-scenes] [--scene-max N] [--default-scene NAME] "
                    "[--matrix 2.1|legacy|time] [--levels N,M,H,F] [--refresh-hz HZ] [--rules-only] [--wait-attached MS] [--trackers N] [--no-flush] "
                    "[--timeline-tracker K] [--compositor WAIT_NS] [--sigkill-at-end | --exec-at-end CMD] [--drain-at-end] < frames\n"
                    "  frame lines: intended_vsync,vsync,frame_completed,gpu_completed,frame_interval "
                    "(--frameinfo: the 23 FrameInfo fields); scene lines: @SINCE,NAME, @@SINCE,NAME;\n"
                    "  FrameTimeline lines: C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END | "
                    "N,TOKEN,ACTUAL_START,ACTUAL_END | P,TOKEN,PRESENT,REFRESH,FLAGS | D,TOKEN,REFRESH | "
                    "Q,TOKEN,PRESENT,REFRESH,FLAGS,MSC,OUTPUT | W,NOW | F | S (sync; --compositor WAIT_NS) | A (wait attached)\n");
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
    int davey = GFXSTATS_DAVEY_OFF;
    int scenes_off = 0, scene_max = 0, matrix_mode = GFXSTATS_MATRIX_2_1;
    int32_t levels[4] = {0};
    const char *default_scene = NULL;
    float refresh_hz = 0.0f;
    int64_t join_wait = -1;
    int sigkill = 0; /* tests/postmortem.sh: SIGKILL itself after the last line, frames left in the rings */
    const char *exec_cmd = NULL; /* tests/postmortem.sh: exec this instead, frames left in the rings */
    int drain_at_end = 0;         /* tests/clients.sh: every tracker drained before the SIGKILL */
    int pipeline = 1, frameinfo = 0, rules_only = 0, wait_ms = -1, replay = 0, ntrackers = 1, flush = 1, tl_tracker = 0;
    gfxstats_tracker_options topt = {.struct_size = sizeof topt, .rules = GFXSTATS_RULES_ANDROID12};
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
        else if (!strcmp(a, "--compositor") && v) { join_wait = strtoll(v, NULL, 10); i++; }
        else if (!strcmp(a, "--rules") && v) {
            if (!strcmp(v, "android9")) topt.rules = GFXSTATS_RULES_ANDROID9;
            else if (strcmp(v, "android12")) usage();
            i++;
        }
        else if (!strcmp(a, "--dequeue-forgiveness") && v) { topt.dequeue_forgiveness_ns = strtoll(v, NULL, 10); i++; }
        else if (!strcmp(a, "--davey") && v) {
            if (!strcmp(v, "log")) davey = GFXSTATS_DAVEY_LOG;
            else if (strcmp(v, "off")) usage();
            i++;
        }
        else if (!strcmp(a, "--no-scenes")) scenes_off = 1;
        else if (!strcmp(a, "--scene-max") && v) { scene_max = atoi(v); i++; }
        else if (!strcmp(a, "--default-scene") && v) { default_scene = v; i++; }
        else if (!strcmp(a, "--refresh-hz") && v) { refresh_hz = strtof(v, NULL); i++; }
        else if (!strcmp(a, "--levels") && v) {
            if (sscanf(v, "%d,%d,%d,%d", &levels[0], &levels[1], &levels[2], &levels[3]) != 4) usage();
            i++;
        }
        else if (!strcmp(a, "--matrix") && v) {
            if (!strcmp(v, "legacy")) matrix_mode = GFXSTATS_MATRIX_LEGACY;
            else if (!strcmp(v, "time")) matrix_mode = GFXSTATS_MATRIX_TIME;
            else if (strcmp(v, "2.1")) usage();
            i++;
        }
        else if (!strcmp(a, "--frameinfo")) frameinfo = 1;
        else if (!strcmp(a, "--replay")) replay = 1;
        else if (!strcmp(a, "--rules-only")) rules_only = 1;
        else if (!strcmp(a, "--no-flush")) flush = 0; /* tests/drops.sh: lets a ring fill */
        else if (!strcmp(a, "--sigkill-at-end")) sigkill = 1;
        else if (!strcmp(a, "--exec-at-end") && v) { exec_cmd = v; i++; }
        else if (!strcmp(a, "--drain-at-end")) drain_at_end = 1;
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
        int64_t r = refresh > 0 ? refresh : 16666667;
        gfx_rules_init_config(&rules, topt.rules == GFXSTATS_RULES_ANDROID9 ? GFX_RULES_ANDROID9 : GFX_RULES_MODERN, r, r,
                              topt.dequeue_forgiveness_ns, replay);
    } else {
        gfxstats_options o = {.struct_size = sizeof o, .package_name = pkg, .version_code = version,
                              .pipeline = pipeline, .refresh_interval_ns = refresh, .close_wait_ms = 10000,
                              .deadlines_already_extended = replay, .davey = davey, .scenes_off = scenes_off,
                              .scene_max = scene_max, .default_scene = default_scene, .matrix_mode = matrix_mode,
                              .matrix_levels = {levels[0], levels[1], levels[2], levels[3]},
                              .refresh_rate_hz = refresh_hz};
        int rc = gfxstats_session_open(&o, &s);
        if (rc) {
            fprintf(stderr, "gfxstats-drive: cannot open a session: %s\n", gfxstats_strerror(rc));
            return 2;
        }
        if (wait_ms >= 0 && !gfxstats_session_wait_attached(s, wait_ms)) {
            fprintf(stderr, "gfxstats-drive: no daemon answered within %d ms\n", wait_ms);
        }
        for (int k = 0; k < ntrackers; k++) {
            if ((rc = gfxstats_tracker_new_with(s, &topt, &trackers[k]))) {
                fprintf(stderr, "gfxstats-drive: cannot create a tracker: %s\n", gfxstats_strerror(rc));
                return 2;
            }
        }
        if (join_wait >= 0 && (rc = gfxstats_timeline_join_compositor(trackers[tl_tracker], join_wait))) {
            fprintf(stderr, "gfxstats-drive: cannot join the compositor: %s\n", gfxstats_strerror(rc));
            return 2;
        }
    }
    char line[4096];
    long long lineno = 0, frames = 0, bad = 0, timeline = 0, since_drain = 0;
    int64_t v[GFXSTATS_FI_COUNT];
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\n' || *p == '\r' || *p == '#' || *p == 0) continue;
        if (*p == '@') {
            /* "@SINCE,NAME": every tracker's scene is NAME for frames intended at or after SINCE
             * ("@SINCE," with no name: back to the default scene). */
            int session_wide = p[1] == '@'; /* "@@SINCE,NAME": the session's default scene */
            p += session_wide;
            char *end;
            long long since = strtoll(p + 1, &end, 10);
            if (end == p + 1 || *end != ',') {
                fprintf(stderr, "gfxstats-drive: line %lld: a scene line is @SINCE,NAME\n", lineno);
                bad++;
                continue;
            }
            char *name = end + 1;
            name[strcspn(name, "\r\n")] = 0;
            since_drain = 0; /* a scene switch counts the rings first */
            if (session_wide) {
                int rc = rules_only ? 0 : gfxstats_set_default_scene_since(s, *name ? name : NULL, since);
                if (rc) {
                    fprintf(stderr, "gfxstats-drive: line %lld: %s\n", lineno, gfxstats_strerror(rc));
                    bad++;
                }
                continue;
            }
            for (int k = 0; k < ntrackers && !rules_only; k++) {
                int rc = gfxstats_set_scene_since(trackers[k], *name ? name : NULL, since);
                if (rc) {
                    fprintf(stderr, "gfxstats-drive: line %lld: %s\n", lineno, gfxstats_strerror(rc));
                    bad++;
                }
            }
            continue;
        }
        if ((*p == 'S' || *p == 'F' || *p == 'A') && (p[1] == '\n' || p[1] == '\r' || p[1] == 0)) {
            if (rules_only) {
                continue;
            }
            if (*p == 'A') {
                if (!gfxstats_session_wait_attached(s, wait_ms > 0 ? wait_ms : 30000)) {
                    fprintf(stderr, "gfxstats-drive: line %lld: no daemon answered\n", lineno);
                    return 2;
                }
                continue;
            }
            if (*p == 'F') {
                gfxstats_timeline_flush(trackers[tl_tracker]);
                continue;
            }
            gfxstats_tracker_flush(trackers[tl_tracker]);
            gfxstats_session_refresh_compositor(s);
            printf("synced\n");
            fflush(stdout);
            continue;
        }
        if (*p == 'C' || *p == 'N' || *p == 'P' || *p == 'D' || *p == 'Q' || *p == 'W') {
            char kind = *p;
            int n = kind == 'C' || kind == 'Q' ? 7 : kind == 'P' ? 5 : kind == 'N' ? 4 : kind == 'W' ? 2 : 3;
            if (p[1] != ',' || parse_line(p + 2, v, n - 1)) {
                fprintf(stderr, "gfxstats-drive: line %lld: a %c line is %s\n", lineno, kind,
                        kind == 'C' ? "C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END"
                        : kind == 'N' ? "N,TOKEN,ACTUAL_START,ACTUAL_END"
                        : kind == 'P' ? "P,TOKEN,PRESENT,REFRESH,FLAGS"
                        : kind == 'Q' ? "Q,TOKEN,PRESENT,REFRESH,FLAGS,MSC,OUTPUT"
                        : kind == 'W' ? "W,NOW" : "D,TOKEN,REFRESH");
                bad++;
                continue;
            }
            if (rules_only) {
                continue;
            }
            int rc = kind == 'C' ? gfxstats_timeline_commit(trackers[tl_tracker], v[0], v[1], v[2], v[3], v[4], v[5])
                     : kind == 'N' ? gfxstats_timeline_commit_unpredicted(trackers[tl_tracker], v[0], v[1], v[2])
                     : kind == 'P' ? gfxstats_timeline_presented(trackers[tl_tracker], v[0], v[1], v[2], (uint32_t)v[3])
                     : kind == 'Q' ? gfxstats_timeline_presented_on(trackers[tl_tracker], v[0], v[1], v[2], (uint32_t)v[3],
                                                                    v[4], v[5])
                     : kind == 'W' ? gfxstats_timeline_poll(trackers[tl_tracker], v[0])
                                   : gfxstats_timeline_discarded(trackers[tl_tracker], v[0], v[1]);
            if (rc < 0) {
                fprintf(stderr, "gfxstats-drive: line %lld: %s\n", lineno, gfxstats_strerror(rc));
                return 2;
            }
            /* They share the tracker's ring with its frames: count it before it fills. */
            if (++timeline % 256 == 0 && flush) {
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
             * before it fills (it holds 356 FrameInfo frames), so that no frame is dropped. */
            if (flush && (frames / ntrackers) % 256 == 255) {
                gfxstats_tracker_flush(t);
                since_drain = t == trackers[0] ? -1 : since_drain;
            }
            since_drain += t == trackers[0];
        }
        frames++;
    }
    if ((sigkill || exec_cmd) && !rules_only) {
        for (int k = 0; drain_at_end && k < ntrackers; k++) {
            gfxstats_tracker_flush(trackers[k]);
            since_drain = 0;
        }
        /* What the rings hold since their last drain (every 256 frames a tracker, at each scene
         * line; no other with GFXSTATS_TEST_DRAIN_PAUSED) is left for the daemon to count. */
        fprintf(stderr, "gfxstats-drive: %s after %lld frames, %lld since the last drain of tracker 0\n",
                exec_cmd ? "exec" : "SIGKILL", frames, since_drain);
        fflush(stderr);
        if (exec_cmd) {
            execl("/bin/sh", "sh", "-c", exec_cmd, (char *)NULL);
            fprintf(stderr, "gfxstats-drive: cannot exec /bin/sh: %s\n", strerror(errno));
            return 1;
        }
        raise(SIGKILL);
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
