package io.gfxstats.daemon.registry;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.stats.Pipeline;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One registered process's buffer, mapped read-only, and the daemon's accounting of it: how
 * much is already saved (the baseline) and from when its unsaved frames count (the later of
 * its start and the current day's midnight). Guarded by the registry's lock.
 */
public final class LiveBuffer {
    private final String key;
    private final int pid;
    private final int uid;
    private final String packageName;
    private final long versionCode;
    private final Pipeline pipeline;
    private final Path path;
    private final BufferReader reader;
    private long[] baseline;
    private long accountingStartMillis;
    private boolean connected;
    private volatile boolean namesRefusalLogged;
    /** Lines about refused names, at most one a second over all buffers. */
    private static final RateLimitedLog NAME_REFUSALS = new RateLimitedLog("buffers with refused names");

    LiveBuffer(String key, int pid, int uid, String packageName, long versionCode, Pipeline pipeline, Path path,
               BufferReader reader, long[] baseline, long accountingStartMillis) {
        this.key = key;
        this.pid = pid;
        this.uid = uid;
        this.packageName = packageName;
        this.versionCode = versionCode;
        this.pipeline = pipeline;
        this.path = path;
        this.reader = reader;
        this.baseline = baseline;
        this.accountingStartMillis = accountingStartMillis;
    }

    public String key() {
        return key;
    }

    public int pid() {
        return pid;
    }

    public int uid() {
        return uid;
    }

    public String packageName() {
        return packageName;
    }

    public long versionCode() {
        return versionCode;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public Path path() {
        return path;
    }

    /** Whether the buffer has the ring group: a native client's rings, counted after its death. */
    public boolean hasRings() {
        return reader.hasRings();
    }

    public BufferSnapshot snapshot() throws IOException {
        BufferSnapshot s = reader.snapshot();
        if (!s.refusedNames().isEmpty() && !namesRefusalLogged) {
            // Once per buffer: the client can rewrite its names as often as it likes.
            namesRefusalLogged = true;
            NAME_REFUSALS.warn("buffer of pid " + pid + " (" + packageName + "): refused "
                    + String.join(", ", s.refusedNames())
                    + " (not a valid name: read as unnamed, its counts kept)");
        }
        return s;
    }

    /** Counters already saved to a day file; null when nothing is. */
    public long[] baseline() {
        return baseline;
    }

    public void setBaseline(long[] baseline) {
        this.baseline = baseline;
    }

    public long accountingStartMillis() {
        return accountingStartMillis;
    }

    public void setAccountingStartMillis(long millis) {
        this.accountingStartMillis = millis;
    }

    public boolean connected() {
        return connected;
    }

    public void setConnected(boolean connected) {
        this.connected = connected;
    }

    void close() {
        reader.close();
    }

    @Override
    public String toString() {
        return packageName + "/" + versionCode + " pid " + pid + " (" + key + ")";
    }
}
