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
            return "too many dumps in progress (limit " + max + ", setting dumps.max); retry shortly";
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

    synchronized void release(PeerKey peer) {
        byPeer.computeIfPresent(peer.name(), (k, n) -> n <= 1 ? null : n - 1);
        inUse--;
        if (!peer.owner()) {
            others--;
        }
    }
}
