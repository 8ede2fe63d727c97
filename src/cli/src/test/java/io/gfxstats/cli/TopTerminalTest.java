package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gfxstats top} in a real terminal (tmux): it draws, reacts to s and c, and q or Ctrl-C
 * quit with the terminal restored (canonical mode and echo back on, main screen back). Fed here
 * by a real capture replayed as the live feed; TopProcessTest runs it against a daemon.
 */
class TopTerminalTest {
    @TempDir
    Path dir;

    private String command(String... topArgs) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(JavaProcess.command(ReplayTopMain.class,
                TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt").toString()));
        cmd.addAll(List.of(topArgs));
        Path script = dir.resolve("top.sh");
        // After top: its exit status and the terminal's modes, then stay so the pane can be read.
        Files.writeString(script, cmd.stream().map(TopTerminalTest::quote).collect(Collectors.joining(" "))
                + "\necho \"TOP-EXIT $?\"\nstty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '\n"
                + "echo; echo END\nsleep 60\n");
        return "bash " + quote(script.toString());
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    @Test
    void shouldDrawReactToKeysAndRestoreTheTerminalOnQ() throws Exception {
        try (TmuxSession t = TmuxSession.start(dir, 130, 40, command("--cumulative"))) {
            t.await(s -> s.contains("PACKAGE / SCENE") && s.contains("Taskbar"), 60, "the first screen");
            assertTrue(t.screen(false).contains("sort name") && t.screen(false).contains("since start"));
            Await.until(() -> t.screen(true).contains("\u001b[38;5;"), Duration.ofSeconds(60),
                    () -> "rows coloured by level: " + t.screen(true));
            t.sendKeys("s");
            t.await(s -> s.contains("sort fps"), 10, "sort fps after s");
            t.sendKeys("c");
            t.await(s -> s.contains(" last "), 10, "interval view after c");
            t.sendKeys("q");
            String screen = t.await(s -> s.contains("END"), 20, "top to quit");
            assertTrue(screen.contains("TOP-EXIT 0"), screen);
            assertTrue(screen.contains("isig") && screen.contains("icanon") && screen.contains("echo"), screen);
            assertTrue(!screen.contains("-icanon") && !screen.contains("-echo ") && !screen.contains("-isig"),
                    "modes restored: " + screen);
            assertTrue(!screen.contains("PACKAGE / SCENE"), "back on the main screen: " + screen);
        }
    }

    @Test
    void shouldQuitCleanlyOnCtrlC() throws Exception {
        try (TmuxSession t = TmuxSession.start(dir, 130, 40, command("--sort", "dropped"))) {
            t.await(s -> s.contains("PACKAGE / SCENE") && s.contains("sort dropped"), 60, "the first screen");
            t.sendKeys("C-c");
            String end = t.await(s -> s.contains("END"), 20, "top to quit on Ctrl-C");
            assertTrue(end.contains("TOP-EXIT 0"), end);
            assertTrue(!end.contains("-icanon") && !end.contains("-echo "), end);
        }
    }
}
