package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.rpc.v1.DumpRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gfxstats dump} against a real server on a real Unix socket. */
class DumpCommandTest {
    @TempDir
    Path tmp;

    private final FixedBackend backend = new FixedBackend();
    private GfxStatsServer server;
    private String socket;

    private static final List<GraphicsStatsProto> ENTRIES = List.of(
            SampleProtos.entry("com.example.a", 3, 10_001, 1_700_000_000_000L, 1_700_000_600_000L, 320, 12),
            SampleProtos.entry("com.example.b", 7, 10_002, 1_700_000_100_000L, 1_700_000_700_000L, 32, 20));

    @BeforeEach
    void start() throws Exception {
        server = new GfxStatsServer(ServerConfig.unixOnly(tmp.resolve("d.sock")), backend);
        server.start();
        socket = server.socketPath().toString();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    private static byte[] render(DumpFormat format, List<GraphicsStatsProto> entries) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TextDumpWriter(format).write(entries, out);
        return out.toByteArray();
    }

    @Test
    void shouldPrintTheDumpTextExactlyAsTheDaemonStreamedIt() throws Exception {
        backend.text = render(DumpFormat.ANDROID14, ENTRIES);

        CliRun run = CliRun.main("dump", "--socket", socket);

        assertEquals(0, run.exit(), run.stderr());
        assertArrayEquals(backend.text, run.stdout());
        assertEquals("", run.stderr());
        assertTrue(run.out().startsWith("\nUID: 10001\nPackage: com.example.a\n"), run.out());
    }

