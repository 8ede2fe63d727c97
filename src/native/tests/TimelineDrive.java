import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.recorder.TimelineRecorder;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Java side of tests/timeline.sh: feeds the FrameTimeline lines on standard input to one
 * tracker's {@code timeline()} (client-only mode), as gfxstats-drive feeds them to
 * gfxstats_timeline_*; frame lines (intended_vsync,vsync,frame_completed,gpu_completed,interval)
 * go to {@code record}. Lines: C,TOKEN,PREDICTED_START,PREDICTED_END,PREDICTED_PRESENT,ACTUAL_START,ACTUAL_END
 * (commit), N,TOKEN,ACTUAL_START,ACTUAL_END (commit without prediction), P,TOKEN,PRESENT,REFRESH,FLAGS
 * (presented), D,TOKEN,REFRESH (discarded).
 * Run as a source file: java [the JVM flags of scripts/lib.sh] -cp gfxstats.jar TimelineDrive.java PACKAGE SOCKET
 */
public final class TimelineDrive {
    public static void main(String[] args) throws Exception {
        // Lines arrive faster than real time: a full frame ring is counted, not dropped.
        SessionOptions options = SessionOptions.builder(args[0], 1).pipeline(Pipeline.GL).countWhenRingFull(true)
                .build();
        long lines = 0;
        try (StatsSession session = StatsSession.open(options, new DaemonBufferProvider(Path.of(args[1])));
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            WindowTracker tracker = session.newTracker();
            TimelineRecorder timeline = tracker.timeline();
            TimelineFrame frame = new TimelineFrame();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(",");
                lines++;
                switch (f[0]) {
                    case "C" -> timeline.commit(frame.token(l(f[1])).predicted(l(f[2]), l(f[3]), l(f[4]))
                            .actual(l(f[5]), l(f[6])));
                    // The C call stores no predicted times for such a frame: neither does this one.
                    case "N" -> timeline.commit(frame.token(l(f[1])).predicted(0, 0, 0).noPrediction()
                            .actual(l(f[2]), l(f[3])));
                    case "P" -> timeline.presented(l(f[1]), l(f[2]), l(f[3]), Integer.parseInt(f[4]), 0);
                    case "D" -> timeline.discarded(l(f[1]), l(f[2]));
                    default -> tracker.record(l(f[0]), l(f[1]), l(f[2]), l(f[3]), l(f[4]));
                }
            }
            tracker.close();
            if (!session.awaitAttached(Duration.ofSeconds(60))) {
                throw new IllegalStateException("no daemon answered within 60 s");
            }
        }
        System.out.println("fed " + lines + " lines");
    }

    private static long l(String s) {
        return Long.parseLong(s);
    }
}
