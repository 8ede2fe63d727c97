package io.gfxstats.bench;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/** Small measurement helpers shared by the daemon benchmarks. */
final class Timing {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Timing() {
    }

    /** CPU time of the calling thread: unlike wall time, not inflated by other processes on a busy machine. */
    static long threadCpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    static double millis(long nanos) {
        return nanos / 1e6;
    }

    /** Discards bytes, counting them. */
    static final class CountingSink extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
