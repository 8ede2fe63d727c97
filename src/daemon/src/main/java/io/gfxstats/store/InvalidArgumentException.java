package io.gfxstats.store;

import io.gfxstats.stats.PackageRules;

/**
 * A caller-supplied value (package name, version code, day) that the store refuses. The RPC layer
 * maps it to {@code Status.INVALID_ARGUMENT.withDescription(getMessage())}; the message names the
 * field and shows the offending value with control characters escaped, so it is safe to log and
 * to send back.
 */
public final class InvalidArgumentException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidArgumentException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    /** The request field at fault, e.g. {@code package_name}. */
    public String field() {
        return field;
    }

    /** A value quoted for an error message ({@link PackageRules#quote}). */
    static String quote(String value) {
        return PackageRules.quote(value);
    }
}
