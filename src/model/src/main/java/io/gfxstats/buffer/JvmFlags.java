package io.gfxstats.buffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The JVM options of every process that maps a gfxstats buffer: chronicle-bytes reaches into JDK
 * internals ({@code --add-opens}/{@code --add-exports}), loads native code and uses
 * {@code sun.misc.Unsafe} (on JDK 24+ without a warning only when allowed), and chronicle-core reads
 * {@code ./system.properties} unless pointed elsewhere. Every option is accepted by JDK 17 and by
 * JDK 25 alike: the Unsafe permission is given as the system property behind JDK 24's
 * {@code --sun-misc-unsafe-memory-access}, which JDK 17 would refuse as an option.
 *
 * <p>The one list is the resource {@value #RESOURCE} beside this class, one option per line: a
 * JVM argument file ({@code java @jvm.args}), read as such by the build (surefire's
 * {@code argLine}) and by {@code scripts/lib.sh}, and by this class for JVMs that Java code
 * starts. An application embedding the client library can take it out of the jar:
 * {@code unzip -p gfxstats-client.jar io/gfxstats/buffer/jvm.args > gfxstats.args}.
 */
public final class JvmFlags {
    /** Resource name, relative to this class's package. */
    public static final String RESOURCE = "jvm.args";

    private static final List<String> ALL = load();

    private JvmFlags() {
    }

    /** Every option, in file order. */
    public static List<String> all() {
        return ALL;
    }

    /**
     * Only the {@code -D} options: for JVMs that map no buffer (the dump client), which start
     * faster without the module options but still must not read {@code ./system.properties}.
     */
    public static List<String> systemProperties() {
        return ALL.stream().filter(f -> f.startsWith("-D")).toList();
    }

    private static List<String> load() {
        try (InputStream in = JvmFlags.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing beside " + JvmFlags.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
