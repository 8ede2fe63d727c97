package io.gfxstats.daemon.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing and printing of setting values; every error names the setting. */
final class Values {
    private static final Pattern DURATION = Pattern.compile("([0-9]{1,19})\\s*(ns|us|ms|s|m|h|d)");
    private static final String DURATION_HELP = "use a whole number with a unit: ns, us, ms, s, m, h or d "
            + "(e.g. 250ms, 10s, 10m)";
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:%-]+");

    private Values() {
    }

    static Duration duration(String key, String value) {
        String v = value.trim();
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) {
            if (v.matches("[0-9]+")) {
                throw new ConfigException(key, key + ": '" + v + "' has no unit; " + DURATION_HELP);
            }
            throw new ConfigException(key, key + ": '" + v + "' is not a duration; " + DURATION_HELP);
        }
        try {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ns" -> Duration.ofNanos(n);
                case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1_000L));
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> throw new AssertionError(m.group(2));
            };
        } catch (ArithmeticException | NumberFormatException e) {
            throw new ConfigException(key, key + ": '" + v + "' is too large", e);
        }
    }

    /** The shortest exact spelling that {@link #duration} reads back to the same value. */
    static String format(Duration d) {
        long[] unitNanos = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L,
                1_000_000L, 1_000L};
        String[] units = {"d", "h", "m", "s", "ms", "us"};
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return d.toSeconds() + "s";
        }
        for (int i = 0; i < units.length; i++) {
            if (nanos != 0 && nanos % unitNanos[i] == 0) {
                return nanos / unitNanos[i] + units[i];
            }
        }
        return nanos + (nanos == 0 ? "s" : "ns");
    }

    private static final Pattern SIZE = Pattern.compile("([0-9]{1,19})\\s*(B|KiB|MiB|GiB)");

    /** A size in bytes: a whole number and a unit, B, KiB, MiB or GiB (4MiB). */
    static long size(String key, String value) {
        String v = value.trim();
        Matcher m = SIZE.matcher(v);
        if (!m.matches()) {
            throw new ConfigException(key, key + ": '" + v + "' is not a size; use a whole number with a unit: "
                    + "B, KiB, MiB or GiB (e.g. 4MiB)");
        }
        try {
            long n = Long.parseLong(m.group(1));
            int shift = switch (m.group(2)) {
                case "B" -> 0;
                case "KiB" -> 10;
                case "MiB" -> 20;
                case "GiB" -> 30;
                default -> throw new AssertionError(m.group(2));
            };
            if (n > (Long.MAX_VALUE >> shift)) {
                throw new ArithmeticException();
            }
            return n << shift;
        } catch (ArithmeticException | NumberFormatException e) {
            throw new ConfigException(key, key + ": '" + v + "' is too large", e);
        }
    }

    /** The shortest exact spelling that {@link #size} reads back to the same value. */
    static String formatSize(long bytes) {
        String[] units = {"GiB", "MiB", "KiB"};
        int[] shifts = {30, 20, 10};
        for (int i = 0; i < units.length; i++) {
            if (bytes != 0 && bytes % (1L << shifts[i]) == 0) {
                return (bytes >> shifts[i]) + units[i];
            }
        }
        return bytes + "B";
    }

    static void checkSizeRange(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new ConfigException(key, key + ": " + formatSize(value) + " is out of range; allowed "
                    + formatSize(min) + " to " + formatSize(max));
        }
    }

    static int integer(String key, String value) {
        String v = value.trim();
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(key, key + ": '" + v + "' is not a whole number");
        }
    }

    static boolean bool(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new ConfigException(key, key + ": '" + value.trim() + "' is not a boolean; use true or false");
    }

    static String host(String key, String value) {
        String v = value.trim();
        if (v.startsWith("[") && v.endsWith("]")) {
            v = v.substring(1, v.length() - 1);
        }
        if (v.isEmpty() || !HOST.matcher(v).matches()) {
            throw new ConfigException(key, key + ": '" + value.trim() + "' is not a host name or IP address");
        }
        return v;
    }

    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,31}");

    /** A group name or number, or empty (none); resolved against the system's groups at start-up. */
    static String group(String key, String value) {
        String v = value.strip();
        if (!v.isEmpty() && !GROUP.matcher(v).matches()) {
            throw new ConfigException(key, key + ": " + v + " is not a group name or number");
        }
        return v;
    }

    /** {@code any}, {@code owner}, or a comma-separated list of user names and uids. */
    static String access(String key, String value) {
        String v = value.strip();
        if (v.equals("any") || v.equals("owner")) {
            return v;
        }
        List<String> users = new ArrayList<>();
        for (String u : v.split(",", -1)) {
            String user = u.strip();
            if (!GROUP.matcher(user).matches()) {
                throw new ConfigException(key, key + ": '" + user + "' is not a user name or uid; use any, owner,"
                        + " or a comma-separated list of users, e.g. owner or prometheus,1000");
            }
            users.add(user);
        }
        return String.join(",", users);
    }

    /** Loopback without a DNS lookup: "localhost" or a loopback IP literal. A host name is not. */
    static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        boolean literal = host.contains(":") || host.matches("[0-9.]+");
        if (!literal) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    static void checkRange(String key, Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new ConfigException(key, key + ": " + format(value) + " is out of range; allowed "
                    + format(min) + " to " + format(max));
        }
    }

    static void checkRange(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new ConfigException(key, key + ": " + value + " is out of range; allowed " + min + " to " + max);
        }
    }
}
