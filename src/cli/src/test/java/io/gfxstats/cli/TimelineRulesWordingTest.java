package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.FrameTimelineClassifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The classifier's rules are named by their date ({@link FrameTimelineClassifier#RULES_AS_OF}) in the
 * help and the docs alike: "Android 16" alone covers QPR2 too, whose {@code buffer_stuffing_fix}
 * rule is not the default. When the rules move to a newer date, this keeps the words in step.
 */
class TimelineRulesWordingTest {
    private static final String AS_OF = FrameTimelineClassifier.RULES_AS_OF;

    @Test
    void shouldNameTheRulesByTheirDateInTheHelp() throws Exception {
        CliRun run = CliRun.command(new TimelineCommand(), "", "--help");
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.out().contains("by SurfaceFlinger's " + AS_OF + " rules"), run.out());
    }

    @Test
    void shouldNameTheRulesByTheSameDateInTheDocs() throws Exception {
        assertTrue(Files.readString(Path.of("docs/frametimeline.md")).contains("The rules are SurfaceFlinger's as of "
                + AS_OF + ", what Android 16 shipped with"), "docs/frametimeline.md");
        assertTrue(Files.readString(Path.of("docs/cli.md")).contains("(SurfaceFlinger's " + AS_OF + " rules"),
                "docs/cli.md, report --timeline-log");
    }

    @Test
    void shouldNeverCallTheRulesAndroid16sWithoutTheirDate() throws Exception {
        Pattern bare = Pattern.compile("Android 16'?s? rules");
        List<Path> docs;
        try (Stream<Path> files = Files.walk(Path.of("docs"))) {
            docs = files.filter(p -> p.toString().endsWith(".md")).toList();
        }
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                assertFalse(bare.matcher(lines.get(i)).find(), doc + ":" + (i + 1) + ": " + lines.get(i));
            }
        }
    }
}
