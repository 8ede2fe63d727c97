package io.gfxstats.store;

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

    /**
     * A value quoted for an error message: printable ASCII as is, everything else as a
     * {@code \\uXXXX} escape (so a NUL, a newline or a lookalike letter is visible), and cut
     * after 80 characters so a megabyte-long name does not become a megabyte-long log line.
     */
    static String quote(String value) {
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
}
