package io.gfxstats.dumpclient.h2;

import java.io.IOException;
import java.nio.channels.Channel;
import java.util.concurrent.TimeUnit;

/**
 * The call's deadline: a blocking socket channel has no read timeout, so a thread closes the
 * channel when the time is up, which makes the blocked read fail at once.
 */
final class Watchdog extends Thread {
    private final Channel channel;
    private final long deadlineNanos;
    private volatile boolean fired;
    private volatile boolean done;

    private Watchdog(Channel channel, long timeoutNanos) {
        super("gfxstats-call-deadline");
        setDaemon(true);
        this.channel = channel;
        this.deadlineNanos = System.nanoTime() + timeoutNanos;
    }

    static Watchdog start(Channel channel, long timeoutMillis) {
        Watchdog w = new Watchdog(channel, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        w.start();
        return w;
    }

    @Override
    public void run() {
        try {
            long left;
            while (!done && (left = deadlineNanos - System.nanoTime()) > 0) {
                sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            }
        } catch (InterruptedException e) {
            return;
        }
        if (!done) {
            fired = true;
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing is all we came for; a failure to close leaves nothing to undo.
            }
        }
    }

    /**
     * True when the deadline passed before {@link #cancel}: this thread closed the channel, or it
     * had not yet run when the call failed after the deadline (on a loaded machine the server's
     * own deadline, from the grpc-timeout we sent, can reset the call first). Either way the
     * caller's deadline is what ended the call, as grpc-java reports it.
     */
    boolean fired() {
        return fired || System.nanoTime() - deadlineNanos >= 0;
    }

    void cancel() {
        done = true;
        interrupt();
    }
}
