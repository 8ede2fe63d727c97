package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.OtherUserDirectory;
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
 * the socket is not "no socket". (Daemon full: DaemonRegistrationLimitsTest; refused starts:
 * DaemonTrustTest; stalled and refused dumps: DaemonStalledReadersTest.)
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
