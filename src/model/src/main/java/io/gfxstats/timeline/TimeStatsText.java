package io.gfxstats.timeline;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The text block of a {@link TimelineCounters} summary: first the lines of SurfaceFlinger's
 * TimeStats text ({@code dumpsys SurfaceFlinger --timestats}, spec 4.4) in its order, so Android
 * people recognise them, then gfxstats' own per-type counts. Every line is
 * {@code indent + "name = value"}.
 */
public final class TimeStatsText {
    private TimeStatsText() {
    }

    /** The lines TimeStats prints, with the counter each one shows. */
    private static final Object[][] TIMESTATS = {
        {"totalTimelineFrames", TimelineCounter.TIMELINE_FRAMES},
        {"jankyFrames", TimelineCounter.JANKY_FRAMES},
        {"sfLongCpuJankyFrames", TimelineCounter.JANK_SF_CPU_DEADLINE_MISSED},
        {"sfLongGpuJankyFrames", TimelineCounter.JANK_SF_GPU_DEADLINE_MISSED},
        {"sfUnattributedJankyFrames", TimelineCounter.JANK_DISPLAY_HAL},
        {"appUnattributedJankyFrames", TimelineCounter.JANK_APP_DEADLINE_MISSED},
        {"sfSchedulingJankyFrames", TimelineCounter.JANK_SF_SCHEDULING},
        {"sfPredictionErrorJankyFrames", TimelineCounter.JANK_PREDICTION_ERROR},
        {"appBufferStuffingJankyFrames", TimelineCounter.JANK_BUFFER_STUFFING},
    };

    private static final Object[][] TYPES = {
        {"presentOnTimeFrames", TimelineCounter.PRESENT_ON_TIME},
        {"presentLateFrames", TimelineCounter.PRESENT_LATE},
        {"presentEarlyFrames", TimelineCounter.PRESENT_EARLY},
        {"presentDroppedFrames", TimelineCounter.PRESENT_DROPPED},
        {"presentUnknownFrames", TimelineCounter.PRESENT_UNKNOWN},
        {"finishOnTimeFrames", TimelineCounter.FINISH_ON_TIME},
        {"finishLateFrames", TimelineCounter.FINISH_LATE},
        {"finishUnknownFrames", TimelineCounter.FINISH_UNKNOWN},
        {"severityNoneFrames", TimelineCounter.SEVERITY_NONE},
        {"severityPartialFrames", TimelineCounter.SEVERITY_PARTIAL},
        {"severityFullFrames", TimelineCounter.SEVERITY_FULL},
        {"severityUnknownFrames", TimelineCounter.SEVERITY_UNKNOWN},
        {"predictionValidFrames", TimelineCounter.PREDICTION_VALID},
        {"predictionExpiredFrames", TimelineCounter.PREDICTION_EXPIRED},
        {"predictionNoneFrames", TimelineCounter.PREDICTION_NONE},
        {"displayUnknownFrames", TimelineCounter.DISPLAY_UNKNOWN_FRAMES},
        {"lateDisplayUnknownFrames", TimelineCounter.LATE_DISPLAY_UNKNOWN},
    };

    /** Appends the block for {@code c}, each line prefixed by {@code indent}. */
    public static void write(TimelineCounters c, String indent, StringBuilder out) {
        lines(c).forEach((name, value) -> out.append(indent).append(name).append(" = ").append(value).append('\n'));
    }

    /**
     * The block's lines as name to value, in their printed order: the one list of what the text
     * shows, for tools that want the numbers rather than the text (the HTML report).
     */
    public static Map<String, Long> lines(TimelineCounters c) {
        Map<String, Long> lines = new LinkedHashMap<>();
        for (Object[] line : TIMESTATS) {
            lines.put((String) line[0], c.get((TimelineCounter) line[1]));
        }
        lines.put("recordedFrames", c.get(TimelineCounter.FRAMES));
        for (int i = 0; i < JankType.count(); i++) {
            lines.put("jankType " + JankType.name(i), c.jank(i));
        }
        for (Object[] line : TYPES) {
            lines.put((String) line[0], c.get((TimelineCounter) line[1]));
        }
        for (int i = 0; i < TimelineCounter.presentDelayBuckets(); i++) {
            lines.put("presentDelay " + TimelineCounter.presentDelayLabel(i), c.presentDelay(i));
        }
        return lines;
    }

    public static String of(TimelineCounters c, String indent) {
        StringBuilder sb = new StringBuilder();
        write(c, indent, sb);
        return sb.toString();
    }
}
