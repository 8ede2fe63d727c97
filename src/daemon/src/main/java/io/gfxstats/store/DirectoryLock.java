package io.gfxstats.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The fcntl lock on a directory's {@code .lock} file that makes one process its only user; the
 * file holds the holder's pid so that the refusal can name it. Released on {@link #close()} or
 * when the process dies (the kernel drops fcntl locks), so a crash never leaves it stuck.
 */
public final class DirectoryLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dir} (an existing directory).
     *
     * @param what how the refusal names the directory ("data directory")
     * @throws StoreLockedException when another process holds it
     */
    public static DirectoryLock acquire(Path dir, String what) throws IOException {
        FileChannel ch = FileChannel.open(dir.resolve(StoreNames.LOCK_FILE), Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), SecureDirs.FILE_MODE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            String holder = holder(ch);
            ch.close();
            throw new StoreLockedException(what + " " + dir + " is in use by another gfxstatsd" + holder
                    + "; stop it or choose another " + what);
        }
        DirectoryLock held = new DirectoryLock(ch, lock);
        try {
            ch.truncate(0);
            ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
        return held;
    }

    private static String holder(FileChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(32);
            ch.read(buf, 0);
            String pid = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
            return pid.matches("[0-9]{1,10}") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
