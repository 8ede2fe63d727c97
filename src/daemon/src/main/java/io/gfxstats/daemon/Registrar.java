package io.gfxstats.daemon;

import io.gfxstats.buffer.BufferDescriptor;
import io.gfxstats.buffer.BufferFiles;
import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.BufferSpec;
import io.gfxstats.buffer.BufferState;
import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.daemon.rpc.EndReason;
import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.daemon.rpc.Registration;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.rpc.v1.BufferAssigned;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.store.InvalidArgumentException;
import io.gfxstats.store.PackageNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a registration request into a live buffer: adopts the buffer the process already counts
 * into (after a daemon restart), or creates a new one in the buffer directory. The caller's pid
 * and uid come from the socket; the request only names package, version and the buffer to adopt.
 */
final class Registrar {
    private static final Logger log = LoggerFactory.getLogger(Registrar.class);

    private final DaemonState state;
    private final int daemonUid;
    private final Consumer<String> onClientGone;

    Registrar(DaemonState state, int daemonUid, Consumer<String> onClientGone) {
        this.state = state;
        this.daemonUid = daemonUid;
        this.onClientGone = onClientGone;
    }

    Registration register(PeerIdentity peer, RegisterRequest req) throws StatsException {
        String pkg;
        long version;
        try {
            pkg = PackageNames.requireValid(req.getPackageName());
            version = PackageNames.requireValidVersionCode(req.getVersionCode());
        } catch (InvalidArgumentException e) {
            throw StatsException.invalidArgument(e.getMessage());
        }
        if (req.getPipeline() < 0 || req.getPipeline() > Pipeline.VULKAN.code()) {
            throw StatsException.invalidArgument("pipeline " + req.getPipeline() + " is not 0 (unknown), 1 (GL) or 2 (Vulkan)");
        }
        Pipeline pipeline = Pipeline.fromCode(req.getPipeline());
        if (peer.uid() != daemonUid && daemonUid != 0) {
            throw StatsException.permissionDenied("the daemon runs as uid " + Integer.toUnsignedString(daemonUid)
                    + " and cannot hand a buffer to uid " + peer.uidText() + "; run a daemon as that user");
        }
        String adoptId = req.getAdoptRegistrationId();
        if (!adoptId.isEmpty() && !BufferNames.isValidId(adoptId)) {
            throw StatsException.invalidArgument("adopt_registration_id '" + printable(adoptId) + "' is not a registration id");
        }

        state.lock.writeLock().lock();
        try {
            if (!adoptId.isEmpty()) {
                LiveBuffer adopted = adopt(peer, req, pkg, version, adoptId);
                if (adopted != null) {
                    log.info("register: adopted {} for pid {}", adopted, peer.pid());
                    return registration(adopted, true);
                }
            }
            requireRoom(peer, pkg);
            LiveBuffer created = create(peer, pkg, version, pipeline, adoptId,
                    req.getNativeRings() && state.config.get(Setting.NATIVE_RINGS));
            log.info("register: new buffer {} for pid {} uid {}", created, peer.pid(), peer.uidText());
            return registration(created, false);
        } finally {
            state.lock.writeLock().unlock();
        }
    }

    /** The adopted buffer, or null when the named buffer no longer exists (a new one continues it). */
    private LiveBuffer adopt(PeerIdentity peer, RegisterRequest req, String pkg, long version, String id)
            throws StatsException {
        Path path = BufferNames.pathOf(state.config.get(Setting.BUFFER_DIR), id);
        if (!req.getAdoptBufferPath().isEmpty()
                && !Paths.get(req.getAdoptBufferPath()).toAbsolutePath().normalize().equals(path.toAbsolutePath().normalize())) {
            throw StatsException.permissionDenied("buffer path " + printable(req.getAdoptBufferPath())
                    + " is not in the daemon's buffer directory " + state.config.get(Setting.BUFFER_DIR));
        }
        LiveBuffer known = state.registry.get(id);
        if (known != null) {
            requireOwner(known.pid(), known.uid(), known.packageName(), known.versionCode(), peer, pkg, version, id);
            if (known.connected()) {
                throw StatsException.permissionDenied("buffer " + id + " is already registered by a live connection");
            }
            known.setConnected(true);
            return known;
        }
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        requireRoom(peer, pkg);
        BufferReader reader = null;
        try {
            reader = BufferReader.open(path, peer.uid());
            BufferSnapshot snap = reader.snapshot();
            requireOwner(snap.pid(), snap.uid(), snap.packageName(), snap.versionCode(), peer, pkg, version, id);
            if (!snap.registrationId().equals(id)) {
                throw StatsException.permissionDenied("buffer file " + path + " holds registration " + snap.registrationId());
            }
            if (snap.state() == BufferState.RETIRED) {
                throw StatsException.invalidArgument("buffer " + id + " was handed over to " + snap.successorId());
            }
            Map<String, long[]> marks = Baselines.forPackage(state.store, pkg, version, snap.uid());
            LiveBuffer b = state.registry.add(id, snap.pid(), snap.uid(), pkg, version, snap.pipeline(), path, reader,
                    Baselines.of(marks, id, snap.predecessorId()),
                    Math.max(snap.statsStartMillis(), state.currentDay));
            b.setConnected(true);
            reader = null;
            return b;
        } catch (IOException e) {
            throw StatsException.permissionDenied("cannot adopt buffer " + path + ": " + e.getMessage());
        } finally {
            if (reader != null) {
                reader.close();
            }
        }
    }

