package io.gfxstats.timeline.perfetto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Puts FrameTimeline events in timestamp order (stable, like trace_processor's sorter) inside a
 * window of a bounded number of events, and pairs each start with the FrameEnd of its cookie. An
 * event older than one already released (out of order by more than the window) is counted as late
 * and paired where it arrives; the report says so and names the option that widens the window.
 */
final class SliceOrder {
    /** Default window: about half a minute of a 120 Hz display with two layers. */
    static final int DEFAULT_WINDOW = 1 << 16;

    private record Event(long ts, long order, FrameSlice start, long endCookie) {
    }

    private final PriorityQueue<Event> window = new PriorityQueue<>((a, b) -> a.ts != b.ts
            ? Long.compare(a.ts, b.ts) : Long.compare(a.order, b.order));
    private final int capacity;
    private final SliceSink sink;
    private final Map<Long, FrameSlice> open = new LinkedHashMap<>();
    private long order;
    private long released = Long.MIN_VALUE;
    private long late;
    private long unpairedEnds;

    SliceOrder(int capacity, SliceSink sink) {
        this.capacity = Math.max(1, capacity);
        this.sink = sink;
    }

    void start(long ts, FrameSlice slice) {
        add(new Event(ts, order++, slice, 0));
    }

    void end(long ts, long cookie) {
        add(new Event(ts, order++, null, cookie));
    }

    private void add(Event e) {
        if (e.ts < released) {
            late++;
        }
        window.add(e);
        if (window.size() > capacity) {
            release(window.poll());
        }
    }

    private void release(Event e) {
        released = Math.max(released, e.ts);
        if (e.start != null) {
            sink.started(e.start);
            FrameSlice previous = open.put(e.start.cookie, e.start);
            if (previous != null) {
                sink.finished(previous);
            }
        } else {
            FrameSlice s = open.remove(e.endCookie);
            if (s == null) {
                unpairedEnds++;
            } else {
                s.dur = e.ts - s.ts;
                sink.finished(s);
            }
        }
    }

    /** Releases the window and finishes the slices still open (dur -1). */
    void finish() {
        while (!window.isEmpty()) {
            release(window.poll());
        }
        List<FrameSlice> unclosed = new ArrayList<>(open.values());
        open.clear();
        unclosed.forEach(sink::finished);
    }

    long late() {
        return late;
    }

    long unpairedEnds() {
        return unpairedEnds;
    }
}
