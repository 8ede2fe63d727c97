package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import io.gfxstats.daemon.ClientProcess;
import io.gfxstats.daemon.DaemonFixture;
import io.gfxstats.daemon.DaemonProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 3, end to end: a real client process rewrites the scene names in its own mapped
 * buffer (an OSC title, a newline forging a log line, a bidi override), and the real commands an
 * operator runs against the daemon must print none of it raw: human outputs hold no control
 * character but the line ends, no bidi control and no line separator; machine outputs stay
 * valid JSON.
 */
class HostileNamesCliTest {
    private static final String PKG = "com.example.hostile";
    private static final long FRAMES = 700;

    private Path state;
    private DaemonProcess daemon;
    private DaemonFixture fixture;

    @BeforeEach
    void setUp() throws Exception {
        fixture = DaemonFixture.start("gfxhostile");
        state = fixture.state();
        daemon = fixture.daemon();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldPrintNoHostileCharacterFromAClientsOwnBufferInAnyCommand() throws Exception {
        String socket = daemon.socket().toString();
        try (ClientProcess c = ClientProcess.start(daemon, PKG, 1, FRAMES, (int) FRAMES, 0, "wait-attach", "hang",
                "scenes", "hostile")) {
            c.await("hostile", 60);
            List<List<String>> human = List.of(
                    List.of("scenes", "--socket", socket),
                    List.of("top", "--socket", socket, "--once", "--cumulative", "--no-color"),
                    List.of("dump", "--socket", socket),
                    List.of("pull", "--socket", socket));
            for (List<String> args : human) {
                CliRun run = CliRun.main(args.toArray(String[]::new));
                assertEquals(0, run.exit(), args + ": " + run.stderr());
                assertTrue(run.out().contains(PKG) || args.get(0).equals("scenes"), args + ":\n" + run.out());
                assertClean(args, run.out() + run.stderr());
            }
            CliRun scenes = CliRun.main("scenes", "--socket", socket);
            assertTrue(scenes.out().contains("default"), scenes.out());
            List<List<String>> machine = List.of(
                    List.of("scenes", "--socket", socket, "--json"),
                    List.of("top", "--socket", socket, "--once", "--cumulative", "--json"),
                    List.of("pull", "--socket", socket, "--json"),
                    List.of("matrix-report", "--socket", socket, "--slice", "1", "--duration", "1"));
            for (List<String> args : machine) {
                CliRun run = CliRun.main(args.toArray(String[]::new));
                assertEquals(0, run.exit(), args + ": " + run.stderr());
                assertClean(args, run.out() + run.stderr());
                if (args.get(0).equals("matrix-report") || args.get(0).equals("top")) {
                    for (String line : run.out().lines().toList()) {
                        assertTrue(JsonParser.parseString(line).isJsonObject(), line); // one JSON object a line
                    }
                } else {
                    assertTrue(!JsonParser.parseString(run.out()).isJsonNull(), run.out());
                }
                assertTrue(run.out().contains(PKG) || args.get(0).equals("matrix-report"), args + ":\n" + run.out());
            }
        }
    }

    /** Line ends only between lines; nothing that drives or reorders a terminal. */
    private static void assertClean(List<String> args, String text) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            boolean bad = (Character.isISOControl(ch) && ch != '\n' && ch != '\t')
                    || (ch >= '\u202A' && ch <= '\u202E') || (ch >= '\u2066' && ch <= '\u2069')
                    || ch == '\u2028' || ch == '\u2029';
            assertTrue(!bad, String.format("%s printed U+%04X at %d:%n%s", args, (int) ch, i, text));
        }
        assertTrue(text.lines().noneMatch(l -> l.startsWith("[ERR]")), args + " printed a forged line:\n" + text);
    }
}
