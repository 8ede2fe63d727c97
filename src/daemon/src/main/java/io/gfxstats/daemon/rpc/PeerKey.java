package io.gfxstats.daemon.rpc;

import java.net.InetSocketAddress;

/**
 * Whom a call's share of a limit is counted against. The owner's processes (the daemon's uid, or
 * root) are told apart by pid, so one runaway process of the owner cannot take the owner's
 * reserve; every other uid is one peer however many processes it starts; a TCP peer is its
 * address.
 *
 * @param name  for the refusal line, e.g. "pid 812", "uid 1001", "127.0.0.1"
 * @param owner whether the call may use what is reserved for the daemon's own user
 */
record PeerKey(String name, boolean owner) {
    static PeerKey of(Caller caller, int ownerUid) {
        if (caller == null) {
            return new PeerKey("an unknown peer", false);
        }
        if (caller.transport() == Transport.UNIX) {
            PeerIdentity id = caller.peer();
            if (id == null) {
                return new PeerKey("unix (no credentials)", false);
            }
            boolean owner = id.uid() == ownerUid || id.uid() == 0;
            return owner ? new PeerKey("pid " + id.pid(), true) : new PeerKey("uid " + id.uidText(), false);
        }
        return new PeerKey(caller.remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null
                ? a.getAddress().getHostAddress() : String.valueOf(caller.remoteAddress()), false);
    }
}
