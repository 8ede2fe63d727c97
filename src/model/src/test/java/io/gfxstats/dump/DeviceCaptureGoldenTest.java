package io.gfxstats.dump;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Histograms;
import io.gfxstats.testing.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Renders the statistics printed by real devices ({@code dumpsys gfxinfo}) and checks that every
 * line we print appears identically in the device's block. The proto is built only from the
 * device's raw numbers (start, totals, counters, histograms); percentiles and the janky
 * percentage are ours and must come out as the device printed them.
 *
 * <p>gfxinfo prints the same statistics block as graphicsstats minus its identity header (UID,
 * Package, Version, Stats end), and adds "(legacy)" lines we do not print.
 */
class DeviceCaptureGoldenTest {
    private static final Set<String> GRAPHICSSTATS_ONLY = Set.of("UID", "Package", "Version", "Stats end");
    private static final Pattern PID_LINE = Pattern.compile("^\\*\\* Graphics info for pid \\d+ \\[(.+)] \\*\\*$");
    private static final Pattern BUCKET = Pattern.compile("(\\d+)ms=(\\d+)");
    private static final Pattern JANKY = Pattern.compile("^Janky frames: (\\d+) \\(.*%\\)$");

    /** One statistics block of a device capture: its lines, and the proto built from its raw numbers. */
    record DeviceBlock(String packageName, List<String> lines, GraphicsStatsProto proto) {
    }

    @Test
    void shouldReproduceTheAndroid11NuvioTvCaptureLineForLine() throws IOException {
        List<DeviceBlock> blocks = parse("NuvioTV-gfxinfo.txt");
        assertEquals(1, blocks.size());
        DeviceBlock block = blocks.get(0);
        assertEquals(2903, block.proto().getSummary().getTotalFrames());
        assertMatchesDevice(block, DumpFormat.ANDROID11, Set.of("Package", "Version", "Stats end"));
        assertTrue(block.lines().contains("Janky frames: 772 (26.59%)"));
    }

    @Test
    void shouldReproduceTheNewestFormatFrontendCaptureLineForLine() throws IOException {
        List<DeviceBlock> blocks = parse("Frontend-Native-gfxinfo.txt");
        assertEquals(1, blocks.size());
        assertMatchesDevice(blocks.get(0), DumpFormat.ANDROID14, GRAPHICSSTATS_ONLY);
        assertTrue(blocks.get(0).lines().contains("99th gpu percentile: 4950ms"));
    }

    @Test
    void shouldReproduceEveryNonEmptyWindowOfTheFramestatsCapture() throws IOException {
        List<DeviceBlock> blocks = parse("aNavMode-gfxinfo-framestats.txt");
        assertEquals(23, blocks.size());
        int compared = 0;
        for (DeviceBlock block : blocks) {
            // gfxinfo guards a zero total and prints 0.00%; graphicsstats divides and prints nan
            // (spec 8), so empty windows are checked for that difference alone.
            if (block.proto().getSummary().getTotalFrames() == 0) {
                assertTrue(block.lines().contains("Janky frames: 0 (0.00%)"));
                String ours = TestProtos.text(DumpFormat.ANDROID14, List.of(block.proto()));
                assertTrue(ours.contains("\nJanky frames: 0 (nan%)\n"));
                continue;
            }
            assertMatchesDevice(block, DumpFormat.ANDROID14, GRAPHICSSTATS_ONLY);
            compared++;
        }
        assertEquals(20, compared);
    }

    private static void assertMatchesDevice(DeviceBlock block, DumpFormat format, Set<String> expectedSkipped) {
        String ours = TestProtos.text(format, List.of(block.proto()));
        assertTrue(ours.startsWith("\n") && ours.endsWith("\n"));
        List<String> skipped = new ArrayList<>();
        int matched = 0;
        for (String line : ours.substring(1, ours.length() - 1).split("\n", -1)) {
            String key = line.substring(0, line.indexOf(':'));
            if (GRAPHICSSTATS_ONLY.contains(key)) {
                skipped.add(key);
                continue;
            }
            if (!block.lines().contains(line)) {
                fail(block.packageName() + ": printed line not in the device block:\n  " + line
                        + "\ndevice block:\n  " + String.join("\n  ", block.lines()));
            }
            matched++;
        }
        assertEquals(expectedSkipped, Set.copyOf(skipped), "identity lines printed");
        // Stats since, Total, Janky, 4 percentiles, 6 Number lines, HISTOGRAM, 4 gpu percentiles, GPU HISTOGRAM.
        assertEquals(19, matched, block.packageName());
    }

