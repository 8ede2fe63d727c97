package io.gfxstats.dumpclient.h2;

/** A header block that cannot be decoded: a COMPRESSION_ERROR, fatal for the connection. */
final class HpackException extends Exception {
    private static final long serialVersionUID = 1L;

    HpackException(String message) {
        super(message);
    }
}
