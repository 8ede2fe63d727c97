package io.gfxstats.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void shouldWriteNamesThatCannotEndTheScriptElementAndReadBackUnchanged() {
        String hostile = "a</script><!--<script>alert(1)</script>\u2028&'=\"\\";
        String text = new Json().open('{').key("scene").value(hostile).key("n").value(3.0).key("x").value(0.25)
                .key("none").value(Double.NaN).key("v").values(new long[] {1, 2}).close('}').toString();
        assertFalse(text.contains("<") || text.contains(">") || text.contains("\u2028"), text);
        JsonObject o = JsonParser.parseString(text).getAsJsonObject();
        assertEquals(hostile, o.get("scene").getAsString());
        assertEquals("{\"scene\":", text.substring(0, 9));
        assertEquals("\"n\":3,\"x\":0.25,\"none\":null,\"v\":[1,2]}", text.substring(text.indexOf("\"n\"")));
    }
}
