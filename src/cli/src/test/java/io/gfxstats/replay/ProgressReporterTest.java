package io.gfxstats.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private long now;

    private List<String> lines() {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldPrintEveryHundredFramesAndTheFinalCount() {
        ProgressReporter p = new ProgressReporter(out, 100, 1_000_000_000L, () -> now);
        for (long n = 1; n <= 250; n++) {
            p.recorded(n);
        }
        p.finished(250);
        assertEquals(List.of("recorded 100 frames", "recorded 200 frames", "recorded 250 frames"), lines());
    }

    @Test
    void shouldNotRepeatTheFinalCountWhenItWasJustPrinted() {
        ProgressReporter p = new ProgressReporter(out, 100, 1_000_000_000L, () -> now);
        for (long n = 1; n <= 200; n++) {
            p.recorded(n);
        }
        p.finished(200);
        assertEquals(List.of("recorded 100 frames", "recorded 200 frames"), lines());
    }

    @Test
    void shouldPrintAtLeastOncePerIntervalWhenFramesAreSlow() {
        ProgressReporter p = new ProgressReporter(out, 100, 1_000_000_000L, () -> now);
        for (long n = 1; n <= 5; n++) {
            now += 400_000_000L; // 2.5 frames per second
            p.recorded(n);
        }
        assertEquals(List.of("recorded 3 frames"), lines());
        now += 1_000_000_000L;
        p.recorded(5);
        assertEquals(List.of("recorded 3 frames", "recorded 5 frames"), lines());
    }

    @Test
    void shouldPrintZeroFramesForAnEmptyCapture() {
        new ProgressReporter(out, 100, 1_000_000_000L, () -> now).finished(0);
        assertEquals(List.of("recorded 0 frames"), lines());
    }
}
