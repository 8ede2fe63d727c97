package io.gfxstats.timeline.perfetto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the FrameTimeline events of a Perfetto trace (spec 4.1) from the protobuf wire format as a
 * stream: packets are parsed in place, compressed packets (deflate or zstd) while they inflate, so
 * memory does not depend on the size of the trace or of a packet. Slices go to a {@link SliceSink}
 * in timestamp order, paired by cookie ({@link SliceOrder}). A trace cut inside a packet (an
 * interrupted pull) is read up to the last whole packet and the cut is reported in the result.
 */
public final class FrameTimelineReader {
    // Trace and TracePacket field numbers (Perfetto's protos).
    private static final int TRACE_PACKET = 1;
    private static final int PACKET_PROCESS_TREE = 2;
    private static final int PACKET_TIMESTAMP = 8;
    private static final int PACKET_COMPRESSED = 50;
    private static final int PACKET_FRAME_TIMELINE = 76;
    private static final int PACKET_ZSTD_COMPRESSED = 133;
    private static final int FRAME_END = 5;
    private static final int MAX_NESTING = 4;
    /** A FrameTimeline event or process tree is copied out whole; real ones are far below this. */
    private static final int MAX_FIELD_BYTES = 16 << 20;
    private static final int MAX_LAYER_NAMES = 1 << 12;

    /** Where a cut trace stopped: the packet (counted from 1) that was cut and its byte offset. */
    public record Cut(long packet, long offset, long fileBytes) {
    }

    /** What was read besides the slices. */
    public record Result(long packets, long unpairedEnds, long lateEvents, Map<Integer, String> processNames,
            Cut cut) {
    }

    private final SliceOrder order;
    private final PacketDecompressor decompressor;
    private final Map<Integer, String> names = new LinkedHashMap<>();
    private final Map<String, String> layerNames = new HashMap<>();
    private long packets;
    private long topPackets;
    private long offset;
    private long packetStart;
    private long declaredEnd;

    private final long fileBytes;

    private FrameTimelineReader(SliceSink sink, long maxPacketBytes, int window, long fileBytes) {
        this.fileBytes = fileBytes;
        this.order = new SliceOrder(window, sink);
        this.decompressor = new PacketDecompressor(maxPacketBytes);
    }

    /** Reads with the default limits. */
    public static Result read(InputStream in, SliceSink sink) throws IOException, TraceFormatException {
        return read(in, sink, PacketDecompressor.DEFAULT_LIMIT, SliceOrder.DEFAULT_WINDOW, -1);
    }

    /**
     * @param maxPacketBytes how far one compressed packet may expand before it is refused as a bomb
     * @param window events held for sorting
     * @param fileBytes the size of the input when known (a file), else -1: a compressed packet cut
     *     by the end of the file is then inflated up to the last byte before the cut
     */
    public static Result read(InputStream in, SliceSink sink, long maxPacketBytes, int window, long fileBytes)
            throws IOException, TraceFormatException {
        return new FrameTimelineReader(sink, maxPacketBytes, window, fileBytes).run(in);
    }

    private Result run(InputStream raw) throws IOException, TraceFormatException {
        Counting file = new Counting(raw);
        CodedInputStream in = CodedInputStream.newInstance(file, 1 << 16);
        in.setSizeLimit(Integer.MAX_VALUE);
        Cut cut = null;
        try {
            readTrace(in, 0);
        } catch (PacketDecompressor.ExpansionLimitException e) {
            throw new TraceFormatException(where() + e.getMessage(), e);
        } catch (IOException e) {
            // The reader's buffer may not have reached the end: a packet is cut if the file ends before it does.
            file.skipToEnd();
            boolean headerCut = declaredEnd < 0 && e instanceof InvalidProtocolBufferException
                    && String.valueOf(e.getMessage()).contains("ended unexpectedly");
            if (!file.eof || !(headerCut || file.count < declaredEnd)) {
                throw new TraceFormatException("not a Perfetto trace, or corrupt: " + where() + e.getMessage(), e);
            }
            cut = new Cut(topPackets, packetStart, file.count);
        }
        order.finish();
        return new Result(packets, order.unpairedEnds(), order.late(), names, cut);
    }

    private String where() {
        return "packet " + topPackets + " at byte " + packetStart + ": ";
    }

