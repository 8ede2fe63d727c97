package io.gfxstats.buffer;

import io.gfxstats.stats.Pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/** Buffer files for tests, and byte-level patching to make malformed ones. */
public final class TestBuffers {
    public static final long START = 1_700_000_000_000L;

    private TestBuffers() {
    }

    public static int uid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    public static BufferSpec spec(String registrationId, int stripes) throws IOException {
        return BufferSpec.builder()
                .pid(ProcessHandle.current().pid())
                .uid(uid())
                .packageName("com.example.app")
                .versionCode(42)
                .registrationId(registrationId)
                .statsStartMillis(START)
                .pipeline(Pipeline.VULKAN)
                .stripeCount(stripes)
                .build();
    }

    public static Path create(Path dir, String name, int stripes) throws IOException {
        Path file = dir.resolve(name);
        BufferFiles.create(file, spec("reg-" + name, stripes), BufferFiles.OWNER_READ_WRITE);
        return file;
    }

    /** The counter groups a gfxstatsd of the previous release creates: the scene group in version 1. */
    public static List<CounterGroup> previousReleaseGroups() {
        return List.of(SceneGroup.VERSION_1, CounterGroups.FRAMETIMELINE, CounterGroups.CLIENT_HEALTH);
    }

    public static void putInt(Path file, long offset, int value) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(b, offset);
        }
    }

    public static void putLong(Path file, long offset, long value) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(b, offset);
        }
    }

    public static void truncate(Path file, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(length);
        }
    }

    /** Lines of /proc/self/maps that map {@code file}. */
    public static List<String> mappingsOf(Path file) throws IOException {
        String name = file.toAbsolutePath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.endsWith(name)).toList();
    }
}
