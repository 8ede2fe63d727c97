package io.gfxstats.client;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The frame path's shape that its cost depends on (docs/benchmarks.md, "Session 35: no call on the
 * Java frame path"): {@link FrameRing#put(long, long, long, long, long)} is inlined into the
 * recording thread's loop only while its bytecode stays within C2's limit for a hot call
 * ({@code -XX:FreqInlineSize}, 325 bytes on x86-64 in JDK 17 and 25), and it calls no method of
 * its own but the one for a closed or full ring. Read from the class file as compiled, through the
 * JDK's own {@code javap}, so that an edit that crosses either line fails here rather than only in
 * a benchmark.
 */
class FrameRingShapeTest {
    /** C2's default {@code FreqInlineSize} on x86-64. */
    private static final int FREQ_INLINE_SIZE = 325;
    private static final String PUT = "void put(long, long, long, long, long);";
    /** An instruction of javap's listing: its offset, its mnemonic, the rest of the line. */
    private static final Pattern INSTRUCTION = Pattern.compile("^\\s+(\\d+): (\\w+)(.*)$");
    /** The method an invoke names in javap's comment; a method of the class itself has no owner. */
    private static final Pattern CALLEE = Pattern.compile("// (?:Interface)?Method ([\\w/$.<>]+):");

    @Test
    void shouldKeepTheFramePathWithinTheBytecodeC2InlinesAtAHotCall() throws Exception {
        List<String[]> code = instructions();
        String[] last = code.get(code.size() - 1);
        // put ends with its return, one byte long: the code's length is that offset and one.
        assertEquals("return", last[1], "FrameRing.put's last instruction");
        int length = Integer.parseInt(last[0]) + 1;
        assertTrue(length <= FREQ_INLINE_SIZE, "FrameRing.put is " + length + " bytes of bytecode; over "
                + FREQ_INLINE_SIZE + " C2 no longer inlines it into the recording thread's loop");
    }

    @Test
    void shouldCallNothingOnTheFramePathButTheVarHandlesAndTheClosedOrFullRing() throws Exception {
        List<String> calls = new ArrayList<>();
        for (String[] instruction : instructions()) {
            Matcher m = CALLEE.matcher(instruction[2]);
            if (instruction[1].startsWith("invoke") && m.find()) {
                String callee = m.group(1).contains(".") ? m.group(1) : "io/gfxstats/client/FrameRing." + m.group(1);
                if (!callee.startsWith("java/lang/invoke/VarHandle.")) {
                    calls.add(callee);
                }
            }
        }
        assertEquals(List.of("io/gfxstats/client/FrameRing.putBlocked"), calls);
    }

    /** FrameRing.put's instructions as javap lists them: offset, mnemonic, rest of the line. */
    private static List<String[]> instructions() throws URISyntaxException {
        ToolProvider javap = ToolProvider.findFirst("javap")
                .orElseThrow(() -> new AssertionError("the JDK's javap (module jdk.jdeps) is needed"));
        Path classes = Path.of(FrameRing.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = javap.run(new PrintWriter(out), new PrintWriter(err), "-c", "-p", "-cp", classes.toString(),
                FrameRing.class.getName());
        assertEquals(0, rc, "javap: " + err);
        List<String[]> code = new ArrayList<>();
        boolean inPut = false;
        for (String line : out.toString().split("\n")) {
            if (line.strip().equals(PUT)) {
                inPut = true;
            } else if (inPut && line.isBlank()) {
                break;
            } else if (inPut) {
                Matcher m = INSTRUCTION.matcher(line);
                if (m.matches()) {
                    code.add(new String[] {m.group(1), m.group(2), m.group(3)});
                }
            }
        }
        assertFalse(code.isEmpty(), "javap lists no " + PUT + " in FrameRing");
        return code;
    }
}
