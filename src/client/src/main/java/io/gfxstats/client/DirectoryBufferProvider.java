package io.gfxstats.client;

import io.gfxstats.buffer.BufferDescriptor;
import io.gfxstats.buffer.BufferFiles;
import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.BufferSpec;
import io.gfxstats.buffer.BufferState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link BufferProvider} without a daemon: buffers are files in a directory, one per
 * session, named {@code <package>-<versionCode>-<pid>-<registrationId>.gfxbuf}. Files are kept
 * after the session ends; they are the record of standalone mode (read them with
 * {@link BufferReader}).
 *
 * <p>Behaves like the daemon towards a session: attaching fails while the directory does not
 * exist (the session counts in memory and retries); a session that names its previous buffer
 * gets it back if the file is still there, intact and its own (adoption); otherwise a new
 * buffer names the previous one as predecessor. An attachment ends when its file is removed or
 * replaced (checked every poll interval), on {@link #requestReattach()}, and on {@link #close()}.
 */
public final class DirectoryBufferProvider implements BufferProvider, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryBufferProvider.class);
    public static final String SUFFIX = ".gfxbuf";

    private final Path directory;
    private final int stripeCount;
    private final Set<PosixFilePermission> permissions;
    private final Clock clock;
    private final int pid;
    private final int uid;
    private final List<FileAttachment> live = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor watcher;
    private final AtomicBoolean closed = new AtomicBoolean();

    private DirectoryBufferProvider(Builder b) throws IOException {
        this.directory = b.directory.toAbsolutePath().normalize();
        this.stripeCount = b.stripeCount;
        this.permissions = Set.copyOf(b.permissions);
        this.clock = b.clock;
        this.pid = (int) ProcessHandle.current().pid();
        this.uid = currentUid();
        this.watcher = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "gfxstats-dir-provider");
            t.setDaemon(true);
            return t;
        });
        long poll = b.pollInterval.toMillis();
        // A periodic task that throws is never run again, silently: checkFilesSafely never throws.
        ScheduledFuture<?> unused = watcher.scheduleWithFixedDelay(this::checkFilesSafely, poll, poll, TimeUnit.MILLISECONDS);
    }

    /** A provider with defaults: 16 stripes, owner-only files, files checked every 200 ms. */
    public static DirectoryBufferProvider create(Path directory) throws IOException {
        return builder(directory).build();
    }

    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    public Path directory() {
        return directory;
    }

    @Override
    public Attachment attach(AttachRequest request, AttachmentListener onEnded) throws IOException {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(onEnded, "onEnded");
        if (closed.get()) {
            throw new IOException("buffer provider closed");
        }
        SessionOptions.requireValidPackageName(request.packageName());
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(directory.toString(), null, "buffer directory does not exist");
        }
        BufferRef previous = request.previous();
        if (previous != null && canAdopt(previous, request)) {
            return register(new FileAttachment(previous.path(), previous.registrationId(), true, onEnded));
        }
        String id = UUID.randomUUID().toString();
        Path file = directory.resolve(request.packageName() + "-" + request.versionCode() + "-" + pid + "-" + id
                + SUFFIX);
        BufferSpec spec = BufferSpec.builder()
                .pid(pid)
                .uid(uid)
                .packageName(request.packageName())
                .versionCode(request.versionCode())
                .registrationId(id)
                .statsStartMillis(clock.millis())
                .pipeline(request.pipeline())
                .stripeCount(stripeCount)
                .predecessorId(previous == null ? "" : previous.registrationId())
                .build();
        BufferFiles.create(file, spec, permissions);
        return register(new FileAttachment(file, id, false, onEnded));
    }

    private boolean canAdopt(BufferRef previous, AttachRequest request) {
        Path path = previous.path().toAbsolutePath().normalize();
        if (!directory.equals(path.getParent())) {
            return false;
        }
        try (BufferReader reader = BufferReader.open(path, uid)) {
            BufferSnapshot s = reader.snapshot();
            return s.state() == BufferState.READY
                    && s.registrationId().equals(previous.registrationId())
                    && s.pid() == pid
                    && s.packageName().equals(request.packageName())
                    && s.versionCode() == request.versionCode();
        } catch (IOException e) {
            LOG.info("not adopting {}: {}", path, e.getMessage());
            return false;
        }
    }

    private Attachment register(FileAttachment attachment) throws IOException {
        attachment.key = fileKey(attachment.path);
        live.add(attachment);
        if (closed.get()) {
            attachment.end("buffer provider closed");
        }
        return attachment;
    }

    /**
     * Ends every live attachment while keeping the files, as a daemon restart would: each
     * session re-registers and gets its own buffer back.
     */
    public void requestReattach() {
        for (FileAttachment a : live) {
            a.end("re-registration requested");
        }
    }

    private void checkFilesSafely() {
        try {
            checkFiles();
        } catch (RuntimeException | Error e) {
            LOG.warn("buffer directory watch: {}; watching goes on", e.toString());
        }
    }

    private void checkFiles() {
        for (FileAttachment a : live) {
            Object key;
            try {
                key = fileKey(a.path);
            } catch (IOException e) {
                key = null;
            }
            if (!a.key.equals(key)) {
                a.end("buffer file removed or replaced: " + a.path);
            }
        }
    }

    private static Object fileKey(Path path) throws IOException {
        Map<String, Object> attrs = Files.readAttributes(path, "unix:ino,dev", LinkOption.NOFOLLOW_LINKS);
        return List.of(attrs.get("dev"), attrs.get("ino"));
    }

    static int currentUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /** Stops watching and ends every live attachment (sessions keep counting into their files). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            watcher.shutdownNow();
            for (FileAttachment a : live) {
                a.end("buffer provider closed");
            }
        }
    }

    private final class FileAttachment implements Attachment {
        final Path path;
        final String registrationId;
        final boolean adopted;
        final AttachmentListener listener;
        final AtomicBoolean done = new AtomicBoolean();
        Object key;

        FileAttachment(Path path, String registrationId, boolean adopted, AttachmentListener listener) {
            this.path = path;
            this.registrationId = registrationId;
            this.adopted = adopted;
            this.listener = listener;
        }

        @Override
        public Path bufferPath() {
            return path;
        }

        @Override
        public String registrationId() {
            return registrationId;
        }

        @Override
        public boolean adopted() {
            return adopted;
        }

        void end(String reason) {
            if (done.compareAndSet(false, true)) {
                live.remove(this);
                try {
                    listener.ended(reason);
                } catch (RuntimeException e) {
                    LOG.warn("attachment end listener failed", e);
                }
            }
        }

        @Override
        public void close() {
            if (done.compareAndSet(false, true)) {
                live.remove(this);
            }
        }
    }

    public static final class Builder {
        private final Path directory;
        private int stripeCount = BufferDescriptor.DEFAULT_STRIPES;
        private Set<PosixFilePermission> permissions = BufferFiles.OWNER_READ_WRITE;
        private Duration pollInterval = Duration.ofMillis(200);
        private Clock clock = Clock.systemUTC();

        private Builder(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
        }

        /** Writer stripes per buffer (1..255): trackers beyond them share one stripe with atomic adds. */
        public Builder stripeCount(int stripeCount) {
            if (stripeCount < BufferDescriptor.MIN_STRIPES || stripeCount > BufferDescriptor.MAX_STRIPES) {
                throw new IllegalArgumentException("stripe count must be in [" + BufferDescriptor.MIN_STRIPES + ", "
                        + BufferDescriptor.MAX_STRIPES + "]: " + stripeCount);
            }
            this.stripeCount = stripeCount;
            return this;
        }

        public Builder permissions(Set<PosixFilePermission> permissions) {
            this.permissions = Objects.requireNonNull(permissions, "permissions");
            return this;
        }

        public Builder pollInterval(Duration pollInterval) {
            if (pollInterval.toMillis() < 10) {
                throw new IllegalArgumentException("poll interval must be at least 10 ms: " + pollInterval);
            }
            this.pollInterval = pollInterval;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public DirectoryBufferProvider build() throws IOException {
            return new DirectoryBufferProvider(this);
        }
    }
}
