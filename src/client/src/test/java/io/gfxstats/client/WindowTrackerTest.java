package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class WindowTrackerTest {
    private static final long MS = 1_000_000L;
    private static final long FI = FrameStream.INTERVAL;

    @TempDir
    Path dir;

    private long[] recordWithConvenienceMethod(long[][] frames) throws Exception {
        try (DirectoryBufferProvider provider = DirectoryBufferProvider.create(dir);
             StatsSession session = StatsSession.open(SessionOptions.builder("com.example.simple", 3)
                     .daveyListener(DaveyListener.ignoring()).countWhenRingFull(true).build(), provider)) {
            assertTrue(session.awaitAttached(Duration.ofSeconds(10)));
            try (WindowTracker tracker = session.newTracker()) {
                for (long[] f : frames) {
                    tracker.record(f[0], f[1], f[2], f[3], f[4]);
                }
            }
            try (BufferReader reader = BufferReader.open(session.buffer().orElseThrow().path(), TestBuffers.uid())) {
                return reader.snapshot().counters();
            }
        }
    }

    @Test
    void shouldJudgeASimpleRenderersFramesByGpuCompletionAgainstIntendedVsyncPlusInterval() throws Exception {
        long t = 10_000 * MS;
        long[][] frames = {
            {t, t, t + 10 * MS, t + 12 * MS, FI},                             // on time, 2 ms GPU
            {t + FI, t + FI, t + FI + 30 * MS, t + FI + 31 * MS, FI},         // late: janky, 30 ms bucket
            {t + 4 * FI, t + 5 * FI, t + 5 * FI + 5 * MS, t + 5 * FI + 5 * MS, 0}, // vsync missed, interval defaulted
            {t + 9 * FI, t + 9 * FI, t + 9 * FI - 1, t + 9 * FI, FI},         // completed before intended: ignored
        };
        long[] counters = recordWithConvenienceMethod(frames);
        assertEquals(3, counters[Counters.TOTAL_FRAMES]);
        assertEquals(2, counters[Counters.JANKY_FRAMES]);
        assertEquals(2, counters[JankType.MISSED_DEADLINE.counter()]);
        assertEquals(1, counters[JankType.MISSED_VSYNC.counter()]);
        assertEquals(0, counters[JankType.SLOW_UI_THREAD.counter()], "no stage timestamps, no stage blame");
        assertEquals(1, counters[Counters.cpuCounterForNanos(30 * MS)]);
        assertEquals(1, counters[Counters.gpuCounterForNanos(2 * MS)]);
        assertEquals(1, counters[Counters.gpuCounterForNanos(MS)]);
        assertEquals(1, counters[Counters.gpuCounterForNanos(0)]);
    }

    @Test
    void shouldCountLikeTheCoreTrackerFedTheEquivalentFrameInfo() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        long[][] frames = new long[3_000][];
        long intended = 1_000 * MS;
        ProfileData expected = new ProfileData();
        ModernJankTracker reference = new ModernJankTracker(TrackerConfig.live(FI), DaveyListener.ignoring());
        FrameInfo f = new FrameInfo();
        for (int i = 0; i < frames.length; i++) {
            intended += FI;
            long vsync = intended + (random.nextInt(10) == 0 ? random.nextLong(1, FI) : 0);
            long completed = intended + FrameStream.drawDuration(random);
            long gpu = completed + random.nextLong(0, 6 * MS);
            frames[i] = new long[] {intended, vsync, completed, gpu, FI};
            f.clear().set(FrameInfo.INTENDED_VSYNC, intended).set(FrameInfo.VSYNC, vsync)
                    .set(FrameInfo.FRAME_DEADLINE, intended + FI).set(FrameInfo.FRAME_INTERVAL, FI)
                    .set(FrameInfo.SWAP_BUFFERS, completed).set(FrameInfo.FRAME_COMPLETED, completed)
                    .set(FrameInfo.SWAP_BUFFERS_COMPLETED, completed).set(FrameInfo.GPU_COMPLETED, gpu);
            reference.finishFrame(f, expected);
        }
        assertArrayEquals(expected.toArray(), recordWithConvenienceMethod(frames));
        assertTrue(expected.jankyFramesLegacy() > 0, "legacy accounting runs on convenience frames too");
    }

    @Test
    void shouldLeaveTheStandaloneBufferFileBehindAsTheRecord() throws Exception {
        recordWithConvenienceMethod(new long[][] {{FI, FI, FI + 5 * MS, FI + 6 * MS, FI}});
        try (var files = Files.list(dir)) {
            assertEquals(1, files.filter(p -> p.toString().endsWith(DirectoryBufferProvider.SUFFIX)).count());
        }
    }
}
