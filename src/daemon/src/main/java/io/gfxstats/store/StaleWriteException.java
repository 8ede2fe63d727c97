package io.gfxstats.store;

import java.io.IOException;

/**
 * A write whose expected stamp no longer matches the file on disk: someone replaced, created or
 * removed it since the caller read it. Nothing was written; re-read, merge again and retry. This
 * is how the store guarantees it never overwrites data the caller has not merged.
 */
public final class StaleWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient FileStamp expected;
    private final transient FileStamp actual;

    public StaleWriteException(EntryKey key, FileStamp expected, FileStamp actual) {
        super("day file " + key + " changed since it was read (expected " + expected + ", found " + actual
                + "); re-read and merge again");
        this.expected = expected;
        this.actual = actual;
    }

    public FileStamp expected() {
        return expected;
    }

    public FileStamp actual() {
        return actual;
    }
}
