package io.gfxstats.cli;

import io.gfxstats.rpc.GfxStatsServer;
import io.gfxstats.rpc.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The workload of scripts/lib.sh's class-data-sharing archive: runs the command line's common
 * paths in one JVM (help, dump, dump --proto, pull, the daemon-not-running error, a collect)
 * against a {@link SampleBackend} served on a private Unix socket, so that the JVM started with
 * {@code -XX:ArchiveClassesAtExit} records every class a real {@code gfxstats dump} loads.
 *
 * <p>{@code serve SOCKET [PACKAGES]}: serves the sample data until killed (the start-up benchmark's
 * stand-in when no daemon is given), printing {@code ready} once listening.
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("serve")) {
            serve(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 20);
            return;
        }
        if (args.length != 0) {
            System.err.println("usage: CdsTraining [serve SOCKET [PACKAGES]]");
            System.exit(2);
        }
        int failures = train();
        System.exit(failures == 0 ? 0 : 1);
    }

    private static void serve(Path socket, int packages) throws Exception {
        GfxStatsServer server = new GfxStatsServer(ServerConfig.unixOnly(socket),
                new SampleBackend(packages, System.currentTimeMillis()));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        System.out.println("ready");
        System.out.flush();
        server.blockUntilShutdown();
    }

    /** Returns how many of the commands that should have succeeded failed. */
    static int train() throws Exception {
        Path dir = Files.createTempDirectory("gfxstats-cds");
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        GfxStatsServer server = new GfxStatsServer(ServerConfig.unixOnly(dir.resolve("d.sock")),
                new SampleBackend(20, System.currentTimeMillis()));
        int failures = 0;
        try {
            server.start();
            String socket = server.socketPath().toString();
            String[][] succeeding = {
                {"--help"},
                {"dump", "--socket", socket},
                {"dump", "--socket", socket, "--proto"},
                {"dump", "--socket", socket, "--package", "com.example.sample1", "--format", "android11"},
                {"pull", "--socket", socket},
                {"pull", "--socket", socket, "--proto"},
                {"pull", "--socket", socket, "--json"},
                {"collect", "--targets", "unix:" + socket, "--out", dir.resolve("out").toString()},
            };
            for (String[] cmd : succeeding) {
                if (Main.run(cmd, sink, sink) != 0) {
                    failures++;
                }
            }
            Main.run(new String[] {"dump", "--socket", dir.resolve("absent.sock").toString()}, sink, sink);
            Main.run(new String[] {"dump", "--no-such-option"}, sink, sink);
        } finally {
            server.stop();
            delete(dir);
        }
        return failures;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
