package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.OtherUser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** uids are unsigned 32-bit: a process of uid 2^31 + 7 registers, records and is reported as such. */
class LargeUidTest {
    static final long UID = (1L << 31) + 7;

    private Path state;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxuid");
    }

    @AfterEach
    void tearDown() throws Exception {
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldPrintAndCompareUidsAsUnsigned() {
        PeerIdentity peer = new PeerIdentity(42, (int) UID, (int) UID);
        assertEquals("pid 42 uid 2147483655 gid 2147483655", peer.toString());
        assertEquals("4294967294", new PeerIdentity(1, -2, 0).uidText());
    }

    @Test
    void shouldRecordAProcessWhoseUidIsAbove2To31() throws Exception {
        assumeTrue(OtherUser.unavailable().isEmpty(), () -> OtherUser.unavailable().orElse(""));
        // The client runs as uid 2^31 + 7 in group 0, which may reach the root daemon's socket (rw-rw----).
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-x---"));
        // The daemon makes its buffer directory rwx------; group 0 must pass through it to map its file.
        Files.createDirectory(state.resolve("buffers"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx--x---")));
        try (DaemonProcess daemon = new DaemonProcess(state).start(); OtherUser other = OtherUser.prepare(state)) {
            List<String> cmd = new ArrayList<>(other.command(List.of("-Xss1m", "-XX:TieredStopAtLevel=1",
                    "-XX:-UsePerfData"), FrameClient.class, daemon.socket().toString(), "com.example.biguid", "9",
                    "300", "100", "0"));
            assertEquals("/usr/bin/setpriv", cmd.get(0));
            assertTrue(cmd.get(1).startsWith("--reuid=") && cmd.get(2).startsWith("--regid="), cmd.toString());
            cmd.set(1, "--reuid=" + UID);
            cmd.set(2, "--regid=0");
            Process client = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
            String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, client.exitValue(), out + "\n" + Files.readString(daemon.clientLog()) + daemon.logText());
            assertTrue(out.startsWith("attached\n"), out);

            Await.until(() -> daemon.totalFrames("com.example.biguid") == 300 && daemon.health().getLiveBuffers() == 0,
                    Duration.ofSeconds(60), () -> "300 frames saved, no live buffer\n" + daemon.logText());
            GraphicsStatsProto entry = daemon.entry("com.example.biguid", 9).orElseThrow();
            assertEquals(300, entry.getSummary().getTotalFrames());
            assertEquals(UID, Integer.toUnsignedLong(entry.getUid()), "the uid in dump --proto");
            assertTrue(daemon.dumpText().contains("\nUID: 2147483655\nPackage: com.example.biguid\n"),
                    daemon.dumpText());
            assertTrue(daemon.logText().contains("uid 2147483655"), "the daemon logs the uid unsigned");

            ByteArrayOutputStream pull = new ByteArrayOutputStream();
            int code = Main.run(new String[] {"pull", "--json", "--socket", daemon.socket().toString()},
                    new PrintStream(pull, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
            assertEquals(0, code);
            assertTrue(pull.toString(StandardCharsets.UTF_8).contains("\"uid\": 2147483655"),
                    pull.toString(StandardCharsets.UTF_8));
        }
    }
}
