import io.gfxstats.client.BufferRef;
import io.gfxstats.client.CompositorLink;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.rpc.DisplayFrameFeed;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.gfxstats.timeline.recorder.TimelineRecorder;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Java side and the conductor of tests/compositor.sh. It runs the stream of
 * tests/gen-compositor.py through the Java client in compositor mode ({@code WindowTracker.timeline()}
 * joined by a {@link CompositorLink}), feeds its display frames (X lines) to the daemon's real
 * compositor feed, and passes the client lines to the C driver (gfxstats-drive --compositor, the
 * command after the first four arguments), which it starts. At each "S" (the end of a phase) the C
 * driver counts its ring and answers, then the phase's display frames are fed and awaited in the
 * ring (its published count), then the Java recorder refreshes its link: so both clients see the
 * same ring at every call. At "K" it prints "kill" and waits for "ok" on standard input (the test
 * SIGKILLs the daemon and starts a new one, which replaces the ring), then feeds the new daemon.
 * At the end it prints "joined J unjoined U" (the Java recorder's, so the test knows both kinds
 * were reached).
 * Run as a source file: java [the JVM flags of scripts/lib.sh] -cp gfxstats.jar CompositorDrive.java
 * PACKAGE SOCKET STREAM C_STDERR C_DRIVER_COMMAND...
 */
public final class CompositorDrive {
    private static final long WAIT_NS = TimelineRecorder.DEFAULT_JOIN_WAIT_NANOS;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final Path socket;
    private final StatsSession session;
    private final CompositorLink link;
    private final Process c;
    private final BufferedWriter toC;
    private final BufferedReader fromC;
    private final BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    private final List<String> displayLines = new ArrayList<>();
    private GfxStatsClient daemon;
    private DisplayFrameFeed feed;
    private DisplayOutcomes ring;
    private long fed;

    private CompositorDrive(Path socket, StatsSession session, CompositorLink link, Process c) {
        this.socket = socket;
        this.session = session;
        this.link = link;
        this.c = c;
        this.toC = new BufferedWriter(new OutputStreamWriter(c.getOutputStream(), StandardCharsets.UTF_8));
        this.fromC = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws Exception {
        Path socket = Path.of(args[1]);
        List<String> cCommand = new ArrayList<>(Arrays.asList(args).subList(4, args.length));
        cCommand.addAll(List.of("--compositor", Long.toString(WAIT_NS), "--wait-attached", "60000"));
        Process c = new ProcessBuilder(cCommand).redirectError(new File(args[3])).start();
        SessionOptions options = SessionOptions.builder(args[0], 1).pipeline(Pipeline.GL).countWhenRingFull(true)
                .build();
        long lines = 0;
        try (StatsSession session = StatsSession.open(options, new DaemonBufferProvider(socket));
             BufferedReader in = Files.newBufferedReader(Path.of(args[2]), StandardCharsets.UTF_8)) {
            if (!session.awaitAttached(PATIENCE)) {
                throw new IllegalStateException("no daemon answered within 60 s");
            }
            WindowTracker tracker = session.newTracker();
            TimelineRecorder timeline = tracker.timeline();
            CompositorLink link = new CompositorLink(session, timeline, WAIT_NS);
            CompositorDrive d = new CompositorDrive(socket, session, link, c);
            d.connect();
            d.sync();
            if (!link.refresh()) {
                throw new IllegalStateException("no display-frame ring beside " + session.buffer());
            }
            TimelineFrame frame = new TimelineFrame();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                lines++;
                String[] f = line.split(",");
                switch (f[0]) {
                    case "X" -> d.displayLines.add(line); // fed at the end of the phase
                    case "S" -> d.sync();
                    case "K" -> d.restart();
                    default -> {
                        d.toC(line);
                        switch (f[0]) {
                            case "C" -> timeline.commit(frame.token(l(f[1])).predicted(l(f[2]), l(f[3]), l(f[4]))
                                    .actual(l(f[5]), l(f[6])));
                            // The C call stores no predicted times for such a frame: neither does this one.
                            case "N" -> timeline.commit(frame.token(l(f[1])).predicted(0, 0, 0).noPrediction()
                                    .actual(l(f[2]), l(f[3])));
                            case "P" -> timeline.presented(l(f[1]), l(f[2]), l(f[3]), Integer.parseInt(f[4]), 0);
                            case "Q" -> timeline.presented(l(f[1]), l(f[2]), l(f[3]), Integer.parseInt(f[4]), l(f[5]),
                                    l(f[6]));
                            case "D" -> timeline.discarded(l(f[1]), l(f[2]));
                            case "W" -> timeline.poll(l(f[1]));
                            case "F" -> timeline.flush();
                            default -> throw new IllegalArgumentException("line " + lines + ": " + line);
                        }
                    }
                }
            }
            d.finish();
            tracker.close();
            if (!session.awaitAttached(PATIENCE)) {
                throw new IllegalStateException("no daemon answered within 60 s");
            }
            System.out.println("joined " + timeline.joined() + " unjoined " + timeline.unjoined());
        } finally {
            c.destroyForcibly();
        }
        System.out.println("fed " + lines + " lines");
    }

