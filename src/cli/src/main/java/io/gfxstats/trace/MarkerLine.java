package io.gfxstats.trace;

import java.nio.charset.StandardCharsets;

/**
 * One user-marker line ({@code tracing_mark_write} or {@code print}) of ftrace text, decoded the way
 * trace_streamer decodes it (spec section 2.2 and 3.1). Reused for every line: the byte fields point
 * into the reader's buffer and are valid only during the callback.
 *
 * <p>Payload grammar: {@code P|pid|rest}; {@code pid} is 0 when absent (bare {@code E}); a payload pid
 * other than 0 overrides the row's TGID ({@link #pid()}). For {@code B} the name is everything after
 * {@code B|pid|} with trailing spaces removed (the {@code |LT} tail included, as upstream keeps it);
 * for {@code S}, {@code F} and {@code C} the name ends at the first {@code |} or, without one, at the
 * last space (API &lt; 19: {@code S|1234|H:name 428}), and {@link #value()} is the integer after it.
 */
public final class MarkerLine {
    byte[] buf;
    long lineNumber;
    int taskStart;
    int taskEnd;
    int tid;
    /** Row TGID, -1 when the row prints dashes or has no TGID column. */
    int rowTgid;
    long ts;
    char phase;
    /** Payload pid, 0 when absent. */
    int payloadPid;
    int nameStart;
    int nameEnd;
    long value;
    /** The row's CPU column. */
    int cpu;

    /**
     * Phase of a {@code sched_switch} row, delivered to {@link MarkerSink#kernel}: {@link #payloadPid}
     * is {@code prev_pid}, {@link #value} {@code next_pid}.
     */
    static final char SCHED_SWITCH = 'w';
    /** Phase of a {@code sched_process_exit} row: {@link #payloadPid} is the {@code pid} that exited. */
    static final char PROCESS_EXIT = 'x';

    public long lineNumber() {
        return lineNumber;
    }

    public int tid() {
        return tid;
    }

    /** The kernel TGID of the row, -1 when unknown. */
    public int rowTgid() {
        return rowTgid;
    }

    /** The process: the payload pid when there is one, else the row TGID (-1 when neither). */
    public int pid() {
        return payloadPid != 0 ? payloadPid : rowTgid;
    }

    /** Timestamp in nanoseconds of the trace clock. */
    public long ts() {
        return ts;
    }

    /** One of B E S F C G H. */
    public char phase() {
        return phase;
    }

    public String task() {
        return new String(buf, taskStart, taskEnd - taskStart, StandardCharsets.ISO_8859_1);
    }

    public String name() {
        return new String(buf, nameStart, nameEnd - nameStart, StandardCharsets.UTF_8);
    }

    /** The CPU the row was recorded on. */
    public int cpu() {
        return cpu;
    }

    /** Counter value or async cookie (S F C). */
    public long value() {
        return value;
    }

    /** Whether the name starts with {@code prefix} (ASCII), without making a String. */
    public boolean nameStartsWith(byte[] prefix) {
        if (nameEnd - nameStart < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (buf[nameStart + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the name is {@code name} (ASCII), without making a String. */
    public boolean nameEquals(byte[] name) {
        return nameEnd - nameStart == name.length && nameStartsWith(name);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
