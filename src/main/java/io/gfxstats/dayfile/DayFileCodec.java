package io.gfxstats.dayfile;

import com.google.protobuf.InvalidProtocolBufferException;
import io.gfxstats.proto.GraphicsStatsProto;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The persisted day-file format: a 4-byte little-endian int32 version (1) followed by one
 * serialized GraphicsStatsProto.
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

    public static GraphicsStatsProto decode(byte[] bytes) throws DayFileException {
        if (bytes.length < HEADER_BYTES) {
            throw new DayFileException.TooShort(bytes.length);
        }
        int version = ByteBuffer.wrap(bytes, 0, HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (version != VERSION) {
            throw new DayFileException.WrongVersion(version);
        }
        try {
            return GraphicsStatsProto.parser().parseFrom(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES);
        } catch (InvalidProtocolBufferException e) {
            throw new DayFileException.Unparseable(e.getMessage(), e);
        }
    }
}
