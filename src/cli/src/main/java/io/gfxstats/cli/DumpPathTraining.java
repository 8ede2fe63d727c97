package io.gfxstats.cli;

import io.gfxstats.buffer.JvmFlags;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The workload of the dump path's own small class-data archive (scripts/lib.sh,
 * {@code target/gfxstats-dump.jsa}): only what {@code gfxstats dump} loads. The server runs in a
 * child JVM so that none of its classes end up in the archive. {@code serve SOCKET}: that child;
 * serves the sample data until killed, printing {@code ready}. The other commands' archive is
 * trained by {@link CdsTraining}.
 */
public final class DumpPathTraining {
    private DumpPathTraining() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("serve")) {
            serve(Path.of(args[1]));
            return;
        }
        if (args.length != 0) {
            System.err.println("usage: DumpPathTraining | serve SOCKET");
            System.exit(2);
        }
        System.exit(train() == 0 ? 0 : 1);
    }

    private static void serve(Path socket) throws Exception {
        GfxStatsServer server = new GfxStatsServer(ServerConfig.unixOnly(socket),
                new SampleBackend(20, System.currentTimeMillis()));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        System.out.println("ready");
        System.out.flush();
        server.blockUntilShutdown();
    }

    /** The dump commands against a server in a child JVM; returns how many failed. */
    public static int train() throws Exception {
        Path dir = Files.createTempDirectory("gfxstats-cds");
        Path socket = dir.resolve("d.sock");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> serverCommand = new ArrayList<>(List.of(javaBin));
        serverCommand.addAll(JvmFlags.all());
        serverCommand.addAll(List.of("-cp", System.getProperty("java.class.path"), DumpPathTraining.class.getName(),
                "serve", socket.toString()));
        Process server = new ProcessBuilder(serverCommand)
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader lines = new BufferedReader(
                    new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = lines.readLine()) != null && !line.equals("ready")) {
                // Log lines of the child before it listens.
            }
            if (line == null) {
                return 1;
            }
            // The server keeps logging; a full pipe would stop it.
            Thread drain = new Thread(() -> {
                try {
                    lines.transferTo(Writer.nullWriter());
                } catch (IOException ended) {
                    // The server is gone.
                }
            }, "cds-training-server-output");
            drain.setDaemon(true);
            drain.start();
            String s = socket.toString();
            return CdsTraining.runAll(new String[][] {
                {"dump", "--socket", s},
                {"dump", "--socket", s, "--proto"},
                {"dump", "--socket", s, "--package", "com.example.sample1", "--format", "android11"},
            }, new String[][] {
                {"dump", "--socket", dir.resolve("absent.sock").toString()},
                {"dump", "--no-such-option"},
            });
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
            CdsTraining.delete(dir);
        }
    }
}
