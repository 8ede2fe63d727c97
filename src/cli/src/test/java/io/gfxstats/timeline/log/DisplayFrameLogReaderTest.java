package io.gfxstats.timeline.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** The reader behind {@code gfxstats timeline feed}: lines bounded as classify's are. */
class DisplayFrameLogReaderTest {
    private static final String FRAME = "{\"token\":1,\"prediction\":\"valid\",\"predicted\":{\"start\":22,\"end\":30,"
            + "\"present\":40},\"actual\":{\"start\":22,\"end\":26,\"present\":40},\"refresh_period\":11,"
            + "\"render_period\":11,\"output\":0,\"msc\":5}";

    /** A line that never ends: 'x' for ever. */
    private static final class Endless extends Reader {
        @Override
        public int read(char[] buf, int off, int len) {
            java.util.Arrays.fill(buf, off, off + len, 'x');
            return len;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void shouldRefuseAnEndlessLineInsteadOfReadingItIntoTheHeap() {
        DisplayFrameLogReader log = new DisplayFrameLogReader(new Endless());
        FrameLogException e = assertThrows(FrameLogException.class, log::next);
        assertTrue(e.getMessage().contains("line 1: longer than 4096 KiB"), e.getMessage());
    }

    @Test
    void shouldReadFramesAndSkipBlankLines() throws Exception {
        DisplayFrameLogReader log = new DisplayFrameLogReader(new StringReader(FRAME + "\n\n" + FRAME + "\r\n"));
        assertTrue(log.next());
        assertEquals(1, log.lineNumber());
        assertEquals(5, log.msc());
        assertTrue(log.next());
        assertEquals(3, log.lineNumber());
        assertFalse(log.next());
    }
}
