package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArgsTest {
    private final Args spec = new Args("demo")
            .flag("--proto", "binary")
            .value("--socket", "PATH", "where")
            .value("--retries", "N", "how often");

    private String error(String... argv) {
        return assertThrows(UsageException.class, () -> spec.parse(argv)).getMessage();
    }

    @Test
    void shouldAcceptValuesWithSpaceOrEqualsAndFlags() throws Exception {
        Args.Parsed p = spec.parse(new String[] {"--socket", "/a b.sock", "--proto", "--retries=3"});

        assertEquals("/a b.sock", p.value("--socket"));
        assertTrue(p.has("--proto"));
        assertEquals(3, p.intValue("--retries", 0, 0, 10));
        assertFalse(p.help());
    }

    @Test
    void shouldReturnDefaultsForOptionsNotGiven() throws Exception {
        Args.Parsed p = spec.parse(new String[0]);

        assertNull(p.value("--socket"));
        assertFalse(p.has("--proto"));
        assertEquals(7, p.intValue("--retries", 7, 0, 10));
        assertEquals(Duration.ofSeconds(5), p.seconds("--socket", Duration.ofSeconds(5), 60));
    }

    @Test
    void shouldNameTheUnknownOptionAndPointToHelp() {
        assertEquals("unknown option '--sokcet' (try: gfxstats demo --help)", error("--sokcet", "/x"));
    }

    @Test
    void shouldRefuseAMissingValueInsteadOfSwallowingTheNextOption() {
        assertEquals("option --socket needs a value (PATH)", error("--socket", "--proto"));
        assertEquals("option --socket needs a value (PATH)", error("--socket"));
        assertEquals("option --socket needs a non-empty value (PATH)", error("--socket="));
    }

    @Test
    void shouldRefuseAValueForAFlag() {
        assertEquals("option --proto takes no value", error("--proto=yes"));
    }

    @Test
    void shouldRefuseRepeatedOptions() {
        assertEquals("option --socket given more than once", error("--socket", "a", "--socket", "b"));
    }

    @Test
    void shouldRefusePositionalArgumentsUnlessDeclared() throws Exception {
        assertEquals("unexpected argument 'extra' (try: gfxstats demo --help)", error("extra"));

        Args withFile = new Args("demo").flag("--x", "x").positional("FILE");
        assertEquals(List.of("a", "--x"), withFile.parse(new String[] {"a", "--", "--x"}).positionals());
    }

    @Test
    void shouldRefuseNumbersOutsideTheRange() throws Exception {
        Args.Parsed p = spec.parse(new String[] {"--retries", "11"});
        UsageException e = assertThrows(UsageException.class, () -> p.intValue("--retries", 0, 0, 10));
        assertEquals("option --retries must be a whole number from 0 to 10, got '11'", e.getMessage());

        Args.Parsed q = spec.parse(new String[] {"--retries", "two"});
        assertThrows(UsageException.class, () -> q.intValue("--retries", 0, 0, 10));
    }

    @Test
    void shouldParseFractionalSecondsAndRefuseZero() throws Exception {
        assertEquals(Duration.ofMillis(1500), spec.parse(new String[] {"--socket", "1.5"})
                .seconds("--socket", Duration.ZERO, 60));
        Args.Parsed zero = spec.parse(new String[] {"--socket", "0"});
        assertThrows(UsageException.class, () -> zero.seconds("--socket", Duration.ZERO, 60));
    }

    @Test
    void shouldRefuseExclusiveOptionsTogether() throws Exception {
        Args.Parsed p = spec.parse(new String[] {"--proto", "--socket", "s"});
        UsageException e = assertThrows(UsageException.class, () -> p.exclusive("--proto", "--socket"));
        assertEquals("options --proto and --socket cannot be combined", e.getMessage());
    }

    @Test
    void shouldRecogniseHelpAnywhere() throws Exception {
        assertTrue(spec.parse(new String[] {"--proto", "-h"}).help());
        assertTrue(spec.parse(new String[] {"--help"}).help());
    }

    @Test
    void shouldPutUsageLineThenAboutThenOptionsInTheHelpText() {
        assertEquals("usage: gfxstats t [--proto]\n\nDoes things.\n\n" + spec.optionsHelp(),
                spec.help("t [--proto]", "Does things."));
    }

    @Test
    void shouldListEveryOptionInTheHelpText() {
        String help = spec.optionsHelp();
        assertTrue(help.contains("  --proto"), help);
        assertTrue(help.contains("  --socket PATH"), help);
        assertTrue(help.contains("  --retries N"), help);
    }
}
