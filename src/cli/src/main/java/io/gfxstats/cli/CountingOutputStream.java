package io.gfxstats.cli;

import java.io.IOException;
import java.io.OutputStream;

/** Passes bytes through and counts them, so a command can tell an empty answer from a written one. */
final class CountingOutputStream extends OutputStream {
    private final OutputStream out;
    private long count;

    CountingOutputStream(OutputStream out) {
        this.out = out;
    }

    long count() {
        return count;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        count += len;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
