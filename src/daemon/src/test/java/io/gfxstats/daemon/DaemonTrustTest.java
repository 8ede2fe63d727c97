package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.daemon.rpc.OwnerOnly;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Trust boundaries at start-up (issue 11, items 7, 8 and 10): directories another user can write,
 * a buffer directory shared by two daemons and token files others can read are refused with one
 * line that names the path and the fix.
 */
class DaemonTrustTest {
    /** An uid that owns nothing here ("nobody" on Debian). */
    private static final int OTHER_UID = 65534;

    private Path state;
    private DaemonProcess daemon;
    private DaemonProcess second;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxt");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        if (second != null) {
            second.close();
        }
        TestFiles.deleteTree(state);
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void shouldRefuseABufferDirectoryOthersCanWrite() throws Exception {
        Path buffers = Files.createDirectories(state.resolve("buffers"));
        Files.setPosixFilePermissions(buffers, PosixFilePermissions.fromString("rwxrwxrwx"));

        DaemonProcess.Refusal r = new DaemonProcess(state).startExpectingRefusal();

        assertEquals(2, r.exitCode(), r.output());
        assertEquals("gfxstatsd: buffer directory (buffer.dir) " + buffers + " is writable by group or others "
                + "(mode 0777, rwxrwxrwx); another user could plant files there: chmod go-w " + buffers,
                lastLine(r.output()));
    }

    @Test
    void shouldRefuseADataDirectoryOwnedByAnotherUser() throws Exception {
        int me = OwnerOnly.currentUid();
        Assumptions.assumeTrue(me == 0, "giving a directory to another uid needs root; this test runs as uid " + me);
        Path data = Files.createDirectories(state.resolve("data"));
        Files.setAttribute(data, "unix:uid", OTHER_UID);

        DaemonProcess.Refusal r = new DaemonProcess(state).startExpectingRefusal();

        assertEquals(2, r.exitCode(), r.output());
        assertEquals("gfxstatsd: data directory (data.dir) " + data + " is owned by uid " + OTHER_UID
                + ", not by the daemon's uid 0; another user could plant files there: use a directory of the "
                + "daemon's user (or chown 0 " + data + ")", lastLine(r.output()));
    }

    @Test
    void shouldRefuseASecondDaemonOnTheSameBufferDirectory() throws Exception {
        daemon = new DaemonProcess(state.resolve("one")).start();
        Path shared = daemon.bufferDir();

        second = new DaemonProcess(state.resolve("two"), "--buffer-dir", shared.toString());
        DaemonProcess.Refusal r = second.startExpectingRefusal();

        assertEquals(2, r.exitCode(), r.output());
        assertEquals("gfxstatsd: buffer directory " + shared + " is in use by another gfxstatsd (pid " + daemon.pid()
                + "); stop it or choose another buffer directory", lastLine(r.output()));
        assertTrue(daemon.health().getLiveBuffers() >= 0, "the first daemon still answers");
    }

    @Test
    void shouldRefuseATokenFileOthersCanRead() throws Exception {
        Path token = Files.writeString(state.resolve("token"), "0123456789abcdef0123\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));

        DaemonProcess.Refusal r = new DaemonProcess(state.resolve("s"), "--set", "tcp.enabled=true", "--set",
                "tcp.port=0", "--set", "tcp.token.file=" + token).startExpectingRefusal();

        assertEquals(2, r.exitCode(), r.output());
        assertEquals("gfxstatsd: token file (tcp.token.file) " + token + " is accessible to other users (mode 0644, "
                + "rw-r--r--); restrict it: chmod 600 " + token, lastLine(r.output()));
    }

    @Test
    void shouldRefuseATokenFileOwnedByAnotherUser() throws Exception {
        int me = OwnerOnly.currentUid();
        Assumptions.assumeTrue(me == 0, "giving a file to another uid needs root; this test runs as uid " + me);
        Path token = Files.writeString(state.resolve("token"), "0123456789abcdef0123\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        Files.setAttribute(token, "unix:uid", OTHER_UID);

        DaemonProcess.Refusal r = new DaemonProcess(state.resolve("s"), "--set", "tcp.enabled=true", "--set",
                "tcp.port=0", "--set", "tcp.token.file=" + token).startExpectingRefusal();

        assertEquals(2, r.exitCode(), r.output());
        assertEquals("gfxstatsd: token file (tcp.token.file) " + token + " is owned by uid " + OTHER_UID
                + ", not by the daemon's uid 0; a secret must be the daemon's own: chown 0 " + token,
                lastLine(r.output()));
    }
}
