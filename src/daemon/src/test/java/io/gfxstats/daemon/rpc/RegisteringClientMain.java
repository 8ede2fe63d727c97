package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.RegisterRequest;
import java.nio.file.Path;

/**
 * A client process for fault tests: registers with the daemon at {@code args[0]}, prints
 * {@code assigned <registration id>} and then waits to be killed.
 */
public final class RegisteringClientMain {
    private RegisteringClientMain() {
    }

    public static void main(String[] args) throws Exception {
        GfxStatsClient client = GfxStatsClient.unix(Path.of(args[0]));
        ClientRegistration registration = client.register(RegisterRequest.newBuilder()
                .setPackageName(args.length > 1 ? args[1] : "com.example.child")
                .setVersionCode(1)
                .build());
        System.out.println("assigned " + registration.assigned().getRegistrationId());
        System.out.flush();
        registration.ended().join();
        System.out.println("ended " + registration.ended().join().getCode());
    }
}
