package io.gfxstats.trace.output;

import io.gfxstats.trace.TraceFrame;
import java.util.Locale;

/** Number formatting shared by the text writers. */
final class Text {
    private Text() {
    }

    static String ms(long nanos) {
        return nanos == TraceFrame.UNKNOWN ? "-" : String.format(Locale.ROOT, "%.2fms", nanos / 1e6);
    }

    static String cell(long v) {
        return v == TraceFrame.UNKNOWN ? "" : Long.toString(v);
    }

    static String json(long v) {
        return v == TraceFrame.UNKNOWN ? "null" : Long.toString(v);
    }


    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
