package io.gfxstats.buffer;

import net.openhft.chronicle.bytes.internal.NativeBytesStore;
import net.openhft.chronicle.core.OS;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;

/**
 * A chronicle-bytes store over one memory mapping of a whole buffer file. Reference counted:
 * the mapping is removed when the last reference is released ({@code releaseLast}), on the
 * releasing thread, never later in a background releaser: a caller that has released its last
 * reference may delete or reuse the file at once.
 */
final class MappedRegion extends NativeBytesStore<Void> {
    private MappedRegion(long address, long length) {
        super(address, length, () -> unmap(address, length), false, false);
        singleThreadedCheckDisabled(true);
    }

    static MappedRegion map(FileChannel channel, boolean writable, long length) throws IOException {
        long address = OS.map(channel, writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
                0, length);
        return new MappedRegion(address, length);
    }

    /** Base address of the mapping; valid until the last reference is released. */
    long baseAddress() {
        return addressForRead(0);
    }

    @Override
    protected boolean canReleaseInBackground() {
        return false;
    }

    private static void unmap(long address, long length) {
        try {
            OS.unmap(address, length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unmap gfxstats buffer", e);
        }
    }
}
