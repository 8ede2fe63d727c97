package io.gfxstats.buffer;

/** Lifecycle state of a readable buffer (a buffer still initialising is never readable). */
public enum BufferState {
    /** Counting: the registered process writes into it. */
    READY,
    /**
     * Handed over: every count of this buffer belongs to the successor named in its header,
     * which continues it. Harvest the successor, never this one again (docs/buffer-format.md).
     */
    RETIRED;

    static BufferState fromWord(int word) {
        return word == BufferDescriptor.STATE_RETIRED ? RETIRED : READY;
    }
}
