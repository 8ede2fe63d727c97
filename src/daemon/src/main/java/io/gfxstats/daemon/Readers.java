package io.gfxstats.daemon;

import io.gfxstats.daemon.rpc.Caller;
import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.daemon.rpc.Transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntPredicate;

/**
 * Whose entries a read call may see (docs/operations.md, "Several users"): a Unix-socket caller
 * sees its own uid's entries only, unless it is root, the daemon's own user or in the group
 * {@code readers.group}; a TCP caller (a token-authenticated fleet collector) is an operator and
 * sees everything. Identity is the kernel's (SO_PEERCRED), never the request's.
 */
final class Readers {
    private static final IntPredicate EVERYONE = uid -> true;
    private static final IntPredicate NOBODY = uid -> false;

    private final int daemonUid;
    private final OptionalInt groupGid;
    private final Path proc;

    Readers(int daemonUid, OptionalInt groupGid, Path proc) {
        this.daemonUid = daemonUid;
        this.groupGid = groupGid;
        this.proc = proc;
    }

    /** The readers of a daemon running as {@code daemonUid}, with {@code group} (a name, a number or empty) resolved. */
    static Readers of(int daemonUid, String group) throws IOException {
        return of(daemonUid, "readers.group", group);
    }

    /**
     * Root, {@code daemonUid} and the members of {@code group}, the value of setting {@code key}
     * (named in errors): e.g. who may feed compositor frames ({@code compositor.group}).
     */
    static Readers of(int daemonUid, String key, String group) throws IOException {
        return new Readers(daemonUid, resolveGroup(key, group, Path.of("/etc/group")), Path.of("/proc"));
    }

    /** Whether {@code peer} is root, the daemon's own user or in the group. */
    boolean privileged(PeerIdentity peer) {
        int uid = peer.uid();
        return uid == 0 || uid == daemonUid || inGroup(peer);
    }

    int daemonUid() {
        return daemonUid;
    }

    /** The uids whose entries the current call may see (everyone outside a call: the daemon itself). */
    IntPredicate visibleTo(Caller caller) {
        if (caller == null || caller.transport() == Transport.TCP) {
            return EVERYONE;
        }
        PeerIdentity peer = caller.peer();
        if (peer == null) {
            return NOBODY;
        }
        int uid = peer.uid();
        if (uid == 0 || uid == daemonUid || inGroup(peer)) {
            return EVERYONE;
        }
        return u -> u == uid;
    }

    IntPredicate visibleToCurrent() {
        return visibleTo(Caller.current());
    }

    /** The caller's primary gid or one of its process's supplementary groups, as the kernel lists them now. */
    private boolean inGroup(PeerIdentity peer) {
        if (groupGid.isEmpty()) {
            return false;
        }
        int gid = groupGid.getAsInt();
        if (peer.gid() == gid) {
            return true;
        }
        try {
            for (String line : Files.readAllLines(proc.resolve(Integer.toString(peer.pid())).resolve("status"),
                    StandardCharsets.UTF_8)) {
                if (line.startsWith("Groups:")) {
                    for (String g : line.substring("Groups:".length()).trim().split("\\s+")) {
                        if (!g.isEmpty() && Integer.parseUnsignedInt(g) == gid) {
                            return true;
                        }
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false; // the process is gone (or /proc hides it): no membership can be shown
        }
        return false;
    }

    /** A group name from {@code groupFile} (the /etc/group format), or a number; empty for none. */
    static OptionalInt resolveGroup(String group, Path groupFile) throws IOException {
        return resolveGroup("readers.group", group, groupFile);
    }

    static OptionalInt resolveGroup(String key, String group, Path groupFile) throws IOException {
        if (group.isEmpty()) {
            return OptionalInt.empty();
        }
        if (group.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return OptionalInt.of(Integer.parseUnsignedInt(group));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + ": " + group + " is not a gid (0 to 4294967295)");
            }
        }
        List<String> lines = Files.readAllLines(groupFile, StandardCharsets.UTF_8);
        for (String line : lines) {
            String[] f = line.split(":", -1);
            if (f.length >= 3 && f[0].equals(group)) {
                return OptionalInt.of(Integer.parseUnsignedInt(f[2]));
            }
        }
        throw new IllegalArgumentException(key + ": there is no group " + group + " in " + groupFile
                + "; create it (groupadd " + group + ") or set " + key + " to an existing group");
    }
}
