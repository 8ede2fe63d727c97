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
 * <p>Arguments: socket, method ("gfxstats.v1.GfxStats/Dump"), request message in hex (may be
 * empty: "-"), seconds, gapMillis.
 */
public final class UnreadStreamsAttacker {
    private UnreadStreamsAttacker() {
    }

    public static void main(String[] args) throws Exception {
        Path socket = Path.of(args[0]);
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
                    client = StalledH2Client.open(socket);
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
