package io.gfxstats.client;

/**
 * The scene in effect since {@code sinceNanos} (CLOCK_MONOTONIC, the frames' clock) and the
 * one before it: a frame whose intended vsync is earlier than {@code sinceNanos} belongs to
 * {@code previousSlot}. Immutable, so a tracker reads it without a lock.
 */
record SceneSwitch(int slot, long sinceNanos, int previousSlot) {
    int slotFor(long intendedVsync) {
        return intendedVsync >= sinceNanos ? slot : previousSlot;
    }
}
