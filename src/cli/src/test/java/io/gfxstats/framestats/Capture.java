package io.gfxstats.framestats;

import io.gfxstats.testing.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain line scans of the real capture, independent of the reader, for building test inputs
 * and for comparing output with the device's own lines.
 */
final class Capture {
    static final Path FILE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");
    static final String SUB_SETTINGS = "com.android.settings/com.android.settings.SubSettings";

    private Capture() {
    }

    static List<String> lines() {
        try {
            return Files.readAllLines(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int windowLine(List<String> lines, String window) {
        int i = lines.indexOf("Window: " + window);
        if (i < 0) {
            throw new IllegalArgumentException("no window " + window);
        }
        return i;
    }

    /** The framestats header and rows of a window (without the markers). */
    static List<String> section(String window) {
        List<String> lines = lines();
        int i = windowLine(lines, window);
        while (!lines.get(i).equals(FramestatsReader.SECTION_MARKER)) {
            i++;
        }
        List<String> out = new ArrayList<>();
        for (i++; !lines.get(i).equals(FramestatsReader.SECTION_MARKER); i++) {
            out.add(lines.get(i));
        }
        return out;
    }

    /** The statistics lines the device printed for a window, "Stats since" to "GPU HISTOGRAM". */
    static List<String> printedStats(String window) {
        List<String> lines = lines();
        List<String> out = new ArrayList<>();
        for (int i = windowLine(lines, window) + 1; ; i++) {
            out.add(lines.get(i));
            if (lines.get(i).startsWith("GPU HISTOGRAM:")) {
                return out;
            }
        }
    }
}
