package io.gfxstats.buffer;

import io.gfxstats.stats.Pipeline;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Read-only view of one buffer file, for the daemon. Opening validates everything
 * ({@link BufferFormatException} with a {@link BufferFormatException.Reason} otherwise);
 * {@link #snapshot()} copies header and counters at any moment without blocking or disturbing
 * writers; {@link #close()} releases the file. The reader never writes.
 *
 * <p>The reader copies with positional reads of the file, not through a memory mapping: the
 * page cache is shared with the writers' mappings, so it sees their counts the moment they are
 * stored, but a client that truncates its file makes a snapshot fail with
 * {@link BufferFormatException.Reason#TOO_SHORT} instead of killing the daemon with SIGBUS (a
 * load from a mapped page past the end of a file does, and HotSpot cannot always turn that
 * into an exception). The file stays readable after it is unlinked, until {@link #close()}.
 *
 * <p>Thread-safe; {@link #close()} may race with snapshots (they then fail with
 * IllegalStateException).
 */
public final class BufferReader implements AutoCloseable {
    private final BufferHeader header;
    private final FileChannel channel;

    private BufferReader(BufferHeader header, FileChannel channel) {
        this.header = header;
        this.channel = channel;
    }

    /**
     * Opens and validates a buffer: a regular file (a symbolic link is rejected, never followed)
     * owned by {@code expectedOwnerUid}, with the gfxstats magic, a supported layout version,
     * ready state and a consistent size.
     */
    public static BufferReader open(Path path, int expectedOwnerUid) throws IOException {
        return open(path, expectedOwnerUid, null);
    }

    /** As {@link #open(Path, int)}, also requiring the file to be exactly {@code expectedLength} bytes. */
    public static BufferReader open(Path path, int expectedOwnerUid, long expectedLength) throws IOException {
        if (expectedLength < 0) {
            throw new IllegalArgumentException("expected length must not be negative: " + expectedLength);
        }
        return open(path, expectedOwnerUid, (Long) expectedLength);
    }

    private static BufferReader open(Path path, int expectedOwnerUid, Long expectedLength) throws IOException {
        FileChannel channel = BufferHeader.openChannel(path, false, expectedOwnerUid,
                expectedLength == null ? -1 : expectedLength);
        try {
            return new BufferReader(BufferHeader.read(path, channel), channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * An immutable copy of the header and the counters (summed over stripes).
     *
     * @throws BufferFormatException (TOO_SHORT) if the file was truncated after it was opened
     * @throws IllegalStateException after {@link #close()}
     */
    public BufferSnapshot snapshot() throws IOException {
        try {
            int state = BufferHeader.readStateWord(channel);
            // Not the rings (the ring group, last in the file): a snapshot holds counts only.
            int length = header.countedLength();
            ByteBuffer first = BufferHeader.readFully(channel, 0, length);
            ByteBuffer second = BufferHeader.readFully(channel, 0, length);
            if (first.limit() < length || second.limit() < length) {
                throw new BufferFormatException(BufferFormatException.Reason.TOO_SHORT, header.path,
                        "the file was truncated after it was opened");
            }
            List<String> refused = new ArrayList<>();
            String[] names = header.sceneNames(first, refused);
            return new BufferSnapshot(header, header.mutableFields(state, first),
                    header.sumStripes(first, second, this::read), names, refused);
        } catch (ClosedChannelException e) {
            throw new IllegalStateException("buffer reader closed: " + header.path, e);
        }
    }

    private ByteBuffer read(long offset, int length) throws IOException {
        ByteBuffer bytes = BufferHeader.readFully(channel, offset, length);
        if (bytes.limit() < length) {
            throw new BufferFormatException(BufferFormatException.Reason.TOO_SHORT, header.path,
                    "the file was truncated after it was opened");
        }
        return bytes.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Whether the file has the ring group ({@link RingGroup}). */
    public boolean hasRings() {
        return header.ringOffset() >= 0;
    }

    public Path path() {
        return header.path;
    }

    public long length() {
        return header.length;
    }

    public int layoutVersion() {
        return header.layoutVersion;
    }

    public int stripeCount() {
        return header.stripeCount;
    }

    public int pid() {
        return header.pid;
    }

    public int uid() {
        return header.uid;
    }

    public String packageName() {
        return header.packageName;
    }

    public long versionCode() {
        return header.versionCode;
    }

    public String registrationId() {
        return header.registrationId;
    }

    public String predecessorId() {
        return header.predecessorId;
    }

    public Pipeline pipeline() {
        return header.pipeline;
    }

    public boolean isClosed() {
        return !channel.isOpen();
    }

    /** Releases the file. Idempotent. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a read-only descriptor cannot lose anything.
        }
    }
}
