package io.gfxstats.dump;

import com.google.protobuf.ByteString;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Percentiles;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a dump as the text block shows it: identity, time span, the persisted summary
 * counters and both histograms. Immutable; built from a GraphicsStatsProto or with a
 * {@link Builder}, which validates it.
 *
 * <p>Counters are the proto's int32 values so that the janky percentage is computed from exactly
 * the numbers Android would use. Histograms keep the labels they were given (a dump prints what
 * the stored data says, it does not re-bucket).
 */
public final class DumpEntry {
    private static final int[] NO_LABELS = new int[0];
    private static final long[] NO_COUNTS = new long[0];

    private final int uid;
    private final String packageName;
    private final byte[] packageNameUtf8;
    private final long versionCode;
    private final long statsStartMillis;
    private final long statsEndMillis;
    private final int totalFrames;
    private final int jankyFrames;
    private final int missedVsync;
    private final int highInputLatency;
    private final int slowUiThread;
    private final int slowBitmapUploads;
    private final int slowDraw;
    private final int missedDeadline;
    private final int[] cpuLabels;
    private final long[] cpuCounts;
    private final int[] gpuLabels;
    private final long[] gpuCounts;

    private DumpEntry(Builder b) {
        this.uid = b.uid;
        this.packageName = b.packageName;
        this.packageNameUtf8 = b.packageNameUtf8 != null ? b.packageNameUtf8 : b.packageName.getBytes(StandardCharsets.UTF_8);
        this.versionCode = b.versionCode;
        this.statsStartMillis = b.statsStartMillis;
        this.statsEndMillis = b.statsEndMillis;
        this.totalFrames = b.totalFrames;
        this.jankyFrames = b.jankyFrames;
        this.missedVsync = b.missedVsync;
        this.highInputLatency = b.highInputLatency;
        this.slowUiThread = b.slowUiThread;
        this.slowBitmapUploads = b.slowBitmapUploads;
        this.slowDraw = b.slowDraw;
        this.missedDeadline = b.missedDeadline;
        this.cpuLabels = b.cpuLabels;
        this.cpuCounts = b.cpuCounts;
        this.gpuLabels = b.gpuLabels;
        this.gpuCounts = b.gpuCounts;
    }

    /** Whether a dump shows this proto at all: Android skips an empty package name or a missing summary. */
    public static boolean isDumpable(GraphicsStatsProto proto) {
        return !proto.getPackageNameBytes().isEmpty() && proto.hasSummary();
    }

    /** The entry a dump shows for {@code proto}, or empty if a dump skips it (see {@link #isDumpable}). */
    public static Optional<DumpEntry> of(GraphicsStatsProto proto) {
        if (!isDumpable(proto)) {
            return Optional.empty();
        }
        GraphicsStatsJankSummaryProto s = proto.getSummary();
        ByteString name = proto.getPackageNameBytes();
        Builder b = builder()
                .uid(proto.getUid())
                .packageName(proto.getPackageName())
                .versionCode(proto.getVersionCode())
                .statsStartMillis(proto.getStatsStart())
                .statsEndMillis(proto.getStatsEnd())
                .totalFrames(s.getTotalFrames())
                .jankyFrames(s.getJankyFrames())
                .missedVsync(s.getMissedVsyncCount())
                .highInputLatency(s.getHighInputLatencyCount())
                .slowUiThread(s.getSlowUiThreadCount())
                .slowBitmapUploads(s.getSlowBitmapUploadCount())
                .slowDraw(s.getSlowDrawCount())
                .missedDeadline(s.getMissedDeadlineCount());
        // Keep the stored bytes: a name that is not valid UTF-8 prints as stored, as on Android.
        b.packageNameUtf8 = name.toByteArray();
        b.cpuLabels = labels(proto.getHistogramList());
        b.cpuCounts = counts(proto.getHistogramList());
        b.gpuLabels = labels(proto.getGpuHistogramList());
        b.gpuCounts = counts(proto.getGpuHistogramList());
        return Optional.of(b.build());
    }

    public static Builder builder() {
        return new Builder();
    }

    public int uid() {
        return uid;
    }

    public String packageName() {
        return packageName;
    }

    /** The package name's bytes as stored (UTF-8). */
    byte[] packageNameBytes() {
        return packageNameUtf8;
    }

    public long versionCode() {
        return versionCode;
    }

    public long statsStartMillis() {
        return statsStartMillis;
    }

    public long statsEndMillis() {
        return statsEndMillis;
    }

    public int totalFrames() {
        return totalFrames;
    }

    public int jankyFrames() {
        return jankyFrames;
    }

    public int missedVsync() {
        return missedVsync;
    }

    public int highInputLatency() {
        return highInputLatency;
    }

    public int slowUiThread() {
        return slowUiThread;
    }

    public int slowBitmapUploads() {
        return slowBitmapUploads;
    }

    public int slowDraw() {
        return slowDraw;
    }

    public int missedDeadline() {
        return missedDeadline;
    }

    /** {@code (float) janky / (float) total * 100.0f}: NaN when total is 0. */
    public float jankyPercent() {
        return JankyPercent.of(jankyFrames, totalFrames);
    }

