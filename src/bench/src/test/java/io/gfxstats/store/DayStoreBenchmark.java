package io.gfxstats.store;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Cost of the store's symlink-safe, validated reads against the naive peers measured in the same
 * run: {@link #read} against readAllBytes + decode by path (follows links, no histogram or
 * identity check), {@link #stamp} against one stat by path. {@link #list} walks 3 days x 30
 * packages.
 *
 * <p>Run: {@code mvn -o -q test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * -Dmdep.includeScope=test && java -cp target/test-classes:target/classes:$(cat cp.txt)
 * io.gfxstats.store.DayStoreBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DayStoreBenchmark {
    private Path root;
    private DayStore store;
    private EntryKey key;
    private Path path;

    @Setup
    public void setUp() throws IOException {
        root = Files.createTempDirectory("daystore-bench");
        store = DayStore.open(root.resolve("data"), StoreFixtures.CLOCK);
        for (int d = 0; d < 3; d++) {
            for (int p = 0; p < 30; p++) {
                EntryKey k = new EntryKey(StoreFixtures.DAY - d * Days.MILLIS_PER_DAY, "com.example.app" + p, 1);
                store.write(k, StoreFixtures.proto(k, 1000 + p), FileStamp.ABSENT);
            }
        }
        key = new EntryKey(StoreFixtures.DAY, "com.example.app7", 1);
        path = store.pathOf(key);
    }

    @TearDown
    public void tearDown() throws IOException {
        store.close();
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public ReadResult read() throws IOException {
        return store.read(key);
    }

    @Benchmark
    public GraphicsStatsProto naiveReadPeer() throws IOException, DayFileException {
        return DayFileCodec.decode(Files.readAllBytes(path));
    }

    @Benchmark
    public FileStamp stamp() throws IOException {
        return store.stamp(key);
    }

    @Benchmark
    public BasicFileAttributes naiveStatPeer() throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class);
    }

    @Benchmark
    public List<StoredEntry> list() throws IOException {
        return store.list();
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(DayStoreBenchmark.class.getSimpleName()).build()).run();
    }
}
