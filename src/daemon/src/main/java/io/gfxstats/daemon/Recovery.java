package io.gfxstats.daemon;

import io.gfxstats.buffer.BufferFormatException;
import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.BufferState;
import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.daemon.registry.ProcessLiveness;
import io.gfxstats.store.PackageNames;
import io.gfxstats.text.TerminalText;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On start, examines every buffer file a previous daemon left: a buffer whose process still
 * runs is adopted (its client's reconnect finds it); one whose process is gone has its unsaved
 * difference saved and is removed. Files that are not valid buffers are moved aside, never
 * deleted silently.
 */
final class Recovery {
    private static final Logger log = LoggerFactory.getLogger(Recovery.class);

    private final DaemonState state;
    private final Lifecycle lifecycle;

    Recovery(DaemonState state, Lifecycle lifecycle) {
        this.state = state;
        this.lifecycle = lifecycle;
    }

    void run() throws IOException {
        Path dir = state.config.get(Setting.BUFFER_DIR);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Candidate> candidates = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String id = BufferNames.idOf(file);
                if (id == null) {
                    continue;
                }
                Candidate c = open(file, id);
                if (c != null) {
                    candidates.add(c);
                }
            }
        }
        if (candidates.isEmpty()) {
            return;
        }
        Map<String, long[]> marks = Baselines.all(state.store);
        Set<String> continued = new HashSet<>();
        for (Candidate c : candidates) {
            continued.add(c.snapshot().predecessorId());
        }
        state.lock.writeLock().lock();
        try {
            for (Candidate c : candidates) {
                adoptOrRetire(c, marks, continued);
            }
        } finally {
            state.lock.writeLock().unlock();
        }
    }

    private void adoptOrRetire(Candidate c, Map<String, long[]> marks, Set<String> continued) throws IOException {
        BufferSnapshot s = c.snapshot();
        if (s.state() == BufferState.RETIRED || continued.contains(c.id())) {
            // Its counts live on in its successor, which is harvested instead.
            c.reader().close();
            Files.deleteIfExists(c.file());
            log.info("recovery: removed handed-over buffer {} ({})", c.id(), s.packageName());
            return;
        }
        if (state.registry.isFull()) {
            log.warn("recovery: more leftover buffers than buffers.max; {} stays for a later start", c.file());
            c.reader().close();
            return;
        }
        LiveBuffer b = state.registry.add(c.id(), s.pid(), s.uid(), s.packageName(), s.versionCode(), s.pipeline(),
                c.file(), c.reader(), Baselines.of(marks, c.id(), s.predecessorId()),
                Math.max(s.statsStartMillis(), state.currentDay));
        boolean alive = ProcessLiveness.pidAlive(s.pid())
                && ProcessLiveness.heartbeatFresh(s.heartbeatMillis(),
                        state.config.get(Setting.HEARTBEAT_TIMEOUT).toMillis());
        if (alive) {
            log.info("recovery: adopted {} (process alive, waiting for it to reconnect)", b);
        } else {
            lifecycle.retire(b, "process gone while no daemon ran");
        }
    }

    private Candidate open(Path file, String id) {
        try {
            PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attrs.isRegularFile()) {
                quarantine(file, "not a regular file");
                return null;
            }
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            BufferReader reader = BufferReader.open(file, owner);
            try {
                BufferSnapshot snap = reader.snapshot();
                if (!snap.registrationId().equals(id) || snap.uid() != owner) {
                    reader.close();
                    quarantine(file, "header does not match its file name or owner");
                    return null;
                }
                // Checked at Register, but the header is in a file its client may write: what a
                // dump or pull prints must pass the same rules again (they stay byte-exact to
                // Android, with no escaping of their own).
                Optional<String> bad = PackageNames.problem(snap.packageName());
                if (bad.isPresent() || !PackageNames.isValidVersionCode(snap.versionCode())) {
                    reader.close();
                    quarantine(file, "its header names package '" + TerminalText.escape(
                            snap.packageName()) + "' version " + snap.versionCode() + ", which Register would refuse");
                    return null;
                }
                return new Candidate(file, id, reader, snap);
            } catch (IOException | RuntimeException e) {
                reader.close();
                throw e;
            }
        } catch (BufferFormatException e) {
            quarantine(file, e.getMessage());
        } catch (IOException e) {
            log.warn("recovery: cannot examine {}: {}", file, e.getMessage());
        }
        return null;
    }

    private void quarantine(Path file, String why) {
        Path target = file.resolveSibling(file.getFileName() + ".invalid-" + state.now());
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
            log.warn("quarantine: buffer file {} moved to {}: {}", file, target, why);
        } catch (IOException e) {
            log.warn("quarantine: cannot move invalid buffer file {} aside ({}): {}", file, why, e.getMessage());
        }
    }

    private record Candidate(Path file, String id, BufferReader reader, BufferSnapshot snapshot) {
    }
}
