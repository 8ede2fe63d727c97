package io.gfxstats.timeline.log;

import io.gfxstats.timeline.DisplayFrame;
import java.io.IOException;
import java.io.Reader;

/**
 * Reads the display frames of a frame log (the JSON Lines of {@code gfxstats timeline classify},
 * docs/frametimeline.md) one at a time, with the compositor feed's {@code output} and
 * {@code msc}; surfaces are checked and skipped. For {@code gfxstats timeline feed}. Lines are
 * bounded as classify's are ({@link FrameLogClassifier#MAX_LINE_CHARS}): one endless line is
 * refused, not read into the heap.
 */
public final class DisplayFrameLogReader {
    private final BoundedLineReader in;
    private final FrameLogParser parser = new FrameLogParser();
    private final FrameLogLine line = new FrameLogLine();
    private long lineNumber;

    public DisplayFrameLogReader(Reader in) {
        this.in = new BoundedLineReader(in, FrameLogClassifier.MAX_LINE_CHARS);
    }

    /** Reads the next non-blank line; false at the end. */
    public boolean next() throws IOException, FrameLogException {
        while (true) {
            String text;
            try {
                text = in.readLine();
            } catch (BoundedLineReader.LineTooLongException e) {
                throw new FrameLogException(lineNumber + 1, e.getMessage());
            }
            if (text == null) {
                return false;
            }
            lineNumber++;
            if (!text.isBlank()) {
                parser.parse(text, lineNumber, line);
                line.display.token(token());
                return true;
            }
        }
    }

    public long lineNumber() {
        return lineNumber;
    }

    /** The line's display frame (reused for the next line); its token is {@link #token()}. */
    public DisplayFrame display() {
        return line.display;
    }

    /** The display token when it is an integer, else 0. */
    public long token() {
        return line.displayToken.isNumber() ? line.displayToken.getAsLong() : 0;
    }

    /** The line's output, -1 when it has none. */
    public long output() {
        return line.output;
    }

    /** The line's MSC, -1 when it has none. */
    public long msc() {
        return line.msc;
    }
}
