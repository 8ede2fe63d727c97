package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Command-line handling of {@code gfxstats synth}; rendering itself is tested in io.gfxstats.demo. */
class SynthCommandTest {
    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] argv = new String[args.length + 1];
        argv[0] = "synth";
        System.arraycopy(args, 0, argv, 1, args.length);
        int code = Main.run(argv, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldExplainEveryOptionOnHelp() {
        Outcome o = run("--help");
        assertEquals(0, o.code());
        for (String option : new String[] {"--package", "--version-code", "--seconds", "--fps", "--jank-profile",
            "--seed", "--socket", "--attach-timeout", "--pipeline"}) {
            assertTrue(o.out().contains(option), option + " in\n" + o.out());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--version-code 1|missing --package",
        "--package com.example.a|missing --version-code",
        "--package com.example.a --version-code -1|version code must be 0 or more",
        "--package ../etc --version-code 1|package name",
        "--package com.example.1st --version-code 1|has a segment starting with '1'",
        "--package com.example.a --version-code x|--version-code needs a whole number, got 'x'",
        "--package com.example.a --version-code 1 --jank-profile wobbly|unknown jank profile 'wobbly'; one of smooth|janky|stutter",
        "--package com.example.a --version-code 1 --fps 0|fps must be 1..1000",
        "--package com.example.a --version-code 1 --seconds 0|--seconds must be more than 0",
        "--package com.example.a --version-code 1 --seconds soon|--seconds needs a number of seconds, got 'soon'",
        "--package com.example.a --version-code 1 --bogus 3|unknown option '--bogus'",
        "--package com.example.a --version-code 1 extra|unexpected argument 'extra'",
        "--package com.example.a --version-code|--version-code needs a value",
        "--package com.example.a --version-code 1 --pipeline unknown|--pipeline takes gl or vulkan, got 'unknown'",
    })
    void shouldRefuseBadArgumentsWithOneLine(String args, String message) {
        Outcome o = run(args.split(" "));
        assertEquals(2, o.code(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().startsWith("gfxstats synth: "), o.err());
        assertTrue(o.err().contains(message), o.err());
        assertEquals("", o.out());
    }

    @Test
    void shouldAcceptOptionsWrittenWithEquals() {
        Outcome o = run("--package=com.example.a", "--version-code=1", "--fps=0");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("fps must be 1..1000"), o.err());
    }
}
