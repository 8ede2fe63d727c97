package io.gfxstats.timeline.perfetto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The FrameTimeline events of a Perfetto trace (spec 4.1), read straight from the protobuf wire
 * format: packets, deflate-compressed packets and zstd-compressed packets (pure-Java zstd). Events
 * are ordered by timestamp (stable, as trace_processor's sorter does) and start/end paired by
 * cookie: an end closes the most recent open slice with its cookie, a second start with the same
 * cookie leaves the first slice unclosed (dur -1). Process names come from process_tree packets.
 */
public final class FrameTimelineTrace {
    // Trace and TracePacket field numbers (Perfetto's protos).
    private static final int TRACE_PACKET = 1;
    private static final int PACKET_PROCESS_TREE = 2;
    private static final int PACKET_TIMESTAMP = 8;
    private static final int PACKET_COMPRESSED = 50;
    private static final int PACKET_FRAME_TIMELINE = 76;
    private static final int PACKET_ZSTD_COMPRESSED = 133;
    // FrameTimelineEvent oneof.
    private static final int EXPECTED_DISPLAY_START = 1;
    private static final int ACTUAL_DISPLAY_START = 2;
    private static final int EXPECTED_SURFACE_START = 3;
    private static final int ACTUAL_SURFACE_START = 4;
    private static final int FRAME_END = 5;
    private static final int MAX_NESTING = 4;

    private final List<FrameSlice> slices;
    private final Map<Integer, String> processNames;
    private final long unpairedEnds;
    private final long packets;

    private FrameTimelineTrace(List<FrameSlice> slices, Map<Integer, String> processNames, long unpairedEnds,
            long packets) {
        this.slices = slices;
        this.processNames = processNames;
        this.unpairedEnds = unpairedEnds;
        this.packets = packets;
    }

    /** Every FrameTimeline slice, ordered by start time. */
    public List<FrameSlice> slices() {
        return slices;
    }

    /** pid to process name (command line) from the trace's process tree. */
    public Map<Integer, String> processNames() {
        return processNames;
    }

    /** FrameEnd events without an open slice of their cookie. */
    public long unpairedEnds() {
        return unpairedEnds;
    }

    /** Trace packets read, compressed ones unpacked. */
    public long packets() {
        return packets;
    }

    /** One event before pairing: a slice start, or an end (slice null). */
    private record Event(long ts, long order, FrameSlice start, long endCookie) {
    }

    private static final class Reader {
        final List<Event> events = new ArrayList<>();
        final Map<Integer, String> names = new HashMap<>();
        final PacketDecompressor decompressor = new PacketDecompressor();
        long packets;
    }

    public static FrameTimelineTrace read(InputStream in) throws IOException, TraceFormatException {
        Reader r = new Reader();
        readTrace(CodedInputStream.newInstance(in), r, 0);
        List<Event> events = r.events;
        events.sort(Comparator.comparingLong(Event::ts).thenComparingLong(Event::order));
        Map<Long, FrameSlice> open = new HashMap<>();
        List<FrameSlice> slices = new ArrayList<>();
        long unpaired = 0;
        for (Event e : events) {
            if (e.start != null) {
                open.put(e.start.cookie, e.start);
                slices.add(e.start);
            } else {
                FrameSlice s = open.remove(e.endCookie);
                if (s == null) {
                    unpaired++;
                } else {
                    s.dur = e.ts - s.ts;
                }
            }
        }
        return new FrameTimelineTrace(slices, new LinkedHashMap<>(r.names), unpaired, r.packets);
    }

    private static void readTrace(CodedInputStream in, Reader r, int depth) throws IOException, TraceFormatException {
        in.setSizeLimit(Integer.MAX_VALUE);
        try {
            while (true) {
                int tag = in.readTag();
                if (tag == 0) {
                    return;
                }
                if (WireFormat.getTagFieldNumber(tag) == TRACE_PACKET
                        && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                    readPacket(in.readBytes().newCodedInput(), r, depth);
                } else if (!in.skipField(tag)) {
                    return;
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw new TraceFormatException("not a Perfetto trace, or truncated: " + e.getMessage(), e);
        }
    }

    private static void readPacket(CodedInputStream in, Reader r, int depth) throws IOException, TraceFormatException {
        r.packets++;
        long timestamp = 0;
        List<byte[]> frameEvents = null;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            int wire = WireFormat.getTagWireType(tag);
            if (field == PACKET_TIMESTAMP && wire == WireFormat.WIRETYPE_VARINT) {
                timestamp = in.readUInt64();
            } else if (field == PACKET_FRAME_TIMELINE && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                if (frameEvents == null) {
                    frameEvents = new ArrayList<>(1);
                }
                frameEvents.add(in.readByteArray());
            } else if (field == PACKET_PROCESS_TREE && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                EventFields.readProcessTree(in.readBytes().newCodedInput(), r.names);
            } else if (field == PACKET_COMPRESSED && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                nested(depth);
                readTrace(CodedInputStream.newInstance(r.decompressor.inflate(in.readByteArray())), r, depth + 1);
            } else if (field == PACKET_ZSTD_COMPRESSED && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                nested(depth);
                byte[] data = r.decompressor.unzstd(in.readByteArray());
                readTrace(CodedInputStream.newInstance(data), r, depth + 1);
            } else if (!in.skipField(tag)) {
                break;
            }
        }
        if (frameEvents != null) {
            for (byte[] event : frameEvents) {
                readFrameTimelineEvent(CodedInputStream.newInstance(event), timestamp, r);
            }
        }
    }

    private static void nested(int depth) throws TraceFormatException {
        if (depth >= MAX_NESTING) {
            throw new TraceFormatException("compressed packets nested more than " + MAX_NESTING + " deep");
        }
    }



    private static void readFrameTimelineEvent(CodedInputStream in, long ts, Reader r) throws IOException {
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                return;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            if (WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED || field < 1 || field > 5) {
                if (!in.skipField(tag)) {
                    return;
                }
                continue;
            }
            CodedInputStream m = in.readBytes().newCodedInput();
            long order = r.events.size();
            if (field == FRAME_END) {
                long cookie = 0;
                while (true) {
                    int t = m.readTag();
                    if (t == 0) {
                        break;
                    }
                    if (WireFormat.getTagFieldNumber(t) == 1 && WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_VARINT) {
                        cookie = m.readInt64();
                    } else if (!m.skipField(t)) {
                        break;
                    }
                }
                r.events.add(new Event(ts, order, null, cookie));
                continue;
            }
            FrameSlice s = new FrameSlice();
            s.ts = ts;
            s.kind = switch (field) {
                case EXPECTED_DISPLAY_START -> FrameSlice.Kind.EXPECTED_DISPLAY;
                case ACTUAL_DISPLAY_START -> FrameSlice.Kind.ACTUAL_DISPLAY;
                case EXPECTED_SURFACE_START -> FrameSlice.Kind.EXPECTED_SURFACE;
                default -> FrameSlice.Kind.ACTUAL_SURFACE;
            };
            EventFields.readStart(m, s);
            r.events.add(new Event(ts, order, s, 0));
        }
    }

}
