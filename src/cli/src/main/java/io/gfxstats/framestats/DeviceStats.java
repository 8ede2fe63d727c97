package io.gfxstats.framestats;

import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Percentiles;
import io.gfxstats.stats.ProfileData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The statistics block a device printed for one window ("Total frames rendered", "Janky
 * frames", the "Number ..." lines, both histograms and their percentiles), as read from a
 * gfxinfo dump. Fields the device did not print (older releases print fewer lines) are absent,
 * not zero. Immutable.
 *
 * <p>Used to check a replay against what the device itself counted: a window's counters can be
 * reproduced from its rows only when the device rendered no more frames than the dump holds rows.
 */
public final class DeviceStats {
    private final int line;
    private final long statsSince;
    private final long totalFrames;
    private final long jankyFrames;
    private final long jankyFramesLegacy;
    private final long[] jankCounts;
    private final Map<Integer, Integer> percentiles;
    private final long[] cpuHistogram;
    private final Map<Integer, Integer> gpuPercentiles;
    private final long[] gpuHistogram;

    private static final long ABSENT = -1;

    private DeviceStats(Builder b) {
        this.line = b.line;
        this.statsSince = b.statsSince;
        this.totalFrames = b.totalFrames;
        this.jankyFrames = b.jankyFrames;
        this.jankyFramesLegacy = b.jankyFramesLegacy;
        this.jankCounts = b.jankCounts.clone();
        this.percentiles = Collections.unmodifiableMap(new TreeMap<>(b.percentiles));
        this.cpuHistogram = b.cpuHistogram == null ? null : b.cpuHistogram.clone();
        this.gpuPercentiles = Collections.unmodifiableMap(new TreeMap<>(b.gpuPercentiles));
        this.gpuHistogram = b.gpuHistogram == null ? null : b.gpuHistogram.clone();
    }

    /** 1-based line of the first statistics line of the block. */
    public int line() {
        return line;
    }

    /** "Stats since" as printed (a CLOCK_MONOTONIC nanosecond value in gfxinfo dumps). */
    public OptionalLong statsSince() {
        return optional(statsSince);
    }

    public long totalFrames() {
        return totalFrames;
    }

    public OptionalLong jankyFrames() {
        return optional(jankyFrames);
    }

    public OptionalLong jankyFramesLegacy() {
        return optional(jankyFramesLegacy);
    }

    /** The "Number &lt;type&gt;" line, if printed. */
    public OptionalLong count(JankType type) {
        return optional(jankCounts[type.ordinal()]);
    }

    /** Printed CPU percentile for {@code p} (50, 90, 95, 99), if printed. */
    public OptionalInt percentile(int p) {
        Integer v = percentiles.get(p);
        return v == null ? OptionalInt.empty() : OptionalInt.of(v);
    }

    /** Printed GPU percentile for {@code p}, if printed. */
    public OptionalInt gpuPercentile(int p) {
        Integer v = gpuPercentiles.get(p);
        return v == null ? OptionalInt.empty() : OptionalInt.of(v);
    }

    /** The percentiles the device printed, ascending by p. */
    public Map<Integer, Integer> percentiles() {
        return percentiles;
    }

    public Map<Integer, Integer> gpuPercentiles() {
        return gpuPercentiles;
    }

    /** The 154 CPU bucket counts, in label order. */
    public long[] cpuHistogram() {
        if (cpuHistogram == null) {
            throw new IllegalStateException("no HISTOGRAM line was printed");
        }
        return cpuHistogram.clone();
    }

    /** The 26 GPU bucket counts, in label order. */
    public long[] gpuHistogram() {
        if (gpuHistogram == null) {
            throw new IllegalStateException("no GPU HISTOGRAM line was printed");
        }
        return gpuHistogram.clone();
    }

    /**
     * Every printed field that differs from {@code replay}, one readable line each ("Janky
     * frames: device 10, replay 9"); empty when the replay reproduces the block exactly.
     * Percentiles are compared as the replay would print them.
     */
    public List<String> differencesFrom(ProfileData replay) {
        List<String> out = new ArrayList<>();
        compare(out, "Total frames rendered", totalFrames, replay.totalFrames());
        compare(out, "Janky frames", jankyFrames, replay.jankyFrames());
        compare(out, "Janky frames (legacy)", jankyFramesLegacy, replay.jankyFramesLegacy());
        for (JankType type : JankType.values()) {
            compare(out, "Number " + type.label(), jankCounts[type.ordinal()], replay.jankCount(type));
        }
        for (Map.Entry<Integer, Integer> e : percentiles.entrySet()) {
            compare(out, e.getKey() + "th percentile", e.getValue(), replay.cpuPercentile(e.getKey()));
        }
        if (cpuHistogram != null) {
            for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
                compare(out, "HISTOGRAM " + Histograms.cpuLabel(i) + "ms", cpuHistogram[i], replay.cpuBucket(i));
            }
        }
        for (Map.Entry<Integer, Integer> e : gpuPercentiles.entrySet()) {
            compare(out, e.getKey() + "th gpu percentile", e.getValue(), replay.gpuPercentile(e.getKey()));
        }
        if (gpuHistogram != null) {
            for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
                compare(out, "GPU HISTOGRAM " + Histograms.gpuLabel(i) + "ms", gpuHistogram[i], replay.gpuBucket(i));
            }
        }
        return out;
    }

    /**
     * Printed percentiles that do not follow from the printed histograms under the percentile
     * rule (a self-check of the dump; empty for every block of a genuine capture).
     */
    public List<String> percentileInconsistencies() {
        List<String> out = new ArrayList<>();
        if (cpuHistogram != null) {
            for (Map.Entry<Integer, Integer> e : percentiles.entrySet()) {
                int recomputed = Percentiles.of(e.getKey(), totalFrames, Histograms.cpuLabels(), cpuHistogram);
                compare(out, e.getKey() + "th percentile", e.getValue(), recomputed);
            }
        }
        if (gpuHistogram != null) {
            long gpuTotal = 0;
            for (long c : gpuHistogram) {
                gpuTotal += c;
            }
            for (Map.Entry<Integer, Integer> e : gpuPercentiles.entrySet()) {
                int recomputed = Percentiles.of(e.getKey(), gpuTotal, Histograms.gpuLabels(), gpuHistogram);
                compare(out, e.getKey() + "th gpu percentile", e.getValue(), recomputed);
            }
        }
        return out;
    }

    private static void compare(List<String> out, String what, long device, long replay) {
        if (device != ABSENT && device != replay) {
            out.add(what + ": device " + device + ", replay " + replay);
        }
    }

    private static OptionalLong optional(long v) {
        return v == ABSENT ? OptionalLong.empty() : OptionalLong.of(v);
    }

    @Override
    public String toString() {
        return "DeviceStats{line=" + line + ", total=" + totalFrames + ", janky=" + jankyFrames + "}";
    }

    static Builder builder(int line) {
        return new Builder(line);
    }

    /** Accumulates the lines of one block as they are read. */
    static final class Builder {
        private final int line;
        private long statsSince = ABSENT;
        private long totalFrames = ABSENT;
        private long jankyFrames = ABSENT;
        private long jankyFramesLegacy = ABSENT;
        private final long[] jankCounts = new long[JankType.COUNT];
        private final Map<Integer, Integer> percentiles = new TreeMap<>();
        private long[] cpuHistogram;
        private final Map<Integer, Integer> gpuPercentiles = new TreeMap<>();
        private long[] gpuHistogram;

        private Builder(int line) {
            this.line = line;
            Arrays.fill(jankCounts, ABSENT);
        }

        Builder statsSince(long v) {
            statsSince = v;
            return this;
        }

        Builder totalFrames(long v) {
            totalFrames = v;
            return this;
        }

        Builder jankyFrames(long v) {
            jankyFrames = v;
            return this;
        }

        Builder jankyFramesLegacy(long v) {
            jankyFramesLegacy = v;
            return this;
        }

        Builder count(JankType type, long v) {
            jankCounts[type.ordinal()] = v;
            return this;
        }

        Builder percentile(int p, int label) {
            percentiles.put(p, label);
            return this;
        }

        Builder gpuPercentile(int p, int label) {
            gpuPercentiles.put(p, label);
            return this;
        }

        Builder cpuHistogram(long[] counts) {
            cpuHistogram = counts.clone();
            return this;
        }

        Builder gpuHistogram(long[] counts) {
            gpuHistogram = counts.clone();
            return this;
        }

        boolean hasTotalFrames() {
            return totalFrames != ABSENT;
        }

        DeviceStats build() {
            if (totalFrames == ABSENT) {
                throw new IllegalStateException("a statistics block needs its Total frames rendered line");
            }
            return new DeviceStats(this);
        }
    }
}
