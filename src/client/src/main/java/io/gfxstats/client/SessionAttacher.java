package io.gfxstats.client;

import io.gfxstats.buffer.BufferWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A session's background side, on its own thread ("gfxstats-session-<package>"): asks the
 * {@link BufferProvider} for a buffer, retries with backoff, re-registers when the provider
 * ends the attachment, and beats the heartbeat. A buffer it gets is handed to
 * {@link SessionCounts#install}; nothing here touches counts.
 *
 * <p>Everything but {@link #attached} is confined to the session thread (and to {@link #close()},
 * after that thread stopped).
 */
final class SessionAttacher {
    private static final Logger LOG = LoggerFactory.getLogger(StatsSession.class);

    private final SessionOptions options;
    private final BufferProvider provider;
    private final SessionCounts counts;
    private final ScheduledThreadPoolExecutor executor;

    private Attachment attachment;
    private long attachGeneration;
    private long retryDelayMillis;
    private boolean failureLogged;
    private boolean heartbeatFailureLogged;

    private final Object attachMonitor = new Object();
    private volatile boolean attached;
    /** Why the provider refused the session for good, or null. */
    private volatile String refusal;

    SessionAttacher(SessionOptions options, BufferProvider provider, SessionCounts counts) {
        this.options = options;
        this.provider = provider;
        this.counts = counts;
        this.retryDelayMillis = options.retryMin().toMillis();
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "gfxstats-session-" + options.packageName());
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Starts the first attach attempt and the heartbeat; returns at once. */
    void start() {
        executor.execute(this::attachSafely);
        long beat = options.heartbeatInterval().toMillis();
        // A periodic task that throws is never run again, silently: heartbeatSafely never throws.
        ScheduledFuture<?> unused = executor.scheduleWithFixedDelay(this::heartbeatSafely, beat, beat, TimeUnit.MILLISECONDS);
    }

    boolean isAttached() {
        return attached;
    }

    Optional<String> refusal() {
        return Optional.ofNullable(refusal);
    }

    boolean awaitAttached(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (attachMonitor) {
            while (!attached) {
                if (refusal != null) {
                    return false;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(attachMonitor, left);
            }
            return true;
        }
    }

    /**
     * One attempt that cannot end the retries without a word: an Error thrown inside this process
     * (a mapping the JDK refuses, a class a dependency lacks) would otherwise vanish into the
     * executor, and the session would count in memory forever with nobody told why.
     */
    private void attachSafely() {
        try {
            attachAttempt();
        } catch (RuntimeException | Error e) {
            attachFailed("failed in this process, not at the daemon", e);
        }
    }

    private void attachAttempt() {
        if (counts.isClosed()) {
            return;
        }
        BufferRef previous = counts.buffer().orElse(null);
        long generation = ++attachGeneration;
        Attachment next;
        try {
            next = provider.attach(new AttachRequest(options.packageName(), options.versionCode(),
                    options.pipeline(), previous), reason -> onProviderEnded(generation, reason));
        } catch (AttachRefusedException e) {
            if (!closedMeanwhile(e)) {
                refused(e.getMessage());
            }
            return;
        } catch (IOException | RuntimeException e) {
            if (!closedMeanwhile(e)) {
                attachFailed(previous == null ? "no buffer yet" : "cannot re-register", e);
            }
            return;
        }
        if (previous != null && previous.registrationId().equals(next.registrationId())) {
            replaceAttachment(next);
            LOG.info("re-registered {} {}: buffer {} adopted", options.packageName(), options.versionCode(),
                    next.bufferPath());
            return;
        }
        BufferWriter writer;
        try {
            writer = BufferWriter.open(next.bufferPath());
            if (!writer.packageName().equals(options.packageName())
                    || writer.versionCode() != options.versionCode()) {
                String got = writer.packageName() + " " + writer.versionCode();
                writer.close();
                throw new IOException("provider handed out a buffer for " + got);
            }
        } catch (IOException | RuntimeException | Error e) {
            // The daemon answered: the buffer could not be used on this side (a mapping refused,
            // a file changed under us). Said so, so that nobody looks for a daemon that is not missing.
            next.close();
            attachFailed("cannot map buffer " + next.bufferPath() + " in this process", e);
            return;
        }
        if (!counts.install(writer)) {
            writer.close();
            next.close();
            return;
        }
        replaceAttachment(next);
    }

    private void replaceAttachment(Attachment next) {
        Attachment old = attachment;
        attachment = next;
        if (old != null && old != next) {
            old.close();
        }
        retryDelayMillis = options.retryMin().toMillis();
        failureLogged = false;
        setAttached(true);
    }

    private void attachFailed(String what, Throwable e) {
        if (!failureLogged) {
            LOG.warn("{} {}: {} ({}); counting goes on, retrying", options.packageName(), options.versionCode(),
                    what, e.toString());
            failureLogged = true;
        } else {
            LOG.debug("{} {}: {} ({})", options.packageName(), options.versionCode(), what, e.toString());
        }
        schedule(this::attachSafely, retryDelayMillis);
        retryDelayMillis = Math.min(retryDelayMillis * 2, options.retryMax().toMillis());
    }

    /**
     * Whether the session was closed while the provider was attaching: {@link #close} interrupts
     * the attempt, and what the provider then throws (the daemon's provider: "interrupted while
     * registering") is neither a refusal nor a failure to retry, so it is not reported as one.
     */
    private boolean closedMeanwhile(Exception e) {
        if (!counts.isClosed()) {
            return false;
        }
        LOG.debug("{} {}: closed while attaching ({})", options.packageName(), options.versionCode(), e.toString());
        return true;
    }

    /** A permanent refusal: no more attempts; counting goes on where it is, and is lost at exit if that is memory. */
    private void refused(String reason) {
        refusal = reason;
        LOG.error("{} {}: the buffer provider refused this session, not asking again: {}", options.packageName(),
                options.versionCode(), reason);
        setAttached(false);
    }

    private void onProviderEnded(long generation, String reason) {
        try {
            executor.execute(() -> {
                if (generation != attachGeneration || counts.isClosed()) {
                    return;
                }
                setAttached(false);
                LOG.info("{} {}: attachment ended ({}); counting goes on into {}, re-registering",
                        options.packageName(), options.versionCode(), reason,
                        counts.buffer().map(BufferRef::path).orElse(null));
                schedule(this::attachSafely, options.retryMin().toMillis());
            });
        } catch (RejectedExecutionException closing) {
            // The session is closing; nothing to re-register.
        }
    }

    private void heartbeatSafely() {
        try {
            counts.heartbeat(options.clock().millis());
        } catch (RuntimeException | Error e) {
            if (!heartbeatFailureLogged) {
                heartbeatFailureLogged = true;
                LOG.warn("{} {}: heartbeat failed in this process ({}); counting goes on", options.packageName(),
                        options.versionCode(), e.toString());
            }
        }
    }

    private void schedule(Runnable task, long delayMillis) {
        try {
            // The tasks scheduled here catch their own failures (attachSafely).
            ScheduledFuture<?> unused = executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // Closing.
        }
    }

    private void setAttached(boolean value) {
        synchronized (attachMonitor) {
            attached = value;
            attachMonitor.notifyAll();
        }
    }

    /**
     * Stops the session thread, then tells the provider the session is done. Call after the
     * counts were closed, so no attempt installs a buffer any more.
     */
    void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("{}: session thread did not stop within 5 s", options.packageName());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (attachment != null) {
            attachment.close();
        }
        setAttached(false);
    }
}