    @Test
    void shouldCopyALargeDumpOfArbitraryBytesWithoutChangingOrAddingAnything() throws Exception {
        // Several chunks' worth, every byte value, no trailing newline: a charset or line-ending
        // conversion anywhere on the way would show.
        byte[] data = new byte[1_000_003];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 131 + (i >>> 9));
        }
        backend.text = data;

        CliRun run = CliRun.main("dump", "--socket", socket);

        assertEquals(0, run.exit(), run.stderr());
        assertArrayEquals(data, run.stdout());
    }

    @Test
    void shouldWriteTheProtoDumpThatParsesBackToTheEntries() throws Exception {
        ByteArrayOutputStream proto = new ByteArrayOutputStream();
        new ProtoDumpWriter().write(ENTRIES, proto);
        backend.proto = proto.toByteArray();

        CliRun run = CliRun.main("dump", "--socket", socket, "--proto");

        assertEquals(0, run.exit(), run.stderr());
        assertArrayEquals(backend.proto, run.stdout());
        assertEquals(ENTRIES, GraphicsStatsServiceDumpProto.parseFrom(run.stdout()).getStatsList());
        assertTrue(backend.dumps.take().getProto());
    }

    @Test
    void shouldSayOnStderrThatAnEmptyDaemonHasNoDataYetAndKeepStdoutEmpty() throws Exception {
        backend.text = new byte[0];

        CliRun run = CliRun.main("dump", "--socket", socket);

        assertEquals(0, run.exit(), run.stderr());
        assertEquals(0, run.stdout().length, "Android's bytes for no entry: none");
        assertEquals("gfxstats dump: no data yet: no frames recorded and no day file retained", run.onlyErrorLine());
    }

    @Test
    void shouldPrintTheProjectsVersion() {
        CliRun run = CliRun.main("--version");

        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.out().matches("gfxstats 0\\.1\\.0-SNAPSHOT \\(Java [0-9][^)]*\\)\n"), run.out());
    }

    @Test
    void shouldPassPackageAndFormatToTheDaemon() throws Exception {
        CliRun run = CliRun.main("dump", "--socket", socket, "--package", "com.example.b", "--format", "Android9");

        assertEquals(0, run.exit(), run.stderr());
        DumpRequest request = backend.dumps.poll(5, TimeUnit.SECONDS);
        assertEquals("com.example.b", request.getPackageName());
        assertEquals(io.gfxstats.rpc.v1.DumpFormat.ANDROID9, request.getFormat());
        assertEquals(false, request.getProto());
    }

    @Test
    void shouldMapEveryFormatNameToItsWireFormat() throws Exception {
        for (String name : List.of("android14", "android11", "android9", "android8")) {
            assertEquals(0, CliRun.main("dump", "--socket", socket, "--format", name).exit());
            assertEquals(name.toUpperCase(), backend.dumps.take().getFormat().name());
        }
    }

    @Test
    void shouldLeaveTheFormatToTheDaemonWhenNoneIsGiven() throws Exception {
        assertEquals(0, CliRun.main("dump", "--socket", socket).exit());

        DumpRequest request = backend.dumps.take();
        assertEquals(io.gfxstats.rpc.v1.DumpFormat.DUMP_FORMAT_UNSPECIFIED, request.getFormat());
        assertEquals("", request.getPackageName());
    }

    @Test
    void shouldFindTheSocketThroughTheEnvironmentWhenNotGiven() throws Exception {
        backend.text = "\nPackage: env\n".getBytes(StandardCharsets.US_ASCII);

        CliRun run = CliRun.command(new DumpCommand(Map.of("GFXSTATS_SOCKET", socket)), "");

        assertEquals(0, run.exit(), run.stderr());
        assertEquals("\nPackage: env\n", run.out());
    }

    @Test
    void shouldPreferTheSocketOptionOverTheEnvironment() throws Exception {
        Map<String, String> env = Map.of("GFXSTATS_SOCKET", tmp.resolve("elsewhere.sock").toString());

        CliRun run = CliRun.command(new DumpCommand(env), "", "--socket", socket);

        assertEquals(0, run.exit(), run.stderr());
    }

    @Test
    void shouldSayInOneLineThatTheDaemonIsNotRunning() {
        Path absent = tmp.resolve("absent.sock");

        CliRun run = CliRun.main("dump", "--socket", absent.toString());

        assertEquals(2, run.exit());
        assertEquals("gfxstats dump: gfxstats daemon not running (no socket at " + absent + ")", run.onlyErrorLine());
        assertEquals(0, run.stdout().length);
    }

    @Test
    void shouldDefaultToTheStateDirectorySocketAndNameIt() throws Exception {
        Path state = tmp.resolve("state");
        CliRun run = CliRun.command(new DumpCommand(Map.of("XDG_STATE_HOME", state.toString())), "");

        assertEquals(2, run.exit());
        assertEquals("gfxstats dump: gfxstats daemon not running (no socket at "
                + state.resolve("gfxstats/gfxstatsd.sock") + ")", run.onlyErrorLine());
    }

    @Test
    void shouldPassTheDaemonsRefusalOnInOneLine() {
        backend.refusal = StatsException.invalidArgument("package name too long");

        CliRun run = CliRun.main("dump", "--socket", socket, "--package", "x");

        assertEquals(2, run.exit());
        assertEquals("gfxstats dump: gfxstats daemon at unix:" + socket + ": package name too long (INVALID_ARGUMENT)",
                run.onlyErrorLine());
    }

    @Test
    void shouldRefuseAnUnknownFormatBeforeCallingTheDaemon() {
        CliRun run = CliRun.main("dump", "--socket", socket, "--format", "android99");

        assertEquals(2, run.exit());
        assertEquals("gfxstats dump: unknown dump format 'android99': expected one of android14|android11|android9|android8",
                run.onlyErrorLine());
        assertTrue(backend.dumps.isEmpty());
    }

    @Test
    void shouldRefuseFormatWithProto() {
        CliRun run = CliRun.main("dump", "--socket", socket, "--proto", "--format", "android11");

        assertEquals(2, run.exit());
        assertEquals("gfxstats dump: options --proto and --format cannot be combined", run.onlyErrorLine());
    }

    @Test
    void shouldRefuseUnknownOptionsAndStrayArguments() {
        assertEquals("gfxstats dump: unknown option '--protobuf' (try: gfxstats dump --help)",
                CliRun.main("dump", "--protobuf").onlyErrorLine());
        assertEquals("gfxstats dump: unexpected argument 'com.example.a' (try: gfxstats dump --help)",
                CliRun.main("dump", "com.example.a").onlyErrorLine());
        assertEquals(2, CliRun.main("dump", "--deadline", "-1").exit());
    }

    @Test
    void shouldPrintItsHelpOnStdout() {
        CliRun run = CliRun.main("dump", "--help");

        assertEquals(0, run.exit());
        assertTrue(run.out().startsWith("usage: gfxstats dump [--socket PATH] [--from FILE] [--proto]"), run.out());
        assertTrue(run.out().contains("--format FORMAT"), run.out());
        assertEquals("", run.stderr());
    }

    @Test
    void shouldOfferExactlyTheFormatsTheWritersKnow() {
        assertEquals(DumpFormat.names(), DumpCommand.FORMAT_NAMES);
    }

    @Test
    void shouldListTheCommandsInTheMainHelp() {
        String help = CliRun.main("--help").out();

        assertTrue(help.contains("  dump [--socket PATH]"), help);
        assertTrue(help.contains("  pull [--socket PATH]"), help);
        assertTrue(help.contains("  collect --targets"), help);
        assertTrue(help.startsWith("usage: gfxstats <command> [options]     (gfxstats --version: the version)\n"), help);
    }

    @Test
    void shouldPrintTheSameBytesThroughGrpcJavaWhenAsked() throws Exception {
        backend.text = render(DumpFormat.ANDROID14, ENTRIES);

        CliRun small = CliRun.command(new DumpCommand(Map.of()), "", "--socket", socket);
        CliRun grpc = CliRun.command(new DumpCommand(Map.of("GFXSTATS_DUMP_CLIENT", "grpc")), "", "--socket", socket);

        assertEquals(0, grpc.exit(), grpc.stderr());
        assertArrayEquals(backend.text, grpc.stdout());
        assertArrayEquals(small.stdout(), grpc.stdout());
        assertEquals("", grpc.stderr());
    }

    @Test
    void shouldSayWhichDumpClientsThereAre() throws Exception {
        CliRun run = CliRun.command(new DumpCommand(Map.of("GFXSTATS_DUMP_CLIENT", "netty")), "", "--socket", socket);

        assertEquals(2, run.exit());
        assertEquals("gfxstats dump: GFXSTATS_DUMP_CLIENT must be h2 (the default) or grpc, got 'netty'\n", run.stderr());
    }

    @Test
    void shouldReportAStoppedDaemonTheSameWayThroughEitherClient() throws Exception {
        server.stop();
        CliRun small = CliRun.command(new DumpCommand(Map.of()), "", "--socket", socket);
        CliRun grpc = CliRun.command(new DumpCommand(Map.of("GFXSTATS_DUMP_CLIENT", "grpc")), "", "--socket", socket);
        assertEquals(small.exit(), grpc.exit());
        assertEquals(small.stderr(), grpc.stderr());
    }
}
