package io.gfxstats.daemon.config;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
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
 * config file, so the last one for a key wins. Parsed by {@link Args}, the CLI's parser.
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

    /** The daemon's options, declared once: the parse and the help come from here. */
    static Args spec() {
        return new Args("gfxstatsd", "")
                .value("--config", "FILE", "properties file (every setting: config/gfxstatsd.properties)")
                .value("--state-dir", "DIR", "base of the default data, buffer and socket paths"
                        + " (default $XDG_STATE_HOME/gfxstats or ~/.local/state/gfxstats)")
                .value("--data-dir", "DIR", "day files (default <state-dir>/data)")
                .value("--buffer-dir", "DIR", "live client buffers (default <state-dir>/buffers)")
                .value("--socket", "PATH", "gRPC Unix socket (default <state-dir>/gfxstatsd.sock)")
                .repeatable("--set", "KEY=VALUE", "any setting, e.g. --set flush.interval=1m")
                .flag("--print-config", "print the effective settings and exit")
                .flag("--no-build", "(scripts/gfxstatsd, anywhere on the line) run the jar scripts/build made,"
                        + " never Maven; implied under systemd");
    }

    /**
     * Parses with the one parser of gfxstats ({@link Args}): its rules are the CLI's (an option
     * given twice is refused, except {@code --set}; {@code --opt=value} or {@code --opt value}).
     * Overrides keep their command-line order, so the last {@code --set} for a key wins.
     *
     * @throws ConfigException naming the option at fault
     */
    public static DaemonArgs parse(String... argv) {
        Args.Parsed args;
        try {
            args = spec().parse(argv);
        } catch (UsageException e) {
            throw new ConfigException(e.option() != null ? e.option() : "", e.getMessage());
        }
        List<Override> overrides = new ArrayList<>();
        for (Map.Entry<String, String> option : args.inOrder()) {
            String name = option.getKey();
            if (name.equals("--set")) {
                String kv = option.getValue();
                String[] keyValue = kv.split("=", 2);
                if (keyValue.length < 2 || keyValue[0].isBlank()) {
                    throw new ConfigException(name, "--set expects KEY=VALUE, got '" + kv + "'");
                }
                String key = keyValue[0].trim();
                Setting<?> s = Setting.byKey(key).orElseThrow(() -> Setting.unknown(key).in("--set"));
                overrides.add(new Override(s, keyValue[1], "--set"));
            } else if (SHORTCUTS.containsKey(name)) {
                overrides.add(new Override(SHORTCUTS.get(name), option.getValue(), name));
            }
        }
        return new DaemonArgs(Optional.ofNullable(args.value("--config")), overrides, args.help(),
                args.has("--print-config"));
    }

    public static String usage() {
        return spec().help("[options]", """
                Runs the gfxstats daemon in the foreground. Settings come from the embedded defaults,
                then --config FILE, then the options below (later options win).""") + "  -h, --help  this help\n";
    }
}
