package io.gfxstats.daemon.postmortem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * A ring stripe and its checkpoint as a native client leaves them, written from
 * docs/buffer-format.md, "Ring group (id 4, version 1)" alone: every offset below is the doc's
 * number, not a constant of the code under test, so a constant that drifts from the doc fails here.
 */
final class RingStripeSpecWriter {
    static final int STRIPE = 87_424;
    static final int WORDS = 8192;
    final ByteBuffer b = ByteBuffer.allocate(STRIPE).order(ByteOrder.LITTLE_ENDIAN);
    /** The client address of word 0 (any: the finisher works with differences from it). */
    final long base;
    private int p;
    private boolean wrapped;
    private int rp;

    RingStripeSpecWriter(SplittableRandom random, int rp) {
        this.base = 0x7f00_0000_0000L + random.nextLong(1L << 30) * 64;
        this.rp = rp;
        this.p = rp;
        // Whatever the ring held before: old words everywhere (their kind bytes are 0, as the
        // consumer leaves them).
        for (int w = 0; w < WORDS; w++) {
            b.putLong(128 + w * 8, random.nextLong());
        }
        b.putInt(96, WORDS);
        b.putLong(88, base);
        b.putLong(64, address(rp));
        b.putLong(0, address(rp));
        b.putLong(8, random.nextLong());
    }

    long address(int word) {
        return base + word * 8L;
    }

    /** Whether an entry of {@code n} words still fits without filling the ring. */
    boolean fits(int n) {
        int at = p;
        if (WORDS - at < n) {
            if (wrapped) {
                return false;
            }
            at = 0;
        }
        int end = at + n;
        return (wrapped || at < p) ? end < rp : true;
    }

    /** Appends an entry as the producer does: at the start when it does not fit before the end. */
    void entry(int kind, long... words) {
        int n = words.length;
        if (WORDS - p < n) {
            b.put(65_664 + p, (byte) 255);
            p = 0;
            wrapped = true;
        }
        for (int i = 0; i < n; i++) {
            b.putLong(128 + (p + i) * 8, words[i]);
        }
        if (kind != 0) {
            b.put(65_664 + p, (byte) kind);
        }
        p += n;
        b.putLong(0, address(p));
    }

    int wp() {
        return p;
    }

    boolean wrapped() {
        return wrapped;
    }

    void dropped(long dropped) {
        b.putLong(16, dropped);
    }

    /** The consumer's own position (a torn drain moved it past the checkpoint's). */
    void consumerAt(int word) {
        b.putLong(64, address(word));
    }

    /** Slot of checkpoint n, with {@code committed} = n; the other slot gets noise (torn). */
    Checkpoint checkpoint(long n, SplittableRandom random) {
        int slot = 73_984 + (int) (n & 1) * 6_720;
        int other = 73_984 + (int) ((n + 1) & 1) * 6_720;
        for (int i = 0; i < 6_720; i += 8) {
            b.putLong(other + i, random.nextLong());
        }
        b.putLong(73_920, n);
        b.putLong(slot, n);
        return new Checkpoint(b, slot);
    }

    /** The fields of one checkpoint slot, by the doc's table. */
    static final class Checkpoint {
        final ByteBuffer b;
        final int at;

        Checkpoint(ByteBuffer b, int at) {
            this.b = b;
            this.at = at;
        }

        Checkpoint rp(int word) {
            b.putInt(at + 8, word);
            return this;
        }

        Checkpoint flags(int flags) {
            b.putInt(at + 12, flags);
            return this;
        }

        Checkpoint dropsCounted(long d) {
            b.putLong(at + 16, d);
            return this;
        }

        Checkpoint rules(int kind, boolean extended, long refresh, long defaultInterval, long forgiveness,
                         long swapDeadline, long nextFrameStart, long trackerInterval) {
            b.putInt(at + 24, kind).putInt(at + 28, extended ? 1 : 0).putLong(at + 32, refresh)
                    .putLong(at + 40, defaultInterval).putLong(at + 48, forgiveness).putLong(at + 56, swapDeadline)
                    .putLong(at + 64, nextFrameStart).putLong(at + 72, trackerInterval);
            return this;
        }

