package io.gfxstats.store;

import java.io.IOException;

/** Another process (or another open store in this one) is already using the data directory. */
public final class StoreLockedException extends IOException {
    private static final long serialVersionUID = 1L;

    public StoreLockedException(String message) {
        super(message);
    }
}
