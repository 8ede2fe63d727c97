package io.gfxstats.daemon.postmortem;

import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.buffer.RingGroup;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.client.CheckpointDrain;
import io.gfxstats.frame.Android9JankTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;
import io.gfxstats.scene.SceneFrameCounter;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.TimelineSink;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts what a native client killed by SIGKILL left in its rings (the ring group,
 * docs/buffer-format.md, "Ring group (id 4, version 1)"), before the daemon's final save of its
 * buffer: for each ring stripe whose claimant is dead and that has a checkpoint, the checkpoint's
 * images go back over the tracker's stripes (undoing a drain the kill interrupted), then the
 * entries from the checkpoint's position to the producer's are counted with the checkpoint's
 * state by the client's own classes ({@link CheckpointDrain}), and the drops not yet counted are
 * added to the client health counter. The ring stripe itself is never written, so a second run
 * (a daemon killed before it deleted the buffer) counts the same again from the same images.
 *
 * <p>The file was written by a client nobody vouches for: everything is checked on a private
 * copy of the ring stripe before any byte of the buffer is written, and a stripe that fails a
 * check is left exactly as it is, with one log line.
 */
public final class RingFinisher {
    private static final Logger log = LoggerFactory.getLogger(RingFinisher.class);
    private static final int RING_DROPPED = ClientHealthGroup.vectorIndex(ClientHealthGroup.RING_DROPPED);
    private static final int SCENES = CounterGroups.KNOWN.indexOf(CounterGroups.SCENES);
    private static final int TIMELINE = CounterGroups.KNOWN.indexOf(CounterGroups.FRAMETIMELINE);
    private static final int HEALTH = CounterGroups.KNOWN.indexOf(CounterGroups.CLIENT_HEALTH);

    private final BiPredicate<Integer, Path> claimantWrites;

    /**
     * @param claimantWrites whether a claim word's pid still writes into the buffer at the path
     *                       (then its stripe is its own business); a zombie, or a process that
     *                       exec'd another program, does not: its old memory will not change
     */
    public RingFinisher(BiPredicate<Integer, Path> claimantWrites) {
        this.claimantWrites = Objects.requireNonNull(claimantWrites, "claimantWrites");
    }

    /** What one buffer gave: ring stripes counted, entries counted in them, stripes refused. */
    public record Result(int stripes, long entries, int refused) {
        static final Result NONE = new Result(0, 0, 0);
    }

    /**
     * Finishes every dead claimant's ring stripe of the buffer at {@code path} (a file without the
     * ring group gives {@link Result#NONE}). Never throws for what the file holds; an I/O error
     * opening it is logged.
     */
    public Result finish(Path path, String name) {
        BufferWriter w;
        try {
            w = BufferWriter.open(path);
        } catch (IOException | RuntimeException e) {
            // A handed-over or unreadable buffer: its clients' rings moved on, or nothing can be counted.
            log.debug("ring: buffer {} not finished: {}", name, e.getMessage());
            return Result.NONE;
        }
        try {
            if (!w.hasRings()) {
                return Result.NONE;
            }
            int stripes = 0;
            int refused = 0;
            long entries = 0;
            for (int s = 1; s <= w.stripeCount(); s++) {
                int claim = w.claimOf(s);
                if (claim == 0 || claimantWrites.test(claim, path)) {
                    continue; // free, or its claimant still counts
                }
                try {
                    long n = finishStripe(w, s);
                    if (n >= 0) {
                        stripes++;
                        entries += n;
                    }
                } catch (Refused e) {
                    refused++;
                    log.warn("ring: buffer {} stripe {}: not counted after its client (pid {}) died: {}; the stripe "
                            + "stays as the client left it", name, s, claim, e.getMessage());
                } catch (RuntimeException e) {
                    refused++;
                    log.warn("ring: buffer {} stripe {}: not counted after its client (pid {}) died: {}", name, s,
                            claim, e.toString());
                }
            }
            if (stripes > 0) {
                log.info("ring: buffer {}: counted {} entries its dead client had recorded and not drained, in {} "
                        + "ring stripes{}", name, entries, stripes, refused == 0 ? "" : " (" + refused + " refused)");
            }
            return new Result(stripes, entries, refused);
        } finally {
            w.close();
        }
    }

