package io.gfxstats.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Issue 26: record's refusals name the field by position and quote it, never "value 1". */
class LineRecorderMessagesTest {
    private static String why(String line, int expected) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        long[] values = new long[expected];
        int n = CsvLongs.parse(b, 0, b.length, values);
        return LineRecorder.notANumber(b, 0, b.length, -1 - n, expected);
    }

    @Test
    void shouldQuoteTheFieldThatIsNotAWholeNumber() {
        assertEquals("field 1 ('1.5') is not a whole number of 64 bits", why("1.5,2,3,4,5", 5));
        assertEquals("field 3 ('oops') is not a whole number of 64 bits", why("1,2, oops ,4,5", 5));
        assertEquals("field 2 ('99999999999999999999') is not a whole number of 64 bits",
                why("1,99999999999999999999,3,4,5", 5));
    }

    @Test
    void shouldSayTooManyValuesRatherThanABadNumber() {
        assertEquals("has more than 5 values", why("1,2,3,4,5,6", 5));
    }

    @Test
    void shouldEscapeWhatItQuotes() {
        assertEquals("field 1 ('\\e[2J') is not a whole number of 64 bits", why("\u001b[2J,2,3,4,5", 5));
    }
}
