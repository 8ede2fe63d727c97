package io.gfxstats.daemon.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DaemonConfigTest {
    @TempDir
    Path tmp;

    private ConfigEnvironment env(Map<String, String> vars) {
        return new ConfigEnvironment(vars, Path.of("/home/ann"), Path.of("/work/cwd"));
    }

    private final ConfigEnvironment xdg = env(Map.of("XDG_STATE_HOME", "/home/ann/.state"));

    private Path file(String... lines) throws IOException {
        return Files.write(tmp.resolve("gfxstatsd.properties"), String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
    }

    private DaemonConfig load(ConfigEnvironment e, String... argv) {
        return DaemonConfig.load(DaemonArgs.parse(argv), e);
    }

    private ConfigException error(String... argv) {
        return assertThrows(ConfigException.class, () -> load(xdg, argv));
    }

    @Test
    void shouldUseTheDocumentedDefaults() {
        DaemonConfig c = DaemonConfig.defaults(xdg);
        assertEquals(Path.of("/home/ann/.state/gfxstats"), c.get(Setting.STATE_DIR));
        assertEquals(Path.of("/home/ann/.state/gfxstats/data"), c.get(Setting.DATA_DIR));
        assertEquals(Path.of("/home/ann/.state/gfxstats/buffers"), c.get(Setting.BUFFER_DIR));
        assertEquals(Path.of("/home/ann/.state/gfxstats/gfxstatsd.sock"), c.get(Setting.SOCKET_PATH));
        assertEquals(Duration.ofMinutes(10), c.get(Setting.FLUSH_INTERVAL));
        assertEquals(3, c.get(Setting.RETENTION_DAYS));
        assertEquals(1024, c.get(Setting.MAX_BUFFERS));
        assertEquals(Duration.ofMillis(250), c.get(Setting.LIVENESS_CHECK_INTERVAL));
        assertEquals(Duration.ofSeconds(10), c.get(Setting.HEARTBEAT_TIMEOUT));
        assertEquals(16_666_667L, c.get(Setting.DISPLAY_REFRESH_INTERVAL).toNanos());
        assertFalse(c.get(Setting.TCP_ENABLED));
        assertEquals("127.0.0.1", c.get(Setting.TCP_HOST));
        assertEquals(50151, c.get(Setting.TCP_PORT));
        assertEquals(Optional.empty(), c.find(Setting.TLS_CERT));
        assertEquals(Optional.empty(), c.find(Setting.TLS_KEY));
        assertEquals(Optional.empty(), c.find(Setting.TOKEN_FILE));
    }

    @Test
    void shouldPutStateUnderLocalStateWithoutUsableXdgStateHome() {
        Path expected = Path.of("/home/ann/.local/state/gfxstats");
        assertEquals(expected, DaemonConfig.defaults(env(Map.of())).get(Setting.STATE_DIR));
        assertEquals(expected, DaemonConfig.defaults(env(Map.of("XDG_STATE_HOME", ""))).get(Setting.STATE_DIR));
        assertEquals(expected, DaemonConfig.defaults(env(Map.of("XDG_STATE_HOME", "relative/dir"))).get(Setting.STATE_DIR),
                "the XDG spec says relative values are invalid");
    }

    @Test
    void shouldReadTheRealEnvironment() {
        ConfigEnvironment real = ConfigEnvironment.system();
        assertTrue(real.home().isAbsolute());
        assertEquals(Path.of("").toAbsolutePath(), real.workingDirectory());
        assertEquals("gfxstats", real.defaultStateDir().getFileName().toString());
    }

    @Test
    void shouldMatchBuilderDefaultsForTheSameStateDirectory() {
        DaemonConfig loaded = DaemonConfig.defaults(xdg);
        DaemonConfig built = DaemonConfig.builder().stateDir(Path.of("/home/ann/.state/gfxstats")).build();
        assertEquals(loaded, built);
        assertEquals(built, built.toBuilder().build());
    }

    @Test
    void shouldApplyFileOverDefaultsAndCommandLineOverFile() throws IOException {
        Path f = file("flush.interval = 1m", "retention.days=7", "data.dir=/srv/gfx/data", "socket.path=/run/g.sock");

        DaemonConfig c = load(xdg, "--config", f.toString(), "--data-dir", "/mnt/data", "--set", "retention.days=5",
                "--set=retention.days=6");

        assertEquals(Duration.ofMinutes(1), c.get(Setting.FLUSH_INTERVAL), "from the file");
        assertEquals(6, c.get(Setting.RETENTION_DAYS), "command line beats file; the last override wins");
        assertEquals(Path.of("/mnt/data"), c.get(Setting.DATA_DIR));
        assertEquals(Path.of("/run/g.sock"), c.get(Setting.SOCKET_PATH));
        assertEquals(Path.of("/home/ann/.state/gfxstats/buffers"), c.get(Setting.BUFFER_DIR), "untouched: default");
    }

    @Test
    void shouldDeriveThePathsFromAStateDirectoryGivenInTheFileOrOnTheCommandLine() throws IOException {
        Path f = file("state.dir=/var/lib/gfx", "socket.path=${state.dir}/s");
        DaemonConfig c = load(xdg, "--config", f.toString());
        assertEquals(Path.of("/var/lib/gfx/data"), c.get(Setting.DATA_DIR));
        assertEquals(Path.of("/var/lib/gfx/buffers"), c.get(Setting.BUFFER_DIR));
        assertEquals(Path.of("/var/lib/gfx/s"), c.get(Setting.SOCKET_PATH));

        DaemonConfig d = load(xdg, "--config", f.toString(), "--state-dir", "/opt/g");
        assertEquals(Path.of("/opt/g/data"), d.get(Setting.DATA_DIR));
        assertEquals(Path.of("/opt/g/s"), d.get(Setting.SOCKET_PATH));
    }

    @Test
    void shouldExpandHomeInFilesAndResolveRelativeCommandLinePathsAgainstTheWorkingDirectory() throws IOException {
        Path f = file("data.dir=~/gfx/data", "tcp.token.file=~/token");
        DaemonConfig c = load(xdg, "--config", f.toString(), "--buffer-dir", "bufs", "--socket", "../s.sock");
        assertEquals(Path.of("/home/ann/gfx/data"), c.get(Setting.DATA_DIR));
        assertEquals(Optional.of(Path.of("/home/ann/token")), c.find(Setting.TOKEN_FILE));
        assertEquals(Path.of("/work/cwd/bufs"), c.get(Setting.BUFFER_DIR));
        assertEquals(Path.of("/work/s.sock"), c.get(Setting.SOCKET_PATH));
    }

    @Test
    void shouldResolveARelativeConfigFileAgainstTheWorkingDirectory() throws IOException {
        file("retention.days=9");
        ConfigEnvironment here = new ConfigEnvironment(Map.of(), Path.of("/home/ann"), tmp);
        assertEquals(9, DaemonConfig.load(DaemonArgs.parse("--config", "gfxstatsd.properties"), here).get(Setting.RETENTION_DAYS));
    }

    @Test
    void shouldRejectAnUnknownKeyInTheFileNamingItAndTheFile() throws IOException {
        Path f = file("flush.intervall=1m");
        ConfigException e = error("--config", f.toString());
        assertEquals("flush.intervall", e.key());
        assertTrue(e.getMessage().startsWith("config file " + f + ": unknown setting 'flush.intervall' "
                + "(did you mean flush.interval?)"), e.getMessage());
    }

    @Test
    void shouldRejectAnUnknownKeyOnTheCommandLine() {
        ConfigException e = error("--set", "colour=blue");
        assertEquals("colour", e.key());
        assertTrue(e.getMessage().startsWith("--set: unknown setting 'colour'"), e.getMessage());
        assertFalse(e.getMessage().contains("did you mean"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "flush.interval|ten|'ten' is not a duration",
            "flush.interval|600|'600' has no unit",
            "flush.interval|50ms|50ms is out of range; allowed 100ms to 1d",
            "flush.interval|2d|2d is out of range",
            "flush.interval|99999999999999999d|too large",
            "retention.days|0|0 is out of range; allowed 1 to 3650",
            "retention.days|three|'three' is not a whole number",
            "buffers.max|70000|70000 is out of range; allowed 1 to 65536",
            "buffers.max|-1|out of range",
            "liveness.check.interval|0ms|out of range; allowed 10ms to 10s",
            "heartbeat.timeout|200ms|must be longer than liveness.check.interval (250ms)",
            "client.display.refresh.interval|2s|out of range; allowed 100us to 1s",
            "tcp.enabled|yes|'yes' is not a boolean; use true or false",
            "tcp.port|65536|out of range; allowed 0 to 65535",
            "tcp.port|http|not a whole number",
            "tcp.host|bad host|not a host name or IP address",
            "data.dir|relative/dir|'relative/dir' is a relative path",
            "data.dir|${home}/x|uses an unknown variable; only ${state.dir} exists",
            "data.dir||must not be empty",
            "state.dir|${state.dir}/x|cannot refer to variables",
            "buffer.dir|${state.dir}/data/buffers|must be separate directories",
            "tcp.tls.cert|/etc/cert.pem|tcp.tls.key: not set; TLS needs both",
    })
    void shouldRejectABadValueInTheFileNamingTheKey(String key, String value, String expected) throws IOException {
        Path f = file(key + "=" + (value == null ? "" : value));
        ConfigException e = error("--config", f.toString());
        if (e.key().equals(key)) {
            assertTrue(e.getMessage().startsWith("config file " + f + ": "), e.getMessage());
        }
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain '" + expected + "'");
        assertTrue(e.getMessage().contains(key) || e.getMessage().contains(e.key()), e.getMessage());
    }

    @Test
    void shouldNameTheOptionWhenACommandLineValueIsBad() {
        ConfigException e = error("--set", "retention.days=0");
        assertEquals("retention.days", e.key());
        assertEquals("--set: retention.days: 0 is out of range; allowed 1 to 3650", e.getMessage());
    }

    @Test
    void shouldRejectASocketPathLongerThanUnixSocketsAllow() {
        String deep = "/" + "d".repeat(100) + "/gfxstatsd.sock";
        ConfigException e = error("--socket", deep);
        assertEquals("socket.path", e.key());
        assertTrue(e.getMessage().contains("limited to 107 bytes"), e.getMessage());

        // a very deep home directory breaks the default, and the error says which setting to change
        ConfigEnvironment deepHome = new ConfigEnvironment(Map.of(), Path.of("/" + "h".repeat(90)), Path.of("/"));
        ConfigException d = assertThrows(ConfigException.class, () -> DaemonConfig.defaults(deepHome));
        assertEquals("socket.path", d.key());
        assertEquals(Path.of("/s.sock"), DaemonConfig.load(DaemonArgs.parse("--socket", "/s.sock"), deepHome).get(Setting.SOCKET_PATH));
    }

    @Test
    void shouldRequireTlsAndATokenForTcpBeyondLoopback() {
        ConfigException noTls = error("--set", "tcp.enabled=true", "--set", "tcp.host=0.0.0.0");
        assertEquals("tcp.tls.cert", noTls.key());
        assertTrue(noTls.getMessage().contains("reachable from other machines, so TCP needs TLS"), noTls.getMessage());

        ConfigException noToken = error("--set", "tcp.enabled=true", "--set", "tcp.host=gfx.example.com",
                "--set", "tcp.tls.cert=/c.pem", "--set", "tcp.tls.key=/k.pem");
        assertEquals("tcp.token.file", noToken.key());

        DaemonConfig remote = load(xdg, "--set", "tcp.enabled=true", "--set", "tcp.host=0.0.0.0",
                "--set", "tcp.tls.cert=/c.pem", "--set", "tcp.tls.key=/k.pem", "--set", "tcp.token.file=/t");
        assertTrue(remote.get(Setting.TCP_ENABLED));
        assertEquals(Optional.of(Path.of("/c.pem")), remote.find(Setting.TLS_CERT));

        for (String loopback : new String[] {"127.0.0.1", "localhost", "::1", "[::1]", "127.3.4.5"}) {
            DaemonConfig local = load(xdg, "--set", "tcp.enabled=true", "--set", "tcp.host=" + loopback);
            assertTrue(local.get(Setting.TCP_ENABLED), loopback);
        }
        assertEquals("::1", load(xdg, "--set", "tcp.host=[::1]").get(Setting.TCP_HOST));
    }

    @Test
    void shouldServeMetricsOnlyOnLoopbackUnlessTlsAndATokenAreSet() {
        DaemonConfig off = load(xdg);
        assertTrue(!off.get(Setting.METRICS_ENABLED));
        assertEquals("127.0.0.1", off.get(Setting.METRICS_HOST));

        ConfigException noTls = error("--set", "metrics.enabled=true", "--set", "metrics.host=0.0.0.0");
        assertEquals("tcp.tls.cert", noTls.key());
        assertTrue(noTls.getMessage().contains("metrics.host: 0.0.0.0 is reachable from other machines, so metrics"
                + " need TLS"), noTls.getMessage());
        ConfigException noToken = error("--set", "metrics.enabled=true", "--set", "metrics.host=0.0.0.0",
                "--set", "tcp.tls.cert=/c.pem", "--set", "tcp.tls.key=/k.pem");
        assertEquals("tcp.token.file", noToken.key());
        DaemonConfig remote = load(xdg, "--set", "metrics.enabled=true", "--set", "metrics.host=0.0.0.0",
                "--set", "tcp.tls.cert=/c.pem", "--set", "tcp.tls.key=/k.pem", "--set", "tcp.token.file=/t",
                "--set", "metrics.port=9999");
        assertEquals(9999, remote.get(Setting.METRICS_PORT));
        // a non-loopback host is fine while the exposition is off
        assertEquals("0.0.0.0", load(xdg, "--set", "metrics.host=0.0.0.0").get(Setting.METRICS_HOST));
        assertEquals("metrics.port", error("--set", "metrics.port=70000").key());
    }

    @Test
    void shouldReportAMissingOrUnreadableConfigFile() throws IOException {
        ConfigException missing = error("--config", tmp.resolve("nope.properties").toString());
        assertEquals("--config", missing.key());
        assertEquals("--config " + tmp.resolve("nope.properties") + ": no such file", missing.getMessage());

        ConfigException dir = error("--config", tmp.toString());
        assertTrue(dir.getMessage().contains("is a directory"), dir.getMessage());

        Path latin1 = Files.write(tmp.resolve("latin1.properties"), new byte[] {'d', 'a', 't', 'a', '.', 'd', 'i',
                'r', '=', '/', (byte) 0xe9});
        assertTrue(error("--config", latin1.toString()).getMessage().contains("not valid UTF-8"));

        Path badEscape = file("data.dir=/x\\uZZZZ");
        assertTrue(error("--config", badEscape.toString()).getMessage().contains("malformed properties file"));
    }

    @Test
    void shouldLoadBackWhatToPropertiesPrints() throws IOException {
        DaemonConfig c = load(xdg, "--set", "flush.interval=90s", "--set", "tcp.enabled=true", "--set",
                "client.display.refresh.interval=8333333ns", "--data-dir", "/data with spaces/x:y=z#1",
                "--set", "tcp.tls.cert=/c", "--set", "tcp.tls.key=/k", "--set", "heartbeat.timeout=1500ms");
        Path printed = Files.writeString(tmp.resolve("printed.properties"), c.toProperties());

        DaemonConfig again = DaemonConfig.load(DaemonArgs.parse("--config", printed.toString()),
                env(Map.of()));

        assertEquals(c, again);
        assertEquals(c.toProperties(), again.toProperties());
        assertTrue(c.toProperties().contains("flush.interval=90s\n"), c.toProperties());
        assertTrue(c.toProperties().contains("heartbeat.timeout=1500ms\n"), c.toProperties());
    }

    @Test
    void shouldRequireAStateDirectoryAndAbsolutePathsFromTheBuilder() {
        assertEquals("state.dir", assertThrows(ConfigException.class, () -> DaemonConfig.builder().build()).key());
        assertEquals("data.dir", assertThrows(ConfigException.class,
                () -> DaemonConfig.builder().stateDir(Path.of("/s")).set(Setting.DATA_DIR, Path.of("rel")).build()).key());
        assertEquals("retention.days", assertThrows(ConfigException.class,
                () -> DaemonConfig.builder().stateDir(Path.of("/s")).set(Setting.RETENTION_DAYS, 0).build()).key());
        DaemonConfig c = DaemonConfig.builder().stateDir(Path.of("/s")).set(Setting.FLUSH_INTERVAL, Duration.ofSeconds(5))
                .set(Setting.MAX_BUFFERS, 2).build();
        assertEquals(Duration.ofSeconds(5), c.get(Setting.FLUSH_INTERVAL));
        assertEquals(2, c.get(Setting.MAX_BUFFERS));
        assertEquals(Path.of("/s/data"), c.get(Setting.DATA_DIR));
    }

    @Test
    void shouldRoundTripEveryDurationSpelling() {
        for (String s : new String[] {"1ns", "16666667ns", "250us", "250ms", "1500ms", "90s", "10m", "25h", "2d"}) {
            assertEquals(s, Values.format(Values.duration("k", s)));
        }
        assertEquals(Duration.ofMillis(250), Values.duration("k", " 250 ms "));
    }
}