    private void readTrace(CodedInputStream in, int depth) throws IOException, TraceFormatException {
        while (true) {
            if (depth == 0) {
                // The stream's own counter is an int: keep the offset here and restart it per packet.
                offset += in.getTotalBytesRead();
                in.resetSizeCounter();
                packetStart = offset;
                declaredEnd = -1;
            }
            int tag = in.readTag();
            if (tag == 0) {
                return;
            }
            if (depth == 0) {
                topPackets++;
            }
            if (WireFormat.getTagFieldNumber(tag) == TRACE_PACKET
                    && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int length = in.readRawVarint32();
                if (length < 0) {
                    throw new InvalidProtocolBufferException("negative packet length");
                }
                if (depth == 0) {
                    declaredEnd = offset + in.getTotalBytesRead() + length;
                }
                int outer = in.pushLimit(length);
                readPacket(in, depth);
                in.skipRawBytes(in.getBytesUntilLimit());
                in.popLimit(outer);
            } else if (!in.skipField(tag)) {
                return;
            }
        }
    }

    private void readPacket(CodedInputStream in, int depth) throws IOException, TraceFormatException {
        packets++;
        long timestamp = 0;
        List<byte[]> frameEvents = null;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            int field = WireFormat.getTagFieldNumber(tag);
            int wire = WireFormat.getTagWireType(tag);
            boolean delimited = wire == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            if (field == PACKET_TIMESTAMP && wire == WireFormat.WIRETYPE_VARINT) {
                timestamp = in.readUInt64();
            } else if (field == PACKET_FRAME_TIMELINE && delimited) {
                if (frameEvents == null) {
                    frameEvents = new ArrayList<>(1);
                }
                frameEvents.add(field(in, "FrameTimeline event"));
            } else if (field == PACKET_PROCESS_TREE && delimited) {
                EventFields.readProcessTree(CodedInputStream.newInstance(field(in, "process tree")), names);
            } else if ((field == PACKET_COMPRESSED || field == PACKET_ZSTD_COMPRESSED) && delimited) {
                if (depth >= MAX_NESTING) {
                    throw new TraceFormatException(where() + "compressed packets nested more than " + MAX_NESTING
                            + " deep");
                }
                long length = in.readRawVarint32();
                if (depth == 0 && fileBytes >= 0) {
                    // Asking the stream for bytes past the end of the file would lose the ones before it.
                    length = Math.max(0, Math.min(length, fileBytes - offset - in.getTotalBytesRead()));
                }
                FieldStream compressed = new FieldStream(in, length);
                try (InputStream inflated = field == PACKET_COMPRESSED
                        ? decompressor.inflate(compressed) : decompressor.unzstd(compressed)) {
                    CodedInputStream inner = CodedInputStream.newInstance(inflated, 1 << 16);
                    inner.setSizeLimit(Integer.MAX_VALUE);
                    readTrace(inner, depth + 1);
                }
                compressed.drain();
            } else if (!in.skipField(tag)) {
                break;
            }
        }
        if (frameEvents != null) {
            for (byte[] event : frameEvents) {
                readFrameTimelineEvent(CodedInputStream.newInstance(event), timestamp);
            }
        }
    }

    private static byte[] field(CodedInputStream in, String what) throws IOException, TraceFormatException {
        int length = in.readRawVarint32();
        if (length < 0 || length > MAX_FIELD_BYTES) {
            throw new TraceFormatException("a " + what + " of " + Integer.toUnsignedString(length)
                    + " bytes (at most " + (MAX_FIELD_BYTES >> 20) + " MiB): not a Perfetto trace, or corrupt");
        }
        return in.readRawBytes(length);
    }

    private void readFrameTimelineEvent(CodedInputStream in, long ts) throws IOException {
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
                order.end(ts, cookie);
                continue;
            }
            FrameSlice s = new FrameSlice();
            s.ts = ts;
            s.kind = switch (field) {
                case 1 -> FrameSlice.Kind.EXPECTED_DISPLAY;
                case 2 -> FrameSlice.Kind.ACTUAL_DISPLAY;
                case 3 -> FrameSlice.Kind.EXPECTED_SURFACE;
                default -> FrameSlice.Kind.ACTUAL_SURFACE;
            };
            EventFields.readStart(m, s);
            if (s.layerName != null) {
                // A trace names a handful of layers millions of times: keep one copy of each name.
                String known = layerNames.get(s.layerName);
                if (known != null) {
                    s.layerName = known;
                } else if (layerNames.size() < MAX_LAYER_NAMES) {
                    layerNames.put(s.layerName, s.layerName);
                }
            }
            order.start(ts, s);
        }
    }

    /** Counts the bytes of the file and remembers whether its end was reached. */
    private static final class Counting extends FilterInputStream {
        long count;
        boolean eof;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b < 0) {
                eof = true;
            } else {
                count++;
            }
            return b;
        }

        void skipToEnd() throws IOException {
            byte[] buf = new byte[1 << 16];
            while (!eof) {
                read(buf, 0, buf.length);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n < 0) {
                eof = true;
            } else {
                count += n;
            }
            return n;
        }
    }
}
