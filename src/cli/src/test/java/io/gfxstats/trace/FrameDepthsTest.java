package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The display depth rule (spec 3.3 rule 9) on rows that overlap in every way it distinguishes. */
class FrameDepthsTest {
    private static int actual(FrameTable t, int ipid, long start, long end) {
        int r = t.append(start, ipid, 1, FrameTable.INVALID32, 0);
        t.setEnd(r, end, FrameTable.INVALID);
        return r;
    }

    @Test
    void shouldStackOverlappingFramesPerProcessAndTypeSkippingInvalidOnes() {
        FrameTable t = new FrameTable();
        int first = actual(t, 1, 10, 20);
        int overlapping = actual(t, 1, 15, 30);
        int afterFirst = actual(t, 1, 25, 40);
        int insideBoth = actual(t, 1, 26, 27);
        int otherProcess = actual(t, 2, 12, 13);
        int expected = t.appendExpected(11, 12, 1, 1, FrameTable.INVALID32, 0);
        int invalid = actual(t, 1, 28, 29);
        int afterInside = actual(t, 1, 28, 50);

        t.finish(0, new int[] {invalid}, 1);

        assertEquals(0, t.depth(first));
        assertEquals(1, t.depth(overlapping), "starts before the first ends");
        assertEquals(0, t.depth(afterFirst), "the first level is free again");
        assertEquals(2, t.depth(insideBoth), "both levels still busy");
        assertEquals(0, t.depth(otherProcess), "each process stacks on its own");
        assertEquals(0, t.depth(expected), "expected rows stack apart from actual ones");
        assertEquals(0, t.depth(invalid), "flag-2 rows take no level");
        assertEquals(2, t.depth(afterInside), "the level the invalid row would have taken");
    }
}
