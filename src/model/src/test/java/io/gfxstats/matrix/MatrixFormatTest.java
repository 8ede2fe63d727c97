package io.gfxstats.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The real Matrix reports (src/test/resources/testdata/matrix, see its README for sources),
 * rebuilt from their values and compared byte for byte: key names and order per version,
 * integral doubles without ".0", a float fps printed as the double it widens to.
 */
class MatrixFormatTest {

    private static String real(String file) throws Exception {
        return Files.readString(TestData.file("matrix", file), StandardCharsets.UTF_8).strip();
    }

    private static int[] levels(int best, int normal, int middle, int high, int frozen) {
        return new int[] {best, normal, middle, high, frozen};
    }

    /** github.com/Tencent/matrix/issues/847 (2023-05-26), second report, Matrix 2.1.0. */
    @Test
    void shouldRebuildTheRealMatrix210ReportByteForByte() throws Exception {
        long[] durations = {1377531, 2399, 905243, 307483, 991190, 729489, 11868509, 1382197, 25069426, 6250504};
        MatrixReport report = new MatrixReport(new MatrixDevice("MIDDLE", 0, 3753299968L, 1220116), "xxx.xxx.xxx",
                levels(593, 3, 0, 0, 0), levels(258, 11, 0, 0, 0), 39.21251678466797f,
                durations, true, 1, 60, "com.voicechat.live.group", 1685088456120L);
        assertEquals(real("tencent-matrix-issue-847-v2.1.0.json"), MatrixFormat.V2_1.json(report));
        assertEquals(596, report.frames());
    }

    /** Same issue, first report, Matrix 2.0.8: FROZEN..BEST order, "fps":60 as an integer. */
    @Test
    void shouldRebuildTheRealMatrix208ReportByteForByte() throws Exception {
        MatrixReport report = new MatrixReport(new MatrixDevice("MIDDLE", 0, 3753299968L, 1159304), "xxx.xxx.xxx",
                levels(742, 1, 0, 0, 0), levels(4, 3, 0, 0, 0), 60f, null, false, 0, 0,
                "com.voicechat.live.group", 1685088286163L);
        assertEquals(real("tencent-matrix-issue-847-v2.0.8.json"), MatrixFormat.V2_0.json(report));
    }

    /** github.com/Tencent/matrix/issues/147 (2019-03-27), Matrix 0.5: the same shape as 2.0.x, a fractional cpu_app. */
    @Test
    void shouldRebuildTheRealMatrix05ReportByteForByte() throws Exception {
        MatrixReport report = new MatrixReport(new MatrixDevice("HIGH", 0.002791045673872224, 3926458368L, 161364),
                "sample.tencent.matrix.issue.IssuesListActivity", levels(61, 0, 0, 0, 0), levels(0, 0, 0, 0, 0), 60f,
                null, false, 0, 0, "sample.tencent.matrix", 1553675665018L);
        assertEquals(real("tencent-matrix-issue-147-v0.5.json"), MatrixFormat.V2_0.json(report));
    }

    /** The fps of the 2.1.0 report is a float: its double text is what Java prints for the widened float. */
    @Test
    void shouldPrintAFloatFpsAsTheDoubleItWidensTo() {
        float fps = 1e9f / 25_502_061f;
        assertEquals("39.21251678466797", AndroidJson.number(fps));
        assertEquals("60", AndroidJson.number(60f));
        assertEquals("0", AndroidJson.number(0.0));
        assertEquals("0.002791045673872224", AndroidJson.number(0.002791045673872224));
        assertThrows(IllegalArgumentException.class, () -> AndroidJson.number(Float.NaN));
    }

    /**
     * A public write-up of Matrix 2.0.2 (blog-matrix-2.0.2-MainActivity.txt): 505 frames whose
     * truncated cost summed to 12004 ms give fps 42.06930923461914; and 2.0.8's 743 frames at
     * about 12006 ms exceed 60 and print the cap, 60 (issue 847).
     */
    @Test
    void shouldReproduceTheMatrix20FpsFormula() throws Exception {
        Matrix20Slice blog = new Matrix20Slice(MatrixLevels.DEFAULT);
        blog.appendCost(505, 12004);
        assertEquals("42.06930923461914", AndroidJson.number(blog.fps(60f)));
        assertTrue(real("blog-matrix-2.0.2-MainActivity.txt").contains("fps : " + AndroidJson.number(blog.fps(60f))));
        Matrix20Slice issue847 = new Matrix20Slice(MatrixLevels.DEFAULT);
        issue847.appendCost(743, 12006);
        assertEquals("60", AndroidJson.number(issue847.fps(60f)));
    }

    /** 2.0.x adds floor((d + 1) x 16.666667) per frame at 60 Hz: 16 on time, 33 one late, 66 three late. */
    @Test
    void shouldTruncateTheMatrix20CostOnEveryFrame() {
        Matrix20Slice slice = new Matrix20Slice(MatrixLevels.DEFAULT);
        slice.append(10_000_000L, 16_666_667L);
        assertEquals(16, slice.costMillis());
        slice.append(20_000_000L, 16_666_667L);
        assertEquals(16 + 33, slice.costMillis());
        slice.append(55_000_000L, 16_666_667L);
        assertEquals(16 + 33 + 66, slice.costMillis());
        MatrixReport r = slice.report(MatrixDevice.UNKNOWN, "s", "p", 0, 60f);
        assertEquals(2, r.dropLevel(MatrixRule.BEST));
        assertEquals(1, r.dropSum(MatrixRule.BEST));
        assertEquals(1, r.dropLevel(MatrixRule.NORMAL));
        assertEquals(3, r.dropSum(MatrixRule.NORMAL));
    }

    /** Invariants of a 2.1 report (issue 847): 1e9 / fps >= the TOTAL_DURATION average. */
    @Test
    void shouldKeepTheRealReportsInvariants() {
        double perFrame = 1e9 / 39.21251678466797;
        assertTrue(perFrame >= 25_069_426, "1e9/fps " + perFrame);
        assertEquals(25_502_061, Math.round(perFrame));
    }

    @Test
    void shouldEscapeStringsAsAndroidsJsonObjectDoes() {
        MatrixReport report = new MatrixReport(MatrixDevice.UNKNOWN, "a/b\"c\\d\te\u0001\u2028", levels(21, 0, 0, 0, 0),
                levels(0, 0, 0, 0, 0), 60f, null, false, 0, 60, "p", 5);
        String json = MatrixFormat.V2_0.json(report);
        assertTrue(json.contains("\"scene\":\"a\\/b\\\"c\\\\d\\te\\u0001\\u2028\""), json);
        assertTrue(MatrixFormat.V2_0.issueLine(report).startsWith("tag[Trace_FPS]type[0];key[null];content[{\"machine\""));
    }

    @Test
    void shouldParseFormatNames() {
        assertEquals(MatrixFormat.V2_0, MatrixFormat.parse("matrix-2.0"));
        assertEquals(MatrixFormat.V2_1, MatrixFormat.parse("MATRIX-2.1"));
        assertThrows(IllegalArgumentException.class, () -> MatrixFormat.parse("matrix-1.0"));
    }
}
