package io.gfxstats.daemon.postmortem;

import io.gfxstats.buffer.BufferFiles;
import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSpec;
import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.client.DirectoryBufferProvider;
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
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomeWriter;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The finisher against the Java client: a random stream counted whole by a real session is the
 * reference; the same stream's first part counted by another real session gives the stripes and
 * the checkpoint images, its rest goes into a ring stripe written from the spec
 * ({@link RingStripeSpecWriter}), and after the finisher the buffer's counter vector must be the
 * reference's exactly (plus the ring's drops).
 */
class RingFinisherTest {
    private static final int STRIPES = 4;
    private static final int DEAD = Integer.MAX_VALUE - 7;
    private static final int HEALTH = CounterGroups.KNOWN.indexOf(CounterGroups.CLIENT_HEALTH);
    private static final int SCENES = CounterGroups.KNOWN.indexOf(CounterGroups.SCENES);
    private static final int TIMELINE = CounterGroups.KNOWN.indexOf(CounterGroups.FRAMETIMELINE);

    @TempDir
    Path tmp;

    /** One thing the client did: a frame (times or FrameInfo) or a scene switch. */
    private sealed interface Op permits Times, Info, SetDefault, SetOwn, Timeline {
    }

    /** A FrameTimeline call: its ring kind (2-6) and its six arguments as the ring holds them. */
    private record Timeline(int kind, long[] args) implements Op {
    }

    private record Times(long[] w) implements Op {
    }

    private record Info(long[] w) implements Op {
    }

    private record SetDefault(String name, long since) implements Op {
    }

    private record SetOwn(String name, long since) implements Op {
    }

    /** One random case: the rules, the scene options, the stream, where the checkpoint falls. */
    private record Case(boolean android9, long refresh, long forgiveness, SceneOptions scenes, List<Op> ops,
                        int checkpointAt, int tornFrames, long dropped, long dropsCounted, boolean compositor,
                        long joinWait, long mscs) {
    }

