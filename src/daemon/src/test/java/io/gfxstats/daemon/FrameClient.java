package io.gfxstats.daemon;

import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import java.nio.file.Paths;
import java.time.Duration;

/**
 * A rendering process for tests: registers with the daemon at a socket and records frames with
 * a deterministic pattern. Prints "attached" once its buffer arrived (unless told not to wait),
 * then "recorded N" after every batch, so a test knows exactly how many frames it counted
 * before killing it.
 *
 * <p>args: socket package versionCode frames batch pauseMillis [wait-attach|no-wait] [exit|hang|stdin] [scenes]
 * [hostile] (stdin: wait for a line on standard input after each batch but the last; scenes:
 * switch scenes, see {@link #scene(long)}; hostile: after the last batch, write {@link #HOSTILE}
 * over the scene names in its own mapped buffer, as a client not using our library can, and
 * print "hostile")
 */
public final class FrameClient {
    static final long INTERVAL = 16_666_667L;

    private FrameClient() {
    }

    /** Frame i takes this long: mostly on time, every 7th frame 20-40 ms, every 50th 150+ ms. */
    static long duration(long i) {
        if (i % 50 == 49) {
            return 150_000_000L + (i % 7) * 50_000_000L;
        }
        if (i % 7 == 6) {
            return 20_000_000L + (i % 5) * 5_000_000L;
        }
        return 4_000_000L + (i % 11) * 1_000_000L;
    }

    static final String[] SCENES = {"menu", "level-1", "level-2"};
    static final int SCENE_BLOCK = 100;

    /**
     * With "scenes", frame i belongs to scene block i / 100: block 0 is the session's default
     * scene, block b the scene SCENES[b % 3]. The switch is made before the last frame of each
     * block is recorded, effective from the next frame's intended vsync, so that frame straddles
     * the switch: recorded after it, it still belongs to the block before.
     */
    static String scene(long i) {
        long block = i / SCENE_BLOCK;
        return block == 0 ? "default" : SCENES[(int) (block % SCENES.length)];
    }

    /**
     * Names written over the scene names of the same UTF-8 length (so the length fields stay
     * right): an OSC window title, a newline forging a log line, a CSI clear screen.
     */
    static final java.util.Map<String, String> HOSTILE = java.util.Map.of(
            "level-1", "\u001b]0;ow\u0007",
            "level-2", "x\n[ERR]",
            "menu", "\u202Ea"); // a right-to-left override: reorders the rest of a terminal line

    /** Overwrites the names in this process's own buffer file, found among its mappings. */
    private static void writeHostileNames() throws java.io.IOException {
        String path = null;
        for (String line : java.nio.file.Files.readAllLines(Paths.get("/proc/self/maps"))) {
            if (line.endsWith(".gfxbuf")) {
                path = line.substring(line.indexOf('/'));
            }
        }
        if (path == null) {
            throw new IllegalStateException("no mapped buffer in /proc/self/maps");
        }
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(path, "rw")) {
            byte[] image = new byte[(int) f.length()];
            f.readFully(image);
            for (java.util.Map.Entry<String, String> e : HOSTILE.entrySet()) {
                byte[] from = e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                byte[] to = e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                if (from.length != to.length) {
                    throw new IllegalStateException("hostile name of another length: " + e.getKey());
                }
                for (int i = 0; i + from.length <= image.length; i++) {
                    if (java.util.Arrays.equals(image, i, i + from.length, from, 0, from.length)) {
                        f.seek(i);
                        f.write(to);
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String socket = args[0];
        String pkg = args[1];
        long version = Long.parseLong(args[2]);
        long frames = Long.parseLong(args[3]);
        int batch = Integer.parseInt(args[4]);
        long pauseMillis = Long.parseLong(args[5]);
        boolean waitAttach = args.length <= 6 || !args[6].equals("no-wait");
        boolean hang = args.length > 7 && args[7].equals("hang");
        boolean stepped = args.length > 7 && args[7].equals("stdin");
        boolean scenes = args.length > 8 && args[8].equals("scenes");
        java.io.BufferedReader stdin = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));

        StatsSession session = StatsSession.open(SessionOptions.builder(pkg, version)
                .retry(Duration.ofMillis(50), Duration.ofMillis(200)).countWhenRingFull(true).build(),
                new DaemonBufferProvider(Paths.get(socket)));
        if (waitAttach) {
            if (!session.awaitAttached(Duration.ofSeconds(60))) {
                System.out.println("not attached");
                System.exit(3);
            }
            System.out.println("attached");
        }
        WindowTracker tracker = session.newTracker();
        long t = 1_000_000_000L;
        long recorded = 0;
        while (recorded < frames) {
            long n = Math.min(batch, frames - recorded);
            for (long k = 0; k < n; k++) {
                long i = recorded + k;
                long d = duration(i);
                long next = t + Math.max(INTERVAL, ((d + INTERVAL - 1) / INTERVAL) * INTERVAL);
                if (scenes && i % SCENE_BLOCK == SCENE_BLOCK - 1) {
                    tracker.setScene(scene(i + 1), next);
                }
                tracker.record(t, t, t + d, t + d, INTERVAL);
                t = next;
            }
            recorded += n;
            // "recorded" promises the frames are counted in the mapped buffer (a SIGKILL after it
            // loses none): wait until the session's drain thread has taken them out of the ring.
            while (tracker.pendingFrames() > 0) {
                Thread.sleep(1);
            }
            System.out.println("recorded " + recorded);
            System.out.flush();
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
            if (stepped && recorded < frames && stdin.readLine() == null) {
                break;
            }
        }
        if (args.length > 9 && args[9].equals("hostile")) {
            writeHostileNames();
            System.out.println("hostile");
            System.out.flush();
        }
        if (hang) {
            Thread.sleep(Long.MAX_VALUE);
        }
        tracker.close();
        session.close();
        System.out.println("done");
    }
}
