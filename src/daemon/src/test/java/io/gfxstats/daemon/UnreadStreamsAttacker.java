package io.gfxstats.daemon;

import io.gfxstats.testing.StalledH2Client;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * A hostile process for the attack suite: opens a call of one method every {@code gapMillis} on
 * one HTTP/2 connection whose receive window is 0 and never reads; when the daemon closes the
 * connection it opens another. Prints "calls N connections M" at the end.
 *
 * <p>Arguments: socket (or "tcp:PORT" for the loopback TCP listener), method ("gfxstats.v1.GfxStats/Dump"), request message in hex (may be
 * empty: "-"), seconds, gapMillis.
 */
public final class UnreadStreamsAttacker {
    private UnreadStreamsAttacker() {
    }

    public static void main(String[] args) throws Exception {
        String target = args[0];
        String method = args[1];
        byte[] request = args[2].equals("-") ? new byte[0] : HexFormat.of().parseHex(args[2]);
        long end = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        long gap = Long.parseLong(args[4]);
        int calls = 0;
        int connections = 0;
        StalledH2Client client = null;
        while (System.nanoTime() < end) {
            try {
                if (client == null) {
                    client = target.startsWith("tcp:")
                            ? StalledH2Client.open(new java.net.InetSocketAddress("127.0.0.1",
                                    Integer.parseInt(target.substring(4))))
                            : StalledH2Client.open(Path.of(target));
                    connections++;
                }
                client.another(method, request);
                calls++;
            } catch (IOException closedByTheDaemon) {
                if (client != null) {
                    client.close();
                }
                client = null;
            }
            Thread.sleep(gap);
        }
        System.out.println("calls " + calls + " connections " + connections);
        System.out.flush();
        Runtime.getRuntime().halt(0); // the connection is never closed politely
    }
}
