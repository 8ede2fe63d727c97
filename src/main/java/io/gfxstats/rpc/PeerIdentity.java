package io.gfxstats.rpc;

/**
 * Who is at the other end of a Unix-socket connection, as the kernel reports it (SO_PEERCRED)
 * when the connection was made. Never taken from a request: a process cannot claim another
 * process's identity.
 *
 * @param pid process id of the connecting process
 * @param uid its effective user id
 * @param gid its effective group id
 */
public record PeerIdentity(int pid, int uid, int gid) {
    public PeerIdentity {
        if (pid <= 0) {
            throw new IllegalArgumentException("peer pid must be positive: " + pid);
        }
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("peer uid/gid must be non-negative: " + uid + "/" + gid);
        }
    }

    @Override
    public String toString() {
        return "pid " + pid + " uid " + uid + " gid " + gid;
    }
}
