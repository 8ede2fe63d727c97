package io.gfxstats.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs real gfxstats processes as another uid ({@code nobody}, 65534) with
 * {@code setpriv --reuid --regid --clear-groups}, for the tests of what other users can and
 * cannot do. Needs root; {@link #unavailable()} says why it cannot be done otherwise, for a
 * skip with a clear message. Class-path entries that uid cannot read (the Maven repository under
 * root's home) are copied to a directory it can.
 */
public final class OtherUser implements AutoCloseable {
    public static final int UID = 65534;

    private final Path directory;
    /** What {@link #close()} deletes: the copies, or the whole directory when this made it. */
    private final Path owned;
    private final String classPath;

    private OtherUser(Path directory, Path owned, String classPath) {
        this.directory = directory;
        this.owned = owned;
        this.classPath = classPath;
    }

    /** Why processes cannot be run as another user here, or empty when they can. */
    public static Optional<String> unavailable() {
        try {
            int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (me != 0) {
                return Optional.of("running a process as another user needs root; these tests run as uid " + me);
            }
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of("cannot tell the current uid: " + e.getMessage());
        }
        if (!Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            return Optional.of("setpriv (util-linux) is not installed");
        }
        return Optional.empty();
    }

    /** Prepares a class path uid {@value #UID} can read, under {@code workDir} (deleted by {@link #close()}). */
    public static OtherUser prepare(Path workDir) throws IOException {
        Path copies = Files.createDirectories(workDir.resolve("other-user-classpath"));
        return new OtherUser(workDir, copies, classPathIn(copies));
    }

    /**
     * A new directory that uid {@value #UID} may enter (rwxr-xr-x, under /tmp, which every user
     * may pass through: a build directory below root's home is not), with a class path it can read;
     * {@link #close()} deletes the whole directory.
     */
    public static OtherUser inNewDirectory(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), prefix);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path copies = Files.createDirectories(dir.resolve("other-user-classpath"));
        return new OtherUser(dir, dir, classPathIn(copies));
    }

    /** The directory this was prepared in. */
    public Path directory() {
        return directory;
    }

    private static String classPathIn(Path copies) throws IOException {
        Files.setPosixFilePermissions(copies, PosixFilePermissions.fromString("rwxr-xr-x"));
        String home = System.getProperty("user.home");
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (entry.startsWith(home + File.separator) && Files.isRegularFile(p)) {
                Path copy = copies.resolve((n++) + "-" + p.getFileName());
                Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
                entries.add(copy.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * {@link JavaProcess#commandWithoutSharing(List, Class, String...)} run as uid {@value #UID} (the
     * children's class-data archives and jar copies are root's).
     */
    public List<String> command(List<String> jvmOptions, Class<?> mainClass, String... args) {
        List<String> java = new ArrayList<>(JavaProcess.commandWithoutSharing(jvmOptions, mainClass, args));
        java.set(java.indexOf("-cp") + 1, classPath);
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + UID, "--regid=" + UID,
                "--clear-groups"));
        cmd.addAll(java);
        return cmd;
    }

    /**
     * {@link JavaProcess#command(List, Class, String...)} run as {@code uid} with primary group
     * {@code gid} and the supplementary groups {@code groups} (none when empty).
     */
    public List<String> commandAs(int uid, int gid, List<Integer> groups, List<String> jvmOptions, Class<?> mainClass,
                                  String... args) {
        List<String> cmd = new ArrayList<>(command(jvmOptions, mainClass, args));
        cmd.set(1, "--reuid=" + Integer.toUnsignedString(uid));
        cmd.set(2, "--regid=" + Integer.toUnsignedString(gid));
        if (!groups.isEmpty()) {
            cmd.set(3, "--groups=" + String.join(",", groups.stream().map(Integer::toUnsignedString).toList()));
        }
        return cmd;
    }

    /** Gives a tree to uid {@value #UID} (as chown -R would). */
    public static void chownTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                Files.setAttribute(p, "unix:uid", UID, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(p, "unix:gid", UID, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (!Files.exists(owned)) {
            return;
        }
        try (Stream<Path> s = Files.walk(owned)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
