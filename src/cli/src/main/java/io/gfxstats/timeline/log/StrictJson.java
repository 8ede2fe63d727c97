package io.gfxstats.timeline.log;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.internal.LazilyParsedNumber;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of strict JSON as a tree, with what Gson's own tree does not check: a key given twice
 * in one object is an error (Gson keeps the last silently), and numbers keep their text, so
 * {@code 2.2e7} can be told from an integer. Errors are our own words and a column, never Gson's
 * exception text.
 */
final class StrictJson {
    private static final Pattern COLUMN = Pattern.compile("column (\\d+)");
    private static final int MAX_DEPTH = 64;

    /** A line that is not one JSON value; the message is ready for the user. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    private StrictJson() {
    }

    static JsonElement parse(String text) throws Invalid {
        JsonReader reader = new JsonReader(new StringReader(text));
        reader.setStrictness(Strictness.STRICT);
        try {
            JsonElement value = value(reader, 0);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new Invalid("text after the JSON object" + at(reader));
            }
            return value;
        } catch (IOException | IllegalStateException | NumberFormatException e) {
            throw new Invalid("not valid JSON" + at(reader));
        }
    }

    private static JsonElement value(JsonReader reader, int depth) throws IOException, Invalid {
        if (depth > MAX_DEPTH) {
            throw new Invalid("JSON nested more than " + MAX_DEPTH + " deep" + at(reader));
        }
        switch (reader.peek()) {
            case BEGIN_OBJECT -> {
                JsonObject object = new JsonObject();
                reader.beginObject();
                while (reader.hasNext()) {
                    String name = reader.nextName();
                    if (object.has(name)) {
                        throw new Invalid("the key '" + name + "' is given twice in one object" + at(reader));
                    }
                    object.add(name, value(reader, depth + 1));
                }
                reader.endObject();
                return object;
            }
            case BEGIN_ARRAY -> {
                JsonArray array = new JsonArray();
                reader.beginArray();
                while (reader.hasNext()) {
                    array.add(value(reader, depth + 1));
                }
                reader.endArray();
                return array;
            }
            case STRING -> {
                return new JsonPrimitive(reader.nextString());
            }
            case NUMBER -> {
                return new JsonPrimitive(new LazilyParsedNumber(reader.nextString()));
            }
            case BOOLEAN -> {
                return new JsonPrimitive(reader.nextBoolean());
            }
            case NULL -> {
                reader.nextNull();
                return JsonNull.INSTANCE;
            }
            default -> throw new Invalid("not valid JSON" + at(reader));
        }
    }

    /** " at column N" from the reader's position (its own description, of which only the column is used). */
    private static String at(JsonReader reader) {
        Matcher m = COLUMN.matcher(reader.toString());
        return m.find() ? " at column " + m.group(1) : "";
    }
}
