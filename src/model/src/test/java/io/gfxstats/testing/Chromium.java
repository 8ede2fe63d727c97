package io.gfxstats.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium (installed by scripts/ci-deps), each run with a
 * fresh profile directory and no network use, loading a local file.
 */
public final class Chromium {
    private final Path binary;
    private final Path work;

    private Chromium(Path binary, Path work) {
        this.binary = binary;
        this.work = work;
    }

    /** @param work a private directory for profiles and logs */
    public static Chromium require(Path work) throws IOException, InterruptedException {
        return new Chromium(ExternalTool.require("chromium", "chromium"), work);
    }

    /** What a page printed and logged: the DOM after its scripts ran, and Chromium's log. */
    public record Page(String dom, String log) {
        /** Console messages and uncaught errors of the page (Chromium logs them as CONSOLE). */
        public List<String> consoleLines() {
            List<String> out = new ArrayList<>();
            for (String line : log.split("\n")) {
                if (line.contains(":CONSOLE(") || line.contains("Uncaught")) {
                    out.add(line);
                }
            }
            return out;
        }
    }

    public Page dumpDom(Path html) throws IOException, InterruptedException {
        return dumpDom(html, 1280);
    }

    /** The DOM after the page's scripts ran in a window {@code width} pixels wide. */
    public Page dumpDom(Path html, int width) throws IOException, InterruptedException {
        Path log = work.resolve("chromium-dom.log");
        List<String> cmd = command("dom");
        cmd.add("--window-size=" + width + ",1000");
        cmd.add("--enable-logging=stderr");
        cmd.add("--v=0");
        cmd.add("--dump-dom");
        cmd.add(html.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        finish(p, log);
        return new Page(dom, Files.readString(log));
    }

    public void screenshot(Path html, Path png, int width, int height) throws IOException, InterruptedException {
        Path log = work.resolve("chromium-shot.log");
        List<String> cmd = command("shot");
        cmd.add("--screenshot=" + png);
        cmd.add("--window-size=" + width + "," + height);
        cmd.add("--hide-scrollbars");
        cmd.add(html.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        finish(p, log);
        assertTrue(Files.size(png) > 10_000, "screenshot " + png + " is nearly empty");
    }

    private List<String> command(String profile) throws IOException {
        Path dir = work.resolve("profile-" + profile);
        Files.createDirectories(dir);
        return new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir));
    }

    private static void finish(Process p, Path log) throws IOException, InterruptedException {
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            throw new AssertionError("chromium did not finish within 120 s:\n" + Files.readString(log));
        }
        // Its helper processes end with it; make sure none is left behind.
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        assertEquals(0, p.exitValue(), Files.readString(log));
    }
}
