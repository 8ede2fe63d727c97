/*
 * gfxstats native client: counts a renderer's frames with Android's jank rules straight into the
 * buffer the gfxstats daemon maps, like the Java client (io.gfxstats.client) does.
 *
 * One session per process and (package, version code); one tracker per window or swapchain,
 * used by one thread at a time. gfxstats_record() and gfxstats_record_frameinfo() only append
 * the frame to the tracker's ring: no system call, no lock, no allocation, no atomic
 * read-modify-write. The session's thread classifies the frames (Android's rules, scenes, Matrix
 * levels) into the daemon's buffer every 1-50 ms; a full ring drops frames and counts them
 * (gfxstats_tracker_dropped). A frame of 700 ms or more gets its Davey line from that thread
 * (gfxstats_options.davey). Everything else may block briefly.
 *
 * All times are CLOCK_MONOTONIC nanoseconds. Functions return GFXSTATS_OK (0) or a negative
 * GFXSTATS_E* code; gfxstats_strerror() names it. See docs/native.md.
 */
#ifndef GFXSTATS_H
#define GFXSTATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: gfxstats_set_scene and gfxstats_set_scene_since (scenes and Matrix levels).
 * 3: gfxstats_tracker_flush and gfxstats_tracker_dropped (the frame ring);
 *    gfxstats_tracker_new_with (Android 9 rules, dequeue forgiveness); Davey reports (the davey
 *    fields of gfxstats_options); scene options (scenes off, a scene limit, the default scene,
 *    Matrix mode, level bounds and refresh rate, a scene file) and gfxstats_set_default_scene;
 *    gfxstats_timeline_* (FrameTimeline counters, client-only mode).
 * 4: FrameTimeline compositor mode: gfxstats_timeline_join_compositor,
 *    gfxstats_timeline_presented_on, gfxstats_timeline_poll, gfxstats_timeline_flush and
 *    gfxstats_session_refresh_compositor. */
#define GFXSTATS_API_VERSION 4

enum gfxstats_status {
    GFXSTATS_OK = 0,
    GFXSTATS_EINVAL = -1,   /* a bad argument (package name, version code, pipeline, interval) */
    GFXSTATS_ENOMEM = -2,   /* out of memory or threads */
    GFXSTATS_ECLOSED = -3   /* the tracker or its session is closed */
};

enum gfxstats_pipeline {
    GFXSTATS_PIPELINE_UNKNOWN = 0,
    GFXSTATS_PIPELINE_GL = 1,
    GFXSTATS_PIPELINE_VULKAN = 2
};

/* The 23 FrameInfo fields of Android 12+, in dumpsys framestats order. */
enum gfxstats_frameinfo_field {
    GFXSTATS_FI_FLAGS = 0,
    GFXSTATS_FI_FRAME_TIMELINE_VSYNC_ID,
    GFXSTATS_FI_INTENDED_VSYNC,
    GFXSTATS_FI_VSYNC,
    GFXSTATS_FI_INPUT_EVENT_ID,
    GFXSTATS_FI_HANDLE_INPUT_START,
    GFXSTATS_FI_ANIMATION_START,
    GFXSTATS_FI_PERFORM_TRAVERSALS_START,
    GFXSTATS_FI_DRAW_START,
    GFXSTATS_FI_FRAME_DEADLINE,
    GFXSTATS_FI_FRAME_START_TIME,
    GFXSTATS_FI_FRAME_INTERVAL,
    GFXSTATS_FI_SYNC_QUEUED,
    GFXSTATS_FI_SYNC_START,
    GFXSTATS_FI_ISSUE_DRAW_COMMANDS_START,
    GFXSTATS_FI_SWAP_BUFFERS,
    GFXSTATS_FI_FRAME_COMPLETED,
    GFXSTATS_FI_DEQUEUE_BUFFER_DURATION,
    GFXSTATS_FI_QUEUE_BUFFER_DURATION,
    GFXSTATS_FI_GPU_COMPLETED,
    GFXSTATS_FI_SWAP_BUFFERS_COMPLETED,
    GFXSTATS_FI_DISPLAY_PRESENT_TIME,
    GFXSTATS_FI_COMMAND_SUBMISSION_COMPLETED,
    GFXSTATS_FI_COUNT
};

typedef struct gfxstats_session gfxstats_session;
typedef struct gfxstats_tracker gfxstats_tracker;

