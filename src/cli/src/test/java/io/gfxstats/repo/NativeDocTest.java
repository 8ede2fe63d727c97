package io.gfxstats.repo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/native.md's table of environment variables against what the native parts read: every
 * {@code GFXSTATS*} name the library, the layer (its C code and its manifest) and the GL hook
 * spell as a string, and every one {@code scripts/gfxstats-run} reads, has a row, and no row names
 * a variable nothing reads (a renamed or removed variable would otherwise live on in the docs);
 * and every function of the C header is named in it.
 */
class NativeDocTest {
    private static final Path NATIVE = Path.of("src", "native");
    /** A quoted name: getenv("GFXSTATS_X") in C, "GFXSTATS": "1" in the layer's manifest. */
    private static final Pattern QUOTED = Pattern.compile("\"(GFXSTATS(?:_[A-Z0-9_]+)?)\"");
    private static final Pattern SHELL_READ = Pattern.compile("\\$\\{?(GFXSTATS_[A-Z0-9_]+)");
    private static final Pattern ROW = Pattern.compile("^\\| `(GFXSTATS(?:_[A-Z0-9_]+)?)` \\|");

    @Test
    void shouldDocumentExactlyTheEnvironmentVariablesTheNativePartsRead() throws IOException {
        Set<String> read = new TreeSet<>();
        for (String dir : List.of("lib", "layer", "gl")) {
            try (Stream<Path> files = Files.list(NATIVE.resolve(dir))) {
                for (Path f : files.filter(p -> p.toString().matches(".*\\.(c|h|json\\.in)$")).toList()) {
                    collect(QUOTED, Files.readString(f, StandardCharsets.UTF_8), read);
                }
            }
        }
        collect(SHELL_READ, Files.readString(Path.of("scripts", "gfxstats-run"), StandardCharsets.UTF_8), read);
        assertTrue(read.containsAll(Set.of("GFXSTATS", "GFXSTATS_SOCKET", "GFXSTATS_NATIVE_DIR")),
                "the scan found the library's, the manifest's and the script's names: " + read);

        Set<String> documented = new TreeSet<>();
        boolean inSection = false;
        for (String line : Files.readAllLines(Path.of("docs", "native.md"), StandardCharsets.UTF_8)) {
            if (line.startsWith("## ")) {
                inSection = line.equals("## Environment variables");
                continue;
            }
            Matcher m = ROW.matcher(line);
            if (inSection && m.find()) {
                documented.add(m.group(1));
            }
        }
        assertEquals(read, documented, "docs/native.md \"Environment variables\" (left: read by src/native or "
                + "scripts/gfxstats-run; right: the table's rows)");
    }

    /** A function declaration of the C header: its return type's last word, then the name. */
    private static final Pattern DECLARED = Pattern.compile("(?m)^[a-z_0-9 ]*[a-z_0-9*] \\*?(gfxstats_[a-z_0-9]+)\\(");

    @Test
    void shouldNameEveryFunctionOfTheCHeader() throws IOException {
        Set<String> declared = new TreeSet<>();
        collect(DECLARED, Files.readString(NATIVE.resolve("include/gfxstats.h"), StandardCharsets.UTF_8), declared);
        assertTrue(declared.containsAll(Set.of("gfxstats_session_open", "gfxstats_record", "gfxstats_strerror")),
                "the scan found the header's functions: " + declared);
        String doc = Files.readString(Path.of("docs", "native.md"), StandardCharsets.UTF_8);
        assertEquals(List.of(), declared.stream().filter(f -> !Pattern.compile("\\b" + f + "\\b").matcher(doc).find())
                .toList(), "functions of include/gfxstats.h that docs/native.md never names");
    }

    private static void collect(Pattern p, String text, Set<String> into) {
        Matcher m = p.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }
}
