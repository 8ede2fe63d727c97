package io.gfxstats.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SceneFrameCounterTest {
    private static void same(float d) {
        if (SceneFrameCounter.round(d) != Math.round(d)) {
            assertEquals(Math.round(d), SceneFrameCounter.round(d), "round(" + d + ") bits " + Float.floatToIntBits(d));
        }
    }

    @Test
    void shouldRoundExactlyAsMathRoundForEveryNonNegativeDroppedFrameCount() {
        for (int bits = Float.floatToIntBits(0.25f); bits <= Float.floatToIntBits(64f); bits++) {
            same(Float.intBitsToFloat(bits));
        }
        for (int k = 0; k < 1 << 24; k++) {
            float half = k + 0.5f;
            float f = half;
            for (int i = 0; i < 4; i++) {
                same(f);
                f = Math.nextDown(f);
            }
            f = half;
            for (int i = 0; i < 4; i++) {
                same(f);
                f = Math.nextUp(f);
            }
        }
        for (float f : new float[] {0f, Float.MIN_VALUE, 0.49999997f, 0.5f, 1e-30f, 2.1474836E9f, 3e9f, 1e38f,
                Float.MAX_VALUE, Float.POSITIVE_INFINITY}) {
            same(f);
        }
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 10_000_000; i++) {
            same(Float.intBitsToFloat(random.nextInt(0, 0x7f800001)));
        }
    }
}
