package io.gfxstats.timeline;

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
        for (Object[] line : TIMESTATS) {
            out.append(indent).append(line[0]).append(" = ").append(c.get((TimelineCounter) line[1])).append('\n');
        }
        out.append(indent).append("recordedFrames = ").append(c.get(TimelineCounter.FRAMES)).append('\n');
        for (int i = 0; i < JankType.count(); i++) {
            out.append(indent).append("jankType ").append(JankType.name(i)).append(" = ").append(c.jank(i)).append('\n');
        }
        for (Object[] line : TYPES) {
            out.append(indent).append(line[0]).append(" = ").append(c.get((TimelineCounter) line[1])).append('\n');
        }
        for (int i = 0; i < TimelineCounter.presentDelayBuckets(); i++) {
            out.append(indent).append("presentDelay ").append(TimelineCounter.presentDelayLabel(i)).append(" = ")
                    .append(c.presentDelay(i)).append('\n');
        }
    }

    public static String of(TimelineCounters c, String indent) {
        StringBuilder sb = new StringBuilder();
        write(c, indent, sb);
        return sb.toString();
    }
}
