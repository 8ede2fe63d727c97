package io.gfxstats.args;

import io.gfxstats.stats.Pipeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of one subcommand and their parse. Long options only ({@code --name value},
 * {@code --name=value}, flags without value), {@code --} ends the options, {@code -h}/{@code --help}
 * asks for help. Every mistake is a {@link UsageException} naming the option, so that a typo never
 * silently changes what a command does.
 *
 * <pre>{@code
 * Args spec = new Args("dump").flag("--proto", "write the binary proto").value("--socket", "PATH", "daemon socket");
 * Args.Parsed p = spec.parse(argv);
 * }</pre>
 *
 * The only command-line parser of gfxstats (OneCopyTest keeps it so): every CLI command and the
 * daemon declare their options here and parse with {@link #parse}, so one set of rules holds
 * everywhere and the help lists exactly what is declared (CommandLineRulesTest walks the CLI's
 * registry). A repeated option is an error unless declared {@link #repeatable}.
 */
public final class Args {
    private record Option(String name, String valueName, String help, boolean repeatable) {
        public boolean takesValue() {
            return valueName != null;
        }
    }

    private final String program;
    private final String command;
    private final Map<String, Option> options = new LinkedHashMap<>();
    private String positionalName;

    /** The options of {@code gfxstats COMMAND}. */
    public Args(String command) {
        this("gfxstats", command);
    }

    /** The options of {@code PROGRAM COMMAND}, or of {@code PROGRAM} alone when {@code command} is empty. */
    public Args(String program, String command) {
        this.program = program;
        this.command = command;
    }

    /** How the user typed the command: {@code gfxstats dump}, {@code gfxstatsd}. */
    private String invocation() {
        return command.isEmpty() ? program : program + " " + command;
    }

    /** An option without value. */
    public Args flag(String name, String help) {
        return add(new Option(name, null, help, false));
    }

    /** An option that takes one value, shown as {@code valueName} in the usage text. */
    public Args value(String name, String valueName, String help) {
        return add(new Option(name, valueName, help, false));
    }

    /** An option that takes one value and may be given more than once ({@link Parsed#values}). */
    public Args repeatable(String name, String valueName, String help) {
        return add(new Option(name, valueName, help, true));
    }

    /** Allows positional arguments (none are allowed otherwise). */
    public Args positional(String name) {
        this.positionalName = name;
        return this;
    }

    private Args add(Option option) {
        if (!option.name.startsWith("--") || options.putIfAbsent(option.name, option) != null) {
            throw new IllegalArgumentException("bad or repeated option declaration " + option.name);
        }
        return this;
    }

    /** The command these options belong to, as typed after {@code gfxstats} (e.g. "timeline feed"). */
    public String command() {
        return command;
    }

    /** The declared option names, in declaration order (what the help must list). */
    public List<String> optionNames() {
        return List.copyOf(options.keySet());
    }

    /** Whether {@code name} is declared with a value. */
    public boolean takesValue(String name) {
        Option o = options.get(name);
        return o != null && o.takesValue();
    }

    /** Whether {@code name} is declared as repeatable. */
    public boolean repeatable(String name) {
        Option o = options.get(name);
        return o != null && o.repeatable();
    }

    /** One line per option, for the command's help text. */
    public String optionsHelp() {
        StringBuilder sb = new StringBuilder();
        int width = 0;
        for (Option o : options.values()) {
            width = Math.max(width, label(o).length() + (o.repeatable ? 4 : 0));
        }
        for (Option o : options.values()) {
            String label = label(o) + (o.repeatable ? " ..." : "");
            sb.append("  ").append(label).append(" ".repeat(width - label.length() + 2)).append(o.help).append('\n');
        }
        return sb.toString();
    }

    /** The command's help: its usage line, {@code about} (what it does) and its options. */
    public String help(String synopsis, String about) {
        return "usage: " + program + " " + synopsis + "\n\n" + about + "\n\n" + optionsHelp();
    }

    private static String label(Option o) {
        return o.takesValue() ? o.name + " " + o.valueName : o.name;
    }

    /** The value of {@code --refresh-interval}: a positive number of nanoseconds. */
    public static long refreshInterval(String value) throws UsageException {
        try {
            long v = Long.parseLong(value.trim());
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--refresh-interval needs a positive whole number of nanoseconds, got '" + value + "'");
    }

    /** The value of {@code --pipeline}: gl or vulkan. */
    public static Pipeline pipeline(String value) throws UsageException {
        try {
            return Pipeline.parseOption(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    public Parsed parse(String[] argv) throws UsageException {
        Map<String, String> values = new HashMap<>();
        Map<String, List<String>> repeated = new HashMap<>();
        List<String> positionals = new ArrayList<>();
        List<Map.Entry<String, String>> order = new ArrayList<>();
        boolean help = false;
        boolean optionsEnded = false;
        for (int i = 0; i < argv.length; i++) {
            String arg = argv[i];
            if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                if (positionalName == null) {
                    throw UsageException.about(arg, "unexpected argument '" + arg + "' (try: " + invocation() + " --help)");
                }
                positionals.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            if (arg.equals("-h") || arg.equals("--help")) {
                help = true;
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (name.equals("--help")) {
                throw UsageException.about(name, "option --help takes no value");
            }
            Option option = options.get(name);
            if (option == null) {
                throw UsageException.about(name, "unknown option '" + name + "' (try: " + invocation() + " --help)");
            }
            String value;
            if (!option.takesValue()) {
                if (eq > 0) {
                    throw UsageException.about(name, "option " + name + " takes no value");
                }
                value = "";
            } else if (eq > 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
                value = argv[++i];
            } else {
                throw UsageException.about(name, "option " + name + " needs a value (" + option.valueName + ")");
            }
            if (option.takesValue() && value.isEmpty()) {
                throw UsageException.about(name, "option " + name + " needs a non-empty value (" + option.valueName + ")");
            }
            order.add(Map.entry(name, value));
            if (option.repeatable) {
                repeated.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
                values.put(name, value);
            } else if (values.put(name, value) != null) {
                throw UsageException.about(name, "option " + name + " given more than once");
            }
        }
        return new Parsed(invocation(), values, repeated, Collections.unmodifiableList(positionals), help, List.copyOf(order));
    }

    /** The options and arguments of one command line. */
    public static final class Parsed {
        private final String command;
        private final Map<String, String> values;
        private final Map<String, List<String>> repeated;
        private final List<String> positionals;
        private final boolean help;
        private final List<Map.Entry<String, String>> order;

        private Parsed(String command, Map<String, String> values, Map<String, List<String>> repeated,
                List<String> positionals, boolean help, List<Map.Entry<String, String>> order) {
            this.order = order;
            this.command = command;
            this.values = values;
            this.repeated = repeated;
            this.positionals = positionals;
            this.help = help;
        }

        /** Every option given, with its value ("" for a flag), in command-line order. */
        public List<Map.Entry<String, String>> inOrder() {
            return order;
        }

        public boolean help() {
            return help;
        }

        public boolean has(String name) {
            return values.containsKey(name);
        }

        /** The option's value, or {@code null} when not given. */
        public String value(String name) {
            return values.get(name);
        }

        /** Every value of a repeatable option, in command-line order; empty when not given. */
        public List<String> values(String name) {
            return List.copyOf(repeated.getOrDefault(name, List.of()));
        }

        public List<String> positionals() {
            return positionals;
        }

        /** The option's value, which must be given. */
        public String required(String name) throws UsageException {
            String v = values.get(name);
            if (v == null) {
                throw new UsageException("option " + name + " is required (try: " + command + " --help)");
            }
            return v;
        }

        /** An integer option within {@code [min, max]}, or {@code fallback} when not given. */
        public int intValue(String name, int fallback, int min, int max) throws UsageException {
            String v = values.get(name);
            if (v == null) {
                return fallback;
            }
            try {
                int n = Integer.parseInt(v.trim());
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below with the accepted range
            }
            throw new UsageException("option " + name + " must be a whole number from " + min + " to " + max
                    + ", got '" + v + "'");
        }

        /** A positive number of seconds (fractions allowed), or {@code fallback} when not given. */
        public Duration seconds(String name, Duration fallback, double maxSeconds) throws UsageException {
            String v = values.get(name);
            if (v == null) {
                return fallback;
            }
            try {
                double s = Double.parseDouble(v.trim());
                if (s > 0 && s <= maxSeconds) {
                    return Duration.ofNanos(Math.max(1_000_000L, Math.round(s * 1e9)));
                }
            } catch (NumberFormatException e) {
                // reported below with the accepted range
            }
            throw new UsageException("option " + name + " must be a number of seconds above 0 and at most "
                    + (long) maxSeconds + ", got '" + v + "'");
        }

        /** Fails when more than one of {@code names} is given. */
        public void exclusive(String... names) throws UsageException {
            String first = null;
            for (String n : names) {
                if (values.containsKey(n)) {
                    if (first != null) {
                        throw new UsageException("options " + first + " and " + n + " cannot be combined");
                    }
                    first = n;
                }
            }
        }
    }
}