    public int cpuBucketCount() {
        return cpuLabels.length;
    }

    public int cpuLabel(int index) {
        return cpuLabels[index];
    }

    public long cpuCount(int index) {
        return cpuCounts[index];
    }

    public int gpuBucketCount() {
        return gpuLabels.length;
    }

    public int gpuLabel(int index) {
        return gpuLabels[index];
    }

    public long gpuCount(int index) {
        return gpuCounts[index];
    }

    /** The CPU percentile as dumps print it: taken of the summary's total frames, not the bucket sum. */
    public int cpuPercentile(int percentile) {
        return Percentiles.of(percentile, totalFrames, cpuLabels, cpuCounts);
    }

    /** The GPU percentile as dumps print it: taken of the sum of the GPU buckets. */
    public int gpuPercentile(int percentile) {
        long total = 0;
        for (long c : gpuCounts) {
            total += c;
        }
        return Percentiles.of(percentile, total, gpuLabels, gpuCounts);
    }

    @Override
    public String toString() {
        return "DumpEntry{package=" + packageName + ", version=" + versionCode + ", uid=" + Integer.toUnsignedString(uid)
                + ", total=" + totalFrames + ", janky=" + jankyFrames + "}";
    }

    private static int[] labels(List<GraphicsStatsHistogramBucketProto> buckets) {
        int[] labels = new int[buckets.size()];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = buckets.get(i).getRenderMillis();
        }
        return labels;
    }

    private static long[] counts(List<GraphicsStatsHistogramBucketProto> buckets) {
        long[] counts = new long[buckets.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = buckets.get(i).getFrameCount();
        }
        return counts;
    }

    /** Collects the fields of a {@link DumpEntry}; {@link #build()} validates them. */
    public static final class Builder {
        private int uid;
        private String packageName;
        private byte[] packageNameUtf8;
        private long versionCode;
        private long statsStartMillis;
        private long statsEndMillis;
        private int totalFrames;
        private int jankyFrames;
        private int missedVsync;
        private int highInputLatency;
        private int slowUiThread;
        private int slowBitmapUploads;
        private int slowDraw;
        private int missedDeadline;
        private int[] cpuLabels = NO_LABELS;
        private long[] cpuCounts = NO_COUNTS;
        private int[] gpuLabels = NO_LABELS;
        private long[] gpuCounts = NO_COUNTS;

        private Builder() {
        }

        public Builder uid(int uid) {
            this.uid = uid;
            return this;
        }

        public Builder packageName(String packageName) {
            this.packageName = packageName;
            this.packageNameUtf8 = null;
            return this;
        }

        public Builder versionCode(long versionCode) {
            this.versionCode = versionCode;
            return this;
        }

        public Builder statsStartMillis(long statsStartMillis) {
            this.statsStartMillis = statsStartMillis;
            return this;
        }

        public Builder statsEndMillis(long statsEndMillis) {
            this.statsEndMillis = statsEndMillis;
            return this;
        }

        public Builder totalFrames(int totalFrames) {
            this.totalFrames = totalFrames;
            return this;
        }

        public Builder jankyFrames(int jankyFrames) {
            this.jankyFrames = jankyFrames;
            return this;
        }

        public Builder missedVsync(int count) {
            this.missedVsync = count;
            return this;
        }

        public Builder highInputLatency(int count) {
            this.highInputLatency = count;
            return this;
        }

        public Builder slowUiThread(int count) {
            this.slowUiThread = count;
            return this;
        }

        public Builder slowBitmapUploads(int count) {
            this.slowBitmapUploads = count;
            return this;
        }

        public Builder slowDraw(int count) {
            this.slowDraw = count;
            return this;
        }

        public Builder missedDeadline(int count) {
            this.missedDeadline = count;
            return this;
        }

        /** The CPU histogram in bucket order (percentiles walk it from the last bucket); arrays are copied. */
        public Builder cpuHistogram(int[] labels, long[] counts) {
            checkHistogram("CPU", labels, counts);
            this.cpuLabels = labels.clone();
            this.cpuCounts = counts.clone();
            return this;
        }

        /** The GPU histogram in bucket order; arrays are copied. */
        public Builder gpuHistogram(int[] labels, long[] counts) {
            checkHistogram("GPU", labels, counts);
            this.gpuLabels = labels.clone();
            this.gpuCounts = counts.clone();
            return this;
        }

        /**
         * @throws IllegalArgumentException if the package name is missing or empty (a dump never
         *                                  shows such an entry)
         */
        public DumpEntry build() {
            if (packageName == null || packageName.isEmpty()) {
                throw new IllegalArgumentException("a dump entry needs a non-empty package name");
            }
            return new DumpEntry(this);
        }

        private static void checkHistogram(String which, int[] labels, long[] counts) {
            Objects.requireNonNull(labels, which + " labels");
            Objects.requireNonNull(counts, which + " counts");
            if (labels.length != counts.length) {
                throw new IllegalArgumentException(which + " histogram has " + labels.length + " labels but "
                        + counts.length + " counts");
            }
        }
    }
}