    /** Why a ring stripe cannot be counted; its message is the log line's reason. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    private static void check(boolean ok, String reason) throws Refused {
        if (!ok) {
            throw new Refused(reason);
        }
    }

    /**
     * One ring stripe: the entries counted, or -1 when there was nothing to do (never used, or no
     * checkpoint and nothing recorded).
     */
    static long finishStripe(BufferWriter w, int s) throws Refused {
        ByteBuffer r = ByteBuffer.wrap(w.copyRingStripe(s)).order(ByteOrder.LITTLE_ENDIAN);
        long words = Integer.toUnsignedLong(r.getInt(RingGroup.WORDS_FIELD));
        long committed = r.getLong(RingGroup.COMMITTED);
        long base = r.getLong(RingGroup.BASE);
        long wpAddress = r.getLong(RingGroup.WP);
        if (committed == 0) {
            // Before the first checkpoint (at most one drain period after a tracker moved in)
            // nothing says what was counted already.
            check(wpAddress == r.getLong(RingGroup.RP), "no checkpoint while the ring holds entries");
            return -1;
        }
        check(words == RingGroup.WORDS, "ring of " + words + " words, the layout has " + RingGroup.WORDS);
        int slot = RingGroup.slotOffset(committed);
        check(r.getLong(slot + RingGroup.CP_N) == committed, "checkpoint " + Long.toUnsignedString(committed)
                + " is not in its slot (slot says " + Long.toUnsignedString(r.getLong(slot + RingGroup.CP_N)) + ")");
        int wp = wordIndex(wpAddress, base, "the producer's position");
        long rp = Integer.toUnsignedLong(r.getInt(slot + RingGroup.CP_RP));
        check(rp <= RingGroup.WORDS, "checkpoint position " + rp + " outside the ring");
        Checkpoint cp = Checkpoint.read(r, slot);
        int[] entries = entries(r, (int) rp, wp, cp.timeline != null);

        // Everything checked: now the buffer is written, the images first.
        byte[] ring = r.array();
        w.writeStripe(s, -1, slice(ring, slot + RingGroup.CP_COUNTER_IMAGE, RingGroup.COUNTER_IMAGE_BYTES));
        w.writeStripe(s, SCENES, slice(ring, slot + RingGroup.CP_SCENE_IMAGE,
                RingGroup.CP_TIMELINE_IMAGE - RingGroup.CP_SCENE_IMAGE));
        w.writeStripe(s, TIMELINE, slice(ring, slot + RingGroup.CP_TIMELINE_IMAGE,
                RingGroup.CP_HEALTH_IMAGE - RingGroup.CP_TIMELINE_IMAGE));
        w.writeStripe(s, HEALTH, slice(ring, slot + RingGroup.CP_HEALTH_IMAGE,
                RingGroup.SLOT_BYTES - RingGroup.CP_HEALTH_IMAGE));
        StripeWriter sink = w.takeOverStripe(s);
        try {
            CheckpointDrain drain = cp.drain(sink);
            TimelineRecorder recorder = cp.timeline == null ? null
                    : recorder(sink, cp.timeline, (cp.flags & RingGroup.FLAG_COMPOSITOR) == 0 ? null
                            : displayRing(w.path()));
            TimelineFrame frame = new TimelineFrame();
            long[] fields = new long[FrameInfo.FIELD_COUNT];
            for (int i = 0; i < entries.length; i++) {
                int at = RingGroup.RING + entries[i] * Long.BYTES;
                int kind = Byte.toUnsignedInt(r.get(RingGroup.KINDS + entries[i]));
                if (kind == RingGroup.KIND_TIMES) {
                    drain.times(r.getLong(at), r.getLong(at + 8), r.getLong(at + 16), r.getLong(at + 24),
                            r.getLong(at + 32));
                } else if (kind == RingGroup.KIND_FRAMEINFO) {
                    for (int f = 0; f < fields.length; f++) {
                        fields[f] = r.getLong(at + f * Long.BYTES);
                    }
                    drain.info(fields, 0);
                } else {
                    timelineCall(recorder, frame, kind, r, at);
                }
            }
            long dropped = r.getLong(RingGroup.DROPPED);
            if ((cp.flags & RingGroup.FLAG_HEALTH) != 0 && dropped != cp.dropsCounted) {
                sink.addElement(RING_DROPPED, dropped - cp.dropsCounted);
            }
        } finally {
            sink.release();
        }
        return entries.length;
    }

    /**
     * A recorder counting into {@code sink}, continuing from the checkpoint's state (already
     * checked), joined with the display-frame ring when the client was in compositor mode and the
     * ring is there.
     */
    private static TimelineRecorder recorder(TimelineSink sink, TimelineRecorder.State state,
                                             DisplayOutcomes display) {
        TimelineRecorder rec = new TimelineRecorder(sink);
        if (display != null) {
            rec.joinCompositor(display, state.joinWaitNanos());
        }
        rec.restore(state);
        return rec;
    }

