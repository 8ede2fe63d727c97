package io.gfxstats.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokenTest {
    @TempDir
    Path tmp;

    @Test
    void shouldReadTheTokenWithoutSurroundingWhitespace() throws Exception {
        Path file = tmp.resolve("t");
        Files.writeString(file, "  abcdefghijklmnop123\n\n");
        BearerToken token = BearerToken.fromFile(file);

        assertTrue(token.matchesHeader("Bearer abcdefghijklmnop123"));
        assertTrue(token.matchesHeader("bearer abcdefghijklmnop123"), "the scheme is case-insensitive");
        assertEquals("BearerToken[redacted]", token.toString());
    }

    @Test
    void shouldRejectOtherTokensAndSchemes() {
        BearerToken token = BearerToken.of("abcdefghijklmnop123");

        assertFalse(token.matchesHeader("Bearer abcdefghijklmnop12"));
        assertFalse(token.matchesHeader("Bearer abcdefghijklmnop1234"));
        assertFalse(token.matchesHeader("Basic abcdefghijklmnop123"));
        assertFalse(token.matchesHeader("abcdefghijklmnop123"));
        assertFalse(token.matchesHeader("Bearer "));
        assertFalse(token.matchesHeader(null));
    }

    @Test
    void shouldRefuseShortEmptyOrNonPrintableTokens() throws Exception {
        Path empty = tmp.resolve("empty");
        Files.writeString(empty, "\n");
        IOException e = assertThrows(IOException.class, () -> BearerToken.fromFile(empty));
        assertTrue(e.getMessage().contains("at least 16 characters"), e.getMessage());

        Path spaced = tmp.resolve("spaced");
        Files.writeString(spaced, "abcdefgh ijklmnopq");
        IOException s = assertThrows(IOException.class, () -> BearerToken.fromFile(spaced));
        assertTrue(s.getMessage().contains("position 8"), s.getMessage());

        assertThrows(IllegalArgumentException.class, () -> BearerToken.of(null));
    }
}
