package io.gfxstats.daemon;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;

/**
 * A Linux client for tests: registers with the daemon, then records the surface frames of a frame
 * log (the JSON Lines of {@code gfxstats timeline classify}) through {@link WindowTracker#timeline()}:
 * each frame is committed, and its presentation feedback (the display frame's present; discarded
 * for a dropped surface) arrives two frames later, as Wayland delivers it. Prints "done N".
 *
 * <p>args: socket package versionCode framelog.jsonl
 */
public final class TimelineClient {
    private static final int FLAGS = PresentationFeedback.KIND_VSYNC | PresentationFeedback.KIND_HW_CLOCK
            | PresentationFeedback.KIND_HW_COMPLETION;

    private TimelineClient() {
    }

    private record Feedback(long token, long present, long refresh, boolean dropped) {
    }

    public static void main(String[] args) throws Exception {
        StatsSession session = StatsSession.open(SessionOptions.builder(args[1], Long.parseLong(args[2]))
                .retry(Duration.ofMillis(50), Duration.ofMillis(200)).build(),
                new DaemonBufferProvider(Paths.get(args[0])));
        if (!session.awaitAttached(Duration.ofSeconds(20))) {
            System.out.println("not attached");
            System.exit(3);
        }
        WindowTracker tracker = session.newTracker();
        TimelineRecorder timeline = tracker.timeline();
        TimelineFrame frame = new TimelineFrame();
        List<String> lines = Files.readAllLines(Paths.get(args[3]));
        java.util.ArrayDeque<Feedback> inFlight = new java.util.ArrayDeque<>();
        long n = 0;
        for (String line : lines) {
            JsonObject df = JsonParser.parseString(line).getAsJsonObject();
            long present = df.getAsJsonObject("actual").get("present").getAsLong();
            long refresh = df.get("refresh_period").getAsLong();
            for (JsonElement e : df.getAsJsonArray("surfaces")) {
                JsonObject s = e.getAsJsonObject();
                JsonObject p = s.getAsJsonObject("predicted");
                JsonObject a = s.getAsJsonObject("actual");
                long token = s.get("token").getAsLong();
                timeline.commit(frame.token(token)
                        .predicted(p.get("start").getAsLong(), p.get("end").getAsLong(), p.get("present").getAsLong())
                        .actual(a.get("start").getAsLong(), a.get("end").getAsLong()));
                inFlight.add(new Feedback(token, present, refresh, s.get("present_state").getAsString().equals("dropped")));
                n++;
            }
            while (inFlight.size() > 2) {
                deliver(timeline, inFlight.poll());
            }
        }
        while (!inFlight.isEmpty()) {
            deliver(timeline, inFlight.poll());
        }
        tracker.close();
        session.close();
        System.out.println("done " + n);
    }

    private static void deliver(TimelineRecorder timeline, Feedback f) {
        boolean known = f.dropped ? timeline.discarded(f.token, f.refresh)
                : timeline.presented(f.token, f.present, f.refresh, FLAGS, 0);
        if (!known) {
            throw new IllegalStateException("feedback for unknown token " + f.token);
        }
    }
}
