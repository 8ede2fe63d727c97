package io.gfxstats.client;

import io.gfxstats.frame.FrameInfo;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The ring's 16-byte encoding of a frame (differences from a base, escapes with the values in
 * full) gives back every value exactly, at the edges of its ranges, across the wrap, with
 * FrameInfo frames and dropped frames in between.
 */
class FrameRingEncodingTest {
    private static final long I31 = 1L << 31;
    private static final long I32 = 1L << 32;

    /** What the consumer got, one long[] per frame: the five times, or the FrameInfo fields with a leading -1. */
    private static final class Taken implements FrameRing.Consumer {
        final List<long[]> frames = new ArrayList<>();

        @Override
        public void times(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted, long interval) {
            frames.add(new long[] {intendedVsync, vsync, frameCompleted, gpuCompleted, interval});
        }

        @Override
        public void info(long[] infos, int base) {
            long[] f = new long[FrameInfo.FIELD_COUNT + 1];
            f[0] = -1;
            System.arraycopy(infos, base, f, 1, FrameInfo.FIELD_COUNT);
            frames.add(f);
        }
    }

    private static FrameRing ring(int capacity) {
        return new FrameRing(capacity, null, () -> { });
    }

    private static long[] times(long intended, long vsync, long completed, long gpu, long interval) {
        return new long[] {intended, vsync, completed, gpu, interval};
    }

    private static void put(FrameRing r, long[] f) {
        r.put(f[0], f[1], f[2], f[3], f[4]);
    }

    /** Puts every frame, draining after every {@code drainEvery}, and checks what came out. */
    private static void roundTrip(int capacity, int drainEvery, List<long[]> frames) {
        FrameRing r = ring(capacity);
        Taken taken = new Taken();
        for (int k = 0; k < frames.size(); k++) {
            put(r, frames.get(k));
            if ((k + 1) % drainEvery == 0) {
                r.drain(taken);
            }
        }
        r.drain(taken);
        assertEquals(0, r.dropped());
        assertEquals(frames.size(), taken.frames.size());
        for (int k = 0; k < frames.size(); k++) {
            assertArrayEquals(frames.get(k), taken.frames.get(k), "frame " + k);
        }
    }

    @Test
    void shouldGiveBackTheIntendedVsyncExactlyAroundTheEdgesOfItsRange() {
        List<long[]> frames = new ArrayList<>();
        long base = 5_000_000_000L;
        frames.add(times(base, base, base, base, 16_666_667));
        // Differences from the base (the first frame's vsync): in range up to 2^31 - 1, escapes
        // from 2^31 on and below 0; each escape is the base of the frames after it.
        long[] offsets = {0, 1, I31 - 1, I31, I31 + 1, I32 - 1, I32, I32 + 1, -1, -I31, -I31 - 1, Long.MAX_VALUE};
        for (long offset : offsets) {
            long v = base + offset;
            frames.add(times(v, v, v, v, 16_666_667));
            frames.add(times(v + I31 - 1, v + I31 - 1, v + I31 - 1, v + I31 - 1, 16_666_667));
            base = v;
        }
        frames.add(times(Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, 16_666_667));
        frames.add(times(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, 16_666_667));
        frames.add(times(Long.MAX_VALUE - 1, 0, 0, 0, 16_666_667));
        roundTrip(8, 3, frames);
    }

