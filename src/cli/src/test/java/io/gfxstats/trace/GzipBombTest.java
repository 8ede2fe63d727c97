package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Issue 26, item 7: gzip input is read with a bound on how much text it may expand to. */
class GzipBombTest {
    private static final byte[] LINE = ("          <idle>-0     [000] d..2  1000.000000: sched_switch: prev_comm=swapper "
            + "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=RenderThread next_pid=4242 next_prio=110\n")
            .getBytes(StandardCharsets.US_ASCII);

    private static byte[] gzipOf(long textBytes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] block = new byte[LINE.length * 1000];
        for (int i = 0; i < 1000; i++) {
            System.arraycopy(LINE, 0, block, i * LINE.length, LINE.length);
        }
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
            for (long written = 0; written < textBytes; written += block.length) {
                gz.write(block);
            }
        }
        return out.toByteArray();
    }

    @Test
    void shouldRefuseGzipDataThatExpandsLikeABomb() throws Exception {
        byte[] bomb = gzipOf(100L << 20);
        assertTrue(bomb.length < 1 << 20, "compressed to " + bomb.length);
        long[] lines = {0};
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new LineScanner("bomb.gz")
                .scan(new ByteArrayInputStream(bomb), (b, s, t, n) -> lines[0]++, null));
        assertTrue(e.getMessage().startsWith("bomb.gz: gzip data expands more than 200 times ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("): not a trace"), e.getMessage());
        assertTrue(lines[0] * LINE.length <= (LineScanner.EXPANSION_FREE_BYTES + LineScanner.BLOCK_BYTES),
                "stopped soon after the free allowance: " + lines[0] + " lines");
    }

    @Test
    void shouldReadOrdinaryGzipTracesWhole() throws Exception {
        byte[] small = gzipOf(8L << 20);
        long[] lines = {0};
        new LineScanner("small.gz").scan(new ByteArrayInputStream(small), (b, s, t, n) -> lines[0]++, null);
        assertEquals((8L << 20) / (LINE.length * 1000L) * 1000 + ((8L << 20) % (LINE.length * 1000L) == 0 ? 0 : 1000),
                lines[0]);
    }
}
