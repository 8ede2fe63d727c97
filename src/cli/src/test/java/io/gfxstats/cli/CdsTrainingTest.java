package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The class-data archive is only as good as its training run: every path in it must work. */
class CdsTrainingTest {
    @Test
    void shouldRunEveryTrainedCommandSuccessfully() throws Exception {
        assertEquals(0, CdsTraining.train());
    }
}