    /**
     * The daemon's display-frame ring beside the buffer, where the client in compositor mode
     * looked its frames up (docs/frametimeline.md); null when there is none: its frames are then
     * classified as the recorder does without a ring (client-only, after the join wait).
     */
    private static DisplayOutcomes displayRing(Path buffer) {
        Path ring = DisplayOutcomeLayout.besideBuffer(buffer);
        try {
            return Files.exists(ring) ? DisplayOutcomes.open(ring) : null;
        } catch (IOException | RuntimeException e) {
            log.debug("ring: display-frame ring {} not readable: {}", ring, e.getMessage());
            return null;
        }
    }

    /**
     * One FrameTimeline call from the ring: word 0 is its kind, then its arguments (docs/native.md,
     * "The frame ring and the drain"). A frame without a prediction keeps zero predicted times,
     * as the client's recorder is given them.
     */
    private static void timelineCall(TimelineRecorder rec, TimelineFrame frame, int kind, ByteBuffer r, int at) {
        long a1 = r.getLong(at + 8);
        long a2 = r.getLong(at + 16);
        long a3 = r.getLong(at + 24);
        long a4 = r.getLong(at + 32);
        long a5 = r.getLong(at + 40);
        long a6 = r.getLong(at + 48);
        switch (kind) {
            case RingGroup.KIND_TL_COMMIT -> rec.commit(frame.token(a1).predicted(a2, a3, a4).actual(a5, a6));
            case RingGroup.KIND_TL_UNPREDICTED -> rec.commit(frame.token(a1).predicted(0, 0, 0).noPrediction()
                    .actual(a2, a3));
            case RingGroup.KIND_TL_PRESENTED -> rec.presented(a1, a2, a3, (int) a4, a5, a6);
            case RingGroup.KIND_TL_DISCARDED -> rec.discarded(a1, a2);
            case RingGroup.KIND_TL_POLL -> rec.poll(a1);
            default -> throw new IllegalStateException("kind " + kind + " passed the check");
        }
    }

    private static byte[] slice(byte[] from, int at, int length) {
        byte[] b = new byte[length];
        System.arraycopy(from, at, b, 0, length);
        return b;
    }

    /** The word index of a client pointer into the ring (0..WORDS: an entry may end at the end). */
    private static int wordIndex(long address, long base, String what) throws Refused {
        long d = address - base;
        check(d >= 0 && d <= (long) RingGroup.WORDS * Long.BYTES && d % Long.BYTES == 0,
                what + " " + Long.toHexString(address) + " is not a word of the ring at " + Long.toHexString(base));
        return (int) (d / Long.BYTES);
    }

    /**
     * The first words of the entries from {@code rp} up to {@code wp}, in the order the drain
     * takes them (following "go on at the start"), checked: known kinds, every entry inside the
     * ring, the walk ending exactly at {@code wp} within one lap.
     */
    static int[] entries(ByteBuffer r, int rp, int wp, boolean timeline) throws Refused {
        int[] found = new int[RingGroup.WORDS / RingGroup.TIMES_WORDS + 1];
        int n = 0;
        int q = rp;
        int walked = 0;
        boolean wrapped = false;
        while (q != wp) {
            int kind = Byte.toUnsignedInt(r.get(RingGroup.KINDS + q));
            if (kind == RingGroup.KIND_WRAP) {
                check(!wrapped, "a second \"go on at the start\" at word " + q);
                check(wp < q, "\"go on at the start\" at word " + q + " while the producer is ahead at " + wp);
                wrapped = true;
                walked += RingGroup.WORDS - q;
                q = 0;
                if (q == wp) {
                    break;
                }
                kind = Byte.toUnsignedInt(r.get(RingGroup.KINDS));
                check(kind != RingGroup.KIND_WRAP, "\"go on at the start\" at word 0");
            }
            int words = switch (kind) {
                case RingGroup.KIND_TIMES -> RingGroup.TIMES_WORDS;
                case RingGroup.KIND_FRAMEINFO -> RingGroup.FRAMEINFO_WORDS;
                case RingGroup.KIND_TL_COMMIT, RingGroup.KIND_TL_UNPREDICTED, RingGroup.KIND_TL_PRESENTED,
                     RingGroup.KIND_TL_DISCARDED, RingGroup.KIND_TL_POLL -> {
                    check(timeline, "a FrameTimeline entry at word " + q + " without the recorder's state");
                    yield RingGroup.TIMELINE_WORDS;
                }
                default -> throw new Refused("unknown entry kind " + kind + " at word " + q);
            };
            check(q + words <= RingGroup.WORDS, "entry at word " + q + " runs past the ring's end");
            check(q >= wp || q + words <= wp, "entry at word " + q + " runs past the producer's position " + wp);
            walked += words;
            check(walked < RingGroup.WORDS, "the entries from " + rp + " do not reach the producer's position " + wp);
            found[n++] = q;
            q += words;
        }
        int[] out = new int[n];
        System.arraycopy(found, 0, out, 0, n);
        return out;
    }