    private static Case randomCase(long seed, boolean android9) {
        SplittableRandom r = new SplittableRandom(seed);
        long refresh = new long[] {16_666_667, 8_333_333, 11_111_111, 6_944_444}[r.nextInt(4)];
        long forgiveness = r.nextBoolean() ? 0 : r.nextLong(1, 3_000_000);
        MatrixMode mode = MatrixMode.values()[r.nextInt(3)];
        MatrixLevels levels = r.nextBoolean() ? MatrixLevels.DEFAULT
                : new MatrixLevels(1 + r.nextInt(3), 4 + r.nextInt(4), 10 + r.nextInt(10), 30 + r.nextInt(20));
        float hz = r.nextBoolean() ? 0f : new float[] {60f, 120f, 90.5f}[r.nextInt(3)];
        SceneOptions scenes = r.nextInt(5) == 0 ? SceneOptions.DISABLED
                : SceneOptions.DEFAULT.withMatrix(mode, levels).withRefreshRateHz(hz).withMaxScenes(1 + r.nextInt(4));
        List<Op> ops = new ArrayList<>();
        boolean timeline = r.nextInt(4) != 0;
        boolean compositor = timeline && r.nextBoolean();
        // tokens[1]: the last MSC handed out in compositor mode (0: client-only, no MSCs).
        long[] tokens = {0, compositor ? 1 : 0};
        FrameStream infos = new FrameStream(seed);
        long t = 1_000_000_000L;
        int part1 = 200 + r.nextInt(400);
        int frames = 0;
        String[] names = {"menu", "level-1", "level-2", "boss", "credits", "shop"};
        int ringWords = 0;
        int checkpointAt = -1;
        // The ring after the checkpoint holds at most ~7,000 words (it never fills).
        while (checkpointAt < 0 || ringWords < 5_000) {
            if (frames == part1 && checkpointAt < 0) {
                checkpointAt = ops.size();
            }
            if (checkpointAt < 0 && r.nextInt(60) == 0) {
                // Scene switches only before the checkpoint: a switch drains and checkpoints first.
                String name = names[r.nextInt(names.length)];
                long since = t + r.nextLong(-3 * refresh, 3 * refresh);
                if (r.nextBoolean()) {
                    ops.add(new SetDefault(name, since));
                } else {
                    ops.add(new SetOwn(r.nextInt(4) == 0 ? null : name, since));
                }
                continue;
            }
            if (timeline && r.nextInt(3) == 0) {
                ops.add(timelineCall(r, t, refresh, tokens));
                ringWords += checkpointAt < 0 ? 0 : 7;
                continue;
            }
            if (r.nextInt(4) == 0) {
                FrameInfo f = infos.next();
                long[] w = new long[FrameInfo.FIELD_COUNT];
                for (int i = 0; i < w.length; i++) {
                    w[i] = f.get(i);
                }
                ops.add(new Info(w));
                ringWords += checkpointAt < 0 ? 0 : 23;
            } else {
                long interval = switch (r.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> refresh * 2;
                    default -> refresh;
                };
                long iv = t;
                long vsync = iv + (r.nextInt(10) == 0 ? r.nextLong(1, 2 * refresh) : 0);
                long draw = r.nextInt(8) == 0 ? r.nextLong(refresh, 5 * refresh) : r.nextLong(refresh / 3, refresh);
                long completed = r.nextInt(100) == 0 ? iv - 5 : vsync + draw;
                long gpu = r.nextInt(10) == 0 ? 0 : completed + r.nextLong(0, refresh);
                if (r.nextInt(200) == 0) {
                    iv = -1; // no intended vsync: not counted by the rules
                }
                ops.add(new Times(new long[] {iv, vsync, completed, gpu, interval}));
                ringWords += checkpointAt < 0 ? 0 : 5;
            }
            frames++;
            t += refresh * (r.nextInt(20) == 0 ? 1 + r.nextInt(4) : 1);
        }
        int after = ops.size() - checkpointAt;
        int torn = r.nextInt(3) == 0 ? 0 : r.nextInt(Math.min(after, 50));
        long dropped = r.nextInt(3) == 0 ? 0 : r.nextLong(1, 1_000);
        long counted = dropped == 0 ? 0 : r.nextLong(0, dropped + 1);
        return new Case(android9, refresh, forgiveness, scenes, ops, checkpointAt, torn, dropped, counted, compositor,
                r.nextLong(refresh, 6 * refresh), tokens[1]);
    }

    /**
     * A random client-only FrameTimeline call around time {@code t}: commits (with and without a
     * prediction), feedback for recent tokens (vsynced and measured or not, some for tokens no
     * longer pending, with and without an MSC), discards and polls.
     */
    private static Timeline timelineCall(SplittableRandom r, long t, long refresh, long[] tokens) {
        int pick = r.nextInt(10);
        if (pick < 4) {
            long token = ++tokens[0];
            long start = t + r.nextLong(-refresh, refresh);
            long end = start + r.nextLong(refresh / 4, 3 * refresh);
            if (pick == 0) {
                return new Timeline(3, new long[] {token, start, end, 0, 0, 0});
            }
            return new Timeline(2, new long[] {token, t, t + refresh, t + 2 * refresh, start, end});
        }
        long token = Math.max(1, tokens[0] - r.nextInt(20));
        if (pick < 8) {
            int flags = r.nextInt(5) == 0 ? r.nextInt(16) : 0x7;
            long msc;
            long output;
            if (tokens[1] > 0 && tokens[1] < DISPLAY_MSCS) {
                // Compositor mode: MSCs in order; outputs 1 and 2 are in the display ring (but for
                // every third MSC), output 3 never.
                msc = ++tokens[1];
                output = 1 + r.nextInt(3);
            } else {
                msc = r.nextBoolean() ? 0 : r.nextLong(1, 1L << 40);
                output = msc == 0 ? 0 : r.nextInt(3);
            }
            return new Timeline(4, new long[] {token, t + r.nextLong(0, 4 * refresh), r.nextBoolean() ? refresh : 0,
                    flags, msc, output});
        }
        if (pick == 8) {
            return new Timeline(5, new long[] {token, refresh, 0, 0, 0, 0});
        }
        return new Timeline(6, new long[] {t + r.nextLong(0, 10 * refresh), 0, 0, 0, 0, 0});
    }

