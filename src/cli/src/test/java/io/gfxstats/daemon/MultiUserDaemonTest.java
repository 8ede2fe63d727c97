package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.Days;
import io.gfxstats.testing.OtherUser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A root daemon serving several users (docs/operations.md, "Several users"): two uids recording
 * the same package stay two entries, in day files and dumps; each user's own dump shows only
 * their entry; root and a member of readers.group see both. Real processes, real setpriv.
 */
class MultiUserDaemonTest {
    static final int ALICE = 61_001;
    static final int BOB = 61_002;
    static final int READER = 61_003;
    static final int READERS_GID = 61_100;
    static final String PKG = "com.example.shared";

    private Path state;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxmulti");
    }

    @AfterEach
    void tearDown() throws Exception {
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldKeepEachUidsEntryApartAndShowEachUserOnlyTheirOwn() throws Exception {
        assumeTrue(OtherUser.unavailable().isEmpty(), () -> OtherUser.unavailable().orElse(""));
        // The users run in group 0, which may reach the root daemon's socket (rw-rw----) and map
        // their buffers (the buffer directory passes group 0 through).
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-x---"));
        Files.createDirectory(state.resolve("buffers"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx--x---")));
        try (DaemonProcess daemon = new DaemonProcess(state, "--set", "readers.group=" + READERS_GID).start();
             OtherUser other = OtherUser.prepare(state)) {
            record(other, daemon, ALICE, 300);
            record(other, daemon, BOB, 200);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((daemon.totalFrames(PKG) != 500 || daemon.health().getLiveBuffers() != 0)
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }

            Map<Integer, Long> byUid = new TreeMap<>();
            for (GraphicsStatsProto e : daemon.dumpProto().getStatsList()) {
                if (e.getPackageName().equals(PKG)) {
                    byUid.merge(e.getUid(), (long) e.getSummary().getTotalFrames(), Long::sum);
                }
            }
            assertEquals(Map.of(ALICE, 300L, BOB, 200L), byUid, "root sees two entries, one per uid, never merged");
            assertEquals(2, daemon.dumpProto().getStatsList().stream().filter(e -> e.getPackageName().equals(PKG))
                    .count());

            String day = Long.toString(Days.today(java.time.Clock.systemUTC()));
            for (int uid : List.of(ALICE, BOB)) {
                Path file = daemon.dataDir().resolve(day).resolve("@" + uid).resolve(PKG).resolve("5").resolve("total");
                assertTrue(Files.isRegularFile(file), "saved under the uid level: " + file + "\n" + daemon.logText());
            }
            assertFalse(Files.exists(daemon.dataDir().resolve(day).resolve(PKG)),
                    "nothing of the other users in the daemon's own layout");

            String alice = dumpAs(other, daemon, ALICE, List.of());
            assertTrue(alice.contains("\nUID: 61001\nPackage: " + PKG + "\n"), alice);
            assertFalse(alice.contains("UID: 61002"), "alice does not see bob's entry:\n" + alice);
            assertTrue(alice.contains("Total frames rendered: 300\n"), alice);

            String bob = dumpAs(other, daemon, BOB, List.of());
            assertTrue(bob.contains("\nUID: 61002\nPackage: " + PKG + "\n"), bob);
            assertFalse(bob.contains("UID: 61001"), "bob does not see alice's entry:\n" + bob);

            String reader = dumpAs(other, daemon, READER, List.of(READERS_GID));
            assertTrue(reader.contains("UID: 61001") && reader.contains("UID: 61002"),
                    "a member of readers.group sees both:\n" + reader);
            String outsider = dumpAs(other, daemon, READER, List.of());
            assertFalse(outsider.contains("UID: 6100"), "the same uid outside the group sees neither:\n" + outsider);

            String root = daemon.dumpText();
            assertTrue(root.contains("UID: 61001") && root.contains("UID: 61002"), root);

            String pull = pullAs(other, daemon, ALICE);
            assertTrue(pull.contains("\"uid\": 61001") && !pull.contains("61002"), pull);
        }
    }

    private static void record(OtherUser other, DaemonProcess daemon, int uid, int frames) throws Exception {
        List<String> cmd = other.commandAs(uid, 0, List.of(), List.of("-Xss1m", "-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData"), FrameClient.class, daemon.socket().toString(), PKG, "5", Integer.toString(frames),
                "100", "0");
        Process client = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(client.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, client.exitValue(), out + "\n" + Files.readString(daemon.clientLog()) + daemon.logText());
        assertTrue(out.startsWith("attached\n"), out);
    }

    private static String dumpAs(OtherUser other, DaemonProcess daemon, int uid, List<Integer> groups)
            throws Exception {
        return runAs(other, uid, groups, "dump", "--socket", daemon.socket().toString());
    }

    private static String pullAs(OtherUser other, DaemonProcess daemon, int uid) throws Exception {
        return runAs(other, uid, List.of(), "pull", "--json", "--socket", daemon.socket().toString());
    }

    private static String runAs(OtherUser other, int uid, List<Integer> groups, String... args) throws Exception {
        Process p = new ProcessBuilder(other.commandAs(uid, 0, groups, List.of("-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData"), Main.class, args)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", args) + " as uid " + uid + ": " + out);
        return out;
    }
}
