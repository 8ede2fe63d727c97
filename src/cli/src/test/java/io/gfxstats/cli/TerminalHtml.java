package io.gfxstats.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tmux pane captured with its escapes ({@code capture-pane -e -p}) as an HTML page that draws
 * it as a terminal would: the xterm-256 colours, bold and reverse video, one monospace cell per
 * character. For pictures of {@code top} in the docs, rendered by headless Chromium.
 */
final class TerminalHtml {
    static final String DEFAULT_FG = "#d0d0d0";
    static final String DEFAULT_BG = "#121212";

    private TerminalHtml() {
    }

    /** The page; {@link #text} of the same capture is what it shows. */
    static String page(String captured, int columns, int rows) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>")
                .append("html,body{margin:0;background:").append(DEFAULT_BG).append('}')
                .append("pre{margin:0;padding:8px;font:15px/18px 'DejaVu Sans Mono',monospace;color:").append(DEFAULT_FG)
                .append(";width:").append(columns).append("ch;height:").append(rows * 18).append("px}")
                .append("</style></head><body><pre>");
        String fg = null;
        String bg = null;
        boolean bold = false;
        boolean reverse = false;
        boolean open = false;
        int i = 0;
        while (i < captured.length()) {
            char c = captured.charAt(i);
            if (c == '\u001b' && i + 1 < captured.length() && captured.charAt(i + 1) == '[') {
                int end = i + 2;
                while (end < captured.length() && !Character.isLetter(captured.charAt(end))) {
                    end++;
                }
                if (end < captured.length() && captured.charAt(end) == 'm') {
                    List<Integer> codes = codes(captured.substring(i + 2, end));
                    for (int k = 0; k < codes.size(); k++) {
                        int code = codes.get(k);
                        if (code == 0) {
                            fg = null;
                            bg = null;
                            bold = false;
                            reverse = false;
                        } else if (code == 1) {
                            bold = true;
                        } else if (code == 22) {
                            bold = false;
                        } else if (code == 7) {
                            reverse = true;
                        } else if (code == 27) {
                            reverse = false;
                        } else if ((code == 38 || code == 48) && k + 2 < codes.size() && codes.get(k + 1) == 5) {
                            String colour = xterm(codes.get(k + 2));
                            if (code == 38) {
                                fg = colour;
                            } else {
                                bg = colour;
                            }
                            k += 2;
                        } else if (code >= 30 && code <= 37) {
                            fg = xterm(code - 30);
                        } else if (code >= 90 && code <= 97) {
                            fg = xterm(code - 90 + 8);
                        } else if (code >= 40 && code <= 47) {
                            bg = xterm(code - 40);
                        } else if (code == 39) {
                            fg = null;
                        } else if (code == 49) {
                            bg = null;
                        }
                    }
                    if (open) {
                        h.append("</span>");
                    }
                    String f = fg == null ? DEFAULT_FG : fg;
                    String b = bg == null ? DEFAULT_BG : bg;
                    h.append("<span style=\"color:").append(reverse ? b : f).append(";background:")
                            .append(reverse ? f : b).append(bold ? ";font-weight:bold" : "").append("\">");
                    open = true;
                }
                i = end + 1;
                continue;
            }
            switch (c) {
                case '<' -> h.append("&lt;");
                case '>' -> h.append("&gt;");
                case '&' -> h.append("&amp;");
                default -> h.append(c);
            }
            i++;
        }
        if (open) {
            h.append("</span>");
        }
        return h.append("</pre></body></html>\n").toString();
    }

    /** The capture without its escapes: the characters the page shows. */
    static String text(String captured) {
        return captured.replaceAll("\u001b\\[[0-9;:]*[A-Za-z]", "");
    }

    private static List<Integer> codes(String params) {
        List<Integer> out = new ArrayList<>();
        for (String p : params.split("[;:]", -1)) {
            out.add(p.isEmpty() ? 0 : Integer.parseInt(p));
        }
        return out;
    }

    /** The colour of an xterm-256 index. */
    static String xterm(int n) {
        int[] base = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
            0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
        int rgb;
        if (n < 16) {
            rgb = base[n];
        } else if (n < 232) {
            int[] level = {0, 95, 135, 175, 215, 255};
            int v = n - 16;
            rgb = level[v / 36] << 16 | level[v / 6 % 6] << 8 | level[v % 6];
        } else {
            int g = 8 + 10 * (n - 232);
            rgb = g << 16 | g << 8 | g;
        }
        return String.format(Locale.ROOT, "#%06x", rgb);
    }
}
