package io.gfxstats.store;

import static io.gfxstats.store.StoreFixtures.CLOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real processes killed with SIGKILL while they use a store. */
class DayStoreCrashTest {
    @TempDir
    Path tmp;

    @Test
    void shouldHoldEitherTheLastAcknowledgedOrTheInFlightWriteAfterSigkill() throws Exception {
        Path root = tmp.resolve("data");
        int[] killAfterMillis = {0, 7, 23, 61};
        int lastSeen = 0;
        for (int delay : killAfterMillis) {
            Process child = JavaProcess.start(StoreChild.class, "write", root.toString());
            int acknowledged;
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                String first = out.readLine();
                assertTrue(first != null && first.startsWith("wrote "), "child did not start writing: " + first);
                Thread.sleep(delay);
                // SIGKILL through the handle: Process.destroyForcibly() would also close our end of
                // the pipe, losing the acknowledgements still in it.
                child.toHandle().destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
                acknowledged = Integer.parseInt(first.substring(6));
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    acknowledged = Integer.parseInt(line.substring(6));
                }
            } finally {
                child.destroyForcibly();
            }

            try (DayStore store = DayStore.open(root, CLOCK)) {
                ReadResult r = store.read(StoreChild.KEY);
                int frames = assertInstanceOf(ReadResult.Found.class, r, "never corrupt, never lost")
                        .stored().getSummary().getTotalFrames();
                assertTrue(frames == acknowledged || frames == acknowledged + 1,
                        "acknowledged " + acknowledged + ", on disk " + frames);
                assertTrue(frames > lastSeen, "progress across restarts");
                lastSeen = frames;
                assertEquals(List.of("total"), names(store.pathOf(StoreChild.KEY).getParent()),
                        "no temp file survives the next open");
            }
        }
        assertTrue(Files.notExists(root.resolve("quarantine")));
    }

    @Test
    void shouldRefuseARootHeldByAnotherProcessAndTakeItOverAfterThatProcessIsKilled() throws Exception {
        Path root = tmp.resolve("data");
        Process holder = JavaProcess.start(StoreChild.class, "hold", root.toString());
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.US_ASCII));
            assertEquals("ready", out.readLine());

            StoreLockedException e = assertThrows(StoreLockedException.class, () -> DayStore.open(root, CLOCK));
            assertTrue(e.getMessage().contains("(pid " + holder.pid() + ")"), e.getMessage());

            holder.toHandle().destroyForcibly();
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        } finally {
            holder.destroyForcibly();
        }
        try (DayStore store = DayStore.open(root, CLOCK)) {
            assertEquals(List.of(), store.list());
        }
    }

    private static List<String> names(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }
}