    /** A checkpoint slot's state, checked. */
    private record Checkpoint(int flags, long dropsCounted, int rulesKind, boolean deadlinesExtended, long refresh,
                              long defaultInterval, long forgiveness, long swapDeadline, long nextFrameStart,
                              long trackerInterval, MatrixMode mode, MatrixLevels levels, float refreshHz,
                              int sceneSlot, int previousSlot, long since, TimelineRecorder.State timeline) {
        static Checkpoint read(ByteBuffer r, int slot) throws Refused {
            int flags = r.getInt(slot + RingGroup.CP_FLAGS);
            check((flags & ~RingGroup.KNOWN_FLAGS) == 0, "unknown checkpoint flags " + Integer.toHexString(flags));
            int rulesKind = r.getInt(slot + RingGroup.CP_RULES_KIND);
            check(rulesKind == 0 || rulesKind == 1, "rules kind " + rulesKind);
            int extended = r.getInt(slot + RingGroup.CP_DEADLINES_EXTENDED);
            check(extended == 0 || extended == 1, "deadlines extended " + extended);
            long refresh = r.getLong(slot + RingGroup.CP_REFRESH);
            long defaultInterval = r.getLong(slot + RingGroup.CP_DEFAULT_INTERVAL);
            long forgiveness = r.getLong(slot + RingGroup.CP_DEQUEUE_FORGIVENESS);
            long trackerInterval = r.getLong(slot + RingGroup.CP_TRACKER_INTERVAL);
            check(refresh > 0 && defaultInterval > 0 && forgiveness >= 0 && trackerInterval > 0,
                    "rules settings out of range (refresh " + refresh + ", default interval " + defaultInterval
                    + ", dequeue forgiveness " + forgiveness + ", tracker interval " + trackerInterval + ")");
            int modeCode = r.getInt(slot + RingGroup.CP_MATRIX_MODE);
            check(modeCode >= 0 && modeCode < MatrixMode.values().length, "Matrix mode " + modeCode);
            int[] l = new int[4];
            for (int i = 0; i < 4; i++) {
                l[i] = r.getInt(slot + RingGroup.CP_MATRIX_LEVELS + i * Integer.BYTES);
            }
            MatrixLevels levels;
            try {
                levels = new MatrixLevels(l[0], l[1], l[2], l[3]);
            } catch (IllegalArgumentException e) {
                throw new Refused("Matrix levels " + l[0] + "," + l[1] + "," + l[2] + "," + l[3]);
            }
            float hz = r.getFloat(slot + RingGroup.CP_REFRESH_HZ);
            check(hz == 0f || (hz >= 1f && hz <= 1000f), "refresh rate " + hz + " Hz");
            boolean own = (flags & RingGroup.FLAG_OWN_SCENE) != 0;
            int at = own ? RingGroup.CP_OWN_SLOT : RingGroup.CP_DEFAULT_SLOT;
            int sceneSlot = r.getInt(slot + at);
            int previous = r.getInt(slot + at + Integer.BYTES);
            long since = r.getLong(slot + at + 2 * Integer.BYTES);
            if ((flags & RingGroup.FLAG_SCENES) != 0) {
                // The default switch also while the tracker's own is in effect: out of range, it
                // says the checkpoint is garbage.
                for (int field : new int[] {RingGroup.CP_DEFAULT_SLOT, RingGroup.CP_DEFAULT_PREVIOUS,
                        RingGroup.CP_OWN_SLOT, RingGroup.CP_OWN_PREVIOUS}) {
                    int v = r.getInt(slot + field);
                    boolean inUse = own || field == RingGroup.CP_DEFAULT_SLOT || field == RingGroup.CP_DEFAULT_PREVIOUS;
                    check(!inUse || (v >= 0 && v < SceneGroup.SLOTS), "scene slot " + v + " (checkpoint offset "
                            + field + ")");
                }
            }
            TimelineRecorder.State timeline = (flags & RingGroup.FLAG_TIMELINE) == 0 ? null : timeline(r, slot);
            return new Checkpoint(flags, r.getLong(slot + RingGroup.CP_DROPS_COUNTED), rulesKind, extended == 1,
                    refresh, defaultInterval, forgiveness, r.getLong(slot + RingGroup.CP_SWAP_DEADLINE),
                    r.getLong(slot + RingGroup.CP_NEXT_FRAME_START), trackerInterval,
                    MatrixMode.values()[modeCode], levels, hz, sceneSlot, previous, since, timeline);
        }

        /** The FrameTimeline recorder's state, checked as the recorder itself checks it. */
        static TimelineRecorder.State timeline(ByteBuffer r, int slot) throws Refused {
            int next = r.getInt(slot + RingGroup.CP_TL_NEXT);
            int awaitingCount = r.getInt(slot + RingGroup.CP_TL_AWAITING);
            check(next >= 0 && next < RingGroup.PENDING_SLOTS, "FrameTimeline oldest slot " + next);
            List<TimelineRecorder.Pending> pending = new ArrayList<>(RingGroup.PENDING_SLOTS);
            int awaiting = 0;
            for (int i = 0; i < RingGroup.PENDING_SLOTS; i++) {
                int at = slot + RingGroup.CP_PENDING + i * RingGroup.PENDING_BYTES;
                int used = Byte.toUnsignedInt(r.get(at + RingGroup.PENDING_USED));
                int predicted = Byte.toUnsignedInt(r.get(at + RingGroup.PENDING_PREDICTED));
                int waits = Byte.toUnsignedInt(r.get(at + RingGroup.PENDING_AWAITING));
                check(used <= 1 && predicted <= 1 && waits <= 1 && (waits == 0 || used == 1),
                        "FrameTimeline slot " + i + " (used " + used + ", predicted " + predicted + ", awaiting "
                        + waits + ")");
                awaiting += waits;
                pending.add(new TimelineRecorder.Pending(used == 1, r.getLong(at + RingGroup.PENDING_TOKEN),
                        predicted == 1, r.getLong(at + RingGroup.PENDING_PREDICTED_START),
                        r.getLong(at + RingGroup.PENDING_PREDICTED_END),
                        r.getLong(at + RingGroup.PENDING_PREDICTED_PRESENT),
                        r.getLong(at + RingGroup.PENDING_ACTUAL_START), r.getLong(at + RingGroup.PENDING_ACTUAL_END),
                        waits == 1, r.getInt(at + RingGroup.PENDING_FLAGS), r.getLong(at + RingGroup.PENDING_PRESENTED),
                        r.getLong(at + RingGroup.PENDING_REFRESH), r.getLong(at + RingGroup.PENDING_LATCH),
                        r.getLong(at + RingGroup.PENDING_OUTPUT), r.getLong(at + RingGroup.PENDING_MSC)));
            }
            check(awaiting == awaitingCount, "FrameTimeline says " + awaitingCount + " frames await, its slots "
                    + awaiting);
            long joinWait = r.getLong(slot + RingGroup.CP_TL_JOIN_WAIT);
            check(joinWait >= 0, "FrameTimeline join wait " + joinWait);
            TimelineRecorder.State state = new TimelineRecorder.State(pending, next,
                    r.getLong(slot + RingGroup.CP_TL_PREVIOUS_PREDICTED_PRESENT),
                    r.getLong(slot + RingGroup.CP_TL_PREVIOUS_PRESENT), joinWait,
                    r.getLong(slot + RingGroup.CP_TL_LAST_PRESENTED));
            try {
                new TimelineRecorder(counter -> { }).restore(state);
            } catch (IllegalArgumentException e) {
                throw new Refused(e.getMessage());
            }
            return state;
        }

        CheckpointDrain drain(StripeWriter sink) {
            TrackerConfig config = new TrackerConfig(refresh, defaultInterval, forgiveness, deadlinesExtended);
            FrameTracker rules;
            if (rulesKind == 0) {
                ModernJankTracker m = new ModernJankTracker(config, DaveyListener.ignoring());
                m.restoreState(swapDeadline, nextFrameStart);
                rules = m;
            } else {
                Android9JankTracker a = new Android9JankTracker(config, DaveyListener.ignoring());
                a.restoreState(swapDeadline);
                rules = a;
            }
            SceneFrameCounter scenes = (flags & RingGroup.FLAG_SCENES) == 0 ? null
                    : new SceneFrameCounter(mode, levels, refreshHz);
            return new CheckpointDrain(sink, rules, trackerInterval, scenes, sceneSlot, since, previousSlot);
        }
    }
}
