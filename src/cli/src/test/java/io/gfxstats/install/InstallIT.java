package io.gfxstats.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/install into a temporary prefix, then the installed launchers run the installed jar:
 * a daemon from bin/gfxstatsd, frames from bin/gfxstats record, the dump from bin/gfxstats dump.
 * The units pass {@code systemd-analyze verify} where it exists; scripts/uninstall removes it all.
 */
class InstallIT {
    private static final Path ROOT = Path.of(System.getProperty("user.dir"));

    @TempDir
    Path tmp;

    private record Run(int code, String out) {
    }

    private Run run(List<String> cmd, String stdin) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // Nothing of the checkout may leak into the installed programs.
        pb.environment().remove("GFXSTATS_CLASSPATH");
        pb.environment().put("HOME", tmp.resolve("home").toString());
        pb.environment().put("XDG_STATE_HOME", tmp.resolve("home/state").toString());
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.US_ASCII));
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd));
        return new Run(p.exitValue(), out);
    }

    @Test
    void shouldInstallAUserServiceWhoseLaunchersRunTheInstalledJar() throws Exception {
        Path jar = Path.of(System.getProperty("gfx.jar"));
        Path prefix = tmp.resolve("prefix");
        Path units = tmp.resolve("units");
        Run install = run(List.of(ROOT.resolve("scripts/install").toString(), "--user", "--prefix", prefix.toString(),
                "--unit-dir", units.toString(), "--jar", jar.toString(), "--no-reload"), null);
        assertEquals(0, install.code(), install.out());

        Path installedJar = prefix.resolve("share/gfxstats/gfxstats.jar");
        assertEquals(Files.size(jar), Files.size(installedJar));
        String unit = Files.readString(units.resolve("gfxstatsd.service"));
        assertTrue(unit.contains("ExecStart=" + prefix.resolve("bin/gfxstatsd") + "\n"), unit);
        for (String launcher : new String[] {"bin/gfxstats", "bin/gfxstatsd"}) {
            String text = Files.readString(prefix.resolve(launcher));
            assertTrue(text.contains("-cp \"" + installedJar + "\""), text);
            assertFalse(text.contains("target/") || text.contains("mvn"), "runs a build: " + text);
        }
        verifyUnit(units.resolve("gfxstatsd.service"));
        // Start-up archives trained for the installed jar, used by the launcher (as fast as the checkout's).
        String cli = Files.readString(prefix.resolve("bin/gfxstats"));
        for (String archive : new String[] {"gfxstats-cli.jsa", "gfxstats-dump.jsa"}) {
            Path path = prefix.resolve("share/gfxstats").resolve(archive);
            assertTrue(Files.size(path) > 0, archive);
            assertTrue(cli.contains("-XX:SharedArchiveFile=" + path), cli);
        }
        // The daemon maps the command line's archive too (its training serves gRPC in-process).
        String daemonLauncher = Files.readString(prefix.resolve("bin/gfxstatsd"));
        assertTrue(daemonLauncher.contains("-XX:SharedArchiveFile=" + prefix.resolve("share/gfxstats/gfxstats-cli.jsa")),
                daemonLauncher);

        // The installed daemon and command line, with the checkout out of the way.
        Path state = tmp.resolve("state");
        Path socket = state.resolve("gfxstatsd.sock");
        Path classes = tmp.resolve("daemon-classes.log");
        ProcessBuilder daemonBuilder = new ProcessBuilder(prefix.resolve("bin/gfxstatsd").toString(), "--state-dir", state.toString());
        daemonBuilder.environment().put("GFXSTATSD_JAVA_OPTS", "-Xlog:class+load=info:file=" + classes);
        Process daemon = daemonBuilder.redirectErrorStream(true).redirectOutput(tmp.resolve("daemon.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(socket)) {
                assertTrue(daemon.isAlive() && System.nanoTime() < deadline, Files.readString(tmp.resolve("daemon.log")));
                Thread.sleep(100);
            }
            StringBuilder lines = new StringBuilder();
            long t = 1_000_000_000L;
            for (int i = 0; i < 50; i++, t += 16_666_667L) {
                long d = i % 10 == 9 ? 25_000_000L : 5_000_000L;
                lines.append(t).append(',').append(t).append(',').append(t + d).append(',').append(t + d)
                        .append(",16666667\n");
            }
            Run record = run(List.of(prefix.resolve("bin/gfxstats").toString(), "record", "--socket",
                    socket.toString(), "--package", "com.example.installed", "--version-code", "1"), lines.toString());
            assertEquals(0, record.code(), record.out());
            assertEquals("recorded 50 frames\n", record.out());
            Run dump = run(List.of(prefix.resolve("bin/gfxstats").toString(), "dump", "--socket", socket.toString(),
                    "--package", "com.example.installed"), null);
            assertEquals(0, dump.code(), dump.out());
            assertTrue(dump.out().contains("Total frames rendered: 50\n"), dump.out());
            assertTrue(dump.out().contains("HISTOGRAM: 5ms=45 "), dump.out());
        } finally {
            daemon.destroy();
            assertEquals(0, daemon.waitFor(), Files.readString(tmp.resolve("daemon.log")));
        }
        assertTrue(Files.readAllLines(classes).stream().anyMatch(
                l -> l.contains(" io.gfxstats.daemon.rpc.GfxStatsServer source: shared objects file")),
                "the installed daemon loads its server from the command line's archive");

        Run uninstall = run(List.of(ROOT.resolve("scripts/uninstall").toString(), "--user", "--prefix",
                prefix.toString(), "--no-reload"), null);
        assertEquals(0, uninstall.code(), uninstall.out());
        assertFalse(Files.exists(installedJar));
        assertFalse(Files.exists(prefix.resolve("bin/gfxstats")));
        assertFalse(Files.exists(units.resolve("gfxstatsd.service")));
        assertFalse(Files.exists(prefix.resolve("share/gfxstats")));
    }

    @Test
    void shouldInstallAHardenedSystemUnitWithItsOwnUserAndDirectories() throws Exception {
        Path prefix = tmp.resolve("sys");
        Path units = tmp.resolve("sysunits");
        Path etc = tmp.resolve("etc");
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("scripts/install").toString(), "--system", "--prefix",
                prefix.toString(), "--unit-dir", units.toString(), "--config-dir", etc.toString(),
                "--jar", System.getProperty("gfx.jar"), "--no-reload", "--no-create-user"));
        Run install = run(cmd, null);
        if (!"0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip())) {
            assertEquals(2, install.code(), install.out());
            assertTrue(install.out().contains("--system needs root"), install.out());
            return;
        }
        assertEquals(0, install.code(), install.out());
        String unit = Files.readString(units.resolve("gfxstatsd.service"));
        for (String line : new String[] {"User=gfxstats", "StateDirectory=gfxstats", "RuntimeDirectory=gfxstats",
            "ProtectSystem=strict", "NoNewPrivileges=yes", "ProtectHome=yes", "PrivateTmp=yes",
            "CapabilityBoundingSet=\n", "ExecStart=" + prefix.resolve("bin/gfxstatsd") + " --config "
                + etc.resolve("gfxstatsd.properties") + " --state-dir /var/lib/gfxstats"
                + " --socket /run/gfxstats/gfxstatsd.sock\n"}) {
            assertTrue(unit.contains(line), line + " in\n" + unit);
        }
        assertTrue(Files.exists(etc.resolve("gfxstatsd.properties")));
        verifyUnit(units.resolve("gfxstatsd.service"));
        Run uninstall = run(List.of(ROOT.resolve("scripts/uninstall").toString(), "--system", "--prefix",
                prefix.toString(), "--no-reload"), null);
        assertEquals(0, uninstall.code(), uninstall.out());
        assertFalse(Files.exists(units.resolve("gfxstatsd.service")));
        assertTrue(Files.exists(etc.resolve("gfxstatsd.properties")), "the administrator's config is kept");
    }

    /** systemd's own check of the unit, where systemd-analyze exists. */
    private void verifyUnit(Path unit) throws Exception {
        if (new ProcessBuilder("sh", "-c", "command -v systemd-analyze").start().waitFor() != 0) {
            return;
        }
        Run verify = run(List.of("systemd-analyze", "verify", unit.toString()), null);
        assertEquals(0, verify.code(), verify.out());
        assertFalse(verify.out().contains(unit.getFileName().toString()), "warnings about the unit: " + verify.out());
    }
}
