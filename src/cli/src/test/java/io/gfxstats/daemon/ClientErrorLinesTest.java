package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.OtherUser;
import io.gfxstats.testing.OtherUserDirectory;
import io.gfxstats.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The clients' error lines say what happened (issue 11, "Error messages"): permission denied on
 * the socket is not "no socket", and a daemon that refuses a session is not "no daemon".
 * (Daemon full: DaemonRegistrationLimitsTest; refused starts: DaemonTrustTest; stalled and refused
 * dumps: DaemonStalledReadersTest.)
 */
class ClientErrorLinesTest {
    @RegisterExtension
    final OtherUserDirectory dir = new OtherUserDirectory("gfxe");

    private String lastLineOfDumpAsOtherUser(Path socket) throws Exception {
        Process p = new ProcessBuilder(dir.user().command(JavaProcess.SHORT_LIVED, Main.class, "dump", "--socket",
                socket.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(p.exitValue() != 0, out);
        List<String> lines = out.strip().lines().toList();
        return lines.get(lines.size() - 1);
    }

    /** A daemon of the other user: it hands no buffer to this test's (root) processes, for good. */
    private DaemonProcess refusingDaemon() throws Exception {
        Path own = Files.createDirectories(dir.path().resolve("d"));
        OtherUser.chownTree(own);
        return dir.closeAfter(new DaemonProcess(own).asOtherUser(dir.user())).start();
    }

    /**
     * Runs {@code gfxstats COMMAND} (with the refusing daemon's socket and a 600 s attach timeout,
     * then {@code input}) as this test's user: it must exit 2 with the refusal's line, ending in
     * {@code stored}, as its last line of standard error.
     */
    private void assertRefused(String command, String input, String stored) throws Exception {
        DaemonProcess daemon = refusingDaemon();
        Path errFile = dir.path().resolve("command.err");
        Process p = JavaProcess.builder(Main.class, command, "--socket", daemon.socket().toString(), "--package",
                "com.example.refused", "--version-code", "1", "--attach-timeout", "600", input)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errFile.toFile()).start();
        // A command that waits out its attach timeout fails here.
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        String err = Files.readString(errFile);
        assertTrue(ended, "still waiting after 120 s, for the attach timeout, not ended at the refusal: " + err);
        List<String> lines = err.strip().lines().toList();
        assertEquals(2, p.exitValue(), err);
        assertEquals("gfxstats " + command + ": the session was refused: gfxstats daemon at unix:" + daemon.socket()
                + ": the daemon runs as uid " + OtherUser.UID + " and cannot hand a buffer to uid 0; run a daemon as"
                + " that user (PERMISSION_DENIED); " + stored, lines.get(lines.size() - 1));
    }

    @Test
    void shouldSayTheDaemonRefusedTheRecordedSessionNotThatNoDaemonAnswered() throws Exception {
        Path input = Files.writeString(dir.path().resolve("frames.txt"),
                "1000000000,1000000000,1010000000,1012000000,16666667\n");
        assertRefused("record", input.toString(), "1 frames were not stored");
    }

    @Test
    void shouldSayTheDaemonRefusedTheReplayedSessionWithoutWaitingOutTheTimeout() throws Exception {
        assertRefused("replay", TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt").toString(),
                "the 1075 frames were not stored");
    }

    @Test
    void shouldSayPermissionDeniedNotNoSocketWhenTheSocketsDirectoryIsClosed() throws Exception {
        Path own = dir.path().resolve("d");
        DaemonProcess daemon = dir.closeAfter(new DaemonProcess(own)).start(); // root's daemon: its state directory is 0700

        assertEquals("gfxstats dump: permission denied on the socket of the gfxstats daemon at unix:" + daemon.socket()
                + " (this user may not connect: join the daemon's group, or run a daemon of your own)",
                lastLineOfDumpAsOtherUser(daemon.socket()));
    }

    @Test
    void shouldSayPermissionDeniedWhenOnlyTheSocketIsClosed() throws Exception {
        Path own = dir.path().resolve("d");
        DaemonProcess daemon = dir.closeAfter(new DaemonProcess(own)).start();
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxr-xr-x")); // socket stays 0660

        assertEquals("gfxstats dump: permission denied on the socket of the gfxstats daemon at unix:" + daemon.socket()
                + " (this user may not connect: join the daemon's group, or run a daemon of your own)",
                lastLineOfDumpAsOtherUser(daemon.socket()));
    }
}
