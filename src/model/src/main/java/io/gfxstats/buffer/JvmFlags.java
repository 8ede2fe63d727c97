package io.gfxstats.buffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The JVM options of gfxstats's own processes (daemon, command line, the JVMs tests and
 * benchmarks start): native access for the libraries that load native code (Netty's epoll
 * transport, JLine's terminal, sqlite), which JDK 24 and later otherwise warn about. Buffers are
 * mapped with the JDK alone ({@link BufferMemory}), so an application that embeds the client
 * needs none of these; it may add them to silence the JDK's native-access warning about Netty.
 * And {@code sun.misc.unsafe.memory.access=allow}: the command line's zstd decoder (aircompressor,
 * for Perfetto traces) reads memory through {@code sun.misc.Unsafe}, which JDK 24 and later warn
 * about on standard error at its first use, in the middle of a command's output. The system
 * property is what the JDK's {@code --sun-misc-unsafe-memory-access} option sets; written as a
 * property, JDK 17, which has no such option, ignores it. Every option is accepted by JDK 17 and
 * JDK 25 alike.
 *
 * <p>The one list is the resource {@value #RESOURCE} beside this class, one option per line: a
 * JVM argument file ({@code java @jvm.args}), read as such by the build (surefire's
 * {@code argLine}) and by {@code scripts/lib.sh}, and by this class for JVMs that Java code
 * starts.
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
