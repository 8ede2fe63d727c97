package io.gfxstats.daemon.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailureLogTest {
    @Test
    void shouldLogOneStackTraceAndThenRateLimitedLinesWhenAPeerTriggersTheSameFailureOverAndOver() {
        FailureLog failures = new FailureLog(LoggerFactory.getLogger(FailureLogTest.class));
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (int i = 0; i < 1000; i++) {
                failures.failed("dump", "dump failed for unix pid " + i, new IllegalStateException("bug " + i));
            }
        } finally {
            System.setErr(err);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        long traces = lines.stream().filter(l -> l.trim().startsWith("at ")).count();
        long failed = lines.stream().filter(l -> l.contains("dump failed for")).count();
        assertTrue(traces > 0, "the first failure keeps its stack trace: " + lines);
        assertTrue(failed <= 3, "1000 failures within a few seconds are a few lines: " + lines);
        assertEquals(traces, lines.stream().limit(2 + traces).filter(l -> l.trim().startsWith("at ")).count(),
                "only the first failure has a stack trace: " + lines);
    }
}
