import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SceneOptions;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.Android9JankTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;
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
 * Options after those (gfxstats-drive's flags in brackets): "rules=android9" the Android 9 rules
 * (--rules android9), "forgiveness=NS" dequeue forgiveness (--dequeue-forgiveness NS), "davey=log"
 * one log line per frame of 700 ms or more (--davey log; else none); scene options "scenes=off"
 * (--no-scenes), "scene-max=N", "default-scene=NAME", "matrix=legacy|time", "levels=N,M,H,F",
 * "refresh-hz=HZ" (the flags of the same names). "@@SINCE,NAME" lines set the session's default
 * scene (StatsSession.setDefaultScene(NAME, SINCE)).
 * Run as a source file: java [the JVM flags of scripts/lib.sh] -cp gfxstats.jar SceneDrive.java PACKAGE SOCKET [frameinfo] [KEY=VALUE...]
 */
public final class SceneDrive {
    public static void main(String[] args) throws Exception {
        SceneOptions scenes = SceneOptions.DEFAULT;
        boolean frameinfo = false;
        boolean android9 = false;
        long forgiveness = 0;
        DaveyListener daveys = DaveyListener.ignoring();
        for (int i = 2; i < args.length; i++) {
            String a = args[i];
            String value = a.substring(a.indexOf('=') + 1);
            if (a.equals("frameinfo")) {
                frameinfo = true;
            } else if (a.equals("rules=android9")) {
                android9 = true;
            } else if (a.equals("davey=log")) {
                daveys = DaveyListener.logging();
            } else if (a.equals("scenes=off")) {
                scenes = new SceneOptions(false, scenes.maxScenes(), scenes.defaultScene(), scenes.matrixMode(),
                        scenes.matrixLevels(), scenes.refreshRateHz());
            } else if (a.startsWith("scene-max=")) {
                scenes = scenes.withMaxScenes(Integer.parseInt(value));
            } else if (a.startsWith("default-scene=")) {
                scenes = scenes.withDefaultScene(value);
            } else if (a.startsWith("matrix=")) {
                scenes = scenes.withMatrix(MatrixMode.parse(value), scenes.matrixLevels());
            } else if (a.startsWith("levels=")) {
                scenes = scenes.withMatrix(scenes.matrixMode(), MatrixLevels.parse(value));
            } else if (a.startsWith("refresh-hz=")) {
                scenes = scenes.withRefreshRateHz(Float.parseFloat(value));
            } else if (a.startsWith("forgiveness=")) {
                forgiveness = Long.parseLong(value);
            } else {
                throw new IllegalArgumentException("unknown option " + a);
            }
        }
        // Lines arrive faster than real time: a full frame ring is counted, not dropped.
        SessionOptions options = SessionOptions.builder(args[0], 1).pipeline(Pipeline.GL).scenes(scenes)
                .countWhenRingFull(true).build();
        FrameInfo frame = new FrameInfo();
        long frames = 0;
        try (StatsSession session = StatsSession.open(options, new DaemonBufferProvider(Path.of(args[1])));
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            // As gfxstats record --format framestats replays (deadlines already extended), or live.
            TrackerConfig config = (frameinfo ? TrackerConfig.replay(options.refreshIntervalNanos())
                    : options.trackerConfig()).withDequeueForgiveness(forgiveness);
            FrameTracker rules = android9 ? new Android9JankTracker(config, daveys)
                    : new ModernJankTracker(config, daveys);
            WindowTracker tracker = session.newTracker(rules);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("@@")) {
                    int comma = line.indexOf(',');
                    session.setDefaultScene(line.substring(comma + 1), Long.parseLong(line.substring(2, comma)));
                    continue;
                }
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