    /** MSCs a case hands out at most, fewer than the display ring's slots per output. */
    private static final long DISPLAY_MSCS = 500;
    private Case displayFor;

    /**
     * The daemon's display-frame ring beside the dead client's buffer (and every buffer of the
     * test), holding the compositor frames of outputs 1 and 2 for two MSCs in three, written
     * before anything records so that the client and the finisher find the same ones.
     */
    private Path displayRing(Case c) throws IOException {
        Path ring = DisplayOutcomeLayout.besideBuffer(tmp.resolve("any.gfxbuf"));
        if (displayFor != c) {
            Files.deleteIfExists(ring);
            SplittableRandom r = new SplittableRandom(c.mscs);
            try (DisplayOutcomeWriter w = DisplayOutcomeWriter.create(ring)) {
                DisplayFrame df = new DisplayFrame();
                for (long msc = 1; msc <= c.mscs; msc++) {
                    for (int output = 1; output <= 2; output++) {
                        if (msc % 3 == 0) {
                            continue;
                        }
                        long t = 1_000_000_000L + msc * c.refresh;
                        long present = t + 2 * c.refresh + r.nextLong(-c.refresh, 2 * c.refresh);
                        df.set(msc, Prediction.VALID, t, t + 2 * c.refresh - 1_000_000, t + 2 * c.refresh, t,
                                t + r.nextLong(c.refresh / 2, 3 * c.refresh), present, c.refresh, c.refresh);
                        w.publish(output, msc, df);
                    }
                }
            }
            displayFor = c;
        }
        return ring;
    }

    private static void call(TimelineRecorder rec, Timeline c) {
        long[] a = c.args;
        switch (c.kind) {
            case 2 -> rec.commit(new TimelineFrame().token(a[0]).predicted(a[1], a[2], a[3]).actual(a[4], a[5]));
            case 3 -> rec.commit(new TimelineFrame().token(a[0]).noPrediction().actual(a[1], a[2]));
            case 4 -> rec.presented(a[0], a[1], a[2], (int) a[3], a[4], a[5]);
            case 5 -> rec.discarded(a[0], a[1]);
            case 6 -> rec.poll(a[0]);
            default -> throw new AssertionError(c.kind);
        }
    }

    private static TrackerConfig config(Case c) {
        return new TrackerConfig(c.refresh, c.refresh, c.forgiveness, false);
    }

    private static FrameTracker rules(Case c) {
        return c.android9 ? new Android9JankTracker(config(c), DaveyListener.ignoring())
                : new ModernJankTracker(config(c), DaveyListener.ignoring());
    }

    private final List<AutoCloseable> open = new ArrayList<>();

    /** A real session on its own directory, one tracker with the case's rules. */
    private final class Client implements AutoCloseable {
        final StatsSession session;
        final WindowTracker tracker;
        final Path dir;
        final BufferWriter timelineBuffer;
        final StripeWriter timelineStripe;
        final TimelineRecorder recorder;

        Client(Case c, String name) throws IOException, InterruptedException {
            dir = Files.createDirectory(tmp.resolve(name));
            DirectoryBufferProvider p = DirectoryBufferProvider.builder(dir).stripeCount(STRIPES)
                    .pollInterval(Duration.ofMillis(20)).build();
            open.add(p);
            session = StatsSession.open(SessionOptions.builder("com.example.ring", 7).refreshIntervalNanos(c.refresh)
                    .daveyListener(DaveyListener.ignoring()).scenes(c.scenes).countWhenRingFull(true).build(), p);
            open.add(session);
            assertTrue(session.awaitAttached(Duration.ofSeconds(30)));
            tracker = session.newTracker(rules(c));
            // The FrameTimeline recorder as a native client's tracker runs it, on a stripe of the
            // same buffer (the vector sums the stripes, so which one does not matter).
            timelineBuffer = BufferWriter.open(buffer());
            timelineStripe = timelineBuffer.claimStripe();
            recorder = new TimelineRecorder(timelineStripe);
            if (c.compositor) {
                recorder.joinCompositor(DisplayOutcomes.open(displayRing(c)), c.joinWait);
            }
        }

