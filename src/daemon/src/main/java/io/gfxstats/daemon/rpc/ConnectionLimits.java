package io.gfxstats.daemon.rpc;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How many connections the daemon keeps open, shared by its listeners: at most {@code max} in
 * all; other peers (TCP clients, other users on the Unix socket) at most {@code perPeer} each and
 * together never the last {@code ownerReserve}, which only the daemon's own user on the Unix
 * socket may take - so no flood from elsewhere can stop the owner's dumps and registrations.
 *
 * @param max          connections at once (capped below the process's file descriptor limit)
 * @param perPeer      connections of one other peer: a uid on the Unix socket, an address on TCP
 * @param ownerReserve connections kept for the owner's Unix-socket clients
 * @param tcpIdle      a TCP connection with no call in progress for this long is closed
 */
public record ConnectionLimits(int max, int perPeer, int ownerReserve, Duration tcpIdle) {
    public static final ConnectionLimits DEFAULTS = new ConnectionLimits(2048, 64, 256, Duration.ofSeconds(10));

    public ConnectionLimits {
        if (max < 1 || perPeer < 1 || ownerReserve < 0 || ownerReserve >= max) {
            throw new IllegalArgumentException("connection limits: max " + max + ", per peer " + perPeer
                    + ", owner reserve " + ownerReserve);
        }
    }

    /**
     * These limits, lowered if needed so that connections cannot use up the file descriptors
     * ({@code fdLimit}, the process's soft limit) the daemon needs for its files: half of them at most.
     */
    public ConnectionLimits fitTo(long fdLimit) {
        if (fdLimit <= 0 || max <= fdLimit / 2) {
            return this;
        }
        int fitted = (int) Math.max(2, fdLimit / 2);
        return new ConnectionLimits(fitted, Math.min(perPeer, fitted), Math.min(ownerReserve, fitted / 2), tcpIdle);
    }

    /** The live counts; one per server. */
    static final class Counter {
        private final ConnectionLimits limits;
        private final Map<String, Integer> byPeer = new HashMap<>();
        private int total;
        private int others;

        Counter(ConnectionLimits limits) {
            this.limits = limits;
        }

        /** Null if admitted (then {@link #release} it when it closes); else why not, as one line. */
        synchronized String admit(String peer, boolean owner) {
            if (total >= limits.max) {
                return "refused a connection from " + peer + ": " + total
                        + " connections are open, the limit (setting connections.max)";
            }
            if (!owner) {
                if (others >= limits.max - limits.ownerReserve) {
                    return "refused a connection from " + peer + ": the remaining " + (limits.max - total)
                            + " connections are reserved for the daemon's own user (setting connections.owner.reserve)";
                }
                int mine = byPeer.getOrDefault(peer, 0);
                if (mine >= limits.perPeer) {
                    return "refused a connection from " + peer + ": it has " + mine
                            + " open, the limit per peer (setting connections.max.per.peer)";
                }
                byPeer.put(peer, mine + 1);
                others++;
            }
            total++;
            return null;
        }

        synchronized void release(String peer, boolean owner) {
            total--;
            if (!owner) {
                others--;
                int mine = byPeer.getOrDefault(peer, 0);
                if (mine <= 1) {
                    byPeer.remove(peer);
                } else {
                    byPeer.put(peer, mine - 1);
                }
            }
        }
    }
}
