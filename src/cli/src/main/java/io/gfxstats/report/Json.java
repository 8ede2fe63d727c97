package io.gfxstats.report;

import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The report's data block, written by Gson's streaming writer in its HTML-safe mode: {@code <},
 * {@code >}, {@code &}, {@code =} and {@code '} are escaped, so no {@code </script>} or
 * {@code <!--} in a package or scene name can end the script element early. A chaining front
 * for the report's writers; whole numbers are written without a fraction, NaN and infinities as null.
 */
final class Json {
    private final StringWriter text = new StringWriter();
    private final JsonWriter out = new JsonWriter(text);

    Json() {
        out.setHtmlSafe(true);
    }

    Json open(char c) {
        return write(() -> {
            if (c == '{') {
                out.beginObject();
            } else {
                out.beginArray();
            }
        });
    }

    Json close(char c) {
        return write(() -> {
            if (c == '}') {
                out.endObject();
            } else {
                out.endArray();
            }
        });
    }

    Json key(String k) {
        return write(() -> out.name(k));
    }

    Json value(String s) {
        return write(() -> out.value(s));
    }

    Json value(double v) {
        return write(() -> {
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                out.nullValue();
            } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                out.value((long) v);
            } else {
                out.value(v);
            }
        });
    }

    Json values(long[] vs) {
        open('[');
        for (long v : vs) {
            value(v);
        }
        return close(']');
    }

    private interface Step {
        void run() throws IOException;
    }

    private Json write(Step step) {
        try {
            step.run();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string", e);
        }
        return this;
    }

    @Override
    public String toString() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string", e);
        }
        return text.toString();
    }
}
