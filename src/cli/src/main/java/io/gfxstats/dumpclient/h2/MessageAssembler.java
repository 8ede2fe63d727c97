package io.gfxstats.dumpclient.h2;

import java.io.IOException;

/**
 * Cuts the DATA bytes of a gRPC response into messages, wherever the frame boundaries fall.
 *
 * <pre>
 *   +------------+--------------------+---------------------------+
 *   | flag (1)   | length (4, BE)     | message (length bytes)    |  repeated
 *   +------------+--------------------+---------------------------+
 *   flag 0: plain; 1: compressed with the call's grpc-encoding
 * </pre>
 */
final class MessageAssembler {
    static final int PREFIX_BYTES = 5;

    private final int maxMessageBytes;
    private final byte[] prefix = new byte[PREFIX_BYTES];
    private int prefixFilled;
    private byte[] message = new byte[0];
    private int messageLength = -1;
    private int messageFilled;

    MessageAssembler(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    void feed(byte[] data, int offset, int length, MessageSink sink) throws CallFailure, IOException {
        int pos = offset;
        int end = offset + length;
        while (pos < end) {
            if (messageLength < 0) {
                int n = Math.min(PREFIX_BYTES - prefixFilled, end - pos);
                System.arraycopy(data, pos, prefix, prefixFilled, n);
                prefixFilled += n;
                pos += n;
                if (prefixFilled < PREFIX_BYTES) {
                    return;
                }
                startMessage();
            }
            int n = Math.min(messageLength - messageFilled, end - pos);
            System.arraycopy(data, pos, message, messageFilled, n);
            messageFilled += n;
            pos += n;
            if (messageFilled == messageLength) {
                deliver(sink);
            }
        }
    }

    /** True between messages: a stream may end here. */
    boolean idle() {
        return prefixFilled == 0 && messageLength < 0;
    }

    private void startMessage() throws CallFailure {
        if (prefix[0] != 0) {
            throw new CallFailure(GrpcCodes.INTERNAL, "the daemon sent a compressed message (flag " + prefix[0]
                    + ") though this client accepts no compression");
        }
        long length = ((prefix[1] & 0xffL) << 24) | ((prefix[2] & 0xff) << 16) | ((prefix[3] & 0xff) << 8)
                | (prefix[4] & 0xff);
        if (length > maxMessageBytes) {
            throw new CallFailure(GrpcCodes.RESOURCE_EXHAUSTED, "response message of " + length
                    + " bytes exceeds the limit of " + maxMessageBytes);
        }
        messageLength = (int) length;
        messageFilled = 0;
        if (message.length < messageLength) {
            message = new byte[Math.max(messageLength, Math.min(2 * message.length, maxMessageBytes))];
        }
    }

    private void deliver(MessageSink sink) throws IOException {
        int length = messageLength;
        prefixFilled = 0;
        messageLength = -1;
        sink.message(message, 0, length);
    }
}
