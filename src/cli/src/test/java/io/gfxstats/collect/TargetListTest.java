package io.gfxstats.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetListTest {
    private static String error(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldReadOneTargetPerLineSkippingCommentsAndBlankLines() {
        String file = "# fleet A\n"
                + "device-1.lab:7445\n"
                + "\n"
                + "  10.1.2.3:7445   # rack 4\r\n"
                + "[::1]:9000\n"
                + "unix:/run/gfxstats/gfxstatsd.sock\n";

        List<Target> targets = TargetList.parseFile(file, "targets file t");

        assertEquals(List.of(Target.tcp("device-1.lab", 7445), Target.tcp("10.1.2.3", 7445), Target.tcp("::1", 9000),
                Target.unix(Path.of("/run/gfxstats/gfxstatsd.sock"))), targets);
        assertEquals("[::1]:9000", targets.get(2).toString());
        assertEquals("unix:/run/gfxstats/gfxstatsd.sock", targets.get(3).toString());
    }

    @Test
    void shouldNameFileAndLineOfABadTarget() {
        assertEquals("targets file t line 2: 'host-without-port' is not host:port or unix:/path/to.sock",
                error(() -> TargetList.parseFile("a:1\nhost-without-port\n", "targets file t")));
        assertEquals("targets file t line 1: 'a:99999' has no port from 1 to 65535",
                error(() -> TargetList.parseFile("a:99999", "targets file t")));
        assertEquals("targets file t line 1: '::1:80': write an IPv6 address in brackets, e.g. [::1]:7445",
                error(() -> TargetList.parseFile("::1:80", "targets file t")));
        assertEquals("targets file t line 1: 'unix:' names no socket path (expected unix:/path/to.sock)",
                error(() -> TargetList.parseFile("unix:", "targets file t")));
    }

    @Test
    void shouldRefuseATargetListedTwiceBecauseItWouldCountTwice() {
        assertEquals("targets file t line 3: a:1 is already listed on line 1 (its stats would be counted twice)",
                error(() -> TargetList.parseFile("a:1\nb:1\n a:1 \n", "targets file t")));
        assertEquals("b:2 is listed twice (its stats would be counted twice)",
                error(() -> TargetList.parseList("b:2,a:1,b:2")));
    }

    @Test
    void shouldRefuseAFileWithoutTargets() {
        assertEquals("targets file t lists no targets", error(() -> TargetList.parseFile("# none\n\n", "targets file t")));
    }

    @Test
    void shouldParseACommaSeparatedList() {
        assertEquals(List.of(Target.tcp("a", 1), Target.unix(Path.of("/s.sock"))),
                TargetList.parseList("a:1, unix:/s.sock"));
        assertEquals("empty entry in the target list 'a:1,,b:2'", error(() -> TargetList.parseList("a:1,,b:2")));
    }
}
