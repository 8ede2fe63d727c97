package io.gfxstats.daemon.postmortem;

import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.RegisterRequest;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A native client as the daemon sees it, for tests that SIGKILL it: registers with
 * {@code native_rings} at the daemon's socket {@code args[0]} as package {@code args[1]}, claims
 * writer stripe 2 with its pid, and leaves {@code args[2]} frames in that stripe's ring after an
 * empty checkpoint (images of nothing counted), written from the spec; then prints
 * {@code ready <buffer path>} and waits to be killed.
 */
public final class RingClientMain {
    static final long REFRESH = 16_666_667L;

    private RingClientMain() {
    }

    public static void main(String[] args) throws Exception {
        GfxStatsClient client = GfxStatsClient.unix(Path.of(args[0]));
        ClientRegistration registration = client.register(RegisterRequest.newBuilder().setPackageName(args[1])
                .setVersionCode(1).setNativeRings(true).build());
        Path buffer = Path.of(registration.assigned().getBufferPath());
        int frames = Integer.parseInt(args[2]);
        SplittableRandom random = new SplittableRandom(frames);
        RingStripeSpecWriter ring = new RingStripeSpecWriter(random, 8_000);
        long t = 5_000_000_000L;
        for (int i = 0; i < frames; i++) {
            long completed = t + random.nextLong(REFRESH / 4, 3 * REFRESH);
            ring.entry(0, t, t, completed, completed + 1_000_000, 0);
            t += REFRESH;
        }
        ring.checkpoint(1, random).rp(8_000).flags(16)
                .rules(0, false, REFRESH, REFRESH, 0, -1, -1, REFRESH)
                .matrix(0, new int[] {3, 9, 24, 42}, 0f)
                .images(new byte[768], new byte[3_328], new byte[256], new byte[64]);
        ring.writeInto(buffer, 2);
        RingStripeSpecWriter.claim(buffer, 2, (int) ProcessHandle.current().pid());
        System.out.println("ready " + buffer);
        System.out.flush();
        registration.ended().join();
    }
}
