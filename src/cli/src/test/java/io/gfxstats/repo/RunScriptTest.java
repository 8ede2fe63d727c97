package io.gfxstats.repo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code gfxstats run} (scripts/gfxstats-run) says to a command line it cannot carry out: one
 * line and the shell's statuses, before it builds anything or looks for the daemon. The native
 * end-to-end tests (src/native/tests) run it with real programs.
 */
class RunScriptTest {
    @TempDir
    Path tmp;

    private record Result(int status, String stdout, String stderr) {
    }

    private Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of("scripts", "gfxstats-run").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        Path out = tmp.resolve("stdout");
        Path err = tmp.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        // A socket that is not there would add its own line when the command does run.
        pb.environment().put("GFXSTATS_SOCKET", tmp.resolve("none.sock").toString());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "gfxstats run did not end");
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private void assertRefused(int status, String line, String... args) throws Exception {
        Result r = run(args);
        assertEquals("gfxstats run: " + line + "\n", r.stderr());
        assertEquals(status, r.status(), r.stderr());
        assertEquals("", r.stdout());
    }

    @Test
    void shouldSayInOneLineThatAMissingProgramIsNotThere() throws Exception {
        Path missing = tmp.resolve("no-such-program");
        assertRefused(127, missing + ": no such file", "--", missing.toString());
    }

    @Test
    void shouldSayInOneLineThatACommandIsNotOnPath() throws Exception {
        assertRefused(127, "gfxstats-no-such-command: command not found (not on PATH)", "--", "gfxstats-no-such-command");
        // A shell builtin is not a program exec can start.
        assertRefused(127, "cd: command not found (not on PATH)", "--", "cd", "/");
    }

    @Test
    void shouldRefuseADirectoryAndAFileThatIsNotExecutable() throws Exception {
        assertRefused(126, tmp + ": is a directory", "--", tmp.toString());
        Path text = Files.writeString(tmp.resolve("notes.txt"), "not a program\n");
        assertRefused(126, text + ": not executable", "--package", "a.b", "--", text.toString());
    }

    @Test
    void shouldRefuseEmptyOptionValues() throws Exception {
        for (String option : List.of("--package", "--version-code", "--refresh-hz", "--scene-file", "--socket")) {
            assertRefused(2, option + " needs a value", option, "", "--", "true");
        }
    }

    @Test
    void shouldNotTakeTheSeparatorForAnOptionsValue() throws Exception {
        for (String option : List.of("--package", "--version-code", "--refresh-hz", "--scene", "--scene-file", "--socket")) {
            assertRefused(2, option + " needs a value", option, "--", "true");
            assertRefused(2, option + " needs a value", option);
        }
    }
}
