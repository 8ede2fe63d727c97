// A C++ program using libgfxstats through its C header (extern "C"): the session and the
// tracker owned by std::unique_ptr with the library's close functions as deleters, two windows
// on two std::threads, a scene switch halfway, and every frame also written as a
// `gfxstats record` line to compare with the Java client.
// Usage: example-cpp PACKAGE FRAMES OUT-PREFIX (OUT-PREFIX0 and OUT-PREFIX1: one file per window)
#include <gfxstats.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

struct SessionClose {
    void operator()(gfxstats_session *s) const { gfxstats_session_close(s); }
};
struct TrackerClose {
    void operator()(gfxstats_tracker *t) const { gfxstats_tracker_close(t); }
};
using Session = std::unique_ptr<gfxstats_session, SessionClose>;
using Tracker = std::unique_ptr<gfxstats_tracker, TrackerClose>;

[[noreturn]] void fail(const std::string &what, int rc) {
    std::fprintf(stderr, "example-cpp: %s: %s\n", what.c_str(), gfxstats_strerror(rc));
    std::exit(1);
}

// One window: frames at 60 Hz from a fixed start, every 25th taking 30 ms (janky), the others
// 2-11 ms; the window's thread creates, uses and closes its tracker.
void window(gfxstats_session *session, int index, int frames, const std::string &out) {
    gfxstats_tracker *raw = nullptr;
    int rc = gfxstats_tracker_new(session, &raw);
    if (rc != GFXSTATS_OK) {
        fail("tracker", rc);
    }
    Tracker tracker(raw);
    std::ofstream lines(out);
    const int64_t interval = 16666667;
    int64_t vsync = 1000000000LL + index * 7000000LL;
    for (int i = 0; i < frames; i++) {
        if (i == frames / 2 && (rc = gfxstats_set_scene(tracker.get(), "second half")) != GFXSTATS_OK) {
            fail("scene", rc);
        }
        int64_t work = i % 25 == 24 ? 30000000 : 2000000 + (i * 7919 % 9) * 1000000;
        int64_t done = vsync + work;
        if ((rc = gfxstats_record(tracker.get(), vsync, vsync, done, done + 1000000, interval)) != GFXSTATS_OK) {
            fail("record", rc);
        }
        lines << vsync << ',' << vsync << ',' << done << ',' << done + 1000000 << ',' << interval << '\n';
        vsync += work > interval ? 2 * interval : interval;
    }
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: example-cpp PACKAGE FRAMES OUT-PREFIX\n");
        return 2;
    }
    gfxstats_options o{};
    o.struct_size = sizeof o;
    o.package_name = argv[1];
    o.version_code = 7;
    o.pipeline = GFXSTATS_PIPELINE_VULKAN;
    o.close_wait_ms = -1;
    gfxstats_session *raw = nullptr;
    int rc = gfxstats_session_open(&o, &raw);
    if (rc != GFXSTATS_OK) {
        fail("session", rc);
    }
    Session session(raw);
    int frames = std::atoi(argv[2]);
    std::vector<std::thread> windows;
    for (int w = 0; w < 2; w++) {
        windows.emplace_back(window, session.get(), w, frames, std::string(argv[3]) + std::to_string(w));
    }
    for (std::thread &t : windows) {
        t.join();
    }
    std::printf("recorded %d frames in 2 windows\n", 2 * frames);
    return 0;
}