        void run(Op op) {
            if (op instanceof Times t) {
                tracker.record(t.w[0], t.w[1], t.w[2], t.w[3], t.w[4]);
            } else if (op instanceof Info i) {
                FrameInfo f = new FrameInfo();
                for (int k = 0; k < i.w.length; k++) {
                    f.set(k, i.w[k]);
                }
                tracker.record(f);
            } else if (op instanceof SetDefault d) {
                session.setDefaultScene(d.name, d.since);
            } else if (op instanceof SetOwn o) {
                tracker.setScene(o.name, o.since);
            } else if (op instanceof Timeline c) {
                call(recorder, c);
            }
        }

        Path buffer() {
            return session.buffer().orElseThrow().path();
        }

        @Override
        public void close() {
            timelineStripe.release();
            timelineBuffer.close();
            tracker.close();
            session.close();
        }
    }

    private static long[] vector(Path buffer) throws IOException {
        try (BufferReader r = BufferReader.open(buffer, TestBuffers.uid())) {
            return r.snapshot().vector();
        }
    }

    /** The stripes of writer stripe s: counter stripe, then each known group (null when absent). */
    private static byte[][] stripes(Path buffer, int s) throws IOException {
        try (BufferWriter w = BufferWriter.open(buffer)) {
            byte[][] out = new byte[CounterGroups.KNOWN.size() + 1][];
            for (int g = -1; g < CounterGroups.KNOWN.size(); g++) {
                out[g + 1] = w.copyStripe(s, g);
            }
            return out;
        }
    }

    /** The writer stripe the session's tracker counts in: the one with frames. */
    private static int trackerStripe(Path buffer) throws IOException {
        for (int s = 1; s <= STRIPES; s++) {
            byte[] counters = stripes(buffer, s)[0];
            if (java.nio.ByteBuffer.wrap(counters).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(0) != 0) {
                return s;
            }
        }
        throw new AssertionError("no stripe with frames in " + buffer);
    }

    private Path ringBuffer(String name) throws IOException {
        Path file = tmp.resolve(name);
        BufferSpec spec = BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("com.example.ring").versionCode(7).registrationId("reg-" + name)
                .statsStartMillis(TestBuffers.START).pipeline(Pipeline.VULKAN).stripeCount(STRIPES).rings(true).build();
        BufferFiles.create(file, spec, BufferFiles.OWNER_READ_WRITE);
        return file;
    }

    /** Mirrors what the session holds at the checkpoint: scene slots by first use, the switches. */
    private static final class SceneMirror {
        final Map<String, Integer> slots = new HashMap<>();
        final int max;
        int[] dflt;
        long defaultSince = Long.MIN_VALUE;
        int[] own;
        long ownSince;

        SceneMirror(SceneOptions o) {
            max = o.maxScenes();
            slots.put("(other)", 0);
            int d = slot(o.defaultScene());
            dflt = new int[] {d, d};
        }

        int slot(String name) {
            Integer s = slots.get(name);
            if (s != null) {
                return s;
            }
            if (slots.size() > max) {
                return 0;
            }
            slots.put(name, slots.size());
            return slots.size() - 1;
        }

        static int slotFor(int[] sw, long since, long intended) {
            return intended >= since ? sw[0] : sw[1];
        }

        void apply(Op op) {
            if (op instanceof SetDefault d) {
                int s = slot(d.name);
                dflt = new int[] {s, slotFor(dflt, defaultSince, d.since - 1)};
                defaultSince = d.since;
            } else if (op instanceof SetOwn o) {
                if (o.name == null) {
                    own = null;
                    return;
                }
                int s = slot(o.name);
                int before = own != null ? slotFor(own, ownSince, o.since - 1) : slotFor(dflt, defaultSince, o.since - 1);
                own = new int[] {s, before};
                ownSince = o.since;
            }
        }
    }

