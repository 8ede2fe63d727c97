package io.gfxstats.daemon.rpc;

import io.grpc.stub.ServerCallStreamObserver;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The open streaming calls of one kind (dumps, watches), counted from their start until the
 * transport has delivered or dropped their last byte - not until the service is done with them:
 * an unread stream keeps its queued messages in memory after the service has completed it, so
 * only the close or cancel of the call frees its share. Each peer ({@link PeerKey}) holds at most
 * {@code perPeer}; the others together never the last {@code ownerReserve} of {@code max}.
 *
 * <p>Flow control bounds what each open stream buffers (one message beyond gRPC's ready
 * threshold), so these counts also cap the memory of in-flight responses; see
 * docs/operations.md, "Memory".
 */
final class StreamShares {
    private final String what;
    private final int max;
    private final int perPeer;
    private final int ownerReserve;
    private final Map<String, Integer> byPeer = new HashMap<>();
    private int total;
    private int others;

    /**
     * @param what the calls as the refusal names them, e.g. "open dump streams"
     */
    StreamShares(String what, int max, int perPeer, int ownerReserve) {
        if (max < 1 || perPeer < 1 || ownerReserve < 0 || ownerReserve >= max) {
            throw new IllegalArgumentException(what + ": max " + max + ", per peer " + perPeer
                    + ", owner reserve " + ownerReserve);
        }
        this.what = what;
        this.max = max;
        this.perPeer = perPeer;
        this.ownerReserve = ownerReserve;
    }

    /** A share held by one call; released once, whichever of close and cancel comes first. */
    final class Share {
        private final PeerKey peer;
        private final AtomicBoolean released = new AtomicBoolean();

        private Share(PeerKey peer) {
            this.peer = peer;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                StreamShares.this.release(peer);
            }
        }

        /**
         * Releases this share when {@code call} is closed or cancelled; {@code onCancel} (may be
         * null) also runs at cancel. Must be called before the service method returns.
         */
        void releaseWhenDone(ServerCallStreamObserver<?> call, Runnable onCancel) {
            call.setOnCloseHandler(this::release);
            call.setOnCancelHandler(() -> {
                release();
                if (onCancel != null) {
                    onCancel.run();
                }
            });
        }
    }

    /** A peer may not open one more; the message is the one-line reason naming the setting. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A share for {@code peer}. */
    synchronized Share acquire(PeerKey peer) throws Refused {
        String why = refusal(peer);
        if (why != null) {
            throw new Refused(why);
        }
        byPeer.merge(peer.name(), 1, Integer::sum);
        total++;
        if (!peer.owner()) {
            others++;
        }
        return new Share(peer);
    }

    private String refusal(PeerKey peer) {
        if (total >= max) {
            return "too many " + what + " (limit " + max + "); retry shortly";
        }
        if (!peer.owner() && others >= max - ownerReserve) {
            return "too many " + what + " (the last " + ownerReserve
                    + " are kept for the daemon's own user); retry shortly";
        }
        int mine = byPeer.getOrDefault(peer.name(), 0);
        if (mine >= perPeer) {
            return "too many " + what + " from " + peer.name() + " (limit " + perPeer
                    + " per peer, each held until its client has read it); read or cancel them first";
        }
        return null;
    }

    synchronized int open() {
        return total;
    }

    private synchronized void release(PeerKey peer) {
        byPeer.computeIfPresent(peer.name(), (k, n) -> n <= 1 ? null : n - 1);
        total--;
        if (!peer.owner()) {
            others--;
        }
    }
}
