package io.gfxstats.daemon.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config/gfxstatsd.properties documents exactly the settings the code knows, with the code's defaults. */
class ShippedConfigFileTest {
    static final Path SHIPPED = Path.of("config", "gfxstatsd.properties");
    /** A documented setting: a commented-out assignment, "#key=default", no space after '#'. */
    static final Pattern DOCUMENTED = Pattern.compile("^#([A-Za-z][A-Za-z0-9_.]*)=(.*)$");

    @TempDir
    Path tmp;

    final ConfigEnvironment env = new ConfigEnvironment(Map.of(), Path.of("/home/ann"), Path.of("/"));

    private static Map<String, String> documented() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SHIPPED, StandardCharsets.UTF_8)) {
            Matcher m = DOCUMENTED.matcher(line);
            if (m.matches()) {
                String previous = out.put(m.group(1), m.group(2));
                assertEquals(null, previous, "documented twice: " + m.group(1));
            }
        }
        return out;
    }

    @Test
    void shouldDocumentEveryKnownSettingWithItsEmbeddedDefault() throws IOException {
        Map<String, String> doc = documented();
        Map<String, String> code = Setting.all().stream()
                .collect(Collectors.toMap(Setting::key, Setting::defaultValue, (a, b) -> a, LinkedHashMap::new));
        assertEquals(code, doc);
        assertEquals(List.copyOf(code.keySet()), List.copyOf(doc.keySet()), "same order as the code, for readers");
    }

    @Test
    void shouldBeTheFileTheDeclarationsDescribe() throws IOException {
        String expected = ShippedConfigFile.render();
        if (Boolean.getBoolean("gfxstats.writeShippedConfig")) {
            Files.writeString(SHIPPED, expected, StandardCharsets.UTF_8);
        }
        assertEquals(expected, Files.readString(SHIPPED, StandardCharsets.UTF_8), SHIPPED
                + " differs from the Setting declarations; regenerate it: mvn -B -q -o test "
                + "-Dtest=ShippedConfigFileTest -Dgfxstats.writeShippedConfig=true");
    }

    @Test
    void shouldDocumentNoUnknownKey() throws IOException {
        for (String key : documented().keySet()) {
            assertTrue(Setting.byKey(key).isPresent(), "unknown key in the shipped file: " + key);
        }
    }

    @Test
    void shouldGiveTheDefaultsWhenUsedAsIs() {
        DaemonConfig c = DaemonConfig.load(DaemonArgs.parse("--config", SHIPPED.toAbsolutePath().toString()), env);
        assertEquals(DaemonConfig.defaults(env), c);
    }

    @Test
    void shouldGiveTheDefaultsWithEverySettingUncommented() throws IOException {
        String uncommented = Files.readAllLines(SHIPPED, StandardCharsets.UTF_8).stream()
                .map(l -> DOCUMENTED.matcher(l).matches() ? l.substring(1) : l)
                .collect(Collectors.joining("\n"));
        assertFalse(uncommented.equals(Files.readString(SHIPPED)), "something was uncommented");
        Path f = Files.writeString(tmp.resolve("all.properties"), uncommented);
        DaemonConfig c = DaemonConfig.load(DaemonArgs.parse("--config", f.toString()), env);
        assertEquals(DaemonConfig.defaults(env), c);
    }
}
