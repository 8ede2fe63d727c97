package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.args.Args;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same command-line rules for every command of Main's registry: each declares its options
 * with {@link Args}, its help lists every one of them, and repeats, missing values and unknown
 * options are refused with the same line whichever command it is. A command that walked its argv
 * by hand again would have to declare nothing, and fails here.
 */
class CommandLineRulesTest {

    /** Every command line that takes options: "dump", "timeline feed", ... */
    static Stream<Args> specs() {
        List<Args> all = new ArrayList<>();
        for (Command c : Main.commands().values()) {
            List<Args> specs = c.optionSpecs();
            assertFalse(specs.isEmpty(), c.name() + " declares no options");
            for (Args spec : specs) {
                assertTrue(spec.command().equals(c.name()) || spec.command().startsWith(c.name() + " "),
                        spec.command() + " is not a command line of " + c.name());
                all.add(spec);
            }
        }
        return all.stream();
    }

    private static CliRun run(Args spec, String... options) {
        List<String> argv = new ArrayList<>(Arrays.asList(spec.command().split(" ")));
        argv.addAll(Arrays.asList(options));
        return CliRun.main(argv.toArray(String[]::new));
    }

    @Test
    void shouldDeclareOptionsForEveryCommandOfTheRegistry() {
        assertEquals(Main.commands().size() + 2, specs().count(), "one spec per command, three for timeline");
    }

    @ParameterizedTest
    @MethodSource("specs")
    void shouldListEveryDeclaredOptionInHelp(Args spec) {
        for (String help : List.of("--help", "-h")) {
            CliRun r = run(spec, help);
            String text = new String(r.stdout(), StandardCharsets.UTF_8);
            assertEquals(0, r.exit(), r.stderr());
            for (String option : spec.optionNames()) {
                assertTrue(text.contains(option), spec.command() + " " + help + " misses " + option + ":\n" + text);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void shouldRefuseEveryOptionGivenTwice(Args spec) {
        for (String option : spec.optionNames()) {
            if (spec.repeatable(option)) {
                continue;
            }
            String[] once = spec.takesValue(option) ? new String[] {option, "x"} : new String[] {option};
            String[] twice = Stream.concat(Arrays.stream(once), Arrays.stream(once)).toArray(String[]::new);
            CliRun r = run(spec, twice);
            assertEquals(Command.EXIT_ERROR, r.exit(), spec.command() + " " + option);
            assertEquals("gfxstats " + spec.command().split(" ")[0] + ": option " + option + " given more than once\n",
                    r.stderr());
            assertEquals(0, r.stdout().length);
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void shouldNameTheOptionWhoseValueIsMissing(Args spec) {
        for (String option : spec.optionNames()) {
            if (!spec.takesValue(option)) {
                continue;
            }
            CliRun r = run(spec, option);
            assertEquals(Command.EXIT_ERROR, r.exit(), spec.command() + " " + option);
            assertTrue(r.stderr().startsWith("gfxstats " + spec.command().split(" ")[0] + ": option " + option
                    + " needs a value ("), r.stderr());
            assertEquals(1, r.stderr().lines().count(), r.stderr());
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void shouldNameAnUnknownOption(Args spec) {
        CliRun r = run(spec, "--no-such-option");
        assertEquals(Command.EXIT_ERROR, r.exit());
        assertEquals("gfxstats " + spec.command().split(" ")[0] + ": unknown option '--no-such-option' (try: gfxstats "
                + spec.command() + " --help)\n", r.stderr());
    }

    @Test
    void shouldNameEveryOptionInTheCommandListOfMainHelp() {
        for (Command c : Main.commands().values()) {
            if (c.optionSpecs().size() > 1) {
                continue; // timeline lists its subcommands; each has its own help, checked above
            }
            for (String option : c.optionSpecs().get(0).optionNames()) {
                assertTrue(c.synopsis().contains(option), c.name() + "'s line in gfxstats --help misses " + option
                        + ": " + c.synopsis());
            }
        }
    }

    @Test
    void shouldStartEveryCommandsHelpWithItsLineOfMainHelpWithoutTheDescription() {
        for (Command c : Main.commands().values()) {
            if (c.optionSpecs().size() > 1) {
                continue; // timeline: each subcommand has its own usage line
            }
            String synopsis = c.synopsis();
            int description = synopsis.indexOf("   ");
            String usage = description < 0 ? synopsis : synopsis.substring(0, description);
            CliRun r = CliRun.main(c.name(), "--help");
            assertEquals(0, r.exit(), c.name() + " --help: " + r.stderr());
            assertEquals("usage: gfxstats " + usage, r.out().lines().findFirst().orElse(""),
                    c.name() + "'s help and its line in gfxstats --help disagree");
        }
    }

    @Test
    void shouldRefuseFramestatsFormatGivenTwiceAsDumpDoes() {
        CliRun framestats = CliRun.main("framestats", "--format", "android9", "--format", "android14", "-");
        CliRun dump = CliRun.main("dump", "--format", "android9", "--format", "android14");
        assertEquals("gfxstats framestats: option --format given more than once\n", framestats.stderr());
        assertEquals("gfxstats dump: option --format given more than once\n", dump.stderr());
    }

    @Test
    void shouldNameThePackageOptionWhenItsValueIsMissing() {
        CliRun r = CliRun.main("synth", "--package", "--version-code", "1");
        assertEquals(Command.EXIT_ERROR, r.exit());
        assertEquals("gfxstats synth: option --package needs a value (P)\n", r.stderr());
    }

    @Test
    void shouldListDeadlineInDumpHelp() {
        CliRun r = CliRun.main("dump", "--help");
        assertTrue(new String(r.stdout(), StandardCharsets.UTF_8).contains("--deadline"));
    }
}
