package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.collect.CollectOutput;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.ServerConfig;
import io.gfxstats.daemon.rpc.TcpConfig;
import io.gfxstats.rpc.v1.PullResponse;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gfxstats collect} against several real servers on loopback ports and Unix sockets. */
class CollectCommandTest {
    /** 2023-11-14T00:00:00Z */
    private static final long DAY = 1_699_920_000_000L;
    private static final String TOKEN = "fleet-token-0123456789abcdef";

    @TempDir
    static Path certs;

    @TempDir
    Path tmp;

    private static Path cert;
    private static Path key;
    private static Path tokenFile;
    private final List<GfxStatsServer> servers = new ArrayList<>();

    @BeforeAll
    static void makeCertificate() throws Exception {
        cert = certs.resolve("cert.pem");
        key = certs.resolve("key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString())
                .redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(openssl.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, openssl.exitValue(), "openssl failed: " + output);
        tokenFile = certs.resolve("token");
        Files.writeString(tokenFile, TOKEN + "\n");
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    }

    @AfterEach
    void stopServers() {
        servers.forEach(GfxStatsServer::stop);
    }

    private FixedBackend backendWith(GraphicsStatsProto... entries) {
        FixedBackend b = new FixedBackend();
        b.pullResponse = PullResponse.newBuilder().setDayStart(DAY)
                .setStats(GraphicsStatsServiceDumpProto.newBuilder().addAllStats(List.of(entries))).build();
        return b;
    }

    /** A server listening on a loopback TCP port (and a Unix socket); returns "127.0.0.1:port". */
    private String tcpServer(FixedBackend backend, TcpConfig tcp) throws Exception {
        GfxStatsServer s = new GfxStatsServer(
                ServerConfig.unixOnly(tmp.resolve("s" + servers.size() + ".sock")).withTcp(tcp), backend);
        s.start();
        servers.add(s);
        return "127.0.0.1:" + s.tcpPort();
    }

    private String unixServer(FixedBackend backend) throws Exception {
        GfxStatsServer s = new GfxStatsServer(ServerConfig.unixOnly(tmp.resolve("u" + servers.size() + ".sock")), backend);
        s.start();
        servers.add(s);
        return "unix:" + s.socketPath();
    }

    /** A loopback port nobody listens on. */
    private static String downTarget() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    private static GraphicsStatsProto entry(String pkg, int frames, int millis) {
        return SampleProtos.entry(pkg, 4, 10_050, DAY + 1000, DAY + 2000, frames, millis);
    }

    private static long bucket(GraphicsStatsProto p, int label) {
        for (GraphicsStatsHistogramBucketProto b : p.getHistogramList()) {
            if (b.getRenderMillis() == label) {
                return b.getFrameCount();
            }
        }
        throw new AssertionError("no bucket " + label);
    }

    private static List<String> statusLines(Path out) throws Exception {
        return Files.readAllLines(out.resolve(CollectOutput.STATUS_TSV));
    }

    @Test
    void shouldMergeSeveralDaemonsAndReportTheOneThatIsDown() throws Exception {
        FixedBackend a = backendWith(entry("com.example.game", 100, 12), entry("com.example.mail", 5, 8));
        FixedBackend b = backendWith(entry("com.example.game", 40, 30));
        FixedBackend c = backendWith(entry("com.example.game", 1, 12));
        String ta = tcpServer(a, TcpConfig.loopback(0));
        String tb = tcpServer(b, TcpConfig.loopback(0));
        String tc = unixServer(c);
        String down = downTarget();
        Path targets = tmp.resolve("fleet.txt");
        Files.writeString(targets, "# lab fleet\n" + ta + "\n" + down + "   # rack 2, unplugged\n\n" + tb + "\n" + tc + "\n");
        Path out = tmp.resolve("out");

        CliRun run = CliRun.main("collect", "--targets", targets.toString(), "--out", out.toString(),
                "--retries", "1", "--deadline", "10");

        assertEquals(0, run.exit(), run.stderr());
        assertEquals("gfxstats collect: " + down + ": failed after 2 attempts: gfxstats daemon at " + down
                + " not reachable (connection refused)", run.onlyErrorLine());
        assertEquals("collected 3 of 4 targets (1 failed): 4 entries merged into 2", run.out().lines().findFirst().get());

        GraphicsStatsServiceDumpProto merged = GraphicsStatsServiceDumpProto.parseFrom(
                Files.readAllBytes(out.resolve(CollectOutput.MERGED)));
        assertEquals(List.of("com.example.game", "com.example.mail"),
                merged.getStatsList().stream().map(GraphicsStatsProto::getPackageName).toList());
        GraphicsStatsProto game = merged.getStats(0);
        assertEquals(141, game.getSummary().getTotalFrames());
        assertEquals(101, bucket(game, 12));
        assertEquals(40, bucket(game, 30));
        assertEquals(5, merged.getStats(1).getSummary().getTotalFrames());

        List<String> status = statusLines(out);
        assertEquals("target\tstatus\tentries\tattempts\tms\terror", status.get(0));
        assertTrue(status.get(1).startsWith(ta + "\tok\t2\t1\t"), status.get(1));
        assertTrue(status.get(2).startsWith(down + "\tfailed\t0\t2\t"), status.get(2));
        assertTrue(status.get(2).endsWith("not reachable (connection refused)"), status.get(2));
        assertTrue(status.get(3).startsWith(tb + "\tok\t1\t1\t"), status.get(3));
        assertTrue(status.get(4).startsWith(tc + "\tok\t1\t1\t"), status.get(4));
        JsonObject json = JsonParser.parseString(Files.readString(out.resolve(CollectOutput.STATUS_JSON)))
                .getAsJsonObject();
        assertEquals(4, json.get("targetsTotal").getAsInt());
        assertEquals(3, json.get("targetsOk").getAsInt());
        assertTrue(json.get("mergedWritten").getAsBoolean());
        JsonObject failed = json.getAsJsonArray("targets").get(1).getAsJsonObject();
        assertEquals(down, failed.get("target").getAsString());
        assertEquals("failed", failed.get("status").getAsString());
        assertEquals(2, failed.get("attempts").getAsInt());
        assertTrue(failed.get("error").getAsString().endsWith("not reachable (connection refused)"), json.toString());
        assertTrue(json.getAsJsonArray("targets").get(0).getAsJsonObject().get("error").isJsonNull());
        assertFalse(a.pulls.take().getLastFullDay());
    }

    @Test
    void shouldPrintCollectsMergeAsAndroidsTextWithDumpFrom() throws Exception {
        FixedBackend a = backendWith(entry("com.example.game", 100, 12), entry("com.example.mail", 5, 8));
        FixedBackend b = backendWith(entry("com.example.game", 40, 30));
        Path out = tmp.resolve("out");
        CliRun collect = CliRun.main("collect", "--targets", tcpServer(a, TcpConfig.loopback(0)) + "," + unixServer(b),
                "--out", out.toString());
        assertEquals(0, collect.exit(), collect.stderr());
        Path merged = out.resolve(CollectOutput.MERGED);
        GraphicsStatsServiceDumpProto proto = GraphicsStatsServiceDumpProto.parseFrom(Files.readAllBytes(merged));

        CliRun text = CliRun.main("dump", "--from", merged.toString());
        assertEquals(0, text.exit(), text.stderr());
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        new io.gfxstats.dump.TextDumpWriter(io.gfxstats.dump.DumpFormat.ANDROID14).write(proto.getStatsList(), expected);
        assertEquals(expected.toString(StandardCharsets.UTF_8), text.out());
        assertTrue(text.out().contains("\nPackage: com.example.game\n") && text.out().contains("Total frames rendered: 140\n"),
                text.out());
        assertEquals("", text.stderr());

        CliRun mail = CliRun.main("dump", "--from", merged.toString(), "--package", "com.example.mail", "--proto");
        assertEquals(0, mail.exit(), mail.stderr());
        assertEquals(List.of(proto.getStats(1)), GraphicsStatsServiceDumpProto.parseFrom(mail.stdout()).getStatsList());

        CliRun none = CliRun.main("dump", "--from", merged.toString(), "--package", "com.example.none");
        assertEquals(0, none.exit());
        assertEquals(0, none.stdout().length);
        assertEquals("gfxstats dump: " + merged + " holds no entry of com.example.none", none.onlyErrorLine());
        assertEquals("gfxstats dump: no such file: " + tmp.resolve("nope.pb"),
                CliRun.main("dump", "--from", tmp.resolve("nope.pb").toString()).onlyErrorLine());
    }

    @Test
    void shouldAskEveryDaemonForTheLastFullDayWhenTold() throws Exception {
        FixedBackend a = backendWith(entry("com.x", 1, 12));
        FixedBackend b = backendWith(entry("com.x", 2, 12));
        String list = tcpServer(a, TcpConfig.loopback(0)) + "," + unixServer(b);

        CliRun run = CliRun.main("collect", "--targets", list, "--out", tmp.resolve("o").toString(), "--last-full-day");

        assertEquals(0, run.exit(), run.stderr());
        assertTrue(a.pulls.take().getLastFullDay());
        assertTrue(b.pulls.take().getLastFullDay());
    }

    @Test
    void shouldExit3AndKeepThePreviousMergeWhenNoTargetAnswers() throws Exception {
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        Files.write(out.resolve(CollectOutput.MERGED), new byte[] {1, 2, 3});
        String downA = downTarget();

        CliRun run = CliRun.main("collect", "--targets", downA + ",unix:" + tmp.resolve("none.sock"), "--out",
                out.toString(), "--retries", "0");

        assertEquals(3, run.exit());
        assertEquals(2, run.stderr().lines().count(), run.stderr());
        assertTrue(run.stderr().contains("gfxstats collect: unix:" + tmp.resolve("none.sock")
                + ": failed after 1 attempt: gfxstats daemon not running (no socket at " + tmp.resolve("none.sock") + ")"),
                run.stderr());
        assertEquals(3, Files.size(out.resolve(CollectOutput.MERGED)));
        assertEquals(3, statusLines(out).size());
        assertTrue(run.out().startsWith("collected 0 of 2 targets (2 failed)"), run.out());
    }

    @Test
    void shouldSendTheTokenOverTlsAndReportATargetThatRefusesIt() throws Exception {
        FixedBackend secured = backendWith(entry("com.example.secure", 9, 12));
        String target = tcpServer(secured, TcpConfig.loopback(0).withTls(cert, key).withTokenFile(tokenFile));
        Path out = tmp.resolve("out");

        CliRun ok = CliRun.main("collect", "--targets", target, "--out", out.toString(), "--token-file",
                tokenFile.toString(), "--ca-cert", cert.toString());

        assertEquals(0, ok.exit(), ok.stderr());
        assertEquals(9, GraphicsStatsServiceDumpProto.parseFrom(Files.readAllBytes(out.resolve(CollectOutput.MERGED)))
                .getStats(0).getSummary().getTotalFrames());

        CliRun refused = CliRun.main("collect", "--targets", target, "--out", out.toString(), "--ca-cert",
                cert.toString());

        assertEquals(3, refused.exit());
        String line = refused.onlyErrorLine();
        assertTrue(line.startsWith("gfxstats collect: " + target + ": failed after 1 attempt: "), line);
        assertTrue(line.endsWith("(check the token file)"), line);
    }

    @Test
    void shouldReportAnEntryWithAForeignHistogramWithoutFailingTheRun() throws Exception {
        GraphicsStatsProto good = entry("com.example.good", 10, 12);
        GraphicsStatsProto foreign = entry("com.example.odd", 10, 12).toBuilder().removeHistogram(0).build();
        String target = unixServer(backendWith(good, foreign));
        Path out = tmp.resolve("out");

        CliRun run = CliRun.main("collect", "--targets", target, "--out", out.toString());

        assertEquals(0, run.exit(), run.stderr());
        assertEquals("gfxstats collect: " + target + ": entry com.example.odd version 4 uid 10050 left out:"
                + " histogram mismatch: CPU histogram has 153 buckets, expected 154", run.onlyErrorLine());
        assertEquals(1, GraphicsStatsServiceDumpProto.parseFrom(Files.readAllBytes(out.resolve(CollectOutput.MERGED)))
                .getStatsCount());
        JsonObject status = JsonParser.parseString(Files.readString(out.resolve(CollectOutput.STATUS_JSON)))
                .getAsJsonObject();
        assertTrue(status.getAsJsonArray("targets").get(0).getAsJsonObject().getAsJsonArray("rejected").get(0)
                .getAsString().startsWith("entry com.example.odd"), status.toString());
    }

    @Test
    void shouldReadTargetsFromStandardInput() throws Exception {
        String target = unixServer(backendWith(entry("com.example.stdin", 3, 12)));

        CliRun run = CliRun.command(new CollectCommand(), target + "\n", "--targets", "-", "--out",
                tmp.resolve("o").toString());

        assertEquals(0, run.exit(), run.stderr());
    }

    @Test
    void shouldRefuseBadCommandLinesInOneLineWithExit2() throws Exception {
        Path out = tmp.resolve("out");
        Path badToken = tmp.resolve("short-token");
        Files.writeString(badToken, "short\n");
        Path notCert = tmp.resolve("not-a-cert.pem");
        Files.writeString(notCert, "hello\n");
        Path badList = tmp.resolve("bad.txt");
        Files.writeString(badList, "127.0.0.1:1\nnot a target\n");

        assertUsage("option --targets is required (try: gfxstats collect --help)", "--out", out.toString());
        assertUsage("option --out is required (try: gfxstats collect --help)", "--targets", "a:1");
        assertUsage("cannot read targets file " + tmp.resolve("nope.txt") + ": no such file",
                "--targets", tmp.resolve("nope.txt").toString(), "--out", out.toString());
        assertUsage("targets file " + badList + " line 2: 'not a target' is not host:port or unix:/path/to.sock",
                "--targets", badList.toString(), "--out", out.toString());
        assertUsage("option --concurrency must be a whole number from 1 to 1024, got '0'",
                "--targets", "a:1", "--out", out.toString(), "--concurrency", "0");
        assertUsage("cannot read token file " + tmp.resolve("nope") + ": no such file or directory",
                "--targets", "a:1", "--out", out.toString(), "--token-file", tmp.resolve("nope").toString());
        assertUsage("token file " + badToken + " holds no usable token: token must hold a token of at least 16 characters",
                "--targets", "a:1", "--out", out.toString(), "--token-file", badToken.toString());
        CliRun certRun = CliRun.main("collect", "--targets", "a:1", "--out", out.toString(), "--ca-cert", notCert.toString());
        assertEquals(2, certRun.exit());
        assertTrue(certRun.onlyErrorLine().startsWith("gfxstats collect: CA certificate file " + notCert), certRun.stderr());
        Files.writeString(tmp.resolve("file"), "x");
        CliRun outRun = CliRun.main("collect", "--targets", "a:1", "--out", tmp.resolve("file").resolve("sub").toString());
        assertEquals(2, outRun.exit());
        assertTrue(outRun.onlyErrorLine().startsWith("gfxstats collect: cannot create output directory "), outRun.stderr());
        assertFalse(Files.exists(out), "nothing is written when the command line is refused");
    }

    private static void assertUsage(String message, String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "collect";
        System.arraycopy(args, 0, argv, 1, args.length);
        CliRun run = CliRun.main(argv);
        assertEquals(2, run.exit(), run.stderr());
        assertEquals("gfxstats collect: " + message, run.onlyErrorLine());
    }

    @Test
    void shouldDocumentTheExitCodesInItsHelp() {
        CliRun run = CliRun.main("collect", "--help");

        assertEquals(0, run.exit());
        assertTrue(run.out().contains("Exit status: 0 if at least one target was pulled, 3 if none was, 2 for usage errors."),
                run.out());
    }
}
