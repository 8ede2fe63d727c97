package io.gfxstats.bench;

import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.client.BenchHooks;
import io.gfxstats.client.DirectoryBufferProvider;
import io.gfxstats.client.SceneOptions;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.StatsSink;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomeWriter;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * One recorder walking {@link ClientRecordBenchmark}'s frame stream for a given number of frames,
 * after a fixed warm-up: the program that {@code scripts/bench instructions} runs under
 * valgrind's callgrind. Only the measured frames are counted: they run between two calls that
 * callgrind is told to zero its counts before and to dump them before ({@link #measure}), so
 * start-up, warm-up, compilation and whatever other threads did before are not in the count,
 * and the count divided by the frames is the instructions one frame costs in compiled code.
 * Unlike a time, it does not depend on what else the machine is doing.
 *
 * <p>{@code gfxstats} records as the JMH benchmark does, with the same loop: the warm-up in
 * chunks, each after the session's drain thread has emptied the ring, then the measured frames
 * in one go into a ring that holds them all, so the recording thread only appends and never
 * waits. callgrind's dumps at the marks hold the calling thread only (the recording thread is the
 * JVM's main thread, callgrind's thread 2); a second dump holds
 * the counting of those frames (by a flush on the same thread, the drain thread paused).
 *
 * <p>Besides the whole path ({@code gfxstats}) two parts of it run alone, for the decomposition
 * in docs/benchmarks.md: {@code rules} (the jank rules counting into a plain on-heap array),
 * {@code rules-discard} (the same rules with a sink that counts nothing) and
 * {@code stripe} (the three increments every frame makes - total, CPU bucket, GPU bucket - into
 * a stripe). Whatever the whole costs beyond the two is the tracker's and session's own.
 *
 * <p>{@code timeline} is the whole path plus the FrameTimeline recorder of the same tracker (one
 * commit and one presentation feedback per frame), so timeline minus gfxstats is what a
 * FrameTimeline client adds per frame.
 *
 * {@code timeline-only} is that recorder alone, counting into an in-memory stripe;
 * {@code timeline-compositor} the same recorder in compositor mode (each frame joined with its
 * display frame through a display-frame ring), and {@code ring-publish} the compositor's side of
 * that alone (classifying and publishing the display frames), to subtract.
 *
 * <p>Usage: {@code RecordLoop gfxstats|timeline|timeline-only|timeline-compositor|ring-publish|rules|rules-discard|stripe|hdr-atomic|hdr FRAMES [WARMUP]}.
 */
public final class RecordLoop {
    static final int DEFAULT_WARMUP = 2_000_000;
    /**
     * The most measured frames of gfxstats, and the tracker's ring size (its benchmark hook): the
     * product's ring holds 1024, whose limit check takes the slow path (one acquire load of the
     * drain's position) once per 1024 frames, about 0.03 instructions a frame more.
     */
    static final int BATCH = 1 << 20;
    /** Frames per call of a loop in the warm-up: its compiled code is the measured one's. */
    static final int CHUNK = 4096;

    private RecordLoop() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: RecordLoop gfxstats|gfxstats-noscenes|timeline|timeline-only|timeline-compositor|ring-publish|rules|rules-discard|stripe|hdr-atomic|hdr"
                    + " FRAMES [WARMUP]");
            System.exit(2);
        }
        String recorder = args[0];
        long frames = Long.parseLong(args[1]);
        long warmup = args.length > 2 ? Long.parseLong(args[2]) : DEFAULT_WARMUP;
        long[] nanos = durations();
        long sink;
        switch (recorder) {
            case "gfxstats" -> sink = gfxstats(nanos, warmup, frames, false, SceneOptions.DEFAULT);
            case "gfxstats-noscenes" -> sink = gfxstats(nanos, warmup, frames, false, SceneOptions.DISABLED);
            case "timeline" -> sink = gfxstats(nanos, warmup, frames, true, SceneOptions.DEFAULT);
            case "rules", "rules-discard" -> {
                int[] counts = new int[Counters.COUNT];
                ModernJankTracker rules = new ModernJankTracker(TrackerConfig.live(FrameStream.INTERVAL),
                        DaveyListener.ignoring());
                StatsSink array = recorder.equals("rules") ? c -> counts[c]++ : c -> { };
                long[] vsync = {1_000_000_000L};
                Recorder r = d -> {
                    long intended = vsync[0];
                    vsync[0] = intended + FrameStream.INTERVAL;
                    long completed = intended + d;
                    rules.finishFrame(intended, intended, completed, completed + ClientRecordBenchmark.GPU_NANOS,
                            FrameStream.INTERVAL, array);
                };
                walk(nanos, warmup, r);
                measure(() -> walk(nanos, frames, r));
                sink = recorder.equals("rules") ? counts[Counters.TOTAL_FRAMES] : warmup + frames;
            }
            case "timeline-only" -> {
                // What FrameTimeline adds to a frame, alone: one commit and one presentation
                // feedback through the recorder, counting into a stripe.
                StripeWriter stripe = StripeWriter.inMemory();
                TimelineRecorder timeline = new TimelineRecorder(stripe);
                Recorder r = timelineFrames(timeline, null);
                walk(nanos, warmup, r);
                measure(() -> walk(nanos, frames, r));
                sink = stripe.contributionOf(io.gfxstats.buffer.FrameTimelineGroup.vectorIndex(0));
                stripe.release();
            }
            case "timeline-compositor", "ring-publish" -> {
                // timeline-only in compositor mode: before each feedback the compositor's frame is
                // classified and published in a display-frame ring (the daemon's part), and the
                // recorder joins the fed-back frame with it. ring-publish is the daemon's part alone:
                // the difference is what compositor mode costs the client.
                Path ringDir = Files.createTempDirectory("gfxring");
                Path ringFile = ringDir.resolve(DisplayOutcomeLayout.FILE_NAME);
                DisplayOutcomeWriter writer = DisplayOutcomeWriter.create(ringFile);
                FrameTimelineClassifier classifier = new FrameTimelineClassifier(Thresholds.ANDROID_16_LEGACY);
                DisplayFrame df = new DisplayFrame();
                long[] previousPresent = {0};
                Compositor compositor = (token, msc, predictedPresent, present) -> {
                    // Every seventh compositor frame finishes its work late.
                    long end = predictedPresent - 1_000_000 + (token % 7 == 0 ? 3_000_000 : -1_000_000);
                    df.set(token, Prediction.VALID, predictedPresent - 6_000_000, predictedPresent - 1_000_000,
                            predictedPresent, predictedPresent - 6_000_000, end, present, FrameStream.INTERVAL,
                            FrameStream.INTERVAL);
                    classifier.classify(df, previousPresent[0]);
                    previousPresent[0] = present;
                    writer.publish(1, msc, df);
                };
                StripeWriter stripe = StripeWriter.inMemory();
                TimelineRecorder timeline = null;
                if (recorder.equals("timeline-compositor")) {
                    timeline = new TimelineRecorder(stripe);
                    timeline.joinCompositor(DisplayOutcomes.open(ringFile));
                }
                Recorder r = timelineFrames(timeline, compositor);
                walk(nanos, warmup, r);
                measure(() -> walk(nanos, frames, r));
                if (timeline != null && timeline.joined() < frames) {
                    throw new IllegalStateException("only " + timeline.joined() + " frames joined");
                }
                sink = timeline == null ? writer.published()
                        : stripe.contributionOf(io.gfxstats.buffer.FrameTimelineGroup.vectorIndex(0));
                stripe.release();
                writer.close();
                Files.delete(ringFile);
                Files.delete(ringDir);
            }
            case "stripe" -> {
                StripeWriter stripe = StripeWriter.inMemory();
                Recorder r = d -> {
                    stripe.increment(Counters.TOTAL_FRAMES);
                    stripe.increment(Counters.CPU_BUCKET_BASE + Histograms.cpuBucketIndex(d));
                    stripe.increment(Counters.GPU_BUCKET_BASE + Histograms.gpuBucketIndex(ClientRecordBenchmark.GPU_NANOS));
                };
                walk(nanos, warmup, r);
                measure(() -> walk(nanos, frames, r));
                sink = stripe.contribution(Counters.TOTAL_FRAMES);
                stripe.release();
            }
            case "hdr-atomic", "hdr" -> {
                AbstractHistogram h = recorder.equals("hdr") ? new Histogram(ClientRecordBenchmark.HIGHEST_NANOS, 2)
                        : new AtomicHistogram(ClientRecordBenchmark.HIGHEST_NANOS, 2);
                int[] next = {0};
                for (long done = 0; done < warmup; done += CHUNK) {
                    next[0] = histogramFrames(h, nanos, next[0], (int) Math.min(CHUNK, warmup - done));
                }
                measure(() -> histogramFrames(h, nanos, next[0], (int) frames));
                sink = h.getTotalCount();
            }
            default -> throw new IllegalArgumentException("unknown recorder " + recorder);
        }
        System.out.println(recorder + " recorded " + sink);
    }

    private interface Recorder {
        void record(long value);
    }

    /** The compositor's side of a frame: reports the display frame that showed frame {@code token}. */
    private interface Compositor {
        void shown(long token, long msc, long predictedPresent, long present);
    }

    /**
     * One frame: a commit and, two frames later, the presentation feedback of the frame it
     * completes. With a {@code compositor}, that frame's display frame is reported first (output
     * 1, MSC by frame, the ring's 512 slots reused) and the feedback names output and MSC;
     * {@code timeline} null runs only the compositor's side.
     */
    private static Recorder timelineFrames(TimelineRecorder timeline, Compositor compositor) {
        TimelineFrame frame = new TimelineFrame();
        long[] state = {1_000_000_000L, 0};
        long[] presents = new long[4];
        long[] predictions = new long[4];
        int flags = PresentationFeedback.KIND_VSYNC | PresentationFeedback.KIND_HW_CLOCK
                | PresentationFeedback.KIND_HW_COMPLETION;
        return d -> {
            long intended = state[0];
            state[0] = intended + FrameStream.INTERVAL;
            long gpu = intended + d + ClientRecordBenchmark.GPU_NANOS;
            long t = state[1]++;
            long predicted = intended + 2 * FrameStream.INTERVAL;
            if (timeline != null) {
                timeline.commit(frame.token(t).predicted(intended, intended + FrameStream.INTERVAL, predicted)
                        .actual(intended, gpu));
            }
            long late = Math.max(0, gpu - (intended + FrameStream.INTERVAL));
            presents[(int) (t & 3)] = predicted + (late + FrameStream.INTERVAL - 1) / FrameStream.INTERVAL
                    * FrameStream.INTERVAL;
            predictions[(int) (t & 3)] = predicted;
            if (t >= 2) {
                long present = presents[(int) ((t - 2) & 3)];
                if (compositor == null) {
                    timeline.presented(t - 2, present, FrameStream.INTERVAL, flags, 0);
                    return;
                }
                long msc = 1 + ((t - 2) & (DisplayOutcomeLayout.SLOTS - 1));
                compositor.shown(t - 2, msc, predictions[(int) ((t - 2) & 3)], present);
                if (timeline != null) {
                    timeline.presented(t - 2, present, FrameStream.INTERVAL, flags, msc, 1);
                }
            }
        };
    }

    private static void walk(long[] nanos, long frames, Recorder r) {
        int next = 0;
        for (long i = 0; i < frames; i++) {
            r.record(nanos[next++ & (ClientRecordBenchmark.STREAM_LENGTH - 1)]);
        }
    }

    /**
     * The measured part: the frames between the two marks that {@code scripts/bench instructions}
     * hands to callgrind (all counts zeroed when the first is entered, dumped when the second
     * is), so the counts hold the recording loop and nothing of start-up, warm-up or compilation.
     */
    private static void measure(Runnable frames) {
        markStart();
        frames.run();
        markEnd();
    }

    /**
     * callgrind's start mark: {@code --zero-before=Java_java_lang_Runtime_totalMemory}, a JDK
     * native that nothing else in this program calls (a JIT-compiled loop has no symbol of its
     * own for callgrind to toggle on, a native method does).
     */
    private static void markStart() {
        marks += Runtime.getRuntime().totalMemory();
    }

    /** callgrind's end mark: {@code --dump-before=Java_java_lang_Runtime_freeMemory}; each call is a dump. */
    private static void markEnd() {
        marks += Runtime.getRuntime().freeMemory();
    }

    /** Keeps the marks' results alive. */
    private static long marks;

    /**
     * {@code frames} values of the stream from {@code next} into {@code h}; returns the cursor. The
     * same loop as {@link ClientRecordBenchmark}'s (the cursor in a local), so the count is the
     * call's and the loop's few instructions, as in gfxstats's loop.
     */
    private static int histogramFrames(AbstractHistogram h, long[] nanos, int next, int frames) {
        int n = next;
        for (int i = 0; i < frames; i++) {
            h.recordValue(nanos[n++ & (ClientRecordBenchmark.STREAM_LENGTH - 1)]);
        }
        return n;
    }

    /** Where a gfxstats loop goes on: the stream's cursor and the next intended vsync. */
    private static final class Cursor {
        int next;
        long intended = 1_000_000_000L;
    }

    /** {@code frames} frames into {@code tracker}: {@link ClientRecordBenchmark}'s loop. */
    private static void gfxstatsFrames(WindowTracker tracker, long[] nanos, Cursor c, int frames) {
        int next = c.next;
        long intended = c.intended;
        for (int i = 0; i < frames; i++) {
            long completed = intended + nanos[next++ & (ClientRecordBenchmark.STREAM_LENGTH - 1)];
            tracker.record(intended, intended, completed, completed + ClientRecordBenchmark.GPU_NANOS,
                    FrameStream.INTERVAL);
            intended += FrameStream.INTERVAL;
        }
        c.next = next;
        c.intended = intended;
    }

    /** Parks until the drain thread has counted every frame of {@code tracker}'s ring. */
    private static void awaitDrained(WindowTracker tracker) {
        while (tracker.pendingFrames() > 0) {
            LockSupport.parkNanos(50_000_000L);
        }
    }

    private static long[] durations() {
        long[] nanos = new long[ClientRecordBenchmark.STREAM_LENGTH];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = FrameStream.drawDuration(random);
        }
        return nanos;
    }

    /**
     * The whole client path; with {@code timeline} every frame also goes through the tracker's
     * FrameTimeline recorder: committed with its predictions, and its presentation feedback
     * (vsynced, hardware-clocked) arriving two frames later, as Wayland delivers it.
     */
    private static long gfxstats(long[] nanos, long warmup, long frames, boolean timeline, SceneOptions scenes)
            throws Exception {
        Path dir = Files.createTempDirectory("gfxstats-instr");
        try (DirectoryBufferProvider provider = DirectoryBufferProvider.create(dir);
             StatsSession session = StatsSession.open(SessionOptions.builder("io.gfxstats.bench", 1)
                     .daveyListener(DaveyListener.ignoring()).scenes(scenes).build(), provider)) {
            if (!session.awaitAttached(Duration.ofSeconds(600))) { // valgrind on a loaded machine is slow
                throw new IllegalStateException("no buffer attached");
            }
            BenchHooks.ringCapacity(session, BATCH);
            if (frames > BATCH) {
                throw new IllegalArgumentException("at most " + BATCH + " measured frames (the ring)");
            }
            try (WindowTracker tracker = session.newTracker()) {
                // Warm-up in chunks, each after the drain emptied the ring; then, with the drain
                // thread paused, the measured frames in one go (they fit in the ring, so the
                // recording thread never waits inside the measured part), and the counting of
                // them by a flush on this same thread, between the end mark and a second one:
                // callgrind's dumps are per thread, so both parts are the main thread's.
                Runnable measured;
                if (!timeline) {
                    Cursor c = new Cursor();
                    measured = () -> gfxstatsFrames(tracker, nanos, c, (int) frames);
                    for (long done = 0; done < warmup; done += CHUNK) {
                        awaitDrained(tracker);
                        gfxstatsFrames(tracker, nanos, c, (int) Math.min(CHUNK, warmup - done));
                    }
                } else {
                    long[] vsync = {1_000_000_000L};
                    TimelineRecorder recorder = tracker.timeline();
                    TimelineFrame frame = new TimelineFrame();
                    long[] token = {0};
                    long[] presents = new long[4];
                    int flags = PresentationFeedback.KIND_VSYNC | PresentationFeedback.KIND_HW_CLOCK
                            | PresentationFeedback.KIND_HW_COMPLETION;
                    Recorder r = d -> {
                        long intended = vsync[0];
                        vsync[0] = intended + FrameStream.INTERVAL;
                        long completed = intended + d;
                        long gpu = completed + ClientRecordBenchmark.GPU_NANOS;
                        tracker.record(intended, intended, completed, gpu, FrameStream.INTERVAL);
                        long t = token[0]++;
                        long predicted = intended + 2 * FrameStream.INTERVAL;
                        recorder.commit(frame.token(t).predicted(intended, intended + FrameStream.INTERVAL, predicted)
                                .actual(intended, gpu));
                        // The frame is shown at the first vsync after it is ready.
                        long late = Math.max(0, gpu - (intended + FrameStream.INTERVAL));
                        presents[(int) (t & 3)] = predicted + (late + FrameStream.INTERVAL - 1) / FrameStream.INTERVAL
                                * FrameStream.INTERVAL;
                        if (t >= 2) {
                            recorder.presented(t - 2, presents[(int) ((t - 2) & 3)], FrameStream.INTERVAL, flags, 0);
                        }
                    };
                    measured = () -> walk(nanos, frames, r);
                    for (long done = 0; done < warmup; done += CHUNK) {
                        awaitDrained(tracker);
                        walk(nanos, Math.min(CHUNK, warmup - done), r);
                    }
                }
                awaitDrained(tracker);
                BenchHooks.pauseDrain(session, true);
                measure(measured);
                session.flush();
                markEnd();
                BenchHooks.pauseDrain(session, false);
                if (session.droppedFrames() > 0) {
                    throw new IllegalStateException(session.droppedFrames() + " frames dropped");
                }
            }
            return warmup + frames;
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }
}
