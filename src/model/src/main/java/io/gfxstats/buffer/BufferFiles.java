package io.gfxstats.buffer;


import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;

import static io.gfxstats.buffer.BufferDescriptor.*;

/**
 * Creates buffer files (the daemon's side of registration, also used by the standalone
 * directory provider).
 */
public final class BufferFiles {
    /** Owner read/write only: the default when creator and client run as the same user. */
    public static final Set<PosixFilePermission> OWNER_READ_WRITE = PosixFilePermissions.fromString("rw-------");

    private BufferFiles() {
    }

    /**
     * Creates a new buffer file: every byte allocated (no holes, so a full disk fails here and
     * not later inside a client's mapped write), the header filled from {@code spec}, counters
     * zero, and the state word set to ready last, with release semantics. A reader therefore
     * either rejects the file as not ready or sees a complete header.
     *
     * <p>The file must not exist ({@link java.nio.file.FileAlreadyExistsException}) and is never
     * created through a symbolic link. {@code permissions} are applied exactly (not filtered by
     * the umask): grant the client's uid write access, e.g. {@code rw-rw----} with a shared group
     * when client and daemon run as different users. On any failure the file is removed.
     */
    public static CreatedBuffer create(Path file, BufferSpec spec, Set<PosixFilePermission> permissions)
            throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(permissions, "permissions");
        long length = spec.totalLength();
        boolean created = false;
        try {
            try (FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(permissions))) {
                created = true;
                Files.setPosixFilePermissions(file, permissions);
                ByteBuffer content = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
                writeHeader(content, spec);
                while (content.hasRemaining()) {
                    channel.write(content, content.position());
                }
                // The state word last, in a write of its own: a process that maps the file sees the
                // page cache, where one write's bytes are in place before the next write starts.
                ByteBuffer ready = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(0, STATE_READY);
                while (ready.hasRemaining()) {
                    channel.write(ready, STATE_OFFSET + ready.position());
                }
            }
            return new CreatedBuffer(file, length, spec.layoutVersion());
        } catch (IOException | RuntimeException | Error e) {
            if (created) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static void writeHeader(ByteBuffer b, BufferSpec spec) {
        int version = spec.layoutVersion();
        b.putInt(MAGIC_OFFSET, MAGIC);
        b.putInt(LAYOUT_VERSION_OFFSET, version);
        b.putInt(STATE_OFFSET, STATE_INITIALISING);
        b.putInt(HEADER_LENGTH_OFFSET, headerLength(version, spec.stripeCount()));
        b.putLong(TOTAL_LENGTH_OFFSET, spec.totalLength());
        b.putInt(STRIPE_COUNT_OFFSET, spec.stripeCount());
        b.putInt(COUNTERS_PER_STRIPE_OFFSET, countersPerStripe(version));
        b.putInt(STRIPE_LENGTH_OFFSET, stripeLength(version));
        b.putInt(PIPELINE_OFFSET, spec.pipeline().code());
        b.putInt(PID_OFFSET, spec.pid());
        b.putInt(UID_OFFSET, spec.uid());
        b.putLong(VERSION_CODE_OFFSET, spec.versionCode());
        b.putLong(STATS_START_OFFSET, spec.statsStartMillis());
        b.putLong(HEARTBEAT_OFFSET, 0L);
        putString(b, PACKAGE_NAME_OFFSET, spec.packageName().getBytes(StandardCharsets.UTF_8));
        putString(b, REGISTRATION_ID_OFFSET, spec.registrationId().getBytes(StandardCharsets.US_ASCII));
        putString(b, PREDECESSOR_ID_OFFSET, spec.predecessorId().getBytes(StandardCharsets.US_ASCII));
        putString(b, SUCCESSOR_ID_OFFSET, new byte[0]);
        if (version >= LAYOUT_VERSION_2) {
            writeGroupDirectory(b, spec);
        }
    }

    private static void writeGroupDirectory(ByteBuffer b, BufferSpec spec) {
        int directory = (int) groupDirectoryOffset(spec.stripeCount());
        b.putInt(GROUP_DIRECTORY_OFFSET_OFFSET, directory);
        b.putInt(GROUP_COUNT_OFFSET, spec.directoryEntries());
        int area = directory + align(spec.directoryEntries() * GROUP_ENTRY_LENGTH, ALIGNMENT);
        int entry = directory;
        for (CounterGroup g : spec.groups()) {
            b.putInt(entry + GROUP_ENTRY_ID, g.id());
            b.putInt(entry + GROUP_ENTRY_VERSION, g.version());
            b.putInt(entry + GROUP_ENTRY_OFFSET, area);
            b.putInt(entry + GROUP_ENTRY_LENGTH_FIELD, g.length(spec.stripeCount()));
            entry += GROUP_ENTRY_LENGTH;
            area += g.length(spec.stripeCount());
        }
        if (spec.rings()) {
            // Last, so that a reader's copy of the counted part can stop where the rings begin.
            b.putInt(entry + GROUP_ENTRY_ID, RingGroup.ID);
            b.putInt(entry + GROUP_ENTRY_VERSION, RingGroup.VERSION);
            b.putInt(entry + GROUP_ENTRY_OFFSET, area);
            b.putInt(entry + GROUP_ENTRY_LENGTH_FIELD, (int) RingGroup.length(spec.stripeCount()));
        }
    }

    private static void putString(ByteBuffer b, int offset, byte[] bytes) {
        b.putInt(offset, bytes.length);
        b.put(offset + INT, bytes);
    }

    /** Result of {@link #create}: what a registration reply needs to tell the client. */
    public record CreatedBuffer(Path path, long length, int layoutVersion) {
    }
}
