package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import io.gfxstats.testing.JavaProcess;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a real process: its stdout is the file descriptor, not a test buffer. */
class CliProcessTest {
    @TempDir
    Path tmp;

    private final FixedBackend backend = new FixedBackend();
    private GfxStatsServer server;
    private String socket;
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new GfxStatsServer(ServerConfig.unixOnly(tmp.resolve("d.sock")), backend);
        server.start();
        socket = server.socketPath().toString();
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        server.stop();
    }

    private record Finished(int exit, byte[] stdout, String stderr) {
    }

    private Finished run(ProcessBuilder builder) throws Exception {
        Process p = builder.start();
        processes.add(p);
        p.getOutputStream().close();
        CompletableFuture<byte[]> out = readAll(p.getInputStream());
        CompletableFuture<byte[]> err = readAll(p.getErrorStream());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "command did not finish");
        return new Finished(p.exitValue(), out.get(10, TimeUnit.SECONDS),
                new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8));
    }

    private static CompletableFuture<byte[]> readAll(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return in.readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Test
    void shouldWriteBinaryCleanProtoBytesToTheProcessStdout() throws Exception {
        // Every byte value occurs: a charset conversion on stdout would corrupt them.
        List<GraphicsStatsProto> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            entries.add(SampleProtos.entry("com.example.p" + i + "\u00e9\u4e2d", 1000L + i * 77_777L, 10_000 + i,
                    1_700_000_000_000L + i * 999L, 1_700_000_900_000L + i, 200 + i * 13, 16));
        }
        ByteArrayOutputStream proto = new ByteArrayOutputStream();
        new ProtoDumpWriter().write(entries, proto);
        backend.proto = proto.toByteArray();

        Finished f = run(JavaProcess.builder(Main.class, "dump", "--proto", "--socket", socket));

        assertEquals(0, f.exit(), f.stderr());
        assertEquals("", f.stderr());
        assertArrayEquals(backend.proto, f.stdout());
        assertEquals(entries, GraphicsStatsServiceDumpProto.parseFrom(f.stdout()).getStatsList());
    }

    @Test
    void shouldPrintTheDumpTextUnchangedWithTheSocketFromTheEnvironment() throws Exception {
        backend.text = "\nUID: 1\nPackage: caf\u00e9\n\u00ff\r\n".getBytes(StandardCharsets.ISO_8859_1);
        ProcessBuilder builder = JavaProcess.builder(Main.class, "dump");
        builder.environment().put("GFXSTATS_SOCKET", socket);

        Finished f = run(builder);

        assertEquals(0, f.exit(), f.stderr());
        assertArrayEquals(backend.text, f.stdout());
    }

    @Test
    void shouldPrintExactlyOneLineAndExit2WhenTheDaemonIsNotRunning() throws Exception {
        Path absent = tmp.resolve("gone.sock");

        Finished f = run(JavaProcess.builder(Main.class, "dump", "--socket", absent.toString()));

        assertEquals(2, f.exit());
        assertEquals("gfxstats dump: gfxstats daemon not running (no socket at " + absent + ")\n", f.stderr());
        assertEquals(0, f.stdout().length);
    }

    @Test
    void shouldLoadNeitherDaemonNorBufferNorGrpcJavaClassesOnTheDumpPath() throws Exception {
        backend.text = "\nPackage: lean\n".getBytes(StandardCharsets.US_ASCII);
        Path classLog = tmp.resolve("classes.log");
        List<String> command = new ArrayList<>(JavaProcess.command(Main.class, "dump", "--socket", socket));
        command.add(1, "-Xlog:class+load:file=" + classLog);

        Finished f = run(new ProcessBuilder(command));

        assertEquals(0, f.exit(), f.stderr());
        List<String> loaded = java.nio.file.Files.readAllLines(classLog);
        assertTrue(loaded.stream().anyMatch(l -> l.contains(" io.gfxstats.dumpclient.UnixDumpClient ")), "log is useless");
        // The dump goes through the small HTTP/2 client: no channel, no Netty, no proto descriptors.
        List<String> heavy = loaded.stream()
                .filter(l -> l.contains(" io.grpc.netty.") || l.contains(" io.grpc.internal.")
                        || l.contains(" com.google.protobuf.Descriptors") || l.contains(" io.gfxstats.rpc.v1.")
                        || l.contains(" io.gfxstats.daemon.")
                        || l.contains(" io.gfxstats.frame.") || l.contains(" io.gfxstats.collect.Collector ")
                        || l.contains(" com.google.protobuf.util.JsonFormat") || l.contains(" jdk.jfr.internal.MetadataRepository"))
                .toList();
        assertEquals(List.of(), heavy);
    }

    @Test
    void shouldStopQuietlyWhenTheReaderOfStdoutGoesAway() throws Exception {
        backend.text = new byte[8 * 1024 * 1024];
        Process p = JavaProcess.builder(Main.class, "dump", "--socket", socket).start();
        processes.add(p);
        CompletableFuture<byte[]> err = readAll(p.getErrorStream());
        // As `gfxstats dump | head -c 10`: read a little, then close the pipe.
        byte[] first = p.getInputStream().readNBytes(10);
        p.getInputStream().close();

        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "dump kept running after its reader left");
        assertEquals(10, first.length);
        assertEquals(DumpCommand.EXIT_BROKEN_PIPE, p.exitValue());
        assertEquals("", new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8));
    }
}