/* What happens for a frame of 700 ms or more (Android's "Davey"; gfxstats_options.davey). */
enum gfxstats_davey {
    /* One line on stderr, as the Java client logs it: "gfxstats: Davey! duration=812ms; Flags=0,
     * FrameTimelineVsyncId=0, IntendedVsync=..." (all 23 FrameInfo fields); GFXSTATS_QUIET=1
     * silences it with the library's other lines. The default. */
    GFXSTATS_DAVEY_LOG = 0,
    GFXSTATS_DAVEY_OFF = 1,
    /* davey_callback(davey_user, duration, fields) instead of the line. */
    GFXSTATS_DAVEY_CALLBACK = 2
};

/* Told about a Davey frame: its duration and its FrameInfo fields (a frame given by its times has
 * IntendedVsync, Vsync, FrameDeadline, FrameInterval, SwapBuffers, FrameCompleted,
 * SwapBuffersCompleted and GpuCompleted set, the rest 0). Called on the thread that classifies the
 * frame (the session's thread, or the one in gfxstats_tracker_flush, gfxstats_set_scene,
 * gfxstats_set_default_scene or a close) with the session's lock held, only for such frames: it
 * must not call gfxstats functions. The fields are valid during the call. */
typedef void (*gfxstats_davey_fn)(void *user, int64_t duration_ns, const int64_t *fields);

typedef struct gfxstats_options {
    /* sizeof(gfxstats_options): lets later versions add fields. Required. */
    uint32_t struct_size;
    /* Package name (Android's rule plus '-': dot-separated segments, each an ASCII letter then
     * letters, digits, '_' or '-'; at most 255 bytes). Required. */
    const char *package_name;
    /* 0 or more. */
    int64_t version_code;
    /* GFXSTATS_PIPELINE_*. */
    int32_t pipeline;
    /* Display refresh interval; 0: 60 Hz (16,666,667 ns). */
    int64_t refresh_interval_ns;
    /* The daemon's socket; NULL: $GFXSTATS_SOCKET, else $XDG_STATE_HOME/gfxstats/gfxstatsd.sock,
     * else ~/.local/state/gfxstats/gfxstatsd.sock. */
    const char *socket_path;
    /* How long gfxstats_session_close() waits for a daemon that is reachable but has not answered
     * yet, so that frames counted before it answered are not lost; -1: 2000 ms. Never waits for a
     * daemon that is not running. */
    int32_t close_wait_ms;
    /* Non-zero when replaying captured FrameInfo whose FrameDeadline the device already extended
     * for triple-buffered frames (as `gfxstats record --format framestats` does); 0 for live. */
    int32_t deadlines_already_extended;
    /* ---- API version 3. A caller built against version 2 passes a smaller struct_size and
     * gets the defaults (0 / NULL) of everything below. */
    /* GFXSTATS_DAVEY_*: frames of 700 ms or more. */
    int32_t davey;
    gfxstats_davey_fn davey_callback; /* with GFXSTATS_DAVEY_CALLBACK */
    void *davey_user;
    /* Scenes (SceneOptions of the Java client; docs/scenes.md). Non-zero: no scenes and no
     * Matrix levels at all (buffers show none). */
    int32_t scenes_off;
    /* Scene names the session counts, 1..15; 0: 15. Frames of later names count in "(other)". */
    int32_t scene_max;
    /* The scene of trackers that set none, until gfxstats_set_default_scene; NULL: "default". */
    const char *default_scene;
    /* GFXSTATS_MATRIX_*: how dropped frames are computed. */
    int32_t matrix_mode;
    /* Inclusive lower bounds of the NORMAL, MIDDLE, HIGH and FROZEN levels in dropped frames
     * (1 <= normal <= middle <= high <= frozen); all 0: 3, 9, 24, 42. */
    int32_t matrix_levels[4];
    /* The display's refresh rate as it reports it, 1..1000 Hz; 0: 1e9 / each frame's interval. */
    float refresh_rate_hz;
    /* A file naming the session's default scene in its first line, for programs that cannot
     * call gfxstats_set_default_scene (the layer and the hook: GFXSTATS_SCENE_FILE). Read at open
     * and then checked by the session's own thread at each heartbeat (4 times a second; never by
     * a rendering thread): when its content changed the default scene becomes that name, from
     * then on; missing or empty: default_scene. NULL: none. */
    const char *scene_file;
} gfxstats_options;

