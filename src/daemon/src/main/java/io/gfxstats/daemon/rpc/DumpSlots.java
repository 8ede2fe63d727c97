package io.gfxstats.daemon.rpc;

import java.util.HashMap;
import java.util.Map;

/**
 * The dump slots: a total and a share per peer, so one peer cannot take them all, and the last
 * one kept for the daemon's own user (when there are two or more), so others cannot take them
 * all either.
 */
final class DumpSlots {
    private final int max;
    private final int maxPerPeer;
    private final Map<String, Integer> byPeer = new HashMap<>();
    private int inUse;
    private int others;

    DumpSlots(int max, int maxPerPeer) {
        this.max = max;
        this.maxPerPeer = maxPerPeer;
    }

    /** Null when a slot was taken for {@code peer}; otherwise why not, as one line. */
    synchronized String tryAcquire(PeerKey peer) {
        if (inUse >= max) {
            return allTaken();
        }
        if (!peer.owner() && max > 1 && others >= max - 1) {
            return "too many dumps in progress (limit " + max + ", setting dumps.max, the last kept for the "
                    + "daemon's own user); retry shortly";
        }
        int mine = byPeer.getOrDefault(peer.name(), 0);
        if (mine >= maxPerPeer) {
            return "too many dumps in progress from " + peer.name() + " (limit " + maxPerPeer
                    + " per peer, setting dumps.max.per.peer); finish or cancel one first";
        }
        byPeer.put(peer.name(), mine + 1);
        inUse++;
        if (!peer.owner()) {
            others++;
        }
        return null;
    }

    private String allTaken() {
        return "too many dumps in progress (limit " + max + ", setting dumps.max); retry shortly";
    }

    /**
     * Like {@link #tryAcquire}, but while every slot is taken (and only then: a peer over its own
     * share is answered at once) waits until {@code deadlineNanos} for one to be released, running
     * {@code freeOne} about every {@code freeEveryMillis} ms meanwhile (it may give up a dump, whose
     * slot then comes back here).
     */
    String acquireBefore(PeerKey peer, long deadlineNanos, Runnable freeOne, long freeEveryMillis) {
        while (true) {
            String why = tryAcquire(peer);
            long left = deadlineNanos - System.nanoTime();
            if (why == null || !why.equals(allTaken()) || left <= 0) {
                return why;
            }
            freeOne.run();
            synchronized (this) {
                if (inUse >= max) {
                    try {
                        wait(Math.max(1, Math.min(freeEveryMillis, left / 1_000_000)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return why;
                    }
                }
            }
        }
    }

    synchronized void release(PeerKey peer) {
        byPeer.computeIfPresent(peer.name(), (k, n) -> n <= 1 ? null : n - 1);
        inUse--;
        if (!peer.owner()) {
            others--;
        }
        notifyAll();
    }
}
