package io.gfxstats.store;

import java.util.Optional;

/**
 * Validation of the package names and version codes that become directory names of the store.
 *
 * <p>A package name is Android's: one or more segments separated by single dots, each segment an
 * ASCII letter followed by ASCII letters, digits or underscores; at most {@value #MAX_LENGTH}
 * characters (the Linux limit for one file-name component). Android does not require a dot for
 * our purposes (a Linux program may register as {@code glxgears}). This rules out, by
 * construction, empty names, {@code .}, {@code ..}, leading/trailing/double dots, path
 * separators, NUL and other control characters, whitespace, and non-ASCII lookalikes (Cyrillic
 * {@code а}, fullwidth solidus, one-dot leader) that would render like a different package.
 *
 * <p>Process suffixes such as {@code com.foo:bar} are rejected: graphicsstats keys its data by
 * package, and all processes of one package/version share one entry (spec 10), so a process
 * name must not create a second one. Because every segment starts with a letter, a package
 * directory can never be mistaken for a numeric day or version directory.
 *
 * <p>A version code is Android's {@code longVersionCode}: an int64 that Android never makes
 * negative ((major &lt;&lt; 32) | minor, minor a positive int). Any value in
 * {@code [0, Long.MAX_VALUE]} is accepted.
 */
public final class PackageNames {
    public static final int MAX_LENGTH = 255;
    public static final String PACKAGE_FIELD = "package_name";
    public static final String VERSION_FIELD = "version_code";

    private PackageNames() {
    }

    public static boolean isValid(String name) {
        return problem(name).isEmpty();
    }

    /** The name itself, or an {@link InvalidArgumentException} saying what is wrong with it. */
    public static String requireValid(String name) {
        Optional<String> problem = problem(name);
        if (problem.isPresent()) {
            throw new InvalidArgumentException(PACKAGE_FIELD, problem.get());
        }
        return name;
    }

    public static long requireValidVersionCode(long versionCode) {
        if (versionCode < 0) {
            throw new InvalidArgumentException(VERSION_FIELD, versionCode + " is negative; version codes are 0 or more");
        }
        return versionCode;
    }

    /** What is wrong with a package name, in words, or empty when it is valid. */
    public static Optional<String> problem(String name) {
        if (name == null) {
            return Optional.of("missing");
        }
        if (name.isEmpty()) {
            return Optional.of("empty");
        }
        String q = InvalidArgumentException.quote(name);
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
            } else if (isAsciiDigit(c) || c == '_') {
                if (segmentStart) {
                    return Optional.of(q + " has a segment starting with '" + c + "' at index " + i
                            + "; each dot-separated segment must start with a letter");
                }
            } else {
                return Optional.of(q + " contains " + describe(c) + " at index " + i
                        + "; allowed are ASCII letters, digits, '_' and '.' between segments");
            }
        }
        if (segmentStart) {
            return Optional.of(q + " ends with '.'");
        }
        return Optional.empty();
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
