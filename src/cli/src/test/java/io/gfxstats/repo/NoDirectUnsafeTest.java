package io.gfxstats.repo;

import io.gfxstats.testing.SourceTree;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JDK 24+ prints "terminally deprecated method in sun.misc.Unsafe has been called" naming the
 * first class that calls one of its memory methods: in our code that would be every client
 * process. Fences are VarHandle's, bulk copies go through the mapping's own API; the one way in is
 * io.gfxstats.buffer.RawMemory, which looks the class up by name only on JDK 23 and older (that a
 * client on JDK 25 prints nothing is JvmFlagsTest's). This keeps it so by looking at what the
 * compiled classes refer to: a class that calls Unsafe directly names it in its constant pool,
 * however the call is written, and a class that names it at all holds its dotted name.
 */
class NoDirectUnsafeTest {
    @Test
    void shouldNotReferToSunMiscUnsafeFromOurClasses() throws IOException {
        List<Path> roots = SourceTree.classRoots();
        assertEquals(4, roots.size(), "compiled classes of model, client, daemon and cli: " + roots);
        List<String> offenders = SourceTree.files(roots).stream()
                .filter(f -> f.toString().endsWith(".class"))
                .filter(NoDirectUnsafeTest::refersToUnsafe)
                .map(Path::toString)
                .sorted().toList();
        assertEquals(List.of(), offenders, "classes that use sun.misc.Unsafe directly");
        List<String> byName = SourceTree.files(roots).stream()
                .filter(f -> f.toString().endsWith(".class"))
                .filter(f -> read(f).contains("sun.misc.") && read(f).contains("Unsafe"))
                .map(f -> f.getFileName().toString())
                .sorted().toList();
        assertEquals(List.of("RawMemory.class"), byName, "classes that look sun.misc.Unsafe up");
    }

    private static boolean refersToUnsafe(Path classFile) {
        // Class names are stored as modified UTF-8, which is plain ASCII for this name.
        return read(classFile).contains("sun/misc/Unsafe");
    }

    private static String read(Path classFile) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
