package io.gfxstats.dumpclient.h2;

import java.nio.charset.StandardCharsets;

/**
 * Numbers of the HTTP/2 wire format (RFC 9113) this client uses.
 *
 * <pre>
 * Frame header, 9 bytes, big-endian:
 *   +-----------------------------------------------+
 *   |                 Length (24)                   |
 *   +---------------+---------------+---------------+
 *   |   Type (8)    |   Flags (8)   |
 *   +-+-------------+---------------+-------------------------------+
 *   |R|                 Stream Identifier (31)                      |
 *   +=+=============================================================+
 *   |                   Frame Payload (Length bytes)                |
 *   +---------------------------------------------------------------+
 * </pre>
 */
final class Http2 {
    static final byte[] CLIENT_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    static final int LENGTH_OFFSET = 0;
    static final int LENGTH_BYTES = 3;
    static final int TYPE_OFFSET = LENGTH_OFFSET + LENGTH_BYTES;
    static final int FLAGS_OFFSET = TYPE_OFFSET + 1;
    static final int STREAM_OFFSET = FLAGS_OFFSET + 1;
    static final int FRAME_HEADER_BYTES = STREAM_OFFSET + 4;
    /** What every peer must accept, and what this client announces (it never raises it). */
    static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    static final int DEFAULT_WINDOW = 65_535;

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PUSH_PROMISE = 0x5;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;

    static final int FLAG_END_STREAM = 0x1;
    static final int FLAG_ACK = 0x1;
    static final int FLAG_END_HEADERS = 0x4;
    static final int FLAG_PADDED = 0x8;
    static final int FLAG_PRIORITY = 0x20;
    /** Stream dependency (4) + weight (1) in front of a HEADERS block with the PRIORITY flag. */
    static final int PRIORITY_FIELDS_BYTES = 5;
    static final int PING_PAYLOAD_BYTES = 8;
    static final int SETTING_BYTES = 6;

    static final int SETTINGS_ENABLE_PUSH = 0x2;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

    static final int NO_ERROR = 0x0;
    static final int REFUSED_STREAM = 0x7;
    static final int CANCEL = 0x8;
    static final int ENHANCE_YOUR_CALM = 0xb;
    static final int INADEQUATE_SECURITY = 0xc;

    private Http2() {
    }

    static String errorName(int code) {
        return switch (code) {
            case 0x0 -> "NO_ERROR";
            case 0x1 -> "PROTOCOL_ERROR";
            case 0x2 -> "INTERNAL_ERROR";
            case 0x3 -> "FLOW_CONTROL_ERROR";
            case 0x4 -> "SETTINGS_TIMEOUT";
            case 0x5 -> "STREAM_CLOSED";
            case 0x6 -> "FRAME_SIZE_ERROR";
            case 0x7 -> "REFUSED_STREAM";
            case 0x8 -> "CANCEL";
            case 0x9 -> "COMPRESSION_ERROR";
            case 0xa -> "CONNECT_ERROR";
            case 0xb -> "ENHANCE_YOUR_CALM";
            case 0xc -> "INADEQUATE_SECURITY";
            case 0xd -> "HTTP_1_1_REQUIRED";
            default -> "error 0x" + Integer.toHexString(code);
        };
    }
}
