package io.gfxstats.matrix;

/**
 * JSON text exactly as Android's {@code org.json.JSONObject.toString()} prints it, for the
 * shapes Matrix reports use: objects with keys in insertion order and no spaces; a double that
 * equals its long value prints as that long ({@code 60}, not {@code 60.0}), other doubles as
 * {@link Double#toString}; strings escape {@code "}, {@code \}, {@code /}, the C0 controls and
 * U+2028/U+2029. Not a general JSON library: the bytes Matrix's reports have, plus arrays,
 * booleans and null for gfxstats' own JSON lines.
 */
public final class AndroidJson {
    private final StringBuilder out = new StringBuilder(768);
    private boolean needComma;
    private boolean afterKey;

    private void separate() {
        if (needComma && !afterKey) {
            out.append(',');
        }
        afterKey = false;
    }

    public AndroidJson beginObject() {
        separate();
        out.append('{');
        needComma = false;
        return this;
    }

    public AndroidJson endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    public AndroidJson beginArray() {
        separate();
        out.append('[');
        needComma = false;
        return this;
    }

    public AndroidJson endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    public AndroidJson key(String name) {
        separate();
        string(name);
        out.append(':');
        afterKey = true;
        return this;
    }

    public AndroidJson value(long v) {
        separate();
        out.append(v);
        needComma = true;
        return this;
    }

    /** A double (a float is widened first, as Android's {@code put(String, double)} does). */
    public AndroidJson value(double v) {
        separate();
        out.append(number(v));
        needComma = true;
        return this;
    }

    public AndroidJson value(boolean v) {
        separate();
        out.append(v);
        needComma = true;
        return this;
    }

    /** A string, or null. */
    public AndroidJson value(String s) {
        separate();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        needComma = true;
        return this;
    }

    public AndroidJson nullValue() {
        separate();
        out.append("null");
        needComma = true;
        return this;
    }

    /** How Android's JSONObject prints a double: integral values without a fraction. */
    public static String number(double v) {
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
