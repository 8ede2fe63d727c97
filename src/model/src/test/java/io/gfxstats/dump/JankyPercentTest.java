package io.gfxstats.dump;

import static io.gfxstats.dump.TestProtos.entry;
import static io.gfxstats.dump.TestProtos.summary;
import static io.gfxstats.dump.TestProtos.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JankyPercentTest {

    private static String jankyLine(int janky, int total) {
        String block = text(DumpFormat.ANDROID14, List.of(entry("p", summary(total, janky), Map.of(), Map.of()).build()));
        int from = block.indexOf("\nJanky frames: ");
        return block.substring(from, block.indexOf('\n', from + 1));
    }

    @Test
    void shouldRoundOneOf32HalfToEvenLikeCPrintf() {
        assertEquals("\nJanky frames: 1 (3.12%)", jankyLine(1, 32));
        // The trap this guards against: Java's formatter rounds the tie up.
        assertEquals("3.13", String.format(Locale.ROOT, "%.2f", 3.125f));
    }

    @Test
    void shouldRoundFiveOf32HalfToEvenLikeCPrintf() {
        assertEquals("\nJanky frames: 5 (15.62%)", jankyLine(5, 32));
        assertEquals("15.63", String.format(Locale.ROOT, "%.2f", 15.625f));
    }

    @Test
    void shouldPrintNanForZeroOfZero() {
        assertEquals("\nJanky frames: 0 (nan%)", jankyLine(0, 0));
    }

    @Test
    void shouldFormatNonFiniteAndSignedValuesAsPrintf() {
        assertEquals("inf", JankyPercent.format(JankyPercent.of(3, 0)));
        assertEquals("-inf", JankyPercent.format(JankyPercent.of(-3, 0)));
        assertEquals("nan", JankyPercent.format(Float.NaN));
        assertEquals("-0.00", JankyPercent.format(-0.0f));
        assertEquals("-0.00", JankyPercent.format(-0.004f));
        assertEquals("0.00", JankyPercent.format(0.0f));
        assertEquals("100.00", JankyPercent.format(JankyPercent.of(7, 7)));
        // Exact binary value of 0.125f is a tie at 3 decimals only; at 2 it rounds to 0.12.
        assertEquals("0.12", JankyPercent.format(0.125f));
        assertEquals("0.38", JankyPercent.format(0.375f));
    }

    @Test
    void shouldComputeInFloatNotDouble() {
        // 1.0f/3.0f rounds up to 0.33333334f, and times 100.0f to 33.333336f; in double the product
        // would round to 33.333332f. Janky counts beyond 2^24 lose precision exactly as on a device.
        assertEquals(33.333336f, JankyPercent.of(1, 3));
        assertEquals(33.333332f, (float) (1.0 / 3.0 * 100.0));
        assertEquals((float) 16777217 / (float) 16777219 * 100.0f, JankyPercent.of(16777217, 16777219));
        assertEquals("100.00", JankyPercent.format(JankyPercent.of(16777217, 16777218)));
    }

    @Test
    void shouldMatchAnIndependentExactRoundingForEveryPairUpTo2000Frames() {
        int differsFromJavaFormat = 0;
        for (int total = 0; total <= 2000; total++) {
            for (int janky = 0; janky <= total; janky++) {
                float value = (float) janky / (float) total * 100.0f;
                String expected = total == 0 ? "nan" : exactTwoDecimals(value);
                String actual = JankyPercent.format(JankyPercent.of(janky, total));
                if (!expected.equals(actual)) {
                    assertEquals(expected, actual, janky + "/" + total);
                }
                if (total != 0 && total <= 300 && !expected.equals(String.format(Locale.ROOT, "%.2f", value))) {
                    differsFromJavaFormat++;
                }
            }
        }
        // The check is meaningful: a half-up formatter would fail on these pairs.
        assertTrue(differsFromJavaFormat > 10, "pairs where half-up differs: " + differsFromJavaFormat);
    }

    /**
     * Rounds a finite, non-negative float to two decimals half-to-even from its bits, with
     * integer arithmetic only: value = m * 2^e exactly, so value * 100 = m * 100 / 2^-e.
     */
    static String exactTwoDecimals(float value) {
        int bits = Float.floatToRawIntBits(value);
        int biased = (bits >>> 23) & 0xFF;
        long mantissa = bits & 0x7FFFFF;
        int exponent;
        if (biased == 0) {
            exponent = -149;
        } else {
            mantissa |= 0x800000;
            exponent = biased - 150;
        }
        long scaled = mantissa * 100;
        long hundredths;
        if (mantissa == 0) {
            hundredths = 0;
        } else if (exponent >= 0) {
            hundredths = scaled << exponent;
        } else {
            int shift = -exponent;
            if (shift > 60) {
                throw new IllegalArgumentException("value too small for this check: " + value);
            }
            long q = scaled >> shift;
            long rem = scaled - (q << shift);
            long half = 1L << (shift - 1);
            if (rem > half || (rem == half && (q & 1) == 1)) {
                q++;
            }
            hundredths = q;
        }
        long frac = hundredths % 100;
        return (hundredths / 100) + "." + (frac < 10 ? "0" : "") + frac;
    }
}
