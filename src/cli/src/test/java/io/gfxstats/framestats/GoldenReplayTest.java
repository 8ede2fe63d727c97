package io.gfxstats.framestats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.TestData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replays the real capture aNavMode-gfxinfo-framestats.txt and compares with what the device
 * itself printed for every window whose frames all fit in the dump's rows.
 */
class GoldenReplayTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");
    static final List<String> REPRODUCIBLE_NON_EMPTY = List.of(
            "com.android.settings/com.android.settings.homepage.SettingsHomepageActivity",
            "com.android.settings/com.android.settings.SubSettings",
            "InputMethod",
            "com.google.android.apps.docs/com.google.android.apps.docs.drive.app.navigation.NavigationActivity",
            "ScreenDecorOverlay");

    static List<FramestatsBlock> blocks;

    @BeforeAll
    static void read() throws Exception {
        blocks = FramestatsReader.read(CAPTURE);
    }

    static List<FramestatsBlock> reproducible() {
        List<FramestatsBlock> out = new ArrayList<>();
        for (FramestatsBlock b : blocks) {
            if (b.reproducesDeviceStats()) {
                out.add(b);
            }
        }
        return out;
    }

    @Test
    void shouldFindEveryWindowOfTheCaptureWithItsPrintedStats() {
        assertEquals(13, blocks.size());
        for (FramestatsBlock b : blocks) {
            assertEquals(ColumnSet.MODERN, b.columnSet(), b.name());
            assertTrue(b.deviceStats().isPresent(), b.name());
            assertTrue(b.process().isPresent(), b.name());
        }
        assertEquals("de.codevoid.andronavibar/de.codevoid.andronavibar.MainActivity", blocks.get(0).name());
        assertEquals(3370, blocks.get(0).deviceStats().orElseThrow().totalFrames());
        assertEquals(120, blocks.get(0).rowCount());
        assertEquals("StatusBar", blocks.get(12).name());
    }

    @Test
    void shouldQualifyExactlyFiveNonEmptyWindowsForExactReproduction() {
        List<String> names = new ArrayList<>();
        for (FramestatsBlock b : reproducible()) {
            if (b.deviceStats().orElseThrow().totalFrames() > 0) {
                names.add(b.name());
            }
        }
        assertEquals(REPRODUCIBLE_NON_EMPTY, names);
    }

    @Test
    void shouldReproduceEveryPrintedCounterAndBothHistogramsOfQualifyingWindows() {
        for (FramestatsBlock b : reproducible()) {
            DeviceStats device = b.deviceStats().orElseThrow();
            ProfileData replay = FramestatsReplay.replay(b, FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS);
            String w = b.name();
            assertEquals(device.totalFrames(), replay.totalFrames(), w);
            assertEquals(device.jankyFrames().orElseThrow(), replay.jankyFrames(), w);
            assertEquals(device.jankyFramesLegacy().orElseThrow(), replay.jankyFramesLegacy(), w);
            for (JankType t : JankType.values()) {
                assertEquals(device.count(t).orElseThrow(), replay.jankCount(t), w + " " + t);
            }
            long[] cpu = new long[Histograms.CPU_BUCKETS];
            for (int i = 0; i < cpu.length; i++) {
                cpu[i] = replay.cpuBucket(i);
            }
            long[] gpu = new long[Histograms.GPU_BUCKETS];
            for (int i = 0; i < gpu.length; i++) {
                gpu[i] = replay.gpuBucket(i);
            }
            assertArrayEquals(device.cpuHistogram(), cpu, w);
            assertArrayEquals(device.gpuHistogram(), gpu, w);
            for (int p : new int[] {50, 90, 95, 99}) {
                assertEquals(device.percentile(p).orElseThrow(), replay.cpuPercentile(p), w + " p" + p);
                assertEquals(device.gpuPercentile(p).orElseThrow(), replay.gpuPercentile(p), w + " gpu p" + p);
            }
            assertEquals(List.of(), device.differencesFrom(replay), w);
            assertEquals(b.rowCount() - device.totalFrames(), b.inFlightRows(), w + " in-flight rows");
        }
    }

    @Test
    void shouldNotReproduceWindowsWhoseDeviceCountsExceedTheRows() {
        for (FramestatsBlock b : blocks) {
            if (!b.reproducesDeviceStats()) {
                ProfileData replay = FramestatsReplay.replay(b, FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS);
                assertFalse(b.deviceStats().orElseThrow().differencesFrom(replay).isEmpty(), b.name());
            }
        }
    }

    @Test
    void shouldRecomputeEveryPrintedPercentileFromThePrintedHistograms() {
        for (FramestatsBlock b : blocks) {
            DeviceStats device = b.deviceStats().orElseThrow();
            assertEquals(List.of(50, 90, 95, 99), List.copyOf(device.percentiles().keySet()), b.name());
            assertEquals(List.of(50, 90, 95, 99), List.copyOf(device.gpuPercentiles().keySet()), b.name());
            assertEquals(List.of(), device.percentileInconsistencies(), b.name());
        }
    }
}
