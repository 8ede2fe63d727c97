package io.gfxstats.timeline.log;

import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.SurfaceFrame;
import io.gfxstats.timeline.Thresholds;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline classifier of {@code gfxstats timeline classify}: reads a frame log (JSON Lines,
 * one DisplayFrame per line in presentation order) and writes one classification per line, in
 * the same order. Blank lines are skipped. The previous present of a line is the previous
 * frame's actual present (0 before the first; a present of -1, a fence that never signalled, is
 * passed over), as SurfaceFlinger keeps it - per output
 * when lines name their {@code output} (compositor feed logs), as each display keeps its own.
 */
public final class FrameLogClassifier {
    private final FrameTimelineClassifier classifier;

    public FrameLogClassifier(Thresholds thresholds) {
        this(thresholds, false);
    }

    /** With {@code bufferStuffingFix}, Android 16 QPR2's rule (see {@link FrameTimelineClassifier}). */
    public FrameLogClassifier(Thresholds thresholds, boolean bufferStuffingFix) {
        this.classifier = new FrameTimelineClassifier(thresholds, bufferStuffingFix);
    }

    /** The longest line read: a frame with a few thousand surfaces. */
    public static final int MAX_LINE_CHARS = 4 << 20;

    /**
     * Classifies every line; stops at the first bad one. Each answer is written out as soon as no
     * further line is waiting in the input, so a live pipe gets one answer per frame as it comes.
     * Returns the number of frames written.
     */
    public long classify(Reader input, Writer out) throws IOException, FrameLogException {
        return classify(input, out, null);
    }

    /** Sees each frame once it and its surfaces are classified (the objects are reused for the next line). */
    public interface Listener {
        void classified(DisplayFrame display, List<SurfaceFrame> surfaces, int surfaceCount);
    }

    /** As {@link #classify(Reader, Writer)}, telling {@code listener} (if not null) each classified frame. */
    public long classify(Reader input, Writer out, Listener listener) throws IOException, FrameLogException {
        BoundedLineReader in = new BoundedLineReader(input, MAX_LINE_CHARS);
        FrameLogParser parser = new FrameLogParser();
        FrameLogLine line = new FrameLogLine();
        StringBuilder sb = new StringBuilder(256);
        Map<Long, Long> previousPresent = new HashMap<>();
        long lineNumber = 0;
        long frames = 0;
        String text;
        while (true) {
            lineNumber++;
            try {
                text = in.readLine();
            } catch (BoundedLineReader.LineTooLongException e) {
                throw new FrameLogException(lineNumber, e.getMessage());
            }
            if (text == null) {
                break;
            }
            if (text.isBlank()) {
                continue;
            }
            parser.parse(text, lineNumber, line);
            DisplayFrame df = line.display;
            classifier.classify(df, previousPresent.getOrDefault(line.output, 0L));
            if (df.actualPresent() != -1) {
                // A fence that never signalled is no present: SurfaceFlinger keeps the one before it.
                previousPresent.put(line.output, df.actualPresent());
            }
            sb.setLength(0);
            sb.append("{\"token\":").append(line.displayToken);
            appendResult(sb, df.jank(), df.present().json(), df.finish().json());
            sb.append(",\"start\":\"").append(df.start().json()).append('"');
            sb.append(",\"severity\":\"").append(df.severity().json()).append('"');
            sb.append(",\"surfaces\":[");
            for (int i = 0; i < line.surfaceCount; i++) {
                SurfaceFrame sf = line.surfaces.get(i);
                classifier.classify(sf, df);
                if (i > 0) {
                    sb.append(',');
                }
                sb.append("{\"token\":").append(line.surfaceTokens.get(i));
                appendResult(sb, sf.jank(), sf.present().json(), sf.finish().json());
                sb.append(",\"severity\":\"").append(sf.severity().json()).append("\"}");
            }
            sb.append("]}\n");
            if (listener != null) {
                listener.classified(df, line.surfaces, line.surfaceCount);
            }
            out.write(sb.toString());
            frames++;
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
        return frames;
    }

    private static void appendResult(StringBuilder sb, int jank, String present, String finish) {
        sb.append(",\"jank\":[");
        if (jank == JankType.NONE) {
            sb.append("\"None\"");
        } else {
            boolean first = true;
            for (int i = 0; i < JankType.count(); i++) {
                if ((jank & JankType.bit(i)) != 0) {
                    if (!first) {
                        sb.append(',');
                    }
                    sb.append('"').append(JankType.name(i)).append('"');
                    first = false;
                }
            }
        }
        sb.append("],\"present\":\"").append(present).append('"');
        sb.append(",\"finish\":\"").append(finish).append('"');
    }
}
