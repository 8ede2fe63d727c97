package io.gfxstats.trace;

import static io.gfxstats.trace.Ascii.isDigit;
import static io.gfxstats.trace.Ascii.parseInt;

/**
 * Decodes the two kernel rows whose facts the SQLite thread and process tables carry, as
 * trace_streamer's text parser takes them: {@code sched_switch} ({@code prev_comm=... prev_pid=N
 * prev_prio=N prev_state=S ==> next_comm=... next_pid=N next_prio=N}) and {@code sched_process_exit}
 * ({@code comm=... pid=N prio=N}). A row whose numbers do not parse is dropped, as upstream drops it.
 */
final class KernelDecoder {
    private static final byte[] PREV_PID = MarkerLine.ascii("prev_pid=");
    private static final byte[] PREV_PRIO = MarkerLine.ascii("prev_prio=");
    private static final byte[] NEXT_PID = MarkerLine.ascii("next_pid=");
    private static final byte[] NEXT_PRIO = MarkerLine.ascii("next_prio=");
    private static final byte[] NEXT_COMM = MarkerLine.ascii("==>");
    private static final byte[] PID = MarkerLine.ascii("pid=");

    private KernelDecoder() {
    }

    /** Fills {@code m} from the arguments [p, end) of a sched_switch row; false when they do not parse. */
    static boolean schedSwitch(byte[] b, int p, int end, MarkerLine m) {
        // The comms may hold any bytes but a blank-led "key=" is not one a comm can fake after the arrow.
        int arrow = find(b, p, end, NEXT_COMM);
        if (arrow < 0) {
            return false;
        }
        long prev = number(b, key(b, p, arrow, PREV_PID), arrow);
        long next = number(b, key(b, arrow, end, NEXT_PID), end);
        if (prev < 0 || next < 0 || !hasInt(b, key(b, p, arrow, PREV_PRIO), arrow)
                || !hasInt(b, key(b, arrow, end, NEXT_PRIO), end)) {
            return false;
        }
        m.phase = MarkerLine.SCHED_SWITCH;
        m.payloadPid = (int) prev;
        m.value = next;
        m.nameStart = m.nameEnd = p;
        return true;
    }

    /** Fills {@code m} from the arguments [p, end) of a sched_process_exit row; false when they do not parse. */
    static boolean processExit(byte[] b, int p, int end, MarkerLine m) {
        long pid = number(b, key(b, p, end, PID), end);
        if (pid < 0) {
            return false;
        }
        m.phase = MarkerLine.PROCESS_EXIT;
        m.payloadPid = (int) pid;
        m.value = 0;
        m.nameStart = m.nameEnd = p;
        return true;
    }

    /** Where the value of the last blank-led {@code key} in [from, to) starts, -1 without one. */
    private static int key(byte[] b, int from, int to, byte[] key) {
        int found = -1;
        for (int i = from; i + key.length <= to; i++) {
            if ((i == from || b[i - 1] == ' ') && Ascii.equalsAt(b, i, i + key.length, key)) {
                found = i + key.length;
            }
        }
        return found;
    }

    private static int find(byte[] b, int from, int to, byte[] what) {
        for (int i = from; i + what.length <= to; i++) {
            if (Ascii.equalsAt(b, i, i + what.length, what)) {
                return i;
            }
        }
        return -1;
    }

    /** The unsigned decimal at [at, the next blank or to), -1 when there is none or it is out of int range. */
    private static long number(byte[] b, int at, int to) {
        if (at < 0) {
            return -1;
        }
        int e = at;
        while (e < to && isDigit(b[e])) {
            e++;
        }
        if (e == at || (e < to && b[e] != ' ')) {
            return -1;
        }
        return parseInt(b, at, e);
    }

    /** Whether a signed decimal starts at {@code at}. */
    private static boolean hasInt(byte[] b, int at, int to) {
        if (at < 0) {
            return false;
        }
        int s = at < to && b[at] == '-' ? at + 1 : at;
        return number(b, s, to) >= 0;
    }
}
