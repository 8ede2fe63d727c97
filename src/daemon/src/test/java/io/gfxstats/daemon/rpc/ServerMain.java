package io.gfxstats.daemon.rpc;

import java.nio.file.Path;

/** A daemon stand-in process: serves a {@link TestBackend} on the socket {@code args[0]}, prints {@code ready}. */
public final class ServerMain {
    private ServerMain() {
    }

    public static void main(String[] args) throws Exception {
        GfxStatsServer server = new GfxStatsServer(ServerConfig.unixOnly(Path.of(args[0])), new TestBackend());
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        System.out.println("ready");
        System.out.flush();
        server.blockUntilShutdown();
    }
}
