package io.gfxstats.dayfile;

import com.google.protobuf.InvalidProtocolBufferException;
import io.gfxstats.proto.GraphicsStatsProto;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The persisted day-file format: a 4-byte little-endian int32 version (1) followed by one
 * serialized GraphicsStatsProto.
 *
 * <pre>
 *   0       4                                  length
 *   +-------+----------------------------------+
 *   | 1 LE  | GraphicsStatsProto (proto2 wire)  |
 *   +-------+----------------------------------+
 * </pre>
 *
 * Decoding rejects, each with its own {@link DayFileException} subtype: fewer than 4 bytes,
 * another version, a body that does not parse, and a histogram that is neither empty nor
 * exactly Android's 154 CPU / 26 GPU buckets with their labels.
 */
public final class DayFileCodec {
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 4;

    private DayFileCodec() {
    }

    public static byte[] encode(GraphicsStatsProto proto) {
        byte[] body = proto.toByteArray();
        ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES + body.length).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(VERSION).put(body);
        return buf.array();
    }

    /**
     * @throws DayFileException.TooShort          fewer than 4 bytes
     * @throws DayFileException.WrongVersion      a version other than {@value #VERSION}
     * @throws DayFileException.Unparseable       the body is not a GraphicsStatsProto
     * @throws DayFileException.HistogramMismatch a histogram with the wrong bucket count or labels
     */
    public static GraphicsStatsProto decode(byte[] bytes) throws DayFileException {
        if (bytes.length < HEADER_BYTES) {
            throw new DayFileException.TooShort(bytes.length);
        }
        int version = ByteBuffer.wrap(bytes, 0, HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (version != VERSION) {
            throw new DayFileException.WrongVersion(version);
        }
        GraphicsStatsProto proto;
        try {
            proto = GraphicsStatsProto.parser().parseFrom(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES);
        } catch (InvalidProtocolBufferException e) {
            throw new DayFileException.Unparseable(e.getMessage(), e);
        }
        // A file whose histograms cannot take a merge would make every later save of that day
        // fail; rejecting it here lets the caller set it aside instead of losing the new data.
        StatsProtos.checkHistograms(proto);
        return proto;
    }
}
