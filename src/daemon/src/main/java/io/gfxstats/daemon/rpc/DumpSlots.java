package io.gfxstats.daemon.rpc;

import java.util.HashMap;
import java.util.Map;

/** The dump slots: a total and a share per peer, so one peer cannot take them all. */
final class DumpSlots {
    private final int max;
    private final int maxPerPeer;
    private final Map<String, Integer> byPeer = new HashMap<>();
    private int inUse;

    DumpSlots(int max, int maxPerPeer) {
        this.max = max;
        this.maxPerPeer = maxPerPeer;
    }

    /** Null when a slot was taken for {@code peer}; otherwise why not, as one line. */
    synchronized String tryAcquire(String peer) {
        if (inUse >= max) {
            return "too many dumps in progress (limit " + max + ", setting dumps.max); retry shortly";
        }
        int mine = byPeer.getOrDefault(peer, 0);
        if (mine >= maxPerPeer) {
            return "too many dumps in progress from " + peer + " (limit " + maxPerPeer
                    + " per peer, setting dumps.max.per.peer); finish or cancel one first";
        }
        byPeer.put(peer, mine + 1);
        inUse++;
        return null;
    }

    synchronized void release(String peer) {
        int mine = byPeer.getOrDefault(peer, 0);
        if (mine <= 1) {
            byPeer.remove(peer);
        } else {
            byPeer.put(peer, mine - 1);
        }
        inUse--;
    }
}
