package io.gfxstats.dumpclient.h2;

import java.io.IOException;

/** Receives each response message of a call, in order. */
@FunctionalInterface
public interface MessageSink {
    /**
     * One whole gRPC message (the serialized response proto). The array is reused after the call
     * returns. An exception here ends the call: the connection is closed, the server sees the call
     * cancelled, and the exception reaches the caller unchanged.
     */
    void message(byte[] bytes, int offset, int length) throws IOException;
}
