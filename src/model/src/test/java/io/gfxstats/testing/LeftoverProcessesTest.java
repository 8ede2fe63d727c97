package io.gfxstats.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LeftoverProcessesTest {
    @Test
    void shouldKillAChildLeftRunningWithItsOwnChildrenAndSpareOneThatEnds() throws Exception {
        Process left = new ProcessBuilder("sh", "-c", "sleep 600 & wait").start();
        Process ending = new ProcessBuilder("sleep", "0.2").start();
        Await.until(() -> left.descendants().findAny().isPresent(), java.time.Duration.ofSeconds(30),
                "the shell's own child started");
        ProcessHandle grandchild = left.descendants().findFirst().orElseThrow();

        List<Long> killed = LeftoverProcesses.killLeftBy("this test");

        assertEquals(List.of(left.pid()), killed, "the ending one went by itself within the grace period");
        assertTrue(left.waitFor(30, TimeUnit.SECONDS));
        assertTrue(grandchild.onExit().get(30, TimeUnit.SECONDS) != null);
        assertFalse(grandchild.isAlive());
        assertEquals(0, ending.waitFor());
    }
}
