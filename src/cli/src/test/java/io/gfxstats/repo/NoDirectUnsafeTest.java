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
 * process. Fences are VarHandle's, bulk copies go through the mapping's own API; this keeps it so
 * by looking at what the compiled classes refer to (a class that calls Unsafe names it in its
 * constant pool, however the call is written).
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
    }

    private static boolean refersToUnsafe(Path classFile) {
        try {
            // Class names are stored as modified UTF-8, which is plain ASCII for this name.
            String text = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
            return text.contains("sun/misc/Unsafe");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
