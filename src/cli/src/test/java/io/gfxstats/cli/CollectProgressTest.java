package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.collect.Target;
import io.gfxstats.collect.TargetList;
import io.gfxstats.collect.TargetResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollectProgressTest {
    @Test
    void shouldPrintALinePerTargetUnderARedrawnStatusLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<Target> targets = TargetList.parseList("h1:1,h2:2");
        CollectProgress p = new CollectProgress(err, 2);
        p.started(0, targets.get(0));
        p.started(1, targets.get(1));
        p.retrying(1, targets.get(1), 1, "unavailable");
        p.finished(0, new TargetResult(targets.get(0), true, 3, 1, 12, null, List.of()));
        p.finished(1, new TargetResult(targets.get(1), false, 0, 3, 900, "connection refused", List.of()));
        p.end();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("collect: 0/2 done, 0 ok, 0 failed, 2 in flight; waiting 0 s for h1:1"), out);
        assertTrue(out.contains("  retry h2:2: attempt 1 failed: unavailable\n"), out);
        assertTrue(out.contains("  [1/2] ok     h1:1: 3 entries, 1 attempt, 12 ms\n"), out);
        assertTrue(out.contains("  [2/2] FAILED h2:2: connection refused, 3 attempts, 900 ms\n"), out);
        assertTrue(out.endsWith("collect: 2/2 done, 1 ok, 1 failed, 0 in flight\r\033[K"), out);
    }

    @Test
    void shouldNotTakeADumbTerminalOrAPipeForATerminal() {
        assertFalse(CollectProgress.stderrIsTerminal(Map.of("TERM", "dumb")));
        // Under Maven, the test JVM's stderr is a pipe or a file.
        assertFalse(CollectProgress.stderrIsTerminal(Map.of()));
    }
}