/* gfxstats_options.matrix_mode (io.gfxstats.matrix.MatrixMode). */
enum gfxstats_matrix_mode {
    GFXSTATS_MATRIX_2_1 = 0,    /* Matrix 2.1: round(max(0, (T - I) / I)) in float (the default) */
    GFXSTATS_MATRIX_LEGACY = 1, /* Matrix 0.8..2.0.2: (IssueDrawCommandsStart - IntendedVsync) / interval */
    GFXSTATS_MATRIX_TIME = 2    /* the 2.1 dropped frames, level bounds scaled by refresh / 60 */
};

/* The struct_size of a version 2 gfxstats_options (what older callers pass). */
#define GFXSTATS_OPTIONS_SIZE_V2 \
    (offsetof(gfxstats_options, deadlines_already_extended) + sizeof(int32_t))

/* Opens a session and starts registering with the daemon on a background thread; returns at
 * once. Frames can be recorded immediately (counted in memory until the daemon answers). */
int gfxstats_session_open(const gfxstats_options *options, gfxstats_session **out);

/* A tracker for one window or swapchain (Android 12+ rules, the session's refresh interval). */
int gfxstats_tracker_new(gfxstats_session *session, gfxstats_tracker **out);

/* The jank rules of a tracker (gfxstats_tracker_options.rules). */
enum gfxstats_rules {
    /* Android 12+: janky when the GPU finishes after the frame's deadline (the default). */
    GFXSTATS_RULES_ANDROID12 = 0,
    /* Android 9: janky when longer than one refresh interval; deadlines follow the swap chain;
     * no GPU histogram and no legacy counters (io.gfxstats.frame.Android9JankTracker). */
    GFXSTATS_RULES_ANDROID9 = 1
};

/* Settings of one tracker (API version 3), as the Java client's TrackerConfig. */
typedef struct gfxstats_tracker_options {
    /* sizeof(gfxstats_tracker_options). Required. */
    uint32_t struct_size;
    /* GFXSTATS_RULES_*. */
    int32_t rules;
    /* The refresh interval of the legacy and Android 9 accounting; 0: the session's. */
    int64_t refresh_interval_ns;
    /* Android 12+ rules: the interval of frames that bring none; 0: the refresh interval. */
    int64_t default_frame_interval_ns;
    /* Android 12+ rules, FrameInfo frames: up to this much of DequeueBufferDuration is not charged
     * to the legacy swap span; 0: none (the default). */
    int64_t dequeue_forgiveness_ns;
} gfxstats_tracker_options;

/* A tracker with these settings (NULL: as gfxstats_tracker_new). GFXSTATS_EINVAL (one log line)
 * for unknown rules or negative intervals. */
int gfxstats_tracker_new_with(gfxstats_session *session, const gfxstats_tracker_options *options,
                              gfxstats_tracker **out);

/* One finished frame known by its main times: the deadline is intended_vsync + frame_interval
 * (0 or negative: the session's refresh interval); janky when gpu_completed is at or after it;
 * counted in the histogram as frame_completed - intended_vsync; GPU time gpu_completed -
 * frame_completed (pass frame_completed when unknown). Same as WindowTracker.record. */
int gfxstats_record(gfxstats_tracker *tracker, int64_t intended_vsync, int64_t vsync,
                    int64_t frame_completed, int64_t gpu_completed, int64_t frame_interval_ns);

/* One finished frame with all its FrameInfo fields (GFXSTATS_FI_COUNT of them). */
int gfxstats_record_frameinfo(gfxstats_tracker *tracker, const int64_t fields[GFXSTATS_FI_COUNT]);

/* Sets the scene (screen, level, app state) of this tracker's frames from now on: frames whose
 * intended vsync is at or after gfxstats_now_ns() count in it, earlier ones that finish later
 * stay in the scene before (as WindowTracker.setScene). Each scene also counts Matrix's values
 * (frames per dropped-frame level, Σ max(T, I), dropped frames, refresh rate, stage sums; see
 * docs/scenes.md). Names: 1..120 bytes of UTF-8 without control characters; a session holds
 * scene_max names (15 by default) besides "(other)" (the default scene is the first), later
 * names count in "(other)". NULL returns to following the session's default scene. Call on the
 * tracker's thread; takes the session's lock briefly, not a per-frame call. GFXSTATS_EINVAL for a bad name (one log line). */
