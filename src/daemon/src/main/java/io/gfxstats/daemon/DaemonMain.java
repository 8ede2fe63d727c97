package io.gfxstats.daemon;

import io.gfxstats.daemon.config.ConfigEnvironment;
import io.gfxstats.daemon.config.ConfigException;
import io.gfxstats.daemon.config.DaemonArgs;
import io.gfxstats.daemon.config.DaemonConfig;
import io.gfxstats.daemon.rpc.Problems;
import io.gfxstats.daemon.rpc.ServerStartException;
import io.gfxstats.store.StoreLockedException;
import java.io.IOException;
import java.nio.file.Paths;
import java.time.Clock;

/**
 * Entry point of {@code scripts/gfxstatsd}: runs the daemon in the foreground until SIGTERM or
 * SIGINT, then saves everything and exits 0. Bad configuration or a failed start: one line on
 * stderr, exit 2.
 */
public final class DaemonMain {
    /** Test facility: a file holding milliseconds to add to the wall clock (see OffsetFileClock). */
    static final String CLOCK_OFFSET_ENV = "GFXSTATSD_CLOCK_OFFSET_FILE";

    private DaemonMain() {
    }

    public static void main(String[] argv) {
        System.exit(run(argv));
    }

    static int run(String[] argv) {
        TransportLogs.install();
        DaemonConfig config;
        try {
            DaemonArgs args = DaemonArgs.parse(argv);
            if (args.help()) {
                System.out.print(DaemonArgs.usage());
                return 0;
            }
            config = DaemonConfig.load(args, ConfigEnvironment.system());
            if (args.printConfig()) {
                System.out.print(config.toProperties());
                return 0;
            }
        } catch (ConfigException e) {
            System.err.println("gfxstatsd: " + e.getMessage());
            return 2;
        }
        String offsetFile = System.getenv(CLOCK_OFFSET_ENV);
        Clock clock = offsetFile == null || offsetFile.isEmpty()
                ? Clock.systemUTC() : new OffsetFileClock(Paths.get(offsetFile), Clock.systemUTC());
        Daemon daemon = new Daemon(config, clock);
        try {
            daemon.start();
        } catch (StoreLockedException | ServerStartException e) {
            System.err.println("gfxstatsd: " + e.getMessage());
            return 2;
        } catch (IOException | RuntimeException e) {
            System.err.println("gfxstatsd: cannot start: " + Problems.describe(e));
            return 2;
        }
        // SIGTERM/SIGINT mean "stop cleanly": save, then exit 0 (the JVM's default would exit 143
        // after the hooks). The hook still covers any other way the JVM ends.
        StopSignals.handle(daemon::stop, "TERM", "INT");
        Runtime.getRuntime().addShutdownHook(new Thread(daemon::stop, "gfxstatsd-shutdown"));
        try {
            daemon.blockUntilShutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        daemon.stop();
        return 0;
    }
}
