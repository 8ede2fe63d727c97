package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child process for multi-process tests: {@code <buffer> <framesInFlight>}. Prints "ready",
 * snapshots the buffer as fast as it can until a line arrives on stdin, checking that no counter
 * ever goes backwards and that the CPU histogram never exceeds the total by more than the
 * frames in flight, then prints one result line:
 * {@code snapshots=N progressed=P violations=V maxExcess=E first=<description>}.
 */
public final class ReaderProcess {
    private ReaderProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long inFlight = Long.parseLong(args[1]);
        int uid = TestBuffers.uid();
        try (BufferReader reader = BufferReader.open(file, uid)) {
            Thread stopper = new Thread(() -> {
                try {
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                } catch (Exception ignored) {
                    // Treat a broken stdin as stop.
                }
            });
            stopper.setDaemon(true);
            System.out.println("ready");
            System.out.flush();
            stopper.start();
            long[] previous = new long[Counters.COUNT];
            long snapshots = 0;
            long progressed = 0;
            long violations = 0;
            long maxExcess = Long.MIN_VALUE;
            String first = "none";
            while (stopper.isAlive()) {
                long[] now = reader.snapshot().counters();
                snapshots++;
                if (now[Counters.TOTAL_FRAMES] != previous[Counters.TOTAL_FRAMES]) {
                    progressed++;
                }
                for (int c = 0; c < Counters.COUNT; c++) {
                    if (now[c] < previous[c]) {
                        violations++;
                        if ("none".equals(first)) {
                            first = "counter " + c + " went from " + previous[c] + " to " + now[c];
                        }
                    }
                }
                long histogram = 0;
                for (int b = 0; b < Histograms.CPU_BUCKETS; b++) {
                    histogram += now[Counters.cpuBucket(b)];
                }
                long excess = histogram - now[Counters.TOTAL_FRAMES];
                maxExcess = Math.max(maxExcess, excess);
                if (excess > inFlight) {
                    violations++;
                    if ("none".equals(first)) {
                        first = "histogram " + histogram + " > total " + now[Counters.TOTAL_FRAMES] + " + " + inFlight;
                    }
                }
                previous = now;
            }
            System.out.println("snapshots=" + snapshots + " progressed=" + progressed + " violations=" + violations
                    + " maxExcess=" + maxExcess + " first=" + first);
            System.out.flush();
        }
    }
}