    /** Splits a capture into statistics blocks ("Stats since" .. "GPU HISTOGRAM") and builds each proto. */
    static List<DeviceBlock> parse(String capture) throws IOException {
        List<String> all = Files.readAllLines(TestData.androidGfxinfo(capture), StandardCharsets.UTF_8);
        List<DeviceBlock> blocks = new ArrayList<>();
        String pkg = null;
        for (int i = 0; i < all.size(); i++) {
            Matcher m = PID_LINE.matcher(all.get(i));
            if (m.matches()) {
                pkg = m.group(1);
            }
            if (all.get(i).startsWith("Stats since: ")) {
                int end = i;
                while (!all.get(end).startsWith("GPU HISTOGRAM:")) {
                    end++;
                }
                List<String> lines = all.subList(i, end + 1);
                blocks.add(new DeviceBlock(pkg, List.copyOf(lines), toProto(pkg, lines)));
                i = end;
            }
        }
        return blocks;
    }

    private static GraphicsStatsProto toProto(String pkg, List<String> lines) {
        GraphicsStatsProto.Builder p = GraphicsStatsProto.newBuilder().setPackageName(pkg);
        GraphicsStatsJankSummaryProto.Builder s = GraphicsStatsJankSummaryProto.newBuilder();
        for (String line : lines) {
            Matcher janky = JANKY.matcher(line);
            if (line.startsWith("Stats since: ")) {
                p.setStatsStart(Long.parseLong(line.substring("Stats since: ".length(), line.length() - 2)));
            } else if (line.startsWith("Total frames rendered: ")) {
                s.setTotalFrames(number(line));
            } else if (janky.matches()) {
                s.setJankyFrames(Integer.parseInt(janky.group(1)));
            } else if (line.startsWith("Number Missed Vsync: ")) {
                s.setMissedVsyncCount(number(line));
            } else if (line.startsWith("Number High input latency: ")) {
                s.setHighInputLatencyCount(number(line));
            } else if (line.startsWith("Number Slow UI thread: ")) {
                s.setSlowUiThreadCount(number(line));
            } else if (line.startsWith("Number Slow bitmap uploads: ")) {
                s.setSlowBitmapUploadCount(number(line));
            } else if (line.startsWith("Number Slow issue draw commands: ")) {
                s.setSlowDrawCount(number(line));
            } else if (line.startsWith("Number Frame deadline missed: ")) {
                s.setMissedDeadlineCount(number(line));
            } else if (line.startsWith("HISTOGRAM:")) {
                p.addAllHistogram(buckets(line));
            } else if (line.startsWith("GPU HISTOGRAM:")) {
                p.addAllGpuHistogram(buckets(line));
            }
        }
        p.setSummary(s);
        GraphicsStatsProto proto = p.build();
        // Cross-check of our label tables against the device.
        assertArrayEquals(Histograms.cpuLabels(), proto.getHistogramList().stream()
                .mapToInt(GraphicsStatsHistogramBucketProto::getRenderMillis).toArray());
        assertArrayEquals(Histograms.gpuLabels(), proto.getGpuHistogramList().stream()
                .mapToInt(GraphicsStatsHistogramBucketProto::getRenderMillis).toArray());
        return proto;
    }

    private static int number(String line) {
        return Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static List<GraphicsStatsHistogramBucketProto> buckets(String line) {
        List<GraphicsStatsHistogramBucketProto> out = new ArrayList<>();
        Matcher m = BUCKET.matcher(line);
        while (m.find()) {
            out.add(TestProtos.bucket(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
        }
        return out;
    }
}
