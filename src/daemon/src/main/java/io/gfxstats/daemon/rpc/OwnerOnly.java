package io.gfxstats.daemon.rpc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The trust checks on what the daemon reads its data from: a directory whose files it adopts
 * (buffers, day files) or a secret (the token) must belong to the daemon's own uid and must not
 * be writable - for a secret, not readable either - by anyone else. Otherwise another user could
 * plant forged buffers, replace day files or learn the token. Failures are one line naming the
 * path and the fix.
 */
public final class OwnerOnly {
    private OwnerOnly() {
    }

    /** The uid this process runs as. */
    public static int currentUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /**
     * Checks a configured directory (followed if it is a link: the operator chose it).
     *
     * @param what how the error names it, e.g. "buffer directory (buffer.dir)"
     */
    public static void checkDirectory(Path dir, String what) throws ServerStartException {
        try {
            PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class);
            if (!attrs.isDirectory()) {
                throw new ServerStartException(what + " " + dir + " is not a directory");
            }
            int owner = (Integer) Files.getAttribute(dir, "unix:uid");
            int me = currentUid();
            if (owner != me) {
                throw new ServerStartException(what + " " + dir + " is owned by uid " + owner
                        + ", not by the daemon's uid " + me + "; another user could plant files there: use a "
                        + "directory of the daemon's user (or chown " + me + " " + dir + ")");
            }
            Set<PosixFilePermission> p = attrs.permissions();
            if (p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new ServerStartException(what + " " + dir + " is writable by group or others (mode "
                        + mode(p) + "); another user could plant files there: chmod go-w " + dir);
            }
        } catch (IOException e) {
            throw new ServerStartException("cannot check " + what + " " + dir + ": " + Problems.describe(e), e);
        }
    }

    /**
     * Checks a secret file: owned by the daemon's uid, a regular file, neither readable nor
     * writable by others, not writable by the group.
     */
    public static void checkSecretFile(Path file, String what) throws ServerStartException {
        try {
            PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attrs.isSymbolicLink()) {
                throw new ServerStartException(what + " " + file + " is a symbolic link; name the file itself");
            }
            if (!attrs.isRegularFile()) {
                throw new ServerStartException(what + " " + file + " is not a regular file");
            }
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int me = currentUid();
            if (owner != me) {
                throw new ServerStartException(what + " " + file + " is owned by uid " + owner
                        + ", not by the daemon's uid " + me + "; a secret must be the daemon's own: chown " + me
                        + " " + file);
            }
            Set<PosixFilePermission> p = attrs.permissions();
            if (p.contains(PosixFilePermission.OTHERS_READ) || p.contains(PosixFilePermission.OTHERS_WRITE)
                    || p.contains(PosixFilePermission.GROUP_WRITE)) {
                throw new ServerStartException(what + " " + file + " is accessible to other users (mode " + mode(p)
                        + "); restrict it: chmod 600 " + file);
            }
        } catch (NoSuchFileException e) {
            throw new ServerStartException(what + " " + file + " does not exist");
        } catch (IOException e) {
            throw new ServerStartException("cannot check " + what + " " + file + ": " + Problems.describe(e), e);
        }
    }

    private static String mode(Set<PosixFilePermission> p) {
        int m = 0;
        for (PosixFilePermission x : p) {
            m |= 1 << (8 - x.ordinal());
        }
        return String.format("%04o, %s", m, PosixFilePermissions.toString(p));
    }
}
