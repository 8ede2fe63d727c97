package io.gfxstats.rpc;

import java.time.Duration;
import java.util.Objects;

/**
 * Client-side timing: the deadlines of the unary calls and Dump. The long-lived streams have
 * none: Register lives as long as the process and relies on keepalive, Watch runs until its
 * caller stops or its total time passes, FeedDisplayFrames as long as the compositor feeds.
 *
 * @param dumpDeadline whole-dump deadline
 * @param pullDeadline pull deadline
 * @param healthDeadline health deadline
 * @param registerTimeout how long to wait for the daemon's buffer assignment
 * @param keepAliveTime ping interval on an idle-looking connection with a call open (min 10 s)
 */
public record ClientOptions(Duration dumpDeadline, Duration pullDeadline, Duration healthDeadline,
        Duration registerTimeout, Duration keepAliveTime) {
    public static final ClientOptions DEFAULTS = new ClientOptions(Duration.ofSeconds(10), Duration.ofSeconds(5),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30));

    public ClientOptions {
        positive(dumpDeadline, "dump deadline");
        positive(pullDeadline, "pull deadline");
        positive(healthDeadline, "health deadline");
        positive(registerTimeout, "register timeout");
        positive(keepAliveTime, "keepalive time");
        if (keepAliveTime.compareTo(Duration.ofSeconds(10)) < 0) {
            throw new IllegalArgumentException("keepalive time below 10 s would be refused by the daemon: "
                    + keepAliveTime);
        }
    }

    public ClientOptions withDumpDeadline(Duration d) {
        return new ClientOptions(d, pullDeadline, healthDeadline, registerTimeout, keepAliveTime);
    }

    public ClientOptions withPullDeadline(Duration d) {
        return new ClientOptions(dumpDeadline, d, healthDeadline, registerTimeout, keepAliveTime);
    }

    public ClientOptions withHealthDeadline(Duration d) {
        return new ClientOptions(dumpDeadline, pullDeadline, d, registerTimeout, keepAliveTime);
    }

    public ClientOptions withRegisterTimeout(Duration d) {
        return new ClientOptions(dumpDeadline, pullDeadline, healthDeadline, d, keepAliveTime);
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + d);
        }
    }
}
