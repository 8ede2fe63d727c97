package io.gfxstats.repo;

import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.demo.RenderLoop;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.testing.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client library as an application receives it: the client module's
 * src/client/target/gfxstats-client.jar and the jars its build copies beside it into
 * src/client/target/lib (gfxstats-model and the third-party ones). It holds no daemon, no
 * command line and no logging backend, it is complete (every gfxstats class it refers to is
 * inside), and the README's example runs on exactly that classpath against a real daemon.
 * Runs after {@code package} (failsafe), when the jars exist.
 */
class ClientArtifactIT {
    private static final Path JAR = Path.of("src", "client", "target", "gfxstats-client.jar");
    private static final Path LIB = Path.of("src", "client", "target", "lib");
    /** What an application must not receive: the daemon side, the CLI, and any logging backend. */
    private static final List<String> FORBIDDEN_CLASSES = List.of("io/gfxstats/daemon/", "io/gfxstats/cli/",
            "io/gfxstats/store/", "io/gfxstats/collect/", "io/gfxstats/replay/", "io/gfxstats/demo/",
            "io/gfxstats/framestats/", "io/gfxstats/dumpclient/", "io/gfxstats/trace/", "io/gfxstats/report/");
    private static final List<String> FORBIDDEN_JARS = List.of("slf4j-simple", "slf4j-reload4j", "slf4j-jdk14",
            "logback-classic", "log4j-core", "log4j-slf4j", "gfxstats-daemon", "gfxstats-cli", "gfxstats.jar",
            "sqlite-jdbc", "prometheus");

    @Test
    void shouldHoldOnlyTheClientAndEverythingItRefersTo() throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        List<Path> ours = new ArrayList<>(List.of(JAR));
        for (String entry : resolvedClasspath()) {
            if (Path.of(entry).getFileName().toString().startsWith("gfxstats-")) {
                ours.add(Path.of(entry));
            }
        }
        for (Path ourJar : ours) {
        try (JarFile jar = new JarFile(ourJar.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().endsWith(".class")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        classes.put(entry.getName().substring(0, entry.getName().length() - ".class".length()),
                                in.readAllBytes());
                    }
                }
            }
        }
        }
        assertTrue(classes.containsKey("io/gfxstats/client/StatsSession"));
        assertTrue(classes.containsKey("io/gfxstats/rpc/ClientRegistration"), "the registration call");
        List<String> forbidden = classes.keySet().stream()
                .filter(c -> FORBIDDEN_CLASSES.stream().anyMatch(c::startsWith)).sorted().toList();
        assertEquals(List.of(), forbidden, "daemon or command-line classes in the client library");

        Pattern reference = Pattern.compile("io/gfxstats/[A-Za-z0-9_/$-]+"); // "-": package-info
        Set<String> missing = new TreeSet<>();
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            Matcher m = reference.matcher(new String(c.getValue(), StandardCharsets.ISO_8859_1));
            while (m.find()) {
                if (!classes.containsKey(m.group()) && !isPackageOrResource(m.group(), classes)) {
                    missing.add(c.getKey() + " -> " + m.group());
                }
            }
        }
        assertEquals(Set.of(), missing, "classes the client library refers to but does not hold "
                + "(move them into the client or model module)");
    }

    @Test
    void shouldGiveALibraryUserNoDaemonCliOrLoggingBackend() throws Exception {
        List<String> classpath = resolvedClasspath();
        List<String> offenders = classpath.stream()
                .filter(p -> FORBIDDEN_JARS.stream().anyMatch(f -> Path.of(p).getFileName().toString().startsWith(f)))
                .toList();
        assertEquals(List.of(), offenders);
        assertTrue(classpath.stream().anyMatch(p -> p.contains("slf4j-api")), String.join("\n", classpath));
    }

    @Test
    void shouldRunTheReadmeExampleOnTheLibrarysOwnClasspath(@TempDir Path dir) throws Exception {
        Path app = dir.resolve("app");
        Path cls = app.resolve("io/gfxstats/demo/RenderLoop.class");
        Files.createDirectories(cls.getParent());
        try (InputStream in = RenderLoop.class.getResourceAsStream("RenderLoop.class")) {
            Files.write(cls, in.readAllBytes());
        }
        List<String> classpath = new ArrayList<>(List.of(app.toString(), JAR.toAbsolutePath().toString()));
        classpath.addAll(resolvedClasspath());

        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxlib");
        try (DaemonProcess daemon = new DaemonProcess(state).start()) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            // No JVM option: an application that only puts the jars on its class path.
            cmd.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), RenderLoop.class.getName()));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(daemon.clientLog().toFile());
            pb.environment().put("GFXSTATS_SOCKET", daemon.socket().toString());
            Process p = pb.start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), Files.readString(daemon.clientLog()));
            Await.until(() -> daemon.health().getLiveBuffers() == 0 && daemon.entry("com.example.app", 42).isPresent(),
                    Duration.ofSeconds(60), daemon::logText);
            GraphicsStatsProto entry = daemon.entry("com.example.app", 42).orElse(null);
            assertNotNull(entry, daemon.logText());
            assertEquals(601, entry.getSummary().getTotalFrames());
        } finally {
            try (var s = Files.walk(state)) {
                for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static boolean isPackageOrResource(String name, Map<String, byte[]> classes) {
        String prefix = name.endsWith("/") ? name : name + "/";
        return classes.keySet().stream().anyMatch(c -> c.startsWith(prefix));
    }

    /** The jars the client module's build copied beside its jar: what an application puts on its classpath. */
    private static List<String> resolvedClasspath() throws IOException {
        assertTrue(Files.isDirectory(LIB), LIB + " (the client module's package phase makes it)");
        try (var files = Files.list(LIB)) {
            return files.filter(f -> f.toString().endsWith(".jar")).map(Path::toString).sorted().toList();
        }
    }
}
