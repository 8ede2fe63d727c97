package io.gfxstats.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CsvLongsTest {
    private static int parse(String line, long[] out) {
        byte[] b = ("xx" + line + "yy").getBytes(StandardCharsets.US_ASCII);
        return CsvLongs.parse(b, 2, b.length - 2, out);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1,2,3|1 2 3",
        "' 1 , -2,3 ,'|1 -2 3",
        "9223372036854775807,0|9223372036854775807 0",
        "-9223372036854775807|-9223372036854775807",
        "''|''",
    })
    void shouldReadWholeNumbers(String line, String expected) {
        long[] out = new long[8];
        long[] want = expected.isEmpty() ? new long[0]
                : Arrays.stream(expected.split(" ")).mapToLong(Long::parseLong).toArray();
        assertEquals(want.length, parse(line, out));
        assertArrayEquals(want, Arrays.copyOf(out, want.length));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1,x,3|1",
        "1,,3|1",
        "9223372036854775808|0",
        "99999999999999999999|0",
        "1,2.5|1",
        "1 2|0",
        "-|0",
        "1,2,3,4,5,6,7,8,9|8",
    })
    void shouldNameTheFirstBadValue(String line, int badIndex) {
        assertEquals(-1 - badIndex, parse(line, new long[8]));
    }
}
