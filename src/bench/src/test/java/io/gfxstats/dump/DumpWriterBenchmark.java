package io.gfxstats.dump;

import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Cost of writing a whole dump, against peers measured in the same run: the text writer against
 * the obvious implementation (String.format per line and per bucket into a StringBuilder), the
 * proto writer against building the wrapper message and serializing it.
 *
 * <p>Run: {@code mvn -o -q test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * -Dmdep.includeScope=test && java -cp target/test-classes:target/classes:$(cat cp.txt)
 * io.gfxstats.dump.DumpWriterBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DumpWriterBenchmark {
    @Param({"1000"})
    public int entries;

    private List<GraphicsStatsProto> dump;
    private final TextDumpWriter text = new TextDumpWriter(DumpFormat.ANDROID14);
    private final ProtoDumpWriter proto = new ProtoDumpWriter();

    @Setup
    public void setUp() {
        dump = new ArrayList<>();
        GraphicsStatsProto base = TextDumpWriterTest.goldenProto();
        for (int i = 0; i < entries; i++) {
            GraphicsStatsProto.Builder b = base.toBuilder().setPackageName("com.example.app" + i).setUid(10000 + i)
                    .setSummary(GraphicsStatsJankSummaryProto.newBuilder().setTotalFrames(100_000 + i)
                            .setJankyFrames(i * 7).setMissedVsyncCount(i).setSlowUiThreadCount(3 * i));
            for (int k = 0; k < b.getHistogramCount(); k++) {
                b.setHistogram(k, b.getHistogram(k).toBuilder().setFrameCount((i * 31 + k * 17) % 5000));
            }
            dump.add(b.build());
        }
    }

    @Benchmark
    public void textWriter(Blackhole bh) throws IOException {
        text.write(dump, new Sink(bh));
    }

    @Benchmark
    public void textNaivePeer(Blackhole bh) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (GraphicsStatsProto p : dump) {
            DumpEntry e = DumpEntry.of(p).orElseThrow();
            sb.append(String.format(Locale.ROOT, "\nUID: %d", e.uid()));
            sb.append(String.format(Locale.ROOT, "\nPackage: %s", e.packageName()));
            sb.append(String.format(Locale.ROOT, "\nVersion: %d", e.versionCode()));
            sb.append(String.format(Locale.ROOT, "\nStats since: %dns", e.statsStartMillis()));
            sb.append(String.format(Locale.ROOT, "\nStats end: %dns", e.statsEndMillis()));
            sb.append(String.format(Locale.ROOT, "\nTotal frames rendered: %d", e.totalFrames()));
            sb.append(String.format(Locale.ROOT, "\nJanky frames: %d (%s%%)", e.jankyFrames(),
                    JankyPercent.format(e.jankyPercent())));
            for (int pct : new int[] {50, 90, 95, 99}) {
                sb.append(String.format(Locale.ROOT, "\n%dth percentile: %dms", pct, e.cpuPercentile(pct)));
            }
            sb.append(String.format(Locale.ROOT, "\nNumber Missed Vsync: %d", e.missedVsync()));
            sb.append(String.format(Locale.ROOT, "\nNumber High input latency: %d", e.highInputLatency()));
            sb.append(String.format(Locale.ROOT, "\nNumber Slow UI thread: %d", e.slowUiThread()));
            sb.append(String.format(Locale.ROOT, "\nNumber Slow bitmap uploads: %d", e.slowBitmapUploads()));
            sb.append(String.format(Locale.ROOT, "\nNumber Slow issue draw commands: %d", e.slowDraw()));
            sb.append(String.format(Locale.ROOT, "\nNumber Frame deadline missed: %d", e.missedDeadline()));
            sb.append("\nHISTOGRAM:");
            for (int i = 0; i < e.cpuBucketCount(); i++) {
                sb.append(String.format(Locale.ROOT, " %dms=%d", e.cpuLabel(i), e.cpuCount(i)));
            }
            for (int pct : new int[] {50, 90, 95, 99}) {
                sb.append(String.format(Locale.ROOT, "\n%dth gpu percentile: %dms", pct, e.gpuPercentile(pct)));
            }
            sb.append("\nGPU HISTOGRAM:");
            for (int i = 0; i < e.gpuBucketCount(); i++) {
                sb.append(String.format(Locale.ROOT, " %dms=%d", e.gpuLabel(i), e.gpuCount(i)));
            }
            sb.append('\n');
        }
        new Sink(bh).write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Benchmark
    public void protoWriter(Blackhole bh) throws IOException {
        proto.write(dump, new Sink(bh));
    }

    @Benchmark
    public void protoWrapperPeer(Blackhole bh) throws IOException {
        GraphicsStatsServiceDumpProto.newBuilder().addAllStats(dump).build().writeTo(new Sink(bh));
    }

    /** Consumes bytes without storing them, so the benchmarks measure rendering, not copying. */
    private static final class Sink extends OutputStream {
        private final Blackhole bh;

        Sink(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public void write(int b) {
            bh.consume(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bh.consume(b);
            bh.consume(len);
        }
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(DumpWriterBenchmark.class.getSimpleName()).build()).run();
    }
}
