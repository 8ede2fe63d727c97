package io.gfxstats.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Class-data sharing for the JVMs a test JVM starts ({@link JavaProcess}): daemons (171 in a CI
 * run), commands and clients, each of which spent most of its start-up loading the same few
 * thousand classes. With an archive a daemon uses about 0.3 s of CPU less over a test's life
 * (docs/benchmarks.md, "The test suite's time").
 *
 * <p>Per main class: the first child lists the classes it loads ({@code -XX:DumpLoadedClassList});
 * at the {@value #TRAIN_AT}th start a short JVM loads the classes of that list and writes an archive
 * as it exits ({@code -XX:ArchiveClassesAtExit}), and that child and every later one map it
 * ({@code -XX:SharedArchiveFile}). The JVM archives classes from jar files only and will not dump
 * with a non-empty directory on the class path, so the children run from jar copies of its
 * directories (target/classes, target/test-classes), made once per test JVM. Everything lives in
 * target/child-cds/PID under the working directory and goes when the test JVM exits (or, after a
 * SIGKILL, when the next test JVM starts).
 *
 * <p>CDS logging is off in the children: a child whose archive cannot be used runs without it,
 * silently, and its output is its program's alone. {@code -Dgfx.test.cds=false} turns all of this
 * off (for measuring it, or to rule it out).
 */
final class ChildClassSharing {
    /** A main class started this many times gets an archive: below that the training costs more than it saves. */
    static final int TRAIN_AT = 3;
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    private static final long TRAINING_SECONDS = 60;

    private final Path dir;
    private final String classPath;
    private final Map<String, Integer> starts = new HashMap<>();
    /** Main classes whose training failed: they run without an archive from then on. */
    private final Set<String> failed = new HashSet<>();

    private ChildClassSharing(Path dir, String classPath) {
        this.dir = dir;
        this.classPath = classPath;
    }

    /** This test JVM's sharing, or null when it is off. */
    static ChildClassSharing get() {
        return Holder.INSTANCE;
    }

    private static final class Holder {
        static final ChildClassSharing INSTANCE = create();
    }

    private static ChildClassSharing create() {
        if (!Boolean.parseBoolean(System.getProperty("gfx.test.cds", "true"))) {
            return null;
        }
        Path dir = Path.of(System.getProperty("user.dir"), "target", "child-cds",
                Long.toString(ProcessHandle.current().pid()));
        try {
            deleteLeftByDeadJvms(dir.getParent());
            deleteTree(dir);
            Files.createDirectories(dir);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    deleteTree(dir);
                } catch (IOException e) {
                    System.err.println("gfxstats tests: could not delete " + dir + ": " + e.getMessage());
                }
            }, "child-cds-cleanup"));
            return new ChildClassSharing(dir, jarClassPath(dir));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the children's class path under " + dir, e);
        }
    }

    /** The class path children run from: this JVM's, each non-empty directory replaced by a jar copy. */
    String classPath() {
        return classPath;
    }

    /** The JVM options that share classes with the other children of {@code mainClass}. */
    synchronized List<String> options(String mainClass) {
        int n = starts.merge(mainClass, 1, Integer::sum);
        Path list = dir.resolve(mainClass + ".classlist");
        Path archive = dir.resolve(mainClass + ".jsa");
        List<String> options = new ArrayList<>(QUIET);
        if (n == 1) {
            options.add("-XX:DumpLoadedClassList=" + list);
        } else if (n >= TRAIN_AT && !failed.contains(mainClass)
                && (Files.exists(archive) || train(mainClass, list, archive))) {
            options.add("-XX:SharedArchiveFile=" + archive);
        }
        return options;
    }

    /** Makes {@code archive} from the classes in {@code list}; false (and said once) when it could not. */
    private boolean train(String mainClass, Path list, Path archive) {
        Path tmp = dir.resolve(mainClass + ".jsa.tmp");
        Path log = dir.resolve(mainClass + ".training.log");
        String why;
        try {
            List<String> options = new ArrayList<>(JavaProcess.SHORT_LIVED);
            options.add("-XX:ArchiveClassesAtExit=" + tmp);
            List<String> cmd = JavaProcess.command(options, classPath, ClassListLoader.class, list.toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(TRAINING_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                why = "it took over " + TRAINING_SECONDS + " s";
            } else if (p.exitValue() != 0 || !Files.isRegularFile(tmp)) {
                why = "exit " + p.exitValue() + ", see " + log;
            } else {
                Files.move(tmp, archive, StandardCopyOption.ATOMIC_MOVE);
                return true;
            }
        } catch (IOException e) {
            why = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        }
        failed.add(mainClass);
        System.err.println("gfxstats tests: no class-data archive for " + mainClass + " (" + why
                + "); its processes start without one");
        return false;
    }

    private static String jarClassPath(Path dir) throws IOException {
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p) && !isEmpty(p)) {
                Path jar = dir.resolve((n++) + "-" + p.getParent().getParent().getFileName() + "-"
                        + p.getFileName() + ".jar");
                writeJar(p, jar);
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static boolean isEmpty(Path directory) throws IOException {
        try (Stream<Path> s = Files.list(directory)) {
            return s.findAny().isEmpty();
        }
    }

    private static void writeJar(Path from, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream j = new JarOutputStream(out);
             Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                if (f.equals(from)) {
                    continue;
                }
                String name = from.relativize(f).toString().replace(File.separatorChar, '/');
                if (Files.isDirectory(f)) {
                    j.putNextEntry(new JarEntry(name + "/"));
                } else {
                    j.putNextEntry(new JarEntry(name));
                    Files.copy(f, j);
                }
                j.closeEntry();
            }
        }
    }

    /** The directories of test JVMs that ended without their shutdown hook (SIGKILL, a surefire timeout). */
    private static void deleteLeftByDeadJvms(Path parent) throws IOException {
        if (!Files.isDirectory(parent)) {
            return;
        }
        try (Stream<Path> dirs = Files.list(parent)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (name.matches("[0-9]{1,18}") && ProcessHandle.of(Long.parseLong(name)).isEmpty()) {
                    deleteTree(d);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
