package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.ExternalTool;
import io.gfxstats.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The C and Python examples of docs/client-api.md, compiled and run against a real daemon. */
class RecordDocExamplesTest {
    private static final Path DOC = Path.of(System.getProperty("user.dir"), "docs", "client-api.md");

    @TempDir
    Path tmp;

    private static String block(String language) throws Exception {
        Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(DOC));
        assertTrue(m.find(), "no " + language + " example in " + DOC);
        return m.group(1);
    }

    /** A `gfxstats` on PATH that runs this build's command line. */
    private Path gfxstatsOnPath() throws Exception {
        Path bin = tmp.resolve("bin");
        Files.createDirectories(bin);
        StringBuilder cmd = new StringBuilder("#!/bin/sh\nexec");
        for (String a : JavaProcess.command(Main.class)) {
            cmd.append(" '").append(a.replace("'", "'\\''")).append('\'');
        }
        Path script = bin.resolve("gfxstats");
        Files.writeString(script, cmd.append(" \"$@\"\n").toString());
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    @Test
    void shouldRecordEveryFrameOfTheCExample() throws Exception {
        Path gcc = ExternalTool.require("gcc", "gcc");
        Path source = tmp.resolve("game.c");
        Files.writeString(source, block("c"));
        Process cc = new ProcessBuilder(gcc.toString(), "-Wall", "-Wextra", "-Werror", "-o",
                tmp.resolve("game").toString(), source.toString()).redirectErrorStream(true).start();
        String ccOut = new String(cc.getInputStream().readAllBytes());
        assertEquals(0, cc.waitFor(), ccOut);
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("s")).start()) {
            ProcessBuilder pb = new ProcessBuilder(tmp.resolve("game").toString()).redirectErrorStream(true);
            pb.environment().put("PATH", gfxstatsOnPath() + ":" + System.getenv("PATH"));
            pb.environment().put("GFXSTATS_SOCKET", daemon.socket().toString());
            Process game = pb.start();
            String out = new String(game.getInputStream().readAllBytes());
            assertTrue(game.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, game.exitValue(), out);
            assertEquals("recorded 600 frames\n", out);
            assertEquals(600, daemon.totalFrames("com.example.cgame"));
        }
    }

    @Test
    void shouldRecordEveryFrameOfThePythonExampleThroughAFifo() throws Exception {
        Path python = ExternalTool.require("python3", "python3");
        Path fifo = tmp.resolve("frames.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Path script = tmp.resolve("game.py");
        Files.writeString(script, block("python").replace("/tmp/frames.fifo", fifo.toString()));
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("p")).start()) {
            Process record = JavaProcess.builder(Main.class, "record", "--socket", daemon.socket().toString(),
                    "--package", "com.example.pygame", "--version-code", "1", fifo.toString())
                    .redirectErrorStream(true).start();
            Process game = new ProcessBuilder(python.toString(), script.toString()).redirectErrorStream(true).start();
            String gameOut = new String(game.getInputStream().readAllBytes());
            assertTrue(game.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, game.exitValue(), gameOut);
            String out = new String(record.getInputStream().readAllBytes());
            assertTrue(record.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, record.exitValue(), out);
            assertEquals("recorded 600 frames\n", out);
            assertEquals(600, daemon.totalFrames("com.example.pygame"));
            assertEquals("", gameOut);
        }
    }
}
