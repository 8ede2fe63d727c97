package io.gfxstats.matrix;

/**
 * JSON text exactly as Android's {@code org.json.JSONObject.toString()} prints it, for the
 * shapes Matrix reports use: objects with keys in insertion order and no spaces; a double that
 * equals its long value prints as that long ({@code 60}, not {@code 60.0}), other doubles as
 * {@link Double#toString}; strings escape {@code "}, {@code \}, {@code /}, the C0 controls and
 * U+2028/U+2029. Not a general JSON library: just the bytes Matrix's reports have.
 */
final class AndroidJson {
    private final StringBuilder out = new StringBuilder(768);
    private boolean first = true;

    AndroidJson beginObject() {
        out.append('{');
        first = true;
        return this;
    }

    AndroidJson endObject() {
        out.append('}');
        first = false;
        return this;
    }

    AndroidJson key(String name) {
        if (!first) {
            out.append(',');
        }
        string(name);
        out.append(':');
        first = true; // a value follows, no comma before it
        return this;
    }

    AndroidJson value(long v) {
        out.append(v);
        first = false;
        return this;
    }

    /** A double (a float is widened first, as Android's {@code put(String, double)} does). */
    AndroidJson value(double v) {
        out.append(number(v));
        first = false;
        return this;
    }

    AndroidJson value(String s) {
        string(s);
        first = false;
        return this;
    }

    /** How Android's JSONObject prints a double: integral values without a fraction. */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("JSON has no " + v);
        }
        if (v == 0 && Double.doubleToRawLongBits(v) != 0) {
            return "-0";
        }
        long l = (long) v;
        if (v == (double) l) {
            return Long.toString(l);
        }
        return Double.toString(v);
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"', '\\', '/' -> out.append('\\').append(c);
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c <= 0x1F || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
