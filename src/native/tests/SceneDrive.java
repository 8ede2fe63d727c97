import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.framestats.ColumnSet;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.stats.Pipeline;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Java side of tests/scenes.sh: records the frames on standard input through the Java client
 * (one tracker, default scene options), as gfxstats-drive records them through libgfxstats.
 * Lines: intended_vsync,vsync,frame_completed,gpu_completed,frame_interval, or "@SINCE,NAME"
 * (WindowTracker.setScene(NAME, SINCE); an empty NAME returns to the default scene). With a third
 * argument "frameinfo" the frame lines are the 23 FrameInfo fields, replayed with the modern rules
 * as `gfxstats record --format framestats` replays them (gfxstats-drive --frameinfo --replay).
 * Run as a source file: java [the JVM flags of scripts/lib.sh] -cp gfxstats.jar SceneDrive.java PACKAGE SOCKET [frameinfo]
 */
public final class SceneDrive {
    public static void main(String[] args) throws Exception {
        // Lines arrive faster than real time: a full frame ring is counted, not dropped.
        SessionOptions options = SessionOptions.builder(args[0], 1).pipeline(Pipeline.GL)
                .countWhenRingFull(true).build();
        boolean frameinfo = args.length > 2 && args[2].equals("frameinfo");
        FrameInfo frame = new FrameInfo();
        long frames = 0;
        try (StatsSession session = StatsSession.open(options, new DaemonBufferProvider(Path.of(args[1])));
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            WindowTracker tracker = frameinfo
                    ? session.newTracker(FramestatsReplay.trackerFor(ColumnSet.MODERN,
                            FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS, DaveyListener.ignoring()))
                    : session.newTracker();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("@")) {
                    int comma = line.indexOf(',');
                    String name = line.substring(comma + 1);
                    tracker.setScene(name.isEmpty() ? null : name, Long.parseLong(line.substring(1, comma)));
                    continue;
                }
                String[] v = line.split(",");
                if (frameinfo) {
                    for (int i = 0; i < v.length; i++) {
                        frame.set(i, Long.parseLong(v[i]));
                    }
                    tracker.record(frame);
                    frames++;
                    continue;
                }
                tracker.record(Long.parseLong(v[0]), Long.parseLong(v[1]), Long.parseLong(v[2]),
                        Long.parseLong(v[3]), Long.parseLong(v[4]));
                frames++;
            }
            tracker.close();
            if (!session.awaitAttached(Duration.ofSeconds(60))) {
                throw new IllegalStateException("no daemon answered within 60 s");
            }
        }
        System.out.println("recorded " + frames + " frames");
    }
}
