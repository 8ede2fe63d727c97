package io.gfxstats.daemon.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LoopbackPeersTest {
    @Test
    void shouldFindTheUidOwningALoopbackPeersSocket() throws Exception {
        int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            OptionalInt uid = LoopbackPeers.system().uid((InetSocketAddress) accepted.getRemoteSocketAddress());
            assertEquals(OptionalInt.of(me), uid);
            assertEquals(client.getLocalPort(), accepted.getPort());
        }
    }

    @Test
    void shouldKnowNoUidForAPeerOffLoopback() {
        assertFalse(LoopbackPeers.system().uid(new InetSocketAddress("192.0.2.1", 40000)).isPresent());
    }

    @Test
    void shouldReadTheKernelsWordOrderAndMappedIpv4() {
        assertArrayEquals(new byte[] {127, 0, 0, 1}, LoopbackPeers.address("0100007F"));
        assertArrayEquals(new byte[] {127, 0, 0, 1}, LoopbackPeers.address("0000000000000000FFFF00000100007F"));
        byte[] v6loop = new byte[16];
        v6loop[15] = 1;
        assertArrayEquals(v6loop, LoopbackPeers.address("00000000000000000000000001000000"));
    }

    @Test
    void shouldAllowRootTheDaemonsUserAndTheListedUsersOnly() throws Exception {
        Path passwd = Files.createTempFile("passwd", "");
        try {
            Files.writeString(passwd, "root:x:0:0::/root:/bin/sh\nprometheus:x:1234:1234::/:/bin/false\n");
            MetricsAccess access = MetricsAccess.of("prometheus,2000", 1000, passwd);
            for (int uid : new int[] {0, 1000, 1234, 2000}) {
                assertTrue(access.allows(OptionalInt.of(uid)), "uid " + uid);
            }
            assertFalse(access.allows(OptionalInt.of(65534)));
            assertFalse(access.allows(OptionalInt.empty()), "a peer of unknown uid");
            MetricsAccess owner = MetricsAccess.of("owner", 1000, passwd);
            assertFalse(owner.allows(OptionalInt.of(1234)));
            assertTrue(MetricsAccess.of("any", 1000, passwd).allows(OptionalInt.empty()));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> MetricsAccess.of("nosuchuser", 1000, passwd));
            assertEquals("metrics.access: no user nosuchuser in /etc/passwd; name an existing user or give a uid",
                    e.getMessage());
        } finally {
            Files.delete(passwd);
        }
    }
}
