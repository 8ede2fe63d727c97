package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.daemon.rpc.OwnerOnly;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.testing.JavaProcess;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Registration caps (issue 11, item 5): per process, per user and in total; a full daemon is
 * reported as full - by the client library and by the CLI - never as "is gfxstatsd running?".
 */
class DaemonRegistrationLimitsTest {
    private Path state;
    private DaemonProcess daemon;
    private final List<ClientRegistration> held = new ArrayList<>();
    private GfxStatsClient client;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxl");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (ClientRegistration r : held) {
            r.close();
        }
        if (client != null) {
            client.close();
        }
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private ClientRegistration register(String pkg) throws GfxStatsClientException {
        ClientRegistration r = client.register(RegisterRequest.newBuilder().setPackageName(pkg).setVersionCode(1)
                .setPipeline(1).build());
        held.add(r);
        return r;
    }

    private static long myPid() {
        return ProcessHandle.current().pid();
    }

    @Test
    void shouldRefuseTheRegistrationsOfOneProcessBeyondItsCapAndServeOthers() throws Exception {
        daemon = new DaemonProcess(state, "--set", "buffers.max.per.pid=2").start();
        client = GfxStatsClient.unix(daemon.socket());
        register("com.a");
        register("com.b");

        GfxStatsClientException e = assertThrows(GfxStatsClientException.class, () -> register("com.c"));

        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.code());
        assertEquals("gfxstats daemon at unix:" + daemon.socket() + " refused: daemon full for this process: pid "
                + myPid() + " already holds 2 live buffers, the limit per process (setting buffers.max.per.pid); "
                + "not registering com.c for pid " + myPid() + " uid " + OwnerOnly.currentUid(), e.getMessage());
        // Another process still gets its slot.
        Process synth = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                "--package", "com.other", "--version-code", "1", "--seconds", "1", "--fps", "30").redirectErrorStream(true).start();
        String out = new String(synth.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(synth.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, synth.exitValue(), out);
        assertTrue(daemon.totalFrames("com.other") > 0, out);
    }

    @Test
    void shouldRefuseTheRegistrationsOfOneUserBeyondItsCap() throws Exception {
        daemon = new DaemonProcess(state, "--set", "buffers.max.per.uid=1").start();
        client = GfxStatsClient.unix(daemon.socket());
        register("com.a");

        GfxStatsClientException e = assertThrows(GfxStatsClientException.class, () -> register("com.b"));

        assertEquals("gfxstats daemon at unix:" + daemon.socket() + " refused: daemon full for this user: uid "
                + OwnerOnly.currentUid() + " already holds 1 live buffers, the limit per user (setting "
                + "buffers.max.per.uid); not registering com.b for pid " + myPid() + " uid " + OwnerOnly.currentUid(),
                e.getMessage());
    }

    @Test
    void shouldSayDaemonFullNotIsItRunningInTheCli() throws Exception {
        daemon = new DaemonProcess(state, "--set", "buffers.max=1").start();
        client = GfxStatsClient.unix(daemon.socket());
        register("com.a");

        // A full daemon is worth asking again (a buffer may come free), so synth retries until its
        // attach timeout and then says what the daemon answered. 2 s was too short on a loaded machine:
        // the new JVM's first registration took longer, and synth said that nobody answered.
        Process synth = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                "--package", "com.b", "--version-code", "1", "--seconds", "1", "--attach-timeout", "15")
                .redirectErrorStream(true).start();
        String out = new String(synth.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(synth.waitFor(60, TimeUnit.SECONDS));

        assertEquals(2, synth.exitValue(), out);
        String last = out.strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("gfxstats synth: gfxstats daemon at unix:" + daemon.socket()
                + " refused: daemon full: 1 live buffers, the limit (setting buffers.max); not registering com.b for "
                + "pid "), out);
    }
}
