package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.daemon.rpc.Caller;
import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.daemon.rpc.Transport;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who sees whose entries: own uid only, unless root, the daemon's user, readers.group, or TCP. */
class ReadersTest {
    static final int DAEMON = 0;
    static final int GID = 5000;

    @TempDir
    Path tmp;

    private Readers readers() throws Exception {
        Path proc = tmp.resolve("proc");
        Files.createDirectories(proc.resolve("77"));
        Files.writeString(proc.resolve("77/status"), "Name:\tjava\nUid:\t1001\t1001\t1001\t1001\nGroups:\t24 5000 \n");
        Files.createDirectories(proc.resolve("78"));
        Files.writeString(proc.resolve("78/status"), "Name:\tjava\nGroups:\t24 \n");
        return new Readers(DAEMON, OptionalInt.of(GID), proc);
    }

    private static Caller unix(int pid, int uid, int gid) {
        return new Caller(Transport.UNIX, new PeerIdentity(pid, uid, gid), null);
    }

    @Test
    void shouldShowAUserOnlyTheirOwnUid() throws Exception {
        IntPredicate v = readers().visibleTo(unix(78, 1001, 1001));
        assertTrue(v.test(1001));
        assertFalse(v.test(1002));
        assertFalse(v.test(0));
    }

    @Test
    void shouldShowEverythingToRootTheGroupTcpAndTheDaemonItself() throws Exception {
        Readers r = readers();
        assertTrue(r.visibleTo(unix(78, 0, 0)).test(1002), "root");
        assertTrue(r.visibleTo(unix(77, 1001, 1001)).test(1002), "a supplementary member of readers.group");
        assertTrue(r.visibleTo(unix(78, 1003, GID)).test(1002), "primary group readers.group");
        assertTrue(r.visibleTo(new Caller(Transport.TCP, null, new InetSocketAddress("127.0.0.1", 1))).test(1002),
                "a token-authenticated TCP collector is an operator");
        assertTrue(r.visibleTo(null).test(1002), "the daemon's own work outside a call");
        assertTrue(new Readers(1001, OptionalInt.empty(), tmp).visibleTo(unix(78, 1001, 1001)).test(1002),
                "the daemon's own user owns every file anyway");
    }

    @Test
    void shouldShowNothingWithoutCredentialsOrAfterTheProcessIsGone() throws Exception {
        Readers r = readers();
        assertFalse(r.visibleTo(new Caller(Transport.UNIX, null, null)).test(1001));
        assertFalse(r.visibleTo(unix(99, 1001, 1001)).test(1002), "no /proc entry: no membership shown");
    }

    @Test
    void shouldResolveTheGroupByNameOrNumberAndRefuseAnUnknownOne() throws Exception {
        Path groups = Files.writeString(tmp.resolve("group"), "root:x:0:\ngfxreaders:x:5000:alice,bob\n");
        assertEquals(OptionalInt.of(5000), Readers.resolveGroup("gfxreaders", groups));
        assertEquals(OptionalInt.of(7), Readers.resolveGroup("7", groups));
        assertEquals(OptionalInt.empty(), Readers.resolveGroup("", groups));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Readers.resolveGroup("nosuch", groups));
        assertTrue(e.getMessage().startsWith("readers.group: there is no group nosuch in "), e.getMessage());
    }
}
