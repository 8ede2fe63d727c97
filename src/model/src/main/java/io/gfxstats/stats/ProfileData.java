package io.gfxstats.stats;

import java.util.Arrays;

/**
 * Frame statistics of one process or window: every counter of {@link Counters} plus the stats
 * start time and pipeline. Mutable and single-threaded; counts are 64-bit so merging many
 * sources never wraps.
 */
public final class ProfileData implements StatsSink {
    private final long[] counters = new long[Counters.COUNT];
    private long statsStartMillis;
    private Pipeline pipeline = Pipeline.UNKNOWN;

    public ProfileData() {
    }

    public ProfileData(long statsStartMillis, Pipeline pipeline) {
        this.statsStartMillis = statsStartMillis;
        this.pipeline = pipeline;
    }

    @Override
    public void increment(int counter) {
        counters[counter]++;
    }

    public void add(int counter, long amount) {
        counters[counter] += amount;
    }

    public long get(int counter) {
        return counters[counter];
    }

    public long totalFrames() {
        return counters[Counters.TOTAL_FRAMES];
    }

    public long jankyFrames() {
        return counters[Counters.JANKY_FRAMES];
    }

    public long jankyFramesLegacy() {
        return counters[Counters.JANKY_FRAMES_LEGACY];
    }

    public long jankCount(JankType type) {
        return counters[type.counter()];
    }

    public long cpuBucket(int index) {
        return counters[Counters.CPU_BUCKET_BASE + index];
    }

    public long gpuBucket(int index) {
        return counters[Counters.GPU_BUCKET_BASE + index];
    }

    public long statsStartMillis() {
        return statsStartMillis;
    }

    public void setStatsStartMillis(long statsStartMillis) {
        this.statsStartMillis = statsStartMillis;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public void setPipeline(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    /**
     * Adds every counter of {@code other} (none is dropped, unlike Android's merge of counts made
     * before the shared buffer arrived). The start time becomes the earlier non-zero one.
     */
    public void merge(ProfileData other) {
        for (int i = 0; i < Counters.COUNT; i++) {
            counters[i] += other.counters[i];
        }
        if (other.statsStartMillis != 0 && (statsStartMillis == 0 || other.statsStartMillis < statsStartMillis)) {
            statsStartMillis = other.statsStartMillis;
        }
        if (pipeline == Pipeline.UNKNOWN) {
            pipeline = other.pipeline;
        }
    }

    /** Adds counters given in {@link Counters} order. */
    public void addAll(long[] values) {
        if (values.length != Counters.COUNT) {
            throw new IllegalArgumentException("expected " + Counters.COUNT + " counters, got " + values.length);
        }
        for (int i = 0; i < Counters.COUNT; i++) {
            counters[i] += values[i];
        }
    }

    /** A copy of the counters in {@link Counters} order. */
    public long[] toArray() {
        return counters.clone();
    }

    public void reset() {
        Arrays.fill(counters, 0);
    }

    public ProfileData copy() {
        ProfileData copy = new ProfileData(statsStartMillis, pipeline);
        System.arraycopy(counters, 0, copy.counters, 0, Counters.COUNT);
        return copy;
    }

    public int cpuPercentile(int percentile) {
        return Percentiles.of(percentile, totalFrames(), Histograms.cpuLabels(), counters, Counters.CPU_BUCKET_BASE);
    }

    public int gpuPercentile(int percentile) {
        long gpuTotal = 0;
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            gpuTotal += gpuBucket(i);
        }
        return Percentiles.of(percentile, gpuTotal, Histograms.gpuLabels(), counters, Counters.GPU_BUCKET_BASE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProfileData p
                && Arrays.equals(counters, p.counters)
                && statsStartMillis == p.statsStartMillis
                && pipeline == p.pipeline;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counters) * 31 + Long.hashCode(statsStartMillis);
    }

    @Override
    public String toString() {
        return "ProfileData{total=" + totalFrames() + ", janky=" + jankyFrames() + ", start=" + statsStartMillis + "}";
    }
}
