package io.gfxstats.trace;

import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * Puts marker lines (and the kernel rows that {@link MarkerSink#kernel} takes) in timestamp order within a window of lines ({@link #LINES} by default), as trace_streamer
 * sorts a trace by timestamp before its frame rules run: a few lines swapped by the kernel's
 * per-CPU buffers no longer change the frames. Lines are copied into a pool of reused entries, so
 * the window allocates nothing once it is full. A line older than one already delivered (out of
 * order by more than the window) is delivered as it comes and counted.
 */
final class MarkerWindow {
    /** The default window: enough for the few lines per-CPU buffers swap. */
    static final int LINES = 1024;
    /** The widest window: about 200 bytes a line held, so at most some 200 MB. */
    static final int MAX_LINES = 1 << 20;

    /** One held line: a copy of its bytes and the decoded fields, as offsets into the copy. */
    private static final class Held {
        byte[] bytes = new byte[128];
        int length;
        long seq;
        long lineNumber;
        long ts;
        int taskStart;
        int taskEnd;
        int tid;
        int rowTgid;
        char phase;
        int payloadPid;
        int nameStart;
        int nameEnd;
        long value;
        int cpu;
    }

    private final MarkerSink sink;
    private final MarkerLine out = new MarkerLine();
    private final int lines;
    private final PriorityQueue<Held> window;
    private final ArrayDeque<Held> free = new ArrayDeque<>();
    private long seq;
    private long delivered = Long.MIN_VALUE;
    private long late;

    MarkerWindow(MarkerSink sink, int lines) {
        if (lines < 1 || lines > MAX_LINES) {
            throw new IllegalArgumentException("sort window must be 1 to " + MAX_LINES + " lines, got " + lines);
        }
        this.lines = lines;
        // Sized for the default window; a wider one grows as lines come.
        this.window = new PriorityQueue<>(Math.min(lines, LINES) + 1,
                (a, b) -> a.ts != b.ts ? Long.compare(a.ts, b.ts) : Long.compare(a.seq, b.seq));
        this.sink = sink;
    }

    /** Takes a decoded line whose bytes start at {@code from}; they may be reused after this call. */
    void add(MarkerLine m, int from, int to) throws TraceFormatException {
        if (m.ts < delivered) {
            late++;
        }
        Held h = free.isEmpty() ? new Held() : free.poll();
        int length = to - from;
        if (h.bytes.length < length) {
            h.bytes = new byte[Math.max(length, h.bytes.length * 2)];
        }
        System.arraycopy(m.buf, from, h.bytes, 0, length);
        h.length = length;
        h.seq = seq++;
        h.lineNumber = m.lineNumber;
        h.ts = m.ts;
        h.taskStart = m.taskStart - from;
        h.taskEnd = m.taskEnd - from;
        h.tid = m.tid;
        h.rowTgid = m.rowTgid;
        h.phase = m.phase;
        h.payloadPid = m.payloadPid;
        h.nameStart = m.nameStart - from;
        h.nameEnd = m.nameEnd - from;
        h.value = m.value;
        h.cpu = m.cpu;
        window.add(h);
        if (window.size() > lines) {
            deliver(window.poll());
        }
    }

    /** Delivers what the window still holds. */
    void finish() throws TraceFormatException {
        while (!window.isEmpty()) {
            deliver(window.poll());
        }
    }

    long late() {
        return late;
    }

    private void deliver(Held h) throws TraceFormatException {
        delivered = Math.max(delivered, h.ts);
        MarkerLine m = out;
        m.buf = h.bytes;
        m.lineNumber = h.lineNumber;
        m.ts = h.ts;
        m.taskStart = h.taskStart;
        m.taskEnd = h.taskEnd;
        m.tid = h.tid;
        m.rowTgid = h.rowTgid;
        m.phase = h.phase;
        m.payloadPid = h.payloadPid;
        m.nameStart = h.nameStart;
        m.nameEnd = h.nameEnd;
        m.value = h.value;
        m.cpu = h.cpu;
        if (h.phase == MarkerLine.SCHED_SWITCH || h.phase == MarkerLine.PROCESS_EXIT) {
            sink.kernel(m);
        } else {
            sink.marker(m);
        }
        free.push(h);
    }
}