    /** Runs the rules alone over the first part, for their state at the checkpoint. */
    private static long[] rulesState(Case c) {
        FrameTracker rules = rules(c);
        StripeWriter scratch = StripeWriter.inMemory();
        try {
            for (Op op : c.ops.subList(0, c.checkpointAt)) {
                FrameInfo f = new FrameInfo();
                if (op instanceof Times t) {
                    f.setMainTimes(t.w[0], t.w[1], t.w[2], t.w[3], t.w[4] > 0 ? t.w[4] : c.refresh);
                } else if (op instanceof Info i) {
                    for (int k = 0; k < i.w.length; k++) {
                        f.set(k, i.w[k]);
                    }
                } else {
                    continue;
                }
                rules.finishFrame(f, scratch);
            }
        } finally {
            scratch.release();
        }
        return rules instanceof ModernJankTracker m ? new long[] {m.swapDeadline(), m.nextFrameStartUnstuffed()}
                : new long[] {((Android9JankTracker) rules).swapDeadline(), -1};
    }

    /** The reference vector: the whole stream counted by a real session. */
    private long[] reference(Case c, String name) throws Exception {
        try (Client ref = new Client(c, name)) {
            c.ops.forEach(ref::run);
            ref.session.flush();
            return vector(ref.buffer());
        }
    }

