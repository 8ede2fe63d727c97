package io.gfxstats.daemon.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * The user of a loopback TCP peer. A loopback peer's socket is a socket of this host: its row in
 * {@code /proc/net/tcp} (or {@code tcp6}) has the peer's address and port as its local address
 * and carries its owner's uid. TCP has no SO_PEERCRED, so this is the only way to know who scrapes.
 */
final class LoopbackPeers {
    private final Path procNet;

    LoopbackPeers(Path procNet) {
        this.procNet = procNet;
    }

    static LoopbackPeers system() {
        return new LoopbackPeers(Path.of("/proc/net"));
    }

    /** The uid owning the socket at {@code peer}, or empty if it is not a loopback peer or is gone. */
    OptionalInt uid(InetSocketAddress peer) {
        InetAddress address = peer.getAddress();
        if (address == null || !address.isLoopbackAddress()) {
            return OptionalInt.empty();
        }
        byte[] want = address.getAddress();
        try {
            for (String file : new String[] {"tcp", "tcp6"}) {
                OptionalInt uid = find(procNet.resolve(file), want, peer.getPort());
                if (uid.isPresent()) {
                    return uid;
                }
            }
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty(); // unknown: the caller treats the peer as anonymous
        }
        return OptionalInt.empty();
    }

    private static OptionalInt find(Path table, byte[] want, int port) throws IOException {
        String portHex = String.format(":%04X", port);
        try (BufferedReader r = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
            r.readLine(); // the column titles
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 8 || !f[1].endsWith(portHex)) {
                    continue;
                }
                byte[] local = address(f[1].substring(0, f[1].length() - portHex.length()));
                if (local != null && Arrays.equals(local, want)) {
                    return OptionalInt.of(Integer.parseUnsignedInt(f[7]));
                }
            }
        } catch (NoSuchFileException noIpv6) {
            return OptionalInt.empty();
        }
        return OptionalInt.empty();
    }

    /**
     * The kernel prints an address as 32-bit words in host (little-endian) order; an IPv4-mapped
     * IPv6 address stands for the IPv4 one, as Java reports it.
     */
    static byte[] address(String hex) {
        if (hex.length() != 8 && hex.length() != 32) {
            return null;
        }
        byte[] b = new byte[hex.length() / 2];
        for (int word = 0; word < b.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = word * 8 + (3 - i) * 2;
                b[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        if (b.length == 16 && isMappedIpv4(b)) {
            return Arrays.copyOfRange(b, 12, 16);
        }
        return b;
    }

    private static boolean isMappedIpv4(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }
}
