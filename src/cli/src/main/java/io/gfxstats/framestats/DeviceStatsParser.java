package io.gfxstats.framestats;

import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the statistics lines of one block, line by line. Lines it does not know are left to the
 * caller; a line it knows but cannot read is an error rather than a silently missing field.
 */
final class DeviceStatsParser {
    private static final Pattern STATS_SINCE = Pattern.compile("Stats since: (\\S*?)ns");
    private static final Pattern TOTAL = Pattern.compile("Total frames rendered: (\\S*)");
    private static final Pattern JANKY = Pattern.compile("Janky frames: (\\S*) \\(.*\\)");
    private static final Pattern JANKY_LEGACY = Pattern.compile("Janky frames \\(legacy\\): (\\S*) \\(.*\\)");
    private static final Pattern PERCENTILE = Pattern.compile("(\\d+)th percentile: (\\S*?)ms");
    private static final Pattern GPU_PERCENTILE = Pattern.compile("(\\d+)th gpu percentile: (\\S*?)ms");
    private static final Pattern NUMBER = Pattern.compile("Number (.+): (\\S*)");
    private static final String HISTOGRAM = "HISTOGRAM:";
    private static final String GPU_HISTOGRAM = "GPU HISTOGRAM:";

    private final String source;
    private DeviceStats.Builder builder;

    DeviceStatsParser(String source) {
        this.source = source;
    }

    /** Reads the line if it is a statistics line; returns whether it was one. */
    boolean offer(String line, int lineNo) throws FramestatsFormatException {
        Matcher m;
        if ((m = STATS_SINCE.matcher(line)).matches()) {
            builder(lineNo).statsSince(number(m.group(1), line, lineNo));
        } else if ((m = TOTAL.matcher(line)).matches()) {
            builder(lineNo).totalFrames(number(m.group(1), line, lineNo));
        } else if ((m = JANKY.matcher(line)).matches()) {
            builder(lineNo).jankyFrames(number(m.group(1), line, lineNo));
        } else if ((m = JANKY_LEGACY.matcher(line)).matches()) {
            builder(lineNo).jankyFramesLegacy(number(m.group(1), line, lineNo));
        } else if ((m = PERCENTILE.matcher(line)).matches()) {
            builder(lineNo).percentile(Integer.parseInt(m.group(1)), label(m.group(2), line, lineNo));
        } else if ((m = GPU_PERCENTILE.matcher(line)).matches()) {
            builder(lineNo).gpuPercentile(Integer.parseInt(m.group(1)), label(m.group(2), line, lineNo));
        } else if ((m = NUMBER.matcher(line)).matches()) {
            JankType type = jankType(m.group(1));
            if (type == null) {
                return false; // a counter of a newer release; not ours to check
            }
            builder(lineNo).count(type, number(m.group(2), line, lineNo));
        } else if (line.startsWith(GPU_HISTOGRAM)) {
            builder(lineNo).gpuHistogram(histogram(line.substring(GPU_HISTOGRAM.length()), Histograms.gpuLabels(),
                    "GPU HISTOGRAM", lineNo));
        } else if (line.startsWith(HISTOGRAM)) {
            builder(lineNo).cpuHistogram(histogram(line.substring(HISTOGRAM.length()), Histograms.cpuLabels(),
                    "HISTOGRAM", lineNo));
        } else {
            return false;
        }
        return true;
    }

    /** The block read so far, or null if no statistics line (or no total) was seen. */
    DeviceStats build() {
        return builder != null && builder.hasTotalFrames() ? builder.build() : null;
    }

    private DeviceStats.Builder builder(int lineNo) {
        if (builder == null) {
            builder = DeviceStats.builder(lineNo);
        }
        return builder;
    }

    private static JankType jankType(String label) {
        for (JankType t : JankType.values()) {
            if (t.label().equals(label)) {
                return t;
            }
        }
        return null;
    }

    private long number(String text, String line, int lineNo) throws FramestatsFormatException {
        try {
            long v = Long.parseLong(text);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new FramestatsFormatException(source, lineNo, "cannot read the count in '" + abbreviate(line) + "'");
    }

    private int label(String text, String line, int lineNo) throws FramestatsFormatException {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new FramestatsFormatException(source, lineNo, "cannot read the percentile in '" + abbreviate(line) + "'");
        }
    }

    private long[] histogram(String body, int[] labels, String what, int lineNo) throws FramestatsFormatException {
        String[] tokens = body.trim().isEmpty() ? new String[0] : body.trim().split("\\s+");
        if (tokens.length != labels.length) {
            throw new FramestatsFormatException(source, lineNo,
                    what + " has " + tokens.length + " buckets, expected " + labels.length);
        }
        long[] counts = new long[labels.length];
        for (int i = 0; i < tokens.length; i++) {
            String token = tokens[i];
            String expected = labels[i] + "ms=";
            if (!token.startsWith(expected)) {
                throw new FramestatsFormatException(source, lineNo,
                        what + " bucket " + (i + 1) + " is '" + token + "', expected " + expected + "<count>");
            }
            try {
                counts[i] = Long.parseLong(token.substring(expected.length()));
            } catch (NumberFormatException e) {
                counts[i] = -1;
            }
            if (counts[i] < 0) {
                throw new FramestatsFormatException(source, lineNo, what + " bucket '" + token + "' has no count");
            }
        }
        return counts;
    }

    private static String abbreviate(String line) {
        return line.length() <= 80 ? line : line.substring(0, 77) + "...";
    }
}