    @Test
    void shouldGiveBackTheStageTimesExactlyAtTheIntBoundariesBothWays() {
        List<long[]> frames = new ArrayList<>();
        long[] deltas = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, (long) Integer.MAX_VALUE + 1,
                (long) Integer.MIN_VALUE - 1, I32, -I32, Long.MAX_VALUE, Long.MIN_VALUE};
        long t = 1_000_000_000L;
        for (long a : deltas) {
            for (long b : deltas) {
                // Each of the three stage differences at the edge, the other two at b.
                frames.add(times(t, t + a, t + a + b, t + a + b + b, 8_333_333));
                frames.add(times(t, t + b, t + b + a, t + b + a + b, 8_333_333));
                frames.add(times(t, t + b, t + b + b, t + b + b + a, 8_333_333));
                t += 8_333_333;
            }
        }
        roundTrip(16, 7, frames);
    }

    @Test
    void shouldGiveBackEachFramesIntervalWhenItChangesAndStaysAndIsNotPositive() {
        List<long[]> frames = new ArrayList<>();
        long[] intervals = {16_666_667, 16_666_667, 8_333_333, 8_333_333, 8_333_333, 0, 0, -1, -1,
                Long.MIN_VALUE, Long.MAX_VALUE, 16_666_667, 16_666_666, 16_666_667};
        long t = 2_000_000_000L;
        for (long interval : intervals) {
            frames.add(times(t, t + 100, t + 5_000_000, t + 7_000_000, interval));
            t += 16_666_667;
        }
        roundTrip(4, 3, frames);
    }

    @Test
    void shouldKeepTheBaseAcrossFrameInfoFramesAndTheWrap() {
        FrameRing r = ring(4);
        Taken taken = new Taken();
        List<long[]> expected = new ArrayList<>();
        long t = 3_000_000_000L;
        for (int k = 0; k < 40; k++) {
            if (k % 3 == 1) {
                FrameInfo info = new FrameInfo();
                for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
                    // Far from the times frames' base: were it taken as the base, the next differences would break.
                    info.set(f, -7_000_000_000_000L * (k + 1) + f);
                }
                r.put(info);
                long[] e = new long[FrameInfo.FIELD_COUNT + 1];
                e[0] = -1;
                for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
                    e[f + 1] = info.get(f);
                }
                expected.add(e);
            } else {
                // Every fifth frame an escape (a jump of 3 s), the others differences from the base.
                t += k % 5 == 0 ? 3_000_000_000L : 16_666_667;
                long[] f = times(t, t + k, t + 4_000_000 + k, t + 6_000_000 - k, 16_666_667);
                put(r, f);
                expected.add(f);
            }
            if (k % 3 == 2) {
                r.drain(taken);
            }
        }
        r.drain(taken);
        assertEquals(expected.size(), taken.frames.size());
        for (int k = 0; k < expected.size(); k++) {
            assertArrayEquals(expected.get(k), taken.frames.get(k), "frame " + k);
        }
    }

    @Test
    void shouldNotMoveTheBaseWithADroppedFrame() {
        FrameRing r = ring(2);
        Taken taken = new Taken();
        long[] first = times(1_000_000_000L, 1_000_000_000L, 1_004_000_000L, 1_006_000_000L, 16_666_667);
        long[] second = times(1_016_666_667L, 1_016_666_667L, 1_020_000_000L, 1_022_000_000L, 16_666_667);
        // Dropped (the ring holds 2): an escape that would have made itself the base, interval included.
        long[] dropped = times(90_000_000_000L, 90_000_000_000L, 90_000_000_001L, 90_000_000_002L, 8_333_333);
        long[] fourth = times(1_033_333_334L, 1_033_333_334L, 1_040_000_000L, 1_042_000_000L, 16_666_667);
        put(r, first);
        put(r, second);
        put(r, dropped);
        assertEquals(1, r.dropped());
        r.drain(taken);
        put(r, fourth);
        r.drain(taken);
        assertEquals(3, taken.frames.size());
        assertArrayEquals(first, taken.frames.get(0));
        assertArrayEquals(second, taken.frames.get(1));
        assertArrayEquals(fourth, taken.frames.get(2));
    }

    @Test
    void shouldClaimTheLinesUpToTheNewLimitAndLeaveTheEntriesNotYetTakenAsTheyAre() throws Exception {
        // 16 frames a ring: 10 put and taken, 6 more put and not taken, then the 17th moves the
        // limit to 26. It claims the lines of positions 20 and 24 (slots 4 and 8, taken on the
        // first lap) and must not touch slots 10-15, which hold frames the drain has not taken.
        FrameRing r = ring(16);
        Taken taken = new Taken();
        List<long[]> frames = new ArrayList<>();
        for (int k = 0; k < 26; k++) {
            long intended = 1_000_000_000L + k * 16_666_667L;
            frames.add(times(intended, intended + 1_000 + k, intended + 5_000_000 + k, intended + 6_000_000 + k,
                    16_666_667L));
        }
        for (int k = 0; k < 10; k++) {
            put(r, frames.get(k));
        }
        r.drain(taken);
        for (int k = 10; k < 16; k++) {
            put(r, frames.get(k));
        }
        long[] entries = entries(r);
        long[] before = entries.clone();
        put(r, frames.get(16));

        assertEquals(0, entries[4 << 1], "slot 4 claimed");
        assertEquals(0, entries[8 << 1], "slot 8 claimed");
        assertNotEquals(0, before[4 << 1]);
        assertNotEquals(0, before[8 << 1]);
        for (int slot = 10; slot < 16; slot++) {
            assertEquals(before[slot << 1], entries[slot << 1], "slot " + slot);
            assertEquals(before[(slot << 1) + 1], entries[(slot << 1) + 1], "slot " + slot);
        }
        for (int k = 17; k < 26; k++) {
            put(r, frames.get(k));
        }
        r.drain(taken);
        assertEquals(0, r.dropped());
        assertEquals(26, taken.frames.size());
        for (int k = 0; k < 26; k++) {
            assertArrayEquals(frames.get(k), taken.frames.get(k), "frame " + k);
        }
    }

    private static long[] entries(FrameRing r) throws ReflectiveOperationException {
        Field f = FrameRing.class.getDeclaredField("entries");
        f.setAccessible(true);
        return (long[]) f.get(r);
    }

    @Test
    void shouldGiveBackAMillionRandomFramesExactly() {
        SplittableRandom random = new SplittableRandom(25);
        FrameRing r = ring(1024);
        Taken taken = new Taken();
        // The frames not yet checked, by position (the ring holds at most 1024 of them).
        long[][] expected = new long[1024][];
        long t = random.nextLong();
        long interval = 16_666_667;
        long checked = 0;
        for (int k = 0; k < 1_000_000; k++) {
            int shape = random.nextInt(100);
            // Mostly steady frames; some jumps, negative stages, huge values and interval changes.
            t += shape < 90 ? interval : shape < 95 ? random.nextLong(-I32, I32) : random.nextLong();
            if (shape == 99) {
                interval = random.nextInt(3) == 0 ? random.nextLong() : random.nextLong(1, 50_000_000);
            }
            long v = t + (shape < 97 ? random.nextLong(0, 2_000_000) : random.nextLong());
            long c = v + (shape < 97 ? random.nextLong(-1_000_000, 40_000_000) : random.nextLong());
            long g = c + (shape < 97 ? random.nextLong(-I31, I31) : random.nextLong());
            expected[k & 1023] = times(t, v, c, g, interval);
            put(r, expected[k & 1023]);
            if (random.nextInt(600) == 0 || r.pending() == 1024 || k == 999_999) {
                r.drain(taken);
                for (long[] got : taken.frames) {
                    assertArrayEquals(expected[(int) (checked & 1023)], got, "frame " + checked);
                    checked++;
                }
                taken.frames.clear();
            }
        }
        assertEquals(1_000_000, checked);
        assertEquals(0, r.dropped());
    }
}
