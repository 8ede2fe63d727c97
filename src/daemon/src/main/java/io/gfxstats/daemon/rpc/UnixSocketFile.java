package io.gfxstats.daemon.rpc;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's socket file: checks the directory it lives in, clears a socket left behind by a
 * dead daemon while refusing to displace a live one, restricts the bound socket to 0660 and
 * removes it again on stop - but only if it is still the one this daemon created.
 */
final class UnixSocketFile {
    private static final Logger LOG = LoggerFactory.getLogger(UnixSocketFile.class);
    static final Set<PosixFilePermission> SOCKET_MODE = PosixFilePermissions.fromString("rw-rw----");
    static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwxr-x---");

    private final Path path;
    private Object fileKey;

    private UnixSocketFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** Makes {@code socket} ready to bind, or explains why it cannot be. */
    static UnixSocketFile prepare(Path socket) throws ServerStartException {
        Path path = socket.toAbsolutePath().normalize();
        int bytes = path.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > ServerConfig.MAX_SOCKET_PATH_BYTES) {
            throw new ServerStartException("socket path " + path + " is " + bytes + " bytes long; Unix sockets allow at most "
                    + ServerConfig.MAX_SOCKET_PATH_BYTES + " (choose a shorter path)");
        }
        prepareDirectory(path.getParent());
        clearStale(path);
        return new UnixSocketFile(path);
    }

    private static void prepareDirectory(Path dir) throws ServerStartException {
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(dir);
                Files.setPosixFilePermissions(dir, DIRECTORY_MODE);
                LOG.info("created socket directory {}", dir);
            }
            PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attrs.isDirectory()) {
                throw new ServerStartException("socket directory " + dir + " is not a directory");
            }
            Integer ownerUid = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int me = currentUid();
            if (ownerUid != me) {
                throw new ServerStartException("socket directory " + dir + " is owned by uid " + ownerUid
                        + ", not by the daemon's uid " + me);
            }
            if (attrs.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new ServerStartException("socket directory " + dir
                        + " is writable by every user; use a directory only the daemon's user can write");
            }
        } catch (IOException e) {
            throw new ServerStartException("cannot prepare socket directory " + dir + ": " + e, e);
        }
    }

    private static void clearStale(Path path) throws ServerStartException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new ServerStartException("cannot inspect " + path + ": " + e, e);
        }
        // A socket is neither a regular file, a directory nor a link.
        if (!attrs.isOther()) {
            throw new ServerStartException(path + " exists and is not a socket; remove it or choose another socket path");
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            throw new ServerStartException("another gfxstats daemon is already listening on " + path);
        } catch (ConnectException e) {
            // Connection refused: the socket outlived its daemon.
        } catch (IOException e) {
            throw new ServerStartException("cannot check whether a daemon is listening on " + path + ": " + e, e);
        }
        try {
            Files.delete(path);
            LOG.info("removed stale socket {} left by a daemon that is no longer running", path);
        } catch (IOException e) {
            throw new ServerStartException("cannot remove stale socket " + path + ": " + e, e);
        }
    }

    /** After bind: restrict the socket to owner and group, remember which file is ours. */
    void bound() throws ServerStartException {
        try {
            Files.setPosixFilePermissions(path, SOCKET_MODE);
            fileKey = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            throw new ServerStartException("cannot set the mode of socket " + path + ": " + e, e);
        }
    }

    /** Deletes the socket if it is still the file this daemon bound (a successor may own the path now). */
    void remove() {
        if (fileKey == null) {
            return;
        }
        try {
            Object now = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            if (Objects.equals(now, fileKey)) {
                Files.delete(path);
            }
        } catch (NoSuchFileException e) {
            // Already gone.
        } catch (IOException e) {
            LOG.warn("could not remove socket {}: {}", path, e.toString());
        }
        fileKey = null;
    }

    /** The effective uid of this process: /proc/self belongs to it. */
    static int currentUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }
}
