package io.gfxstats.text;

/**
 * Strings from clients (scene and package names read from buffers and feeds) made safe to print
 * for a person: every control character - C0, DEL, C1, the Unicode line separators and the
 * bidirectional overrides - becomes a visible escape ({@code \e}, {@code \n}, {@code \x9b},
 * {@code \u202e}), and so does the backslash itself, so that an escape seen is never one the
 * client wrote. Otherwise a client could make a terminal run escape sequences (set the title,
 * clear the screen, recolour) or forge lines of output. Machine outputs (JSON, Prometheus labels)
 * escape with their own rules instead.
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** {@code s} itself when there is nothing to escape (the usual case: no copy). */
    public static String escape(String s) {
        int i = 0;
        while (i < s.length() && !needsEscape(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!needsEscape(c)) {
                b.append(c);
                continue;
            }
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 0x1b -> b.append("\\e");
                default -> b.append(c <= 0xff ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || c == '\\' || (c >= 0x7f && c <= 0x9f)
                || c == 0x2028 || c == 0x2029 // line and paragraph separators
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) // bidi embeddings, overrides
                || c == 0x061c || c == 0x200e || c == 0x200f; // bidi marks
    }
}
