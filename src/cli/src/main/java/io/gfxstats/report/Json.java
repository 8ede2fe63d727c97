package io.gfxstats.report;

/** Just enough JSON for the report's data block; safe inside an HTML script element. */
final class Json {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    Json open(char c) {
        comma();
        sb.append(c);
        needComma = false;
        return this;
    }

    Json close(char c) {
        sb.append(c);
        needComma = true;
        return this;
    }

    Json key(String k) {
        comma();
        string(k);
        sb.append(':');
        needComma = false;
        return this;
    }

    Json value(String s) {
        comma();
        string(s);
        needComma = true;
        return this;
    }

    Json value(double v) {
        comma();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            sb.append("null");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            sb.append((long) v);
        } else {
            sb.append(v);
        }
        needComma = true;
        return this;
    }

    Json values(long[] vs) {
        open('[');
        for (long v : vs) {
            value(v);
        }
        return close(']');
    }

    private void comma() {
        if (needComma) {
            sb.append(',');
        }
    }

    private void string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                // < > & escaped so no "</script>" or "<!--" can end the script element early.
                case '<', '>', '&' -> sb.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
