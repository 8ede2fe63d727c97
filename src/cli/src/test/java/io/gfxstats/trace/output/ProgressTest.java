package io.gfxstats.trace.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Progress of a long read: how far it has got, throttled, cleared at the end; silent off a terminal. */
class ProgressTest {
    @Test
    void shouldShowHowFarItHasReadAtMostFourTimesASecond() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long[] now = {0};
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), 400L << 20, () -> now[0]);
        p.accept(1L << 20);
        assertEquals("", bytes.toString(StandardCharsets.UTF_8), "nothing before the first interval");
        now[0] = 300_000_000L;
        p.accept(100L << 20);
        now[0] = 400_000_000L;
        p.accept(150L << 20);
        assertEquals("\rgfxstats trace: read 100 of 400 MiB (25%)  ", bytes.toString(StandardCharsets.UTF_8));
        p.done();
        assertEquals("\rgfxstats trace: read 100 of 400 MiB (25%)  \r" + " ".repeat(60) + "\r",
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldStayQuietWhenStderrIsNotATerminalOrTheInputIsSmall() {
        PrintStream err = new PrintStream(new ByteArrayOutputStream());
        assertNull(Progress.forInput(err, Progress.MIN_BYTES - 1));
        if (!Progress.stderrIsTerminal()) {
            assertNull(Progress.forInput(err, 1L << 30), "tests run with stderr redirected to a file");
        }
    }
}