        Checkpoint matrix(int mode, int[] levels, float hz) {
            b.putInt(at + 80, mode);
            for (int i = 0; i < 4; i++) {
                b.putInt(at + 84 + 4 * i, levels[i]);
            }
            b.putFloat(at + 100, hz);
            return this;
        }

        Checkpoint ownScene(int slot, int previous, long since) {
            b.putInt(at + 104, slot).putInt(at + 108, previous).putLong(at + 112, since);
            return this;
        }

        Checkpoint defaultScene(int slot, int previous, long since) {
            b.putInt(at + 120, slot).putInt(at + 124, previous).putLong(at + 128, since);
            return this;
        }

        /** The FrameTimeline recorder's state: fields 136..175 and the pending table at 256. */
        Checkpoint timeline(io.gfxstats.timeline.recorder.TimelineRecorder.State s) {
            int awaiting = 0;
            for (int i = 0; i < 16; i++) {
                var f = s.slots().get(i);
                int p = at + 256 + 128 * i;
                b.putLong(p, f.token()).putLong(p + 8, f.predictedStart()).putLong(p + 16, f.predictedEnd())
                        .putLong(p + 24, f.predictedPresent()).putLong(p + 32, f.actualStart())
                        .putLong(p + 40, f.actualEnd());
                b.put(p + 48, (byte) (f.used() ? 1 : 0)).put(p + 49, (byte) (f.predicted() ? 1 : 0))
                        .put(p + 50, (byte) (f.awaiting() ? 1 : 0));
                b.putInt(p + 52, f.flags());
                b.putLong(p + 56, f.presented()).putLong(p + 64, f.refresh()).putLong(p + 72, f.latch())
                        .putLong(p + 80, f.output()).putLong(p + 88, f.msc());
                awaiting += f.awaiting() ? 1 : 0;
            }
            b.putInt(at + 136, s.next()).putInt(at + 140, awaiting).putLong(at + 144, s.previousPredictedPresent())
                    .putLong(at + 152, s.previousPresent()).putLong(at + 160, s.joinWaitNanos())
                    .putLong(at + 168, s.lastPresented());
            return this;
        }

        /** The images: counter stripe (768), scene (3,328), FrameTimeline (256), client health (64). */
        Checkpoint images(byte[] counters, byte[] scenes, byte[] timeline, byte[] health) {
            put(2_304, counters, 768);
            put(3_072, scenes, 3_328);
            put(6_400, timeline, 256);
            put(6_656, health, 64);
            return this;
        }

        private void put(int offset, byte[] image, int room) {
            if (image.length > room) {
                throw new IllegalArgumentException("image of " + image.length + " bytes in " + room);
            }
            b.put(at + offset, image);
        }
    }

    /** Writes the stripe as ring stripe s - 1 of the buffer (its directory read for the ring group). */
    void writeInto(Path buffer, int s) throws IOException {
        try (FileChannel c = FileChannel.open(buffer, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long area = ringArea(c);
            ByteBuffer src = b.duplicate().clear();
            long at = area + (long) (s - 1) * STRIPE;
            while (src.hasRemaining()) {
                c.write(src, at + src.position());
            }
        }
    }

    /** Sets the claim word of writer stripe {@code s} (version 2: claim words at 544). */
    static void claim(Path buffer, int s, int pid) throws IOException {
        try (FileChannel c = FileChannel.open(buffer, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer w = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, pid);
            c.write(w, 544 + 4L * (s - 1));
        }
    }

    /** The ring group's offset from the group directory (header 536: offset, 540: count; entries id, version, offset, length). */
    static long ringArea(FileChannel c) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        c.read(h, 536);
        int directory = h.getInt(0);
        int count = h.getInt(4);
        for (int i = 0; i < count; i++) {
            ByteBuffer e = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            c.read(e, directory + 16L * i);
            if (e.getInt(0) == 4 && e.getInt(4) == 1) {
                return Integer.toUnsignedLong(e.getInt(8));
            }
        }
        throw new IllegalStateException("no ring group in the directory");
    }
}
