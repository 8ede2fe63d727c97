package io.gfxstats.daemon.rpc;

/**
 * Who is at the other end of a Unix-socket connection, as the kernel reports it (SO_PEERCRED)
 * when the connection was made. Never taken from a request: a process cannot claim another
 * process's identity.
 *
 * <p>uids and gids are the kernel's {@code uid_t}/{@code gid_t}: unsigned 32-bit. They are held
 * in an {@code int} with the same 32 bits (as {@code Files.getAttribute(p, "unix:uid")} does), so
 * a uid of 2^31 or more is a negative {@code int}: compare with {@code ==}, print with
 * {@link #uidText()} / {@link Integer#toUnsignedString(int)}.
 *
 * @param pid process id of the connecting process
 * @param uid its effective user id (unsigned 32-bit)
 * @param gid its effective group id (unsigned 32-bit)
 */
public record PeerIdentity(int pid, int uid, int gid) {
    public PeerIdentity {
        if (pid <= 0) {
            throw new IllegalArgumentException("peer pid must be positive: " + pid);
        }
    }

    /** The uid in decimal, unsigned. */
    public String uidText() {
        return Integer.toUnsignedString(uid);
    }

    @Override
    public String toString() {
        return "pid " + pid + " uid " + uidText() + " gid " + Integer.toUnsignedString(gid);
    }
}
