package io.gfxstats.daemon.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DaemonArgsTest {
    @Test
    void shouldParseEveryOptionInBothSpellings() {
        DaemonArgs a = DaemonArgs.parse("--config", "/etc/g.properties", "--state-dir=/s", "--data-dir", "/d",
                "--buffer-dir=/b", "--socket", "/x.sock", "--set", "flush.interval=1m", "--set=tcp.port=1");
        assertEquals(Optional.of("/etc/g.properties"), a.configFile());
        assertEquals(List.of(
                new DaemonArgs.Override(Setting.STATE_DIR, "/s", "--state-dir"),
                new DaemonArgs.Override(Setting.DATA_DIR, "/d", "--data-dir"),
                new DaemonArgs.Override(Setting.BUFFER_DIR, "/b", "--buffer-dir"),
                new DaemonArgs.Override(Setting.SOCKET_PATH, "/x.sock", "--socket"),
                new DaemonArgs.Override(Setting.FLUSH_INTERVAL, "1m", "--set"),
                new DaemonArgs.Override(Setting.TCP_PORT, "1", "--set")), a.overrides());
        assertFalse(a.help());
        assertFalse(a.printConfig());
    }

    @Test
    void shouldRecogniseHelpAndPrintConfig() {
        assertTrue(DaemonArgs.parse("--help").help());
        assertTrue(DaemonArgs.parse("-h").help());
        assertTrue(DaemonArgs.parse("--print-config").printConfig());
        assertEquals(DaemonArgs.none(), DaemonArgs.parse());
        String usage = DaemonArgs.usage();
        for (String option : new String[] {"--config FILE", "--state-dir DIR", "--data-dir DIR", "--buffer-dir DIR",
                "--socket PATH", "--set KEY=VALUE", "--print-config", "--help"}) {
            assertTrue(usage.contains(option), option);
        }
    }

    @Test
    void shouldKeepEqualsSignsInSetValues() {
        DaemonArgs a = DaemonArgs.parse("--set", "data.dir=/a=b");
        assertEquals("/a=b", a.overrides().get(0).value());
    }

    @Test
    void shouldRejectBadCommandLinesWithTheCliRules() {
        assertError("--verbose", "unknown option '--verbose' (try: gfxstatsd --help)", "--verbose");
        assertError("--data-dir", "option --data-dir needs a value (DIR)", "--data-dir");
        assertError("--data-dir", "option --data-dir needs a value (DIR)", "--data-dir", "--socket", "/s");
        assertError("--config", "option --config given more than once", "--config", "/a", "--config", "/b");
        assertError("--socket", "option --socket given more than once", "--socket", "/a", "--socket", "/b");
        assertError("--config", "option --config needs a non-empty value (FILE)", "--config=");
        assertError("--set", "--set expects KEY=VALUE, got 'flush.interval'", "--set", "flush.interval");
        assertError("--set", "--set expects KEY=VALUE, got '=1m'", "--set", "=1m");
        assertError("flush.interal", "--set: unknown setting 'flush.interal' (did you mean flush.interval?)",
                "--set", "flush.interal=1m");
        assertError("data", "unexpected argument 'data' (try: gfxstatsd --help)", "data");
        assertError("--help", "option --help takes no value", "--help=yes");
    }

    @Test
    void shouldApplyRepeatedSetsInOrderSoTheLastWins() {
        DaemonArgs a = DaemonArgs.parse("--set", "flush.interval=1m", "--data-dir", "/d", "--set", "flush.interval=2m");
        assertEquals(List.of(new DaemonArgs.Override(Setting.FLUSH_INTERVAL, "1m", "--set"),
                new DaemonArgs.Override(Setting.DATA_DIR, "/d", "--data-dir"),
                new DaemonArgs.Override(Setting.FLUSH_INTERVAL, "2m", "--set")), a.overrides());
    }

    private static void assertError(String key, String fragment, String... argv) {
        ConfigException e = assertThrows(ConfigException.class, () -> DaemonArgs.parse(argv));
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' should contain '" + fragment + "'");
    }
}