    /**
     * Builds the dead client's buffer: stripe s as the part session left it (with the torn
     * frames counted), the checkpoint at {@code c.checkpointAt}, the rest in the ring.
     */
    private Path deadClientBuffer(Case c, String name, int s, long seed, Consumer<RingStripeSpecWriter> tamper)
            throws Exception {
        SplittableRandom r = new SplittableRandom(seed ^ 0x5eed);
        Path file = ringBuffer(name + ".gfxbuf");
        byte[][] images;
        byte[][] left;
        try (Client part = new Client(c, name)) {
            SceneMirror mirror = new SceneMirror(c.scenes);
            for (Op op : c.ops.subList(0, c.checkpointAt)) {
                part.run(op);
                mirror.apply(op);
            }
            part.session.flush();
            int own = trackerStripe(part.buffer());
            images = stripes(part.buffer(), own);
            images[TIMELINE + 1] = stripes(part.buffer(), part.timelineStripe.stripeIndex())[TIMELINE + 1];
            TimelineRecorder.State timeline = part.recorder.state();
            for (Op op : c.ops.subList(c.checkpointAt, c.checkpointAt + c.tornFrames)) {
                part.run(op);
            }
            part.session.flush();
            left = stripes(part.buffer(), own);
            left[TIMELINE + 1] = stripes(part.buffer(), part.timelineStripe.stripeIndex())[TIMELINE + 1];
            // The ring from the checkpoint: it starts late in the ring, so its entries wrap.
            int rp = RingStripeSpecWriter.WORDS - 1 - r.nextInt(2_000);
            RingStripeSpecWriter ring = new RingStripeSpecWriter(r, rp);
            int tornWords = 0;
            int index = 0;
            for (Op op : c.ops.subList(c.checkpointAt, c.ops.size())) {
                if (op instanceof Timeline call) {
                    long[] w = new long[7];
                    w[0] = call.kind;
                    System.arraycopy(call.args, 0, w, 1, 6);
                    assertTrue(ring.fits(w.length), "test stream larger than a ring");
                    ring.entry(call.kind, w);
                } else {
                    long[] w = op instanceof Times t ? t.w : ((Info) op).w;
                    assertTrue(ring.fits(w.length), "test stream larger than a ring");
                    ring.entry(op instanceof Times ? 0 : 1, w);
                }
                if (++index == c.tornFrames) {
                    tornWords = ring.wp();
                }
            }
            assertTrue(ring.wrapped(), "the ring wraps");
            if (c.tornFrames > 0) {
                ring.consumerAt(tornWords);
            }
            ring.dropped(c.dropped);
            long[] state = rulesState(c);
            byte[] health = images[HEALTH + 1].clone();
            // The drops the client had counted when it wrote the checkpoint (element 0, u32).
            java.nio.ByteBuffer.wrap(health).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0, (int) c.dropsCounted);
            int flags = 16 | 2 | (c.scenes.enabled() ? 1 : 0) | (mirror.own != null ? 4 : 0) | (c.compositor ? 8 : 0);
            long n = 1 + r.nextInt(1000);
            RingStripeSpecWriter.Checkpoint cp = ring.checkpoint(n, r).rp(rp).flags(flags).dropsCounted(c.dropsCounted)
                    .rules(c.android9 ? 1 : 0, false, c.refresh, c.refresh, c.forgiveness, state[0], state[1], c.refresh)
                    .matrix(c.scenes.matrixMode().ordinal(), new int[] {c.scenes.matrixLevels().normal(),
                            c.scenes.matrixLevels().middle(), c.scenes.matrixLevels().high(),
                            c.scenes.matrixLevels().frozen()}, c.scenes.refreshRateHz())
                    .defaultScene(mirror.dflt[0], mirror.dflt[1], mirror.defaultSince)
                    .images(images[0], images[SCENES + 1], images[TIMELINE + 1], health);
            if (mirror.own != null) {
                cp.ownScene(mirror.own[0], mirror.own[1], mirror.ownSince);
            }
            cp.timeline(timeline);
            tamper.accept(ring);
            // The stripes as the killed client left them, its scene names, its claim.
            try (BufferWriter w = BufferWriter.open(file)) {
                for (int g = -1; g < CounterGroups.KNOWN.size(); g++) {
                    w.writeStripe(s, g, left[g + 1]);
                }
                for (Map.Entry<String, Integer> e : mirror.slots.entrySet()) {
                    if (e.getValue() > 0) {
                        w.nameScene(e.getValue(), e.getKey());
                    }
                }
            }
            ring.writeInto(file, s);
            RingStripeSpecWriter.claim(file, s, DEAD);
        }
        return file;
    }

    private static long[] plusDrops(long[] v, long drops) {
        long[] e = v.clone();
        e[ClientHealthGroup.vectorIndex(ClientHealthGroup.RING_DROPPED)] += drops;
        return e;
    }

    private void checkCase(long seed, boolean android9) throws Exception {
        Case c = randomCase(seed, android9);
        long[] reference = reference(c, "ref-" + seed);
        int s = 1 + new SplittableRandom(seed).nextInt(STRIPES);
        Path file = deadClientBuffer(c, "dead-" + seed, s, seed, ring -> { });
        RingFinisher finisher = new RingFinisher((pid, path) -> pid != DEAD);
        RingFinisher.Result first = finisher.finish(file, "dead-" + seed);
        assertEquals(new RingFinisher.Result(1, c.ops.size() - c.checkpointAt, 0), first, "seed " + seed);
        long[] expected = plusDrops(reference, c.dropped);
        assertArrayEquals(expected, vector(file), "seed " + seed + " " + c.ops.size() + " ops, checkpoint at "
                + c.checkpointAt + ", torn " + c.tornFrames);
        // Again (a daemon killed before it deleted the buffer): the same counts.
        assertEquals(first, finisher.finish(file, "dead-" + seed));
        assertArrayEquals(expected, vector(file), "second run, seed " + seed);
        closeAll();
    }

    private void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        open.clear();
    }

    @Test
    void shouldCountARingLeftByADeadClientExactlyAsTheJavaClientCountsTheWholeStream() throws Exception {
        try {
            for (long seed = 1; seed <= 6; seed++) {
                checkCase(seed, false);
            }
        } finally {
            closeAll();
        }
    }

    @Test
    void shouldCountUnderTheAndroid9RulesAsTheJavaClient() throws Exception {
        try {
            for (long seed = 11; seed <= 14; seed++) {
                checkCase(seed, true);
            }
        } finally {
            closeAll();
        }
    }

    @Test
    void shouldLeaveStripesOfLiveClaimantsAndFreeStripesAlone() throws Exception {
        try {
            Case c = randomCase(21, false);
            Path file = deadClientBuffer(c, "live", 2, 21, ring -> { });
            byte[] before = Files.readAllBytes(file);
            // The claimant is alive (a buffer retired because its connection closed, its process still running).
            assertEquals(new RingFinisher.Result(0, 0, 0), new RingFinisher((pid, path) -> true).finish(file, "live"));
            assertArrayEquals(before, Files.readAllBytes(file));
            RingStripeSpecWriter.claim(file, 2, 0);
            before = Files.readAllBytes(file);
            assertEquals(new RingFinisher.Result(0, 0, 0), new RingFinisher((pid, path) -> false).finish(file, "live"));
            assertArrayEquals(before, Files.readAllBytes(file));
        } finally {
            closeAll();
        }
    }


    /** The slot of the committed checkpoint, by the doc's numbers. */
    private static int slot(RingStripeSpecWriter ring) {
        return 73_984 + (int) (ring.b.getLong(73_920) & 1) * 6_720;
    }

    @Test
    void shouldRefuseHostileRingStripesWithoutWritingAnything() throws Exception {
        Map<String, Consumer<RingStripeSpecWriter>> hostile = new java.util.LinkedHashMap<>();
        hostile.put("producer position before the ring", ring -> ring.b.putLong(0, ring.base - 8));
        hostile.put("producer position past the ring", ring -> ring.b.putLong(0, ring.base + 8193 * 8L));
        hostile.put("producer position not on a word", ring -> ring.b.putLong(0, ring.b.getLong(0) + 3));
        hostile.put("producer position inside an entry", ring -> ring.b.putLong(0, ring.b.getLong(0) - 8));
        hostile.put("checkpoint position outside", ring -> ring.b.putInt(slot(ring) + 8, 9_000));
        hostile.put("checkpoint position huge", ring -> ring.b.putInt(slot(ring) + 8, -1));
        hostile.put("unknown kind", ring -> ring.b.put(65_664 + ring.b.getInt(slot(ring) + 8), (byte) 77));
        hostile.put("no checkpoint with entries", ring -> ring.b.putLong(73_920, 0));
        hostile.put("checkpoint not in its slot", ring -> ring.b.putLong(slot(ring), ring.b.getLong(73_920) + 2));
        hostile.put("wrong words", ring -> ring.b.putInt(96, 8_191));
        hostile.put("huge words", ring -> ring.b.putInt(96, -1));
        hostile.put("rules kind", ring -> ring.b.putInt(slot(ring) + 24, 2));
        hostile.put("deadlines extended", ring -> ring.b.putInt(slot(ring) + 28, 5));
        hostile.put("refresh", ring -> ring.b.putLong(slot(ring) + 32, Long.MIN_VALUE));
        hostile.put("default interval", ring -> ring.b.putLong(slot(ring) + 40, 0));
        hostile.put("dequeue forgiveness", ring -> ring.b.putLong(slot(ring) + 48, -1));
        hostile.put("tracker interval", ring -> ring.b.putLong(slot(ring) + 72, -5));
        hostile.put("Matrix mode", ring -> ring.b.putInt(slot(ring) + 80, 3));
        hostile.put("Matrix levels", ring -> ring.b.putInt(slot(ring) + 84, 0));
        hostile.put("Matrix levels out of order", ring -> ring.b.putInt(slot(ring) + 88, Integer.MIN_VALUE));
        hostile.put("refresh rate", ring -> ring.b.putFloat(slot(ring) + 100, Float.NaN));
        hostile.put("unknown flags", ring -> ring.b.putInt(slot(ring) + 12, ring.b.getInt(slot(ring) + 12) | 64));
        hostile.put("default scene slot", ring -> ring.b.putInt(slot(ring) + 120, 16));
        hostile.put("previous scene slot", ring -> ring.b.putInt(slot(ring) + 124, -1));
        hostile.put("own scene slot", ring -> {
            ring.b.putInt(slot(ring) + 12, ring.b.getInt(slot(ring) + 12) | 4);
            ring.b.putInt(slot(ring) + 104, Integer.MAX_VALUE);
        });
        hostile.put("a second wrap", ring -> ring.b.put(65_664, (byte) 255));
        hostile.put("FrameTimeline oldest slot", ring -> ring.b.putInt(slot(ring) + 136, 16));
        hostile.put("FrameTimeline awaiting count", ring -> ring.b.putInt(slot(ring) + 140, 3));
        hostile.put("FrameTimeline free slot awaiting", ring -> {
            int p = slot(ring) + 256 + 5 * 128;
            ring.b.put(p + 48, (byte) 0).put(p + 50, (byte) 1);
            ring.b.putInt(slot(ring) + 140, 1);
        });
        hostile.put("FrameTimeline used byte", ring -> ring.b.put(slot(ring) + 256 + 48, (byte) 7));
        hostile.put("FrameTimeline join wait", ring -> ring.b.putLong(slot(ring) + 160, -1));
        hostile.put("FrameTimeline entry without recorder state", ring -> {
            ring.b.putInt(slot(ring) + 12, ring.b.getInt(slot(ring) + 12) & ~2);
            ring.b.put(65_664 + ring.b.getInt(slot(ring) + 8), (byte) 6);
        });
        try {
            Case c = randomCase(31, false);
            assertTrue(c.scenes.enabled(), "the case counts scenes");
            for (Map.Entry<String, Consumer<RingStripeSpecWriter>> h : hostile.entrySet()) {
                String name = "hostile-" + Integer.toHexString(h.getKey().hashCode());
                Path file = deadClientBuffer(c, name, 3, 31, h.getValue());
                byte[] before = Files.readAllBytes(file);
                java.io.PrintStream err = System.err;
                java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
                RingFinisher.Result r;
                System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
                try {
                    r = new RingFinisher((pid, path) -> pid != DEAD).finish(file, name);
                } finally {
                    System.setErr(err);
                }
                assertEquals(new RingFinisher.Result(0, 0, 1), r, h.getKey());
                List<String> lines = captured.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
                assertEquals(1, lines.size(), h.getKey() + ": " + lines);
                assertTrue(lines.get(0).contains("ring: buffer " + name + " stripe 3: not counted after its client (pid "
                        + DEAD + ") died: "), lines.get(0));
                assertArrayEquals(before, Files.readAllBytes(file), h.getKey());
                closeAll();
            }
        } finally {
            closeAll();
        }
    }

    @Test
    void shouldCountTheGoodStripesOfABufferWhoseOtherStripeIsGarbage() throws Exception {
        try {
            Case c = randomCase(41, false);
            long[] reference = reference(c, "ref-garbage");
            Path file = deadClientBuffer(c, "garbage", 1, 41, ring -> { });
            SplittableRandom r = new SplittableRandom(41);
            RingStripeSpecWriter garbage = new RingStripeSpecWriter(r, 100);
            for (int i = 0; i < RingStripeSpecWriter.STRIPE; i += 8) {
                garbage.b.putLong(i, r.nextLong());
            }
            garbage.b.putLong(73_920, 3);
            garbage.b.putLong(73_984 + 6_720, 3);
            garbage.writeInto(file, 4);
            RingStripeSpecWriter.claim(file, 4, DEAD);
            byte[][] before = stripes(file, 4);
            RingFinisher.Result result = new RingFinisher((pid, path) -> pid != DEAD).finish(file, "garbage");
            assertEquals(new RingFinisher.Result(1, c.ops.size() - c.checkpointAt, 1), result);
            assertArrayEquals(plusDrops(reference, c.dropped), vector(file));
            byte[][] after = stripes(file, 4);
            for (int g = 0; g < before.length; g++) {
                assertArrayEquals(before[g], after[g]);
            }
        } finally {
            closeAll();
        }
    }
}
