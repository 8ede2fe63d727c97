package io.gfxstats.store;

import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What serializes the store's changes (writes, quarantines, retention) and tells whether it is
 * still open. Reads take no lock: atomic renames make them safe.
 */
final class StoreGuard {
    private final Path root;
    private final ReentrantLock mutations = new ReentrantLock();
    private volatile boolean closed;

    StoreGuard(Path root) {
        this.root = root;
    }

    void lock() {
        mutations.lock();
    }

    void unlock() {
        mutations.unlock();
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("day store " + root + " is closed");
        }
    }

    /** Marks the store closed; false if it already was. The caller holds the lock. */
    boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }
}
