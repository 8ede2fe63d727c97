package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The dump path's archive is only as good as its training run: every dump in it must succeed. */
class DumpPathTrainingTest {
    @Test
    void shouldRunEveryTrainedDumpSuccessfullyAgainstAServerInAChildJvm() throws Exception {
        assertEquals(0, DumpPathTraining.train());
    }
}