    /** The registration caps: in total, per process and per user; each refusal says "daemon full" and names its setting. */
    private void requireRoom(PeerIdentity peer, String pkg) throws StatsException {
        String who = "; not registering " + pkg + " for pid " + peer.pid() + " uid " + peer.uid();
        if (state.registry.isFull()) {
            throw StatsException.resourceExhausted("daemon full: " + state.registry.size() + " live buffers, the limit "
                    + "(setting " + Setting.MAX_BUFFERS.key() + ")" + who);
        }
        int perPid = state.config.get(Setting.MAX_BUFFERS_PER_PID);
        int ofPid = state.registry.countByPid(peer.pid());
        if (ofPid >= perPid) {
            throw StatsException.resourceExhausted("daemon full for this process: pid " + peer.pid() + " already holds "
                    + ofPid + " live buffers, the limit per process (setting " + Setting.MAX_BUFFERS_PER_PID.key() + ")"
                    + who);
        }
        int perUid = state.config.get(Setting.MAX_BUFFERS_PER_UID);
        int ofUid = state.registry.countByUid(peer.uid());
        if (ofUid >= perUid) {
            throw StatsException.resourceExhausted("daemon full for this user: uid " + peer.uid() + " already holds "
                    + ofUid + " live buffers, the limit per user (setting " + Setting.MAX_BUFFERS_PER_UID.key() + ")"
                    + who);
        }
    }

    private static void requireOwner(int pid, int uid, String filePkg, long fileVersion, PeerIdentity peer, String pkg,
                                     long version, String id) throws StatsException {
        if (pid != peer.pid() || uid != peer.uid()) {
            throw StatsException.permissionDenied("buffer " + id + " belongs to pid " + pid + " uid "
                    + Integer.toUnsignedString(uid) + ", not to the caller (pid " + peer.pid() + " uid " + peer.uidText()
                    + ")");
        }
        if (!filePkg.equals(pkg) || fileVersion != version) {
            throw StatsException.permissionDenied("buffer " + id + " counts " + filePkg + " version " + fileVersion
                    + ", not " + pkg + " version " + version);
        }
    }

    private LiveBuffer create(PeerIdentity peer, String pkg, long version, Pipeline pipeline, String predecessorId,
                              boolean rings) throws StatsException {
        String id = BufferNames.newId();
        Path path = BufferNames.pathOf(state.config.get(Setting.BUFFER_DIR), id);
        long start = state.now();
        BufferSpec spec = BufferSpec.builder().pid(peer.pid()).uid(peer.uid()).packageName(pkg).versionCode(version)
                .registrationId(id).statsStartMillis(start).pipeline(pipeline).predecessorId(predecessorId).rings(rings).build();
        BufferReader reader = null;
        try {
            Files.createDirectories(state.config.get(Setting.BUFFER_DIR));
            BufferFiles.create(path, spec, BufferFiles.OWNER_READ_WRITE);
            if (peer.uid() != daemonUid) {
                Files.setAttribute(path, "unix:uid", peer.uid(), LinkOption.NOFOLLOW_LINKS);
            }
            reader = BufferReader.open(path, peer.uid());
            long[] baseline = predecessorBaseline(pkg, version, peer.uid(), predecessorId);
            LiveBuffer b = state.registry.add(id, peer.pid(), peer.uid(), pkg, version, pipeline, path, reader, baseline,
                    Math.max(start, state.currentDay));
            b.setConnected(true);
            reader = null;
            return b;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw StatsException.unavailable("cannot create a buffer in " + state.config.get(Setting.BUFFER_DIR) + ": "
                    + e.getMessage(), e);
        } finally {
            if (reader != null) {
                reader.close();
            }
        }
    }

    /**
     * A new buffer that continues a predecessor receives the predecessor's counts from the
     * client, so it starts from what was saved of the predecessor. The predecessor itself is
     * forgotten unharvested: everything in it reaches the daemon through its successor.
     */
    private long[] predecessorBaseline(String pkg, long version, int uid, String predecessorId) throws IOException {
        if (predecessorId.isEmpty()) {
            return null;
        }
        // A predecessor still registered was adopted instead (adopt() returns it or refuses), so
        // only its marks in the day files can say what of it is saved.
        return Baselines.forPackage(state.store, pkg, version, uid).get(predecessorId);
    }

    private Registration registration(LiveBuffer buffer, boolean adopted) {
        BufferAssigned assigned = BufferAssigned.newBuilder()
                .setBufferPath(buffer.path().toAbsolutePath().toString())
                .setRegistrationId(buffer.key())
                .setLayoutVersion(BufferDescriptor.CURRENT_LAYOUT_VERSION)
                .setBufferSize(sizeOf(buffer.path()))
                .setAdopted(adopted)
                .build();
        return Registration.of(assigned, reason -> {
            if (reason == EndReason.CLIENT_GONE) {
                onClientGone.accept(buffer.key());
            }
        });
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0; // informational field; a vanished file shows up at the client's mapping
        }
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(80).forEach(c -> {
            if (c >= 0x20 && c < 0x7f) {
                b.appendCodePoint(c);
            } else {
                b.append(String.format("\\u%04x", c));
            }
        });
        return b.toString();
    }
}
