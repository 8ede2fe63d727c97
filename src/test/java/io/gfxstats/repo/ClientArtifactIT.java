package io.gfxstats.repo;

import io.gfxstats.buffer.JvmFlags;
import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.demo.RenderLoop;
import io.gfxstats.proto.GraphicsStatsProto;
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
 * The client library as an application receives it: target/gfxstats-client.jar with the
 * dependencies its own pom (src/client/pom.xml) brings, resolved by Maven. It holds no daemon,
 * no command line and no logging backend, it is complete (every gfxstats class it refers to is
 * inside), and the README's example runs on exactly that classpath against a real daemon.
 * Runs after {@code package} (failsafe), when the jar exists.
 */
class ClientArtifactIT {
    private static final Path JAR = Path.of("target", "gfxstats-client.jar");
    private static final Path POM = Path.of("src", "client", "pom.xml");
    /** What an application must not receive: the daemon side, the CLI, and any logging backend. */
    private static final List<String> FORBIDDEN_CLASSES = List.of("io/gfxstats/daemon/", "io/gfxstats/cli/",
            "io/gfxstats/store/", "io/gfxstats/collect/", "io/gfxstats/replay/", "io/gfxstats/demo/",
            "io/gfxstats/framestats/", "io/gfxstats/rpc/GfxStatsServer", "io/gfxstats/rpc/GfxStatsService",
            "io/gfxstats/dumpclient/h2/");
    private static final List<String> FORBIDDEN_JARS = List.of("slf4j-simple", "slf4j-reload4j", "slf4j-jdk14",
            "logback-classic", "log4j-core", "log4j-slf4j", "gfxstats-0", "gfxstats.jar");

    @Test
    void shouldHoldOnlyTheClientAndEverythingItRefersTo() throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().endsWith(".class")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        classes.put(entry.getName().substring(0, entry.getName().length() - ".class".length()),
                                in.readAllBytes());
                    }
                }
            }
            assertNotNull(jar.getEntry("io/gfxstats/buffer/" + JvmFlags.RESOURCE), "the JVM options travel with it");
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
                + "(add their package to the client-library includes in pom.xml)");
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
            cmd.addAll(JvmFlags.all());
            cmd.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), RenderLoop.class.getName()));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(daemon.clientLog().toFile());
            pb.environment().put("GFXSTATS_SOCKET", daemon.socket().toString());
            Process p = pb.start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), Files.readString(daemon.clientLog()));
            GraphicsStatsProto entry = null;
            for (int i = 0; i < 200 && (entry == null || daemon.health().getLiveBuffers() > 0); i++) {
                entry = daemon.entry("com.example.app", 42).orElse(null);
                Thread.sleep(50);
            }
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

    @Test
    void shouldPinTheSameVersionsAsTheBuild() throws IOException {
        String root = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        String client = Files.readString(POM, StandardCharsets.UTF_8);
        for (String property : List.of("grpc.version", "protobuf.version", "chronicle.version", "slf4j.version")) {
            assertEquals(property(root, property), property(client, property), property);
        }
        assertEquals(property(root, "version"), property(client, "version"), "project version");
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertTrue(m.find(), name);
        return m.group(1);
    }

    private static boolean isPackageOrResource(String name, Map<String, byte[]> classes) {
        String prefix = name.endsWith("/") ? name : name + "/";
        return classes.keySet().stream().anyMatch(c -> c.startsWith(prefix));
    }

    private static List<String> classpathCache;

    /** The client pom's runtime classpath, as Maven resolves it for an application. */
    private static synchronized List<String> resolvedClasspath() throws Exception {
        if (classpathCache != null) {
            return classpathCache;
        }
        Path out = Files.createTempFile("gfxstats-client-cp", ".txt");
        try {
            String mavenHome = System.getProperty("gfx.maven.home", "");
            String mvn = mavenHome.isEmpty() ? "mvn" : Path.of(mavenHome, "bin", "mvn").toString();
            List<String> cmd = new ArrayList<>(List.of(mvn, "-B", "-q", "-f", POM.toString(),
                    "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                    "-Dmdep.includeScope=runtime", "-Dmdep.outputFile=" + out));
            String repo = System.getProperty("gfx.maven.repo", "");
            if (!repo.isEmpty()) {
                cmd.add("-Dmaven.repo.local=" + repo);
            }
            // Offline first (the build has resolved all of it already, and CI may have no network);
            // once more online when the dependency plugin itself is not cached yet (a fresh machine).
            String log = "";
            for (boolean offline : new boolean[] {true, false}) {
                List<String> attempt = new ArrayList<>(cmd);
                if (offline) {
                    attempt.add("-o");
                }
                Process p = new ProcessBuilder(attempt).redirectErrorStream(true).start();
                log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(5, TimeUnit.MINUTES));
                if (p.exitValue() == 0) {
                    break;
                }
                assertTrue(offline, log);
            }
            String text = Files.readString(out, StandardCharsets.UTF_8).strip();
            classpathCache = List.of(text.split(File.pathSeparator));
            return classpathCache;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
