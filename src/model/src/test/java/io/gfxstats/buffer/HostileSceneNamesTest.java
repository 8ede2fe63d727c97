package io.gfxstats.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.stats.Counters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, item 6: a client writing its own buffer may put anything in a scene name; the
 * reader applies the library's naming rule and treats a name that breaks it as not named, while
 * the buffer's counts stay.
 */
class HostileSceneNamesTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadANameWithAControlCharacterAsNotNamedAndKeepTheCounts() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter w = BufferWriter.open(file);
             BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            assertTrue(w.nameScene(3, "AAAAREDAAAA"));
            assertTrue(w.nameScene(4, "fine name"));
            StripeWriter s = w.claimStripe();
            s.selectScene(3);
            s.increment(Counters.TOTAL_FRAMES);
            s.selectScene(-1);
            // What a non-Java client could store: ESC [ 3 1 m and a newline, same length.
            overwrite(file, "AAAAREDAAAA", "\u001b[31mRED\nAA");
            BufferSnapshot snap = r.snapshot();
            assertEquals("", snap.sceneName(3), "not validly named");
            assertEquals("fine name", snap.sceneName(4));
            assertEquals(java.util.List.of("scene slot 3: name '\\e[31mRED\\nAA'"), snap.refusedNames(),
                    "what was refused, escaped for a terminal or a log line");
            assertEquals(1, snap.totalFrames(), "the counts stay");
            assertEquals(1, snap.element(SceneGroup.vectorCounter(3, Counters.TOTAL_FRAMES)));
            s.release();
        }
    }

    @Test
    void shouldRefuseBidiControlsAndLineSeparatorsInNamesWrittenOrRead() throws IOException {
        for (String bad : new String[] {"a\u202Eb", "a\u202Ab", "a\u2066b", "a\u2069b", "a\u2028b", "a\u2029b"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SceneGroup.requireName(bad));
            assertTrue(e.getMessage().startsWith("scene name contains U+20"), e.getMessage());
            assertTrue(e.getMessage().chars().allMatch(c -> c < 0x7f), "the message carries no such character");
        }
        SceneGroup.requireName("caf\u00e9 \u200e\u05e9"); // letters of any script, and marks, stay allowed
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter w = BufferWriter.open(file);
             BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            assertThrows(IllegalArgumentException.class, () -> w.nameScene(2, "evil\u202Eexe.txt"));
            assertTrue(w.nameScene(3, "ABCDEFG"));
            assertTrue(w.nameScene(4, "HIJKL"));
            StripeWriter s = w.claimStripe();
            s.selectScene(3);
            s.increment(Counters.TOTAL_FRAMES);
            s.selectScene(-1);
            overwrite(file, "ABCDEFG", "ab\u202Ecd"); // what a client writing its own buffer can store
            overwrite(file, "HIJKL", "x\u2028y");
            BufferSnapshot snap = r.snapshot();
            assertEquals("", snap.sceneName(3));
            assertEquals("", snap.sceneName(4));
            assertEquals(2, snap.refusedNames().size(), snap.refusedNames().toString());
            assertTrue(snap.refusedNames().stream().allMatch(n -> n.chars().allMatch(c -> c < 0x7f)),
                    "named escaped: " + snap.refusedNames());
            assertEquals(1, snap.element(SceneGroup.vectorCounter(3, Counters.TOTAL_FRAMES)), "the counts stay");
            s.release();
        }
    }

    private static void overwrite(Path file, String from, String to) throws IOException {
        byte[] all = Files.readAllBytes(file);
        byte[] a = from.getBytes(StandardCharsets.UTF_8);
        byte[] b = to.getBytes(StandardCharsets.UTF_8);
        assertEquals(a.length, b.length);
        outer:
        for (int i = 0; i + a.length <= all.length; i++) {
            for (int j = 0; j < a.length; j++) {
                if (all[i + j] != a[j]) {
                    continue outer;
                }
            }
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                    java.nio.file.StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(b), i);
            }
            return;
        }
        throw new AssertionError(from + " not found in the buffer file");
    }
}
