package io.gfxstats.cli;

import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The workload of scripts/lib.sh's class-data-sharing archives. Without arguments: the command
 * line's commands other than {@code dump} (help, pull, collect, the daemon-not-running and usage
 * errors) in one JVM against a {@link SampleBackend} served on a private Unix socket, so that the
 * JVM started with {@code -XX:ArchiveClassesAtExit} records every class they load.
 *
 * <p>The dump's own small archive is trained by {@link io.gfxstats.cli.DumpPathTraining}.
 *
 * <p>{@code --native-dir DIR} first copies Netty's native libraries (epoll, and tcnative for TLS)
 * out of the jar into DIR. A command started with DIR on {@code java.library.path} loads them from
 * there; otherwise Netty extracts a fresh copy into a temporary file on every start (a file copy
 * plus a SecureRandom for the file name).
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("--native-dir")) {
            extractNativeLibraries(Path.of(args[1]));
        } else if (args.length != 0) {
            System.err.println("usage: CdsTraining [--native-dir DIR]");
            System.exit(2);
        }
        int failures = train();
        System.exit(failures == 0 ? 0 : 1);
    }

    /**
     * The commands other than {@code dump}, which has an archive of its own: help, pull (table,
     * proto, JSON), a collect and the daemon-not-running and usage errors, against an in-process
     * server. Returns how many of the commands that should have succeeded failed.
     */
    static int train() throws Exception {
        Path dir = Files.createTempDirectory("gfxstats-cds");
        GfxStatsServer server = new GfxStatsServer(ServerConfig.unixOnly(dir.resolve("d.sock")),
                new SampleBackend(20, System.currentTimeMillis()));
        try {
            server.start();
            String socket = server.socketPath().toString();
            return runAll(new String[][] {
                {"--help"},
                {"pull", "--socket", socket},
                {"pull", "--socket", socket, "--proto"},
                {"pull", "--socket", socket, "--json"},
                {"collect", "--targets", "unix:" + socket, "--out", dir.resolve("out").toString()},
            }, new String[][] {
                {"pull", "--socket", dir.resolve("absent.sock").toString()},
                {"pull", "--no-such-option"},
            });
        } finally {
            server.stop();
            delete(dir);
        }
    }

    /** Runs {@code succeeding} and {@code failing} commands; returns how many of the first failed. */
    public static int runAll(String[][] succeeding, String[][] failing) {
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        int failures = 0;
        for (String[] cmd : succeeding) {
            if (Main.run(cmd, sink, sink) != 0) {
                failures++;
            }
        }
        for (String[] cmd : failing) {
            Main.run(cmd, sink, sink);
        }
        return failures;
    }

    /** Copies the Linux native libraries of the shaded Netty out of the jar this class was loaded from. */
    static void extractNativeLibraries(Path dir) throws IOException {
        Path jar;
        try {
            jar = Path.of(CdsTraining.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot locate the jar of " + CdsTraining.class.getName(), e);
        }
        if (!Files.isRegularFile(jar)) {
            return;
        }
        Files.createDirectories(dir);
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(file.entries())) {
                String name = e.getName();
                String base = name.substring(name.lastIndexOf('/') + 1);
                if (name.startsWith("META-INF/native/") && base.endsWith(".so")
                        && (base.contains("_netty_transport_native_epoll_") || base.contains("_netty_tcnative_linux_"))) {
                    Path tmp = dir.resolve("." + base + "." + ProcessHandle.current().pid() + ".tmp");
                    try (InputStream in = file.getInputStream(e)) {
                        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                    }
                    Files.move(tmp, dir.resolve(base), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                }
            }
        }
    }

    public static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
