package io.gfxstats.json;

import java.util.Locale;

/**
 * JSON string literals for the writers that build their JSON by hand (collect's status report,
 * trace's frames), so both escape alike. Matrix's reports and the HTML report escape on purpose
 * differently (Android's JSONObject; safe inside a script element) and keep their own.
 */
public final class JsonText {
    private JsonText() {
    }

    /** {@code s} as a JSON string literal, quotes included. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
