package io.gfxstats.cli;

/**
 * What the commands that walk their argv by hand share (their messages predate {@link Args} and
 * tests pin them): the {@code --name=value} split, the value that must follow an option, and
 * {@code --refresh-interval}.
 */
final class ArgWalk {
    private ArgWalk() {
    }

    /** One argument: {@code --name=value} split at its first '=', anything else whole with no value. */
    record Token(String name, String value) {
        static Token of(String arg) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                return new Token(arg.substring(0, eq), arg.substring(eq + 1));
            }
            return new Token(arg, null);
        }
    }

    /** {@code args[i]}, the value of {@code option}, which must be there. */
    static String next(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    /** The value of {@code --refresh-interval}: a positive number of nanoseconds. */
    static long refreshInterval(String value) throws UsageException {
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
    static io.gfxstats.stats.Pipeline pipeline(String value) throws UsageException {
        try {
            return io.gfxstats.stats.Pipeline.parseOption(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
