package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.TestData;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real HarmonyOS capture of src/test/resources/testdata/openharmony-trace (expected values from its README). */
class RealTraceTest {
    static final Path EXCERPT = TestData.file("openharmony-trace", "codrax-donghu-rs-excerpt.ftrace");

    /** The README's table: vsyncId, actual B, actual E, dur, now, expectedEnd, flag. */
    static final long[][] README = {
            {475870, 13762796290000L, 13762798944000L, 2654000, 13762795961748L, 13762813145106L, 0},
            {475871, 13762807303000L, 13762810079000L, 2776000, 13762807054883L, 13762824238241L, 0},
            {475873, 13762829808000L, 13762833678000L, 3870000, 13762829234680L, 13762846418038L, 0},
            {475874, 13762840584000L, 13762845792000L, 5208000, 13762840327108L, 13762857510466L, 0},
            {475876, 13762862720000L, 13762865166000L, 2446000, 13762862510265L, 13762879693623L, 0},
            {475878, 13762896085000L, 13762898282000L, 2197000, 13762895789112L, 13762912972470L, 0},
            {475879, 13762907189000L, 13762912064000L, 4875000, 13762906882012L, 13762924065370L, 0},
            {475881, 13762929990000L, 13762933822000L, 3832000, 13762929066359L, 13762946249717L, 0},
            {475883, 13762962670000L, 13762964938000L, 2268000, 13762962342858L, 13762979526216L, 0},
            {475885, 13762984872000L, 13762988131000L, 3259000, 13762984526155L, 13763001709513L, 0},
            {475886, 13762995902000L, 13762998516000L, 2614000, 13762995618426L, 13763012801784L, 0},
    };

    static Trace parse(ClockOffset clock) throws Exception {
        try (InputStream in = Files.newInputStream(EXCERPT)) {
            return TraceParser.parse(in, "excerpt", clock, null);
        }
    }

    @Test
    void shouldGiveTheElevenRenderServiceFramesOfTheReadme() throws Exception {
        Trace trace = parse(ClockOffset.NONE);
        FrameTable t = trace.table();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < README.length; i++) {
            long[] f = README[i];
            expected.add((2 * i) + " " + f[1] + " " + f[3] + " " + f[0] + " 0 " + f[6] + " - N");
            expected.add((2 * i + 1) + " " + f[4] + " " + (f[5] - f[4]) + " " + f[0] + " 1 N - N");
            assertEquals(f[2], f[1] + f[3]);
            assertEquals(17_183_358L, f[5] - f[4], "2 x 11091679 - 5000000");
        }
        assertEquals(expected, Rows.frames(t));
        assertEquals(List.of(), Rows.maps(t));
        assertEquals(List.of(), Rows.gpu(t));
        for (int r = 0; r < t.size(); r += 2) {
            assertTrue(t.isRender(r));
            assertEquals(1864, trace.thread(t.itid(r)).tid());
            assertEquals(1864, trace.process(t.ipid(r)).pid());
            assertEquals("render_service", trace.process(t.ipid(r)).name());
        }
    }

    @Test
    void shouldFindTheClocksInAgreement() throws Exception {
        Trace trace = parse(ClockOffset.AUTO);
        assertEquals(49_434L, trace.clockOffset().nanos(), "min(line ts - now) over the H:VSync now: lines");
        for (int r = 0; r < trace.table().size(); r += 2) {
            assertEquals(0, trace.table().flag(r));
        }
        assertEquals(README[0][4] + 49_434L, trace.table().ts(1));
    }

    @Test
    void shouldLinkTheAndroidContainerFrameByPayloadPid() throws Exception {
        Trace trace = parse(ClockOffset.AUTO);
        AndroidFrames.Frame frame = trace.androidFrames().stream().filter(f -> f.doFrame().vsyncId == 641493)
                .findFirst().orElseThrow();
        assertNotNull(frame.drawFrames(), "doFrame 641493 -> DrawFrames 641493");
        assertEquals(641493, frame.drawFrames().vsyncId);
        assertEquals(37722, frame.doFrame().pid);
        assertEquals(17267, frame.doFrame().tid);
        assertEquals(17597, frame.drawFrames().tid);
        assertEquals(13762792311000L, frame.doFrame().start);
        assertEquals(13762793959000L, frame.drawFrames().start);
        ProcessInfo app = trace.processes().stream().filter(p -> p.pid() == 37722).findFirst().orElseThrow();
        assertEquals(17267, app.kernelTgid());
        assertEquals(".ugc.aweme.lite", app.name());
        TraceFrames.ProcessFrames pf = TraceFrames.of(trace, 16_666_667L).stream().filter(p -> p.pid() == 37722)
                .findFirst().orElseThrow();
        TraceFrame f = pf.frames().stream().filter(x -> x.vsyncId() == 641493).findFirst().orElseThrow();
        assertEquals("android", f.role());
        assertTrue(f.linked());
        assertEquals(frame.drawFrames().end, f.renderEnd());
    }
}