int gfxstats_set_scene(gfxstats_tracker *tracker, const char *scene);

/* As gfxstats_set_scene, in effect for frames intended at or after since_ns (CLOCK_MONOTONIC). */
int gfxstats_set_scene_since(gfxstats_tracker *tracker, const char *scene, int64_t since_ns);

/* Sets the scene of every tracker that has not set its own (StatsSession.setDefaultScene): frames
 * intended at or after gfxstats_now_ns() count in it, earlier ones stay where they were. NULL:
 * back to the options' default_scene. Any thread; takes the session's lock and counts what the
 * trackers' rings hold first (with the scenes in effect when they were recorded), so it is not
 * a per-frame call. GFXSTATS_EINVAL for a bad name (one log line). */
int gfxstats_set_default_scene(gfxstats_session *session, const char *scene);

/* As gfxstats_set_default_scene, in effect for frames intended at or after since_ns. */
int gfxstats_set_default_scene_since(gfxstats_session *session, const char *scene, int64_t since_ns);

/* FrameTimeline (docs/frametimeline.md, client-only mode; as WindowTracker.timeline() in Java):
 * commit each frame with its token and times, then report its presentation feedback; the frame
 * is classified with SurfaceFlinger's Android 16 rules (present threshold 2 ms, deadline 0) as
 * a SurfaceFrame whose display frame was fine, and counted in the FrameTimeline counters that
 * `gfxstats dump --frametimeline` shows. Like gfxstats_record, these calls only append to the
 * tracker's ring (no system call, lock or allocation): the classification runs when the ring is
 * drained, in the order of the calls. Up to 16 frames await feedback per tracker; committing a
 * 17th gives the oldest up as "present unknown" (jank Unknown); feedback for a token that is not
 * pending then (never committed, given up, answered before) is ignored. Call on the tracker's
 * thread. A call made while the ring is full is dropped and counted by gfxstats_tracker_dropped. */

/* Flags of a presentation (wp_presentation_feedback's kind). */
#define GFXSTATS_PRESENT_VSYNC 0x1u         /* without it (tearing) the present is unknown */
#define GFXSTATS_PRESENT_HW_CLOCK 0x2u      /* without HW_CLOCK and HW_COMPLETION the time is an */
#define GFXSTATS_PRESENT_HW_COMPLETION 0x4u /* estimate, which never gives Prediction Error */
#define GFXSTATS_PRESENT_ZERO_COPY 0x8u

/* A frame with its token (unique among the frames awaiting feedback, e.g. a frame counter), its
 * prediction (expected start, deadline, expected present: from the vsync grid) and its actual
 * work (start; ready = max(commit, GPU completion)). */
int gfxstats_timeline_commit(gfxstats_tracker *tracker, int64_t token, int64_t predicted_start,
                             int64_t predicted_end, int64_t predicted_present, int64_t actual_start,
                             int64_t actual_end);

/* A frame without a prediction (before the first feedback): counted, not classified. */
int gfxstats_timeline_commit_unpredicted(gfxstats_tracker *tracker, int64_t token, int64_t actual_start,
                                         int64_t actual_end);

/* The frame `token` was presented at present_ns on a display refreshing every refresh_ns
 * (0: unknown), with GFXSTATS_PRESENT_* flags. */
int gfxstats_timeline_presented(gfxstats_tracker *tracker, int64_t token, int64_t present_ns, int64_t refresh_ns,
                                uint32_t flags);

/* The frame `token` was never shown (wp_presentation_feedback.discarded): counted as Dropped. */
int gfxstats_timeline_discarded(gfxstats_tracker *tracker, int64_t token, int64_t refresh_ns);

/* Frames committed and not yet answered (0..16) after counting what the ring holds, or a negative
 * code. Takes the session's lock; not a per-frame call. */
int gfxstats_timeline_pending(gfxstats_tracker *tracker);