    private void connect() {
        daemon = GfxStatsClient.unix(socket);
        feed = daemon.feedDisplayFrames(64);
        ring = null; // a new daemon has a new ring
        fed = 0;
    }

    private void toC(String line) throws IOException {
        toC.write(line);
        toC.write('\n');
    }

    /** The end of a phase: C has counted its calls, then the phase's display frames are published, then both look at the ring. */
    private void sync() throws Exception {
        toC("S");
        toC.flush();
        for (String answer = fromC.readLine(); !"synced".equals(answer); answer = fromC.readLine()) {
            if (answer == null) {
                throw new IllegalStateException("the C driver ended (exit " + c.waitFor() + ")");
            }
        }
        DisplayFrame df = new DisplayFrame();
        for (String line : displayLines) {
            String[] f = line.split(",");
            df.set(l(f[3]), f[4].equals("1") ? Prediction.EXPIRED : Prediction.VALID, l(f[5]), l(f[6]), l(f[7]),
                    l(f[8]), l(f[9]), l(f[10]), l(f[12]), l(f[13]));
            if (l(f[11]) >= 0) {
                df.gpuFence(l(f[11]));
            }
            feed.send(l(f[1]), l(f[2]), df);
            fed++;
        }
        displayLines.clear();
        feed.flush();
        awaitPublished();
        link.refresh();
    }

    /** Waits until the ring beside the session's buffer holds every display frame fed to this daemon. */
    private void awaitPublished() throws Exception {
        long until = System.nanoTime() + PATIENCE.toNanos();
        if (ring == null) {
            BufferRef buffer = session.buffer().orElseThrow(() -> new IllegalStateException("no buffer"));
            ring = DisplayOutcomes.open(DisplayOutcomeLayout.besideBuffer(buffer.path()));
        }
        while (ring.published() < fed) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException("the daemon published " + ring.published() + " of " + fed
                        + " display frames within 60 s");
            }
            Thread.sleep(1);
        }
    }

    /** The daemon is SIGKILLed and replaced by the test; then both clients look at the new ring. */
    private void restart() throws Exception {
        sync();
        System.out.println("kill");
        System.out.flush();
        if (!"ok".equals(control.readLine())) {
            throw new IllegalStateException("the test did not restart the daemon");
        }
        feed.close();
        daemon.close();
        connect();
        sync();
    }

    private void finish() throws Exception {
        sync();
        toC.close();
        for (String line = fromC.readLine(); line != null; line = fromC.readLine()) {
            System.out.println("C: " + line);
        }
        int exit = c.waitFor();
        if (exit != 0) {
            throw new IllegalStateException("the C driver failed (exit " + exit + ")");
        }
        feed.finish(Duration.ofSeconds(10));
        daemon.close();
    }

    private static long l(String s) {
        return Long.parseLong(s);
    }
}
