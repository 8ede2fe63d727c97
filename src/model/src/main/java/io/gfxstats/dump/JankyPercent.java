package io.gfxstats.dump;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The janky-frame percentage of a dump line, {@code "Janky frames: %d (%.2f%%)"}, computed and
 * printed exactly as a C program on the device does.
 *
 * <p>The value is computed in 32-bit float. C's {@code %.2f} then prints the exact binary value of
 * that float (promoted to double without change) rounded half-to-even, so 1/32 = 3.125f prints
 * {@code 3.12}. Java's {@code String.format} rounds half-up and would print 3.13.
 */
public final class JankyPercent {
    private JankyPercent() {
    }

    /** {@code (float) janky / (float) total * 100.0f}; the inputs are the proto's int32 counters. */
    public static float of(int janky, int total) {
        return (float) janky / (float) total * 100.0f;
    }

    /**
     * {@code value} as C's {@code printf("%.2f", (double) value)} prints it: {@code nan},
     * {@code inf}, {@code -inf}, and a sign kept for negative zero and values that round to zero.
     */
    public static String format(float value) {
        if (Float.isNaN(value)) {
            return "nan";
        }
        boolean negative = Float.floatToRawIntBits(value) < 0;
        if (Float.isInfinite(value)) {
            return negative ? "-inf" : "inf";
        }
        // new BigDecimal(double) is the exact binary value; the float -> double widening is exact too.
        String digits = new BigDecimal(Math.abs((double) value)).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
        return negative ? "-" + digits : digits;
    }
}
