package io.gfxstats.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineInputTest {
    private static List<String> lines(InputStream in) throws IOException {
        List<String> out = new ArrayList<>();
        LineInput.pump(in, new LineInput.Handler() {
            @Override
            public void line(byte[] buf, int from, int to, long lineNo) {
                out.add(lineNo + ":" + new String(buf, from, to - from, StandardCharsets.US_ASCII));
            }

            @Override
            public void overlong(long lineNo) {
                out.add(lineNo + ":<overlong>");
            }
        });
        return out;
    }

    @Test
    void shouldSplitLinesAcrossReadsAndKeepALastLineWithoutNewline() throws IOException {
        // One byte per read: every line is split across reads.
        InputStream trickle = new ByteArrayInputStream("a,1\n\nb,2\nc".getBytes(StandardCharsets.US_ASCII)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
        assertEquals(List.of("1:a,1", "2:", "3:b,2", "4:c"), lines(trickle));
    }

    @Test
    void shouldSkipALineLongerThanTheLimitWholeAndGoOn() throws IOException {
        String text = "x".repeat(LineInput.MAX_LINE * 2 + 5) + "\nok\n";
        assertEquals(List.of("1:<overlong>", "2:ok"),
                lines(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII))));
    }
}
