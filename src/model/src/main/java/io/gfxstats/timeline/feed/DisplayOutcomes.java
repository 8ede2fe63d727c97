package io.gfxstats.timeline.feed;

import static io.gfxstats.timeline.feed.DisplayOutcomeLayout.*;

import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.Severity;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A client's read-only view of the daemon's display-frame outcome ring ({@link DisplayOutcomeLayout}):
 * {@link #find} looks up the classified compositor frame shown at (output, MSC). Lock-free and
 * allocation-free: a read that meets the daemon writing the same entry reports "not there yet"
 * and the caller asks again later. Safe to share between threads.
 */
public final class DisplayOutcomes {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int PRESENT_TYPES = PresentMetadata.values().length;
    private static final int FINISH_TYPES = FinishMetadata.values().length;
    private static final int SEVERITIES = Severity.values().length;
    private static final int PREDICTIONS = Prediction.values().length;

    private final Path path;
    private final MappedByteBuffer map;

    private DisplayOutcomes(Path path, MappedByteBuffer map) {
        this.path = path;
        this.map = map;
    }

    /**
     * Maps the ring at {@code path} read-only.
     *
     * @throws IOException if it cannot be read or is not a ring of this layout (one-line message)
     */
    public static DisplayOutcomes open(Path path) throws IOException {
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            if (ch.size() < LENGTH) {
                throw new IOException(path + " is not a display-frame ring: " + ch.size() + " bytes, expected " + LENGTH);
            }
            map = ch.map(FileChannel.MapMode.READ_ONLY, 0, LENGTH);
        }
        map.order(ByteOrder.LITTLE_ENDIAN);
        if ((long) LONGS.getAcquire(map, MAGIC_OFFSET) != MAGIC) {
            throw new IOException(path + " is not a display-frame ring (bad magic)");
        }
        if (map.getInt(VERSION_OFFSET) != VERSION || map.getInt(REGIONS_OFFSET) != REGIONS
                || map.getInt(SLOTS_OFFSET) != SLOTS || map.getInt(ENTRY_LENGTH_OFFSET) != ENTRY_LENGTH) {
            throw new IOException(path + ": display-frame ring layout " + map.getInt(VERSION_OFFSET)
                    + " is not the layout " + VERSION + " this client reads");
        }
        return new DisplayOutcomes(path, map);
    }

    public Path path() {
        return path;
    }

    /** Entries the daemon has published into this ring. */
    public long published() {
        return (long) LONGS.getAcquire(map, PUBLISHED_OFFSET);
    }

    /** The pid of the daemon that writes this ring. */
    public int writerPid() {
        return map.getInt(PID_OFFSET);
    }

    /**
     * Fills {@code into} with the outcome of the compositor frame of {@code output} at
     * {@code msc} and returns true; false when the ring has no such entry (not published yet,
     * overwritten by newer frames, or being written right now).
     */
    public boolean find(long output, long msc, DisplayOutcome into) {
        // The region found last time for this output, checked by the entry's own output id.
        int region = into.regionOutput == output ? into.region : -1;
        if (region < 0 || !read(region, output, msc, into)) {
            region = regionOf(output);
            if (region < 0 || !read(region, output, msc, into)) {
                return false;
            }
            into.region = region;
            into.regionOutput = output;
        }
        return true;
    }

    /** Reads the entry of (output, msc) in {@code region} into {@code into} if it is there, whole. */
    private boolean read(int region, long output, long msc, DisplayOutcome into) {
        int at = entryOffset(region, msc);
        long seq = (long) LONGS.getAcquire(map, at + SEQUENCE);
        if (seq == 0 || (seq & 1) != 0) {
            return false;
        }
        long o = map.getLong(at + OUTPUT);
        long m = map.getLong(at + MSC);
        long present = map.getLong(at + ACTUAL_PRESENT);
        long refresh = map.getLong(at + REFRESH);
        long render = map.getLong(at + RENDER);
        int jank = map.getInt(at + JANK);
        int metadata = map.getInt(at + PRESENT);
        long token = map.getLong(at + TOKEN);
        VarHandle.loadLoadFence();
        if ((long) LONGS.getOpaque(map, at + SEQUENCE) != seq || o != output || m != msc) {
            return false;
        }
        if ((metadata & 0xff) >= PRESENT_TYPES || (metadata >>> 8 & 0xff) >= FINISH_TYPES
                || (metadata >>> 16 & 0xff) >= SEVERITIES || (metadata >>> 24) >= PREDICTIONS) {
            return false;
        }
        into.output = o;
        into.msc = m;
        into.actualPresent = present;
        into.refreshPeriod = refresh;
        into.renderPeriod = render;
        into.jank = jank;
        into.metadata = metadata;
        into.token = token;
        return true;
    }

    private int regionOf(long output) {
        for (int r = 0; r < REGIONS; r++) {
            if ((long) LONGS.getAcquire(map, REGION_TABLE_OFFSET + r * 8) == output) {
                return r;
            }
        }
        return -1;
    }
}
