package io.gfxstats.daemon.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The daemon's command line, parsed but not yet applied:
 *
 * <pre>
 *   gfxstatsd [--config FILE] [--state-dir DIR] [--data-dir DIR] [--buffer-dir DIR]
 *             [--socket PATH] [--set KEY=VALUE]... [--print-config] [--help]
 * </pre>
 *
 * Options take their value as the next argument or after '='. Overrides apply in order, after the
 * config file, so the last one for a key wins.
 */
public record DaemonArgs(Optional<String> configFile, List<Override> overrides, boolean help, boolean printConfig) {

    /** One command-line setting; {@code option} is what the user typed, for error messages. */
    public record Override(Setting<?> setting, String value, String option) {
    }

    private static final Map<String, Setting<?>> SHORTCUTS = Map.of(
            "--state-dir", Setting.STATE_DIR,
            "--data-dir", Setting.DATA_DIR,
            "--buffer-dir", Setting.BUFFER_DIR,
            "--socket", Setting.SOCKET_PATH);

    public DaemonArgs {
        overrides = List.copyOf(overrides);
    }

    /** No options: embedded defaults only. */
    public static DaemonArgs none() {
        return new DaemonArgs(Optional.empty(), List.of(), false, false);
    }

    /** @throws ConfigException naming the option at fault */
    public static DaemonArgs parse(String... argv) {
        String config = null;
        List<Override> overrides = new ArrayList<>();
        boolean help = false;
        boolean print = false;
        for (int i = 0; i < argv.length; i++) {
            String arg = argv[i];
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (name) {
                case "-h", "--help" -> {
                    noInline(name, inline);
                    help = true;
                }
                case "--no-build" -> noInline(name, inline); // the launcher's: the JVM runs a built jar anyway
                case "--print-config" -> {
                    noInline(name, inline);
                    print = true;
                }
                case "--config" -> {
                    if (config != null) {
                        throw new ConfigException(name, "--config given twice; use one config file and override "
                                + "single settings with --set KEY=VALUE");
                    }
                    config = inline != null ? inline : next(argv, ++i, name, "FILE");
                    if (config.isEmpty()) {
                        throw new ConfigException(name, "--config needs a file name");
                    }
                }
                case "--set" -> {
                    String kv = inline != null ? inline : next(argv, ++i, name, "KEY=VALUE");
                    int sep = kv.indexOf('=');
                    if (sep <= 0) {
                        throw new ConfigException(name, "--set expects KEY=VALUE, got '" + kv + "'");
                    }
                    String key = kv.substring(0, sep).trim();
                    Setting<?> s = Setting.byKey(key).orElseThrow(() -> Setting.unknown(key).in("--set"));
                    overrides.add(new Override(s, kv.substring(sep + 1), "--set"));
                }
                default -> {
                    Setting<?> s = SHORTCUTS.get(name);
                    if (s == null) {
                        if (arg.startsWith("-")) {
                            throw new ConfigException(name, "unknown option '" + name + "' (see --help)");
                        }
                        throw new ConfigException(arg, "unexpected argument '" + arg
                                + "'; gfxstatsd takes options only (see --help)");
                    }
                    String value = inline != null ? inline : next(argv, ++i, name, "PATH");
                    overrides.add(new Override(s, value, name));
                }
            }
        }
        return new DaemonArgs(Optional.ofNullable(config), overrides, help, print);
    }

    public static String usage() {
        return String.join("\n",
                "usage: gfxstatsd [options]",
                "",
                "Runs the gfxstats daemon in the foreground. Settings come from the embedded defaults,",
                "then --config FILE, then the options below (later options win).",
                "",
                "  --config FILE        properties file (every setting: config/gfxstatsd.properties)",
                "  --state-dir DIR      base of the default data, buffer and socket paths",
                "                       (default $XDG_STATE_HOME/gfxstats or ~/.local/state/gfxstats)",
                "  --data-dir DIR       day files (default <state-dir>/data)",
                "  --buffer-dir DIR     live client buffers (default <state-dir>/buffers)",
                "  --socket PATH        gRPC Unix socket (default <state-dir>/gfxstatsd.sock)",
                "  --set KEY=VALUE      any setting, e.g. --set flush.interval=1m (repeatable)",
                "  --print-config       print the effective settings and exit",
                "  --no-build           (scripts/gfxstatsd, anywhere on the line) run the jar scripts/build",
                "                       made, never Maven; implied under systemd",
                "  -h, --help           this help",
                "");
    }

    private static void noInline(String name, String inline) {
        if (inline != null) {
            throw new ConfigException(name, name + " takes no value");
        }
    }

    private static String next(String[] argv, int i, String name, String what) {
        if (i >= argv.length) {
            throw new ConfigException(name, name + " needs a value (" + name + " " + what + ")");
        }
        if (argv[i].startsWith("--")) {
            throw new ConfigException(name, name + " needs a value but got the option '" + argv[i]
                    + "' (write " + name + "=VALUE for a value that starts with --)");
        }
        return argv[i];
    }
}
