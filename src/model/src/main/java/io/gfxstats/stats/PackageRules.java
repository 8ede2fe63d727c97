package io.gfxstats.stats;

import java.util.Optional;

/**
 * The one rule for the package names and version codes a stats entry is keyed by, used by the
 * client library (a session refuses at {@code open} what the daemon would refuse at
 * registration), the daemon (registration, dump requests) and the store (directory names).
 * docs/client-api.md, "Package names", explains the choices.
 *
 * <p>A package name is one or more segments separated by single dots; each segment is an ASCII
 * letter followed by ASCII letters, digits, {@code _} or {@code -}; at most {@value #MAX_LENGTH}
 * characters (the Linux limit for one file-name component). That is Android's rule plus
 * {@code -} inside a segment, because Linux programs are often named with one ({@code
 * gnome-shell}, {@code my-game}) and register under that name; Android never creates such a
 * name, so nothing Android writes is refused. A segment still starts with a letter, so a name
 * never looks like a command-line option, a numeric day or version directory, or a path trick.
 * This rules out, by construction, empty names, {@code .}, {@code ..}, leading/trailing/double
 * dots, path separators, NUL and other control characters, whitespace, and non-ASCII lookalikes
 * (Cyrillic {@code а}, fullwidth solidus, one-dot leader) that would render like a different
 * package.
 *
 * <p>Process suffixes such as {@code com.foo:bar} are refused: graphicsstats keys its data by
 * package, and all processes of one package/version share one entry, so a process name must not
 * create a second one.
 *
 * <p>A version code is Android's {@code longVersionCode}: an int64 that Android never makes
 * negative ((major &lt;&lt; 32) | minor, minor a positive int). Any value in
 * {@code [0, Long.MAX_VALUE]} is accepted.
 */
public final class PackageRules {
    public static final int MAX_LENGTH = 255;

    private PackageRules() {
    }

    public static boolean isValid(String name) {
        return problem(name).isEmpty();
    }

    /** What is wrong with a package name, in words (the name quoted), or empty when it is valid. */
    public static Optional<String> problem(String name) {
        if (name == null) {
            return Optional.of("missing");
        }
        if (name.isEmpty()) {
            return Optional.of("empty");
        }
        String q = quote(name);
        if (name.length() > MAX_LENGTH) {
            return Optional.of(q + " is " + name.length() + " characters long, the limit is " + MAX_LENGTH);
        }
        boolean segmentStart = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.') {
                if (segmentStart) {
                    return Optional.of(q + (i == 0 ? " starts with '.'" : " has an empty segment ('..') at index " + i));
                }
                segmentStart = true;
            } else if (isAsciiLetter(c)) {
                segmentStart = false;
            } else if (isAsciiDigit(c) || c == '_' || c == '-') {
                if (segmentStart) {
                    return Optional.of(q + " has a segment starting with '" + c + "' at index " + i
                            + "; each dot-separated segment must start with a letter");
                }
            } else {
                return Optional.of(q + " contains " + describe(c) + " at index " + i
                        + "; allowed are ASCII letters, digits, '_', '-' and '.' between segments");
            }
        }
        if (segmentStart) {
            return Optional.of(q + " ends with '.'");
        }
        return Optional.empty();
    }

    /** What is wrong with a version code, or empty when it is valid. */
    public static Optional<String> versionCodeProblem(long versionCode) {
        return versionCode < 0 ? Optional.of(versionCode + " is negative; version codes are 0 or more")
                : Optional.empty();
    }

    /**
     * A value quoted for an error message: printable ASCII as is, everything else as a
     * {@code \\uXXXX} escape (so a NUL, a newline or a lookalike letter is visible), and cut
     * after 80 characters so a megabyte-long name does not become a megabyte-long log line.
     */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        int limit = Math.min(value.length(), 80);
        for (int i = 0; i < limit; i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        sb.append('"');
        if (value.length() > limit) {
            sb.append("... (").append(value.length()).append(" chars)");
        }
        return sb.toString();
    }

    private static String describe(char c) {
        if (c == '/' || c == '\\') {
            return "a path separator '" + c + "'";
        }
        if (c == ':') {
            return "':' (process suffixes are not package names)";
        }
        if (c < 0x20 || c == 0x7f) {
            return String.format("control character U+%04X", (int) c);
        }
        if (c < 0x7f) {
            return "'" + c + "'";
        }
        return String.format("non-ASCII character U+%04X", (int) c);
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
