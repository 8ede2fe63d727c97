package io.gfxstats.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class TerminalTextTest {
    @Test
    void shouldLeaveOrdinaryNamesAlone() {
        String name = "MainActivity/feed • ünïcode 日本";
        assertSame(name, TerminalText.escape(name));
    }

    @Test
    void shouldMakeEscapeSequencesAndForgedLinesVisible() {
        assertEquals("\\e[31mRED \\e[0m \\e]0;owned-title\\x07 \\e[2J",
                TerminalText.escape("\u001b[31mRED \u001b[0m \u001b]0;owned-title\u0007 \u001b[2J"));
        assertEquals("x\\n2026-11-26T00:00:00.000Z [ERROR] Daemon - fake log line",
                TerminalText.escape("x\n2026-11-26T00:00:00.000Z [ERROR] Daemon - fake log line"));
    }

    @Test
    void shouldEscapeC1BidiOverridesAndTheBackslashItself() {
        assertEquals("a\\x9b2Jb\\u202eevil\\x7f\\\\e", TerminalText.escape("a\u009b2Jb\u202eevil\u007f\\e"));
    }
}