/* Compositor mode (docs/frametimeline.md, "Compositor mode"; docs/native.md): with a cooperating
 * compositor feeding the daemon its display frames, a frame presented with an output and an MSC
 * is classified under the compositor frame shown at that (output, MSC), read from the
 * display-frame ring the daemon keeps beside the session's buffer, so that late frames get the
 * compositor's or the display's jank instead of "display side unknown". A frame whose compositor
 * frame is not there yet waits for it (keeping its slot) until join_wait_ns of presentation time
 * have passed, its slot is needed, or gfxstats_timeline_flush: then it is counted client-only.
 * Without a ring (no daemon yet, or one without a compositor feed) frames are counted client-only.
 * The session maps the ring (and maps it again when a restarted daemon replaced it) on its own
 * thread, once a second. Joining first settles the frames waiting for a compositor frame;
 * join_wait_ns < 0 goes back to client-only mode. Takes the session's lock and may map the ring:
 * not a per-frame call. */
#define GFXSTATS_JOIN_WAIT_DEFAULT_NS 100000000LL
int gfxstats_timeline_join_compositor(gfxstats_tracker *tracker, int64_t join_wait_ns);

/* gfxstats_timeline_presented on an output at an MSC: `msc` is the presentation's sequence
 * (wp_presentation_feedback.presented's seq; 0: none, then the frame is counted client-only) and
 * `output` the wl_registry global name of the feedback's sync_output, which is how the
 * compositor names it in its feed. An append, like the other gfxstats_timeline_* frame calls. */
int gfxstats_timeline_presented_on(gfxstats_tracker *tracker, int64_t token, int64_t present_ns,
                                   int64_t refresh_ns, uint32_t flags, int64_t msc, int64_t output);

/* Looks up the frames waiting for their compositor frame again at now_ns (presentation clock);
 * those presented more than the join wait earlier are counted client-only. Every presented and
 * discarded call does this itself; call it when feedback stops (an idle window). An append. */
int gfxstats_timeline_poll(gfxstats_tracker *tracker, int64_t now_ns);

/* Counts every frame waiting for its compositor frame now: joined if the ring holds it, else
 * client-only (e.g. before closing the tracker, which does not). Takes the session's lock. */
int gfxstats_timeline_flush(gfxstats_tracker *tracker);

/* Looks for the display-frame ring now instead of at the session thread's next look: maps it when
 * it is new or replaced (the joined trackers' waiting frames are settled with the old one first),
 * lets go of it when it is gone. 1 when a ring is mapped, 0 when none, or a negative code. Takes
 * the session's lock and makes system calls. */
int gfxstats_session_refresh_compositor(gfxstats_session *session);


/* Counts the frames the tracker's ring holds now, on the calling thread (the tracker's recording
 * thread), instead of at the session thread's next drain. For programs that record faster than
 * any display (a replay of recorded frames, a benchmark): the ring holds 1024 frames (341
 * FrameInfo frames), and frames recorded while it is full are dropped. Takes the session's lock; not a per-frame call. */
int gfxstats_tracker_flush(gfxstats_tracker *tracker);

/* Frames this tracker did not count because its ring was full (the first time, one log line). */
uint64_t gfxstats_tracker_dropped(const gfxstats_tracker *tracker);

/* Ends a tracker (on its recording thread); its counts stay, with what its ring holds. NULL is
 * ignored. */
void gfxstats_tracker_close(gfxstats_tracker *tracker);

/* 1 when the session counts into a daemon's buffer, 0 otherwise. */
int gfxstats_session_attached(gfxstats_session *session);

/* Waits up to timeout_ms for the daemon's buffer: 1 attached, 0 not (yet). */
int gfxstats_session_wait_attached(gfxstats_session *session, int32_t timeout_ms);

/* Waits up to timeout_ms for the daemon's first answer, but never for a daemon that is not there
 * (no socket, a refusal, a lost connection end the wait at once): 1 attached, 0 not. Not on a
 * render thread. A tracker made after it returned 1 records into the daemon's buffer from its
 * first frame, where a SIGKILL of the process cannot take them (docs/native.md, "A SIGKILL of the
 * app"); the layer and the hook call it before their first tracker (GFXSTATS_OPEN_WAIT_MS). */
int gfxstats_session_wait_answer(gfxstats_session *session, int32_t timeout_ms);

/* Ends the session: close its trackers first. Frames counted before the daemon answered are
 * handed to it (waiting at most close_wait_ms for a daemon that is running). NULL is ignored. */
void gfxstats_session_close(gfxstats_session *session);

/* CLOCK_MONOTONIC now, in nanoseconds. */
int64_t gfxstats_now_ns(void);

/* A short English description of a status code. */
const char *gfxstats_strerror(int status);

#ifdef __cplusplus
}
#endif

#endif
