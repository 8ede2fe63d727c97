package io.gfxstats.daemon.config;

import java.util.Optional;

/**
 * Writes {@code config/gfxstatsd.properties} from the {@link Setting} declarations: every setting,
 * commented out, with its embedded default and its meaning. The file in the repository is this
 * text exactly ({@code ShippedConfigFileTest} checks it); after adding or changing a setting,
 * regenerate it with
 * {@code mvn -B -q -o test -Dtest=ShippedConfigFileTest -Dgfxstats.writeShippedConfig=true}.
 */
public final class ShippedConfigFile {
    /** Width of a section heading line. */
    static final int WIDTH = 94;

    private static final String PREAMBLE = """
            # gfxstatsd settings, with their defaults.
            #
            # Every setting the daemon knows is listed below, commented out, with its embedded default; a
            # test keeps this file and the code in agreement. Copy the file, uncomment what you change and
            # start the daemon with `scripts/gfxstatsd --config FILE`. Command-line options override the
            # file: --state-dir, --data-dir, --buffer-dir, --socket, and --set KEY=VALUE for any key.
            # `scripts/gfxstatsd --print-config` shows the effective values.
            #
            # Syntax: Java properties (KEY=VALUE, '#' starts a comment, UTF-8). Unknown keys and bad values
            # stop the daemon with an error naming the key.
            #   Durations: a whole number and a unit: ns, us, ms, s, m, h, d (250ms, 10s, 10m, 1h).
            #   Sizes: a whole number and a unit: B, KiB, MiB, GiB (4MiB).
            #   Paths: absolute, or starting with ~/ (your home), or with ${state.dir}/ (the only variable).
            #          Relative paths are refused here; on the command line they are relative to the
            #          current directory.
            """;

    private ShippedConfigFile() {
    }

    /** The complete file. */
    public static String render() {
        StringBuilder sb = new StringBuilder(PREAMBLE);
        for (Setting<?> s : Setting.all()) {
            Optional<String> section = s.section();
            if (section.isPresent()) {
                String head = "# --- " + section.get() + " ";
                sb.append('\n').append(head).append("-".repeat(Math.max(3, WIDTH - head.length()))).append('\n');
            }
            if (!s.sharesDocWithPrevious()) {
                sb.append('\n');
                for (String line : s.meaning().split("\n", -1)) {
                    sb.append(line.isEmpty() ? "#" : "# " + line).append('\n');
                }
            }
            sb.append('#').append(s.key()).append('=').append(s.defaultValue()).append('\n');
        }
        return sb.toString();
    }
}
