package io.gfxstats.daemon.registry;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.stats.Pipeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live buffers, by registration id. Not thread-safe: the daemon guards it with its state
 * lock. Bounded, so a misbehaving client cannot make the daemon map unlimited files.
 */
public final class BufferRegistry {
    private final int maxBuffers;
    private final Map<String, LiveBuffer> buffers = new LinkedHashMap<>();

    public BufferRegistry(int maxBuffers) {
        this.maxBuffers = maxBuffers;
    }

    public int maxBuffers() {
        return maxBuffers;
    }

    public boolean isFull() {
        return buffers.size() >= maxBuffers;
    }

    public int size() {
        return buffers.size();
    }

    /** Live buffers of one process. */
    public int countByPid(int pid) {
        int n = 0;
        for (LiveBuffer b : buffers.values()) {
            if (b.pid() == pid) {
                n++;
            }
        }
        return n;
    }

    /** Live buffers of one user. */
    public int countByUid(int uid) {
        int n = 0;
        for (LiveBuffer b : buffers.values()) {
            if (b.uid() == uid) {
                n++;
            }
        }
        return n;
    }

    public LiveBuffer get(String key) {
        return buffers.get(key);
    }

    public LiveBuffer add(String key, int pid, int uid, String packageName, long versionCode, Pipeline pipeline,
                          Path path, BufferReader reader, long[] baseline, long accountingStartMillis) {
        if (buffers.containsKey(key)) {
            throw new IllegalStateException("buffer " + key + " is registered already");
        }
        LiveBuffer b = new LiveBuffer(key, pid, uid, packageName, versionCode, pipeline, path, reader, baseline,
                accountingStartMillis);
        buffers.put(key, b);
        return b;
    }

    /**
     * Forgets a buffer and releases its mapping. A stale one (its key since registered again) is
     * left alone: removing by key alone would drop the live entry and leave its mapping open.
     */
    public void remove(LiveBuffer buffer) {
        if (buffers.remove(buffer.key(), buffer)) {
            buffer.close();
        }
    }

    public List<LiveBuffer> all() {
        return new ArrayList<>(buffers.values());
    }

    public Set<String> keys() {
        return Collections.unmodifiableSet(buffers.keySet());
    }

    /** Releases every mapping (daemon shutdown; the files stay for the clients and the next daemon). */
    public void closeAll() {
        for (LiveBuffer b : buffers.values()) {
            b.close();
        }
        buffers.clear();
    }
}
