package io.gfxstats.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One memory region that counters live in - a whole buffer file mapped with
 * {@link FileChannel#map}, or process memory for counts kept before a buffer is attached - known
 * by a number so that {@link BufferMemory} addresses can name it. Reference counted: the first
 * reference is the creator's; when the last is released the number is given up, so that an
 * address kept past its release fails at once instead of touching another region. The JDK unmaps
 * the file when the buffer object is collected (unmapping it explicitly would need
 * {@code sun.misc.Unsafe}); a released region is never touched again, so deleting or reusing the
 * file at once stays safe.
 */
final class MappedRegion {
    /** Regions alive at once in one process: a few per session (one per attached buffer, one per stripe in memory). */
    static final int MAX_REGIONS = 4096;
    private static final ByteBuffer[] REGIONS = new ByteBuffer[MAX_REGIONS];
    /** The file each mapped region maps (null for process memory); guarded by REGIONS. */
    private static final Path[] FILES = new Path[MAX_REGIONS];
    private static int nextFree = 1;

    private final int id;
    private final ByteBuffer buffer;
    private final AtomicInteger references = new AtomicInteger(1);

    private MappedRegion(ByteBuffer buffer, Path file) {
        this.buffer = buffer;
        this.id = register(buffer, file);
    }

    static MappedRegion map(Path file, FileChannel channel, boolean writable, long length) throws IOException {
        if (length > Integer.MAX_VALUE) {
            throw new IOException("a gfxstats buffer of " + length + " bytes is larger than one mapping (2 GiB)");
        }
        return new MappedRegion(channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                0, length), file);
    }

    /** Zeroed process memory (direct, so that atomic and release accesses are supported). */
    static MappedRegion allocate(int bytes) {
        return new MappedRegion(ByteBuffer.allocateDirect(bytes), null);
    }

    /** The buffer behind region {@code id}; published to other threads with the address, as every handover does. */
    static ByteBuffer buffer(int id) {
        ByteBuffer b = REGIONS[id];
        if (b == null) {
            throw new IllegalStateException("gfxstats buffer region " + id + " was released");
        }
        return b;
    }

    /** Whether a region not yet released maps {@code file}. */
    static boolean isMapped(Path file) {
        synchronized (REGIONS) {
            for (Path f : FILES) {
                if (file.equals(f)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static int register(ByteBuffer buffer, Path file) {
        synchronized (REGIONS) {
            for (int i = 0; i < MAX_REGIONS - 1; i++) {
                int id = nextFree;
                nextFree = id + 1 == MAX_REGIONS ? 1 : id + 1;
                if (REGIONS[id] == null) {
                    REGIONS[id] = buffer;
                    FILES[id] = file;
                    return id;
                }
            }
        }
        throw new IllegalStateException("more than " + (MAX_REGIONS - 1) + " gfxstats buffer regions in use at once;"
                + " close sessions and release trackers that are no longer used");
    }

    /** The address of byte 0 of this region (see {@link BufferMemory}). */
    long baseAddress() {
        return RawMemory.AVAILABLE ? RawMemory.address(buffer) : BufferMemory.address(id, 0);
    }

    int capacity() {
        return buffer.capacity();
    }

    /** Takes one more reference, unless the last one is already gone. */
    boolean tryReserve() {
        for (;;) {
            int r = references.get();
            if (r == 0) {
                return false;
            }
            if (references.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** Drops one reference; the last one gives up the region's number. */
    void release() {
        int r = references.decrementAndGet();
        if (r == 0) {
            synchronized (REGIONS) {
                REGIONS[id] = null;
                FILES[id] = null;
            }
        } else if (r < 0) {
            throw new IllegalStateException("gfxstats buffer region " + id + " released more often than reserved");
        }
    }

    int refCount() {
        return references.get();
    }

    /**
     * Copies bytes out. A bulk copy from a mapping: if the file was truncated under it, HotSpot
     * raises InternalError instead of the process dying of SIGBUS.
     */
    void read(long offset, byte[] dst, int off, int length) {
        buffer.get(Math.toIntExact(offset), dst, off, length);
    }

    /** Copies bytes in (the daemon's finisher, over a dead client's stripe). */
    void write(long offset, byte[] src) {
        buffer.put(Math.toIntExact(offset), src);
    }

    void writeOrderedInt(long offset, int value) {
        BufferMemory.writeOrderedInt(baseAddress() + offset, value);
    }
}
