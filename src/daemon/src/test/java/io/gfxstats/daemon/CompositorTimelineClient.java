package io.gfxstats.daemon;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.client.CompositorLink;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A Linux client for tests of compositor mode: registers with the daemon, maps the daemon's
 * display-frame ring beside its buffer and records its frames through
 * {@link WindowTracker#timeline()} in compositor mode. Each frame (a line of the frame script:
 * token, predictions, actual times, then its feedback: present, refresh, output, msc, or
 * dropped) is committed, and its feedback delivered two frames later, as Wayland delivers it.
 * Steered through stdin: "record N" records the script's frames up to N (exclusive) and prints
 * "recorded N waiting W" (W: presented frames waiting for their compositor frame); at the end of stdin the remaining feedback is delivered, waiting frames are
 * settled, and it prints "done N joined J unjoined U".
 *
 * <p>args: socket package versionCode frames.jsonl [joinWaitMillis]
 */
public final class CompositorTimelineClient {
    private static final int FLAGS = PresentationFeedback.KIND_VSYNC | PresentationFeedback.KIND_HW_CLOCK
            | PresentationFeedback.KIND_HW_COMPLETION;

    private CompositorTimelineClient() {
    }

    private record Feedback(long token, long present, long refresh, long output, long msc, boolean dropped) {
    }

    public static void main(String[] args) throws Exception {
        StatsSession session = StatsSession.open(SessionOptions.builder(args[1], Long.parseLong(args[2]))
                .retry(Duration.ofMillis(50), Duration.ofMillis(200)).build(),
                new DaemonBufferProvider(Paths.get(args[0])));
        if (!session.awaitAttached(Duration.ofSeconds(30))) {
            System.out.println("not attached");
            System.exit(3);
        }
        WindowTracker tracker = session.newTracker();
        TimelineRecorder timeline = tracker.timeline();
        long joinWait = args.length > 4 ? Long.parseLong(args[4]) * 1_000_000L : TimelineRecorder.DEFAULT_JOIN_WAIT_NANOS;
        if (!new CompositorLink(session, timeline, joinWait).refresh()) {
            System.out.println("no display-frame ring beside " + session.buffer());
            System.exit(5);
        }
        TimelineFrame frame = new TimelineFrame();
        List<String> lines = Files.readAllLines(Paths.get(args[3]));
        ArrayDeque<Feedback> inFlight = new ArrayDeque<>();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int next = 0;
        String command;
        while ((command = commands.readLine()) != null) {
            int upTo = Integer.parseInt(command.substring("record ".length()));
            for (; next < upTo; next++) {
                JsonObject f = JsonParser.parseString(lines.get(next)).getAsJsonObject();
                long token = f.get("token").getAsLong();
                timeline.commit(frame.token(token)
                        .predicted(f.get("ps").getAsLong(), f.get("pe").getAsLong(), f.get("pp").getAsLong())
                        .actual(f.get("as").getAsLong(), f.get("ae").getAsLong()));
                inFlight.add(new Feedback(token, f.get("present").getAsLong(), f.get("refresh").getAsLong(),
                        f.get("output").getAsLong(), f.get("msc").getAsLong(), f.get("dropped").getAsBoolean()));
                while (inFlight.size() > 2) {
                    deliver(timeline, inFlight.poll());
                }
            }
            System.out.println("recorded " + upTo + " waiting " + timeline.awaitingDisplay());
        }
        while (!inFlight.isEmpty()) {
            deliver(timeline, inFlight.poll());
        }
        timeline.flush();
        tracker.close();
        session.close();
        System.out.println("done " + next + " joined " + timeline.joined() + " unjoined " + timeline.unjoined());
    }

    private static void deliver(TimelineRecorder timeline, Feedback f) {
        boolean known = f.dropped ? timeline.discarded(f.token, f.refresh)
                : timeline.presented(f.token, f.present, f.refresh, FLAGS, f.msc, f.output);
        if (!known) {
            throw new IllegalStateException("feedback for unknown token " + f.token);
        }
    }
}
