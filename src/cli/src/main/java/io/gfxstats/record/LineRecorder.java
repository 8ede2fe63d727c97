package io.gfxstats.record;

import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.framestats.FramestatsFormatException;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.framestats.FramestatsRowParser;
import io.gfxstats.text.TerminalText;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Records one frame per input line into a session's tracker, as the line arrives: a line costs
 * a parse and the tracker's plain stores into the mapped buffer, no allocation and no flush.
 * Blank lines and {@code #} comments are skipped; a malformed line is reported (one line, with
 * its number) and skipped, never guessed at. Confined to one thread.
 */
public final class LineRecorder implements LineInput.Handler {
    /** Lines reported one by one; after that only counted. */
    static final int MAX_REPORTED = 10;
    private static final int MAX_VALUES = 64;

    private final LineFormat format;
    private final Supplier<StatsSession> session;
    private final long refreshIntervalNanos;
    private final Consumer<String> problems;
    private final long[] values = new long[MAX_VALUES];
    private final FrameInfo frame = new FrameInfo();
    private WindowTracker tracker;
    private FramestatsRowParser rows;
    private long recorded;
    private long inFlight;
    private long malformed;

    /**
     * @param session  asked for the session at the first valid line, so an input without one
     *                 never registers with the daemon (which would keep a 0-frame entry)
     * @param problems told about each of the first malformed lines, one line of text each
     */
    public LineRecorder(LineFormat format, Supplier<StatsSession> session, long refreshIntervalNanos,
                        Consumer<String> problems) {
        this.format = format;
        this.session = session;
        this.refreshIntervalNanos = refreshIntervalNanos;
        this.problems = problems;
    }

    @Override
    public void overlong(long lineNo) {
        bad(lineNo, "longer than " + LineInput.MAX_LINE + " bytes");
    }

    /** One input line, {@code buf[from..to)} without its line end. */
    @Override
    public void line(byte[] buf, int from, int to, long lineNo) {
        while (from < to && (buf[from] == ' ' || buf[from] == '\t')) {
            from++;
        }
        while (to > from && (buf[to - 1] == ' ' || buf[to - 1] == '\t' || buf[to - 1] == '\r')) {
            to--;
        }
        if (from == to || buf[from] == '#') {
            return;
        }
        if (format == LineFormat.TIMES) {
            times(buf, from, to, lineNo);
        } else {
            framestats(buf, from, to, lineNo);
        }
    }

    /**
     * Why {@link CsvLongs#parse} refused the line, naming the field by position and quoting it
     * ("value 1 is not a whole number" read as if the value were 1).
     */
    static String notANumber(byte[] buf, int from, int to, int index, int expected) {
        if (index >= expected) {
            return "has more than " + expected + " values";
        }
        String[] fields = new String(buf, from, to - from, StandardCharsets.UTF_8).split(",", -1);
        String field = index < fields.length ? fields[index].strip() : "";
        if (field.length() > 40) {
            field = field.substring(0, 40) + "...";
        }
        return "field " + (index + 1) + " ('" + TerminalText.escape(field)
                + "') is not a whole number of 64 bits";
    }

    private void times(byte[] buf, int from, int to, long lineNo) {
        int n = CsvLongs.parse(buf, from, to, values);
        if (n != 5) {
            bad(lineNo, n < 0 ? notANumber(buf, from, to, -1 - n, 5)
                    : "has " + n + " values; expected intended_vsync,vsync,frame_completed,gpu_completed,frame_interval");
            return;
        }
        if (tracker == null) {
            tracker = session.get().newTracker();
        }
        tracker.record(values[0], values[1], values[2], values[3], values[4]);
        recorded++;
    }

    private void framestats(byte[] buf, int from, int to, long lineNo) {
        if (buf[from] == '-') {
            if (to - from >= 3 && buf[from + 1] == '-' && buf[from + 2] == '-') {
                return; // ---PROFILEDATA--- section markers of a pasted dump
            }
        } else if (buf[from] < '0' || buf[from] > '9') {
            String line = new String(buf, from, to - from, StandardCharsets.UTF_8);
            if (!FramestatsRowParser.isHeader(line)) {
                bad(lineNo, "neither a framestats header (Flags,...) nor a row");
                return;
            }
            try {
                FramestatsRowParser next = FramestatsRowParser.forHeader(line, "input", (int) Math.min(lineNo,
                        Integer.MAX_VALUE));
                // A new header is a new window: its own tracker and jank state.
                closeTracker();
                rows = next;
            } catch (FramestatsFormatException e) {
                bad(lineNo, e.getMessage());
            }
            return;
        }
        if (rows == null) {
            try {
                rows = FramestatsRowParser.forHeader(FramestatsRowParser.MODERN_HEADER, "input", 0);
            } catch (FramestatsFormatException e) {
                throw new IllegalStateException("the built-in header is invalid", e);
            }
        }
        int n = CsvLongs.parse(buf, from, to, values);
        if (n != rows.width()) {
            bad(lineNo, n < 0 ? notANumber(buf, from, to, -1 - n, rows.width())
                    : "has " + n + " values; the header has " + rows.width() + " columns");
            return;
        }
        if (!rows.load(values, frame)) {
            inFlight++;
            return;
        }
        if (tracker == null) {
            tracker = session.get().newTracker(FramestatsReplay.trackerFor(rows.columnSet(), refreshIntervalNanos,
                    DaveyListener.ignoring()));
        }
        tracker.record(frame);
        recorded++;
    }

    private void bad(long lineNo, String why) {
        malformed++;
        if (malformed <= MAX_REPORTED) {
            problems.accept("line " + lineNo + ": " + why + " (skipped)"
                    + (malformed == MAX_REPORTED ? "; further malformed lines are only counted" : ""));
        }
    }

    private void closeTracker() {
        if (tracker != null) {
            tracker.close();
            tracker = null;
        }
    }

    /** Ends the input: the tracker is closed (its counts stay in the session). */
    public void finish() {
        closeTracker();
    }

    public long recorded() {
        return recorded;
    }

    /** Framestats rows of frames still in flight (not counted, as in captures). */
    public long inFlight() {
        return inFlight;
    }

    public long malformed() {
        return malformed;
    }
}
