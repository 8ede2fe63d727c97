package io.gfxstats.buffer;

import io.gfxstats.stats.Pipeline;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.gfxstats.buffer.BufferDescriptor.*;

/**
 * The client's read-write mapping of one buffer. Hands out {@link StripeWriter}s (one per
 * tracker) and keeps the few header fields a client owns: heartbeat, stats start (lowered only),
 * and retirement at handover.
 *
 * <p>The mapping lives until {@link #close()} has been called and every stripe handed out has
 * been released; the last release unmaps it on the releasing thread. Methods other than the
 * stripes' counting methods are thread-safe.
 *
 * <p>Never truncate a mapped buffer file: a process touching pages that no longer exist is
 * killed by SIGBUS.
 */
public final class BufferWriter implements AutoCloseable {
    static {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            // The format is little-endian; BufferMemory writes it so anywhere, but nobody has tried a
            // big-endian machine, and the daemon's readers assume it too.
            throw new ExceptionInInitializerError("gfxstats buffers need a little-endian platform");
        }
    }


    private final BufferHeader header;
    private final MappedRegion region;
    private final long base;
    private final int ownerPid;
    private final AtomicBoolean closed = new AtomicBoolean();

    private BufferWriter(BufferHeader header, MappedRegion region) {
        this.header = header;
        this.region = region;
        this.base = region.baseAddress();
        this.ownerPid = (int) ProcessHandle.current().pid();
    }

    /**
     * Maps a ready buffer for writing, after the same validation as {@link BufferReader} (no
     * owner check: the provider that named the file vouches for it). A retired buffer is
     * rejected ({@link BufferFormatException.Reason#RETIRED}): count into its successor.
     */
    public static BufferWriter open(Path path) throws IOException {
        try (FileChannel channel = BufferHeader.openChannel(path, true, null, -1)) {
            BufferHeader header = BufferHeader.read(path, channel);
            if (header.layoutVersion != CURRENT_LAYOUT_VERSION) {
                // Readers accept older layouts; writers count only in the layout they know.
                throw new BufferFormatException(BufferFormatException.Reason.UNSUPPORTED_VERSION, path,
                        "layout version " + header.layoutVersion + ", this release writes " + CURRENT_LAYOUT_VERSION);
            }
            int state = BufferHeader.readStateWord(channel);
            if (state == STATE_RETIRED) {
                ByteBuffer image = BufferHeader.readFully(channel, 0, header.headerLength);
                throw new BufferFormatException(BufferFormatException.Reason.RETIRED, path,
                        "handed over to " + header.mutableFields(state, image).successorId());
            }
            return new BufferWriter(header, MappedRegion.map(path, channel, true, header.length));
        }
    }

    /**
     * A stripe for one writer: a free writer stripe claimed with a compare-and-set of its claim
     * word (0 to this process's pid), or, when all are taken, the shared stripe with atomic adds.
     * Never fails for lack of stripes; counting is exact either way.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public StripeWriter claimStripe() {
        reserve();
        try {
            for (int s = 1; s <= header.stripeCount; s++) {
                long claim = base + header.claimOffset(s);
                if (BufferMemory.readVolatileInt(claim) == 0 && BufferMemory.compareAndSwapInt(claim, 0, ownerPid)) {
                    return StripeWriter.exclusive(this, s, base + header.stripeOffset(s), groupAddresses(s));
                }
            }
            return StripeWriter.shared(this, base + header.stripeOffset(SHARED_STRIPE), groupAddresses(SHARED_STRIPE));
        } catch (RuntimeException | Error e) {
            region.release();
            throw e;
        }
    }

    /**
     * Writer stripe {@code stripe} (1..N) as it is, whoever's claim word it holds, which stays as
     * it is, also when the writer is released: for the daemon, which counts what a dead claimant
     * left in its ring (docs/buffer-format.md, "Ring group"). Nothing else may count into it.
     */
    public StripeWriter takeOverStripe(int stripe) {
        requireWriterStripe(stripe);
        reserve();
        StripeWriter w = StripeWriter.exclusive(this, stripe, base + header.stripeOffset(stripe), groupAddresses(stripe));
        w.keepClaim = true;
        return w;
    }

    /** The claim word of writer stripe {@code stripe}: the claimant's pid, 0 when free. */
    public int claimOf(int stripe) {
        requireWriterStripe(stripe);
        return BufferMemory.readVolatileInt(base + header.claimOffset(stripe));
    }

    /** Whether the file has the ring group ({@link RingGroup}). */
    public boolean hasRings() {
        return header.ringOffset() >= 0;
    }

    /** A copy of ring stripe {@code stripe - 1}, the one of writer stripe {@code stripe} (1..N). */
    public byte[] copyRingStripe(int stripe) {
        requireWriterStripe(stripe);
        if (!hasRings()) {
            throw new IllegalStateException("buffer without the ring group: " + header.path);
        }
        byte[] copy = new byte[RingGroup.STRIPE_BYTES];
        region.read(header.ringOffset() + RingGroup.stripeOffset(stripe), copy, 0, copy.length);
        return copy;
    }

    /**
     * Where stripe {@code stripe} of a part of the counts lies: {@code group} -1 for the counter
     * stripe, else an index of {@link CounterGroups#KNOWN}; its offset and length, or null when
     * the file lacks the group in the version this release writes.
     */
    private long[] part(int stripe, int group) {
        if (group < 0) {
            return new long[] {header.stripeOffset(stripe), BufferDescriptor.stripeLength(header.layoutVersion)};
        }
        if (!header.groupWritable(group)) {
            return null;
        }
        return new long[] {header.groupStripeOffset(group, stripe), CounterGroups.KNOWN.get(group).stripeLength()};
    }

    /**
     * A copy of stripe {@code stripe} of the counter stripes ({@code group} -1) or of known group
     * {@code group}; null when the file lacks that group in the version this release writes.
     */
    public byte[] copyStripe(int stripe, int group) {
        long[] p = part(stripe, group);
        if (p == null) {
            return null;
        }
        byte[] copy = new byte[(int) p[1]];
        region.read(p[0], copy, 0, copy.length);
        return copy;
    }

    /**
     * Overwrites stripe {@code stripe} of the counter stripes or of a known group (as in
     * {@link #copyStripe}) with the first bytes of {@code image}; false when the file lacks it.
     * Only for a stripe nobody counts into (its claimant is dead).
     */
    public boolean writeStripe(int stripe, int group, byte[] image) {
        long[] p = part(stripe, group);
        if (p == null) {
            return false;
        }
        if (image.length < p[1]) {
            throw new IllegalArgumentException("image of " + image.length + " bytes, the stripe has " + p[1]);
        }
        region.write(p[0], image.length == p[1] ? image : Arrays.copyOf(image, (int) p[1]));
        return true;
    }

    private void requireWriterStripe(int stripe) {
        if (stripe < 1 || stripe > header.stripeCount) {
            throw new IllegalArgumentException("writer stripe " + stripe + " of 1.." + header.stripeCount);
        }
    }

    private long[] groupAddresses(int stripe) {
        long[] addresses = new long[CounterGroups.KNOWN.size()];
        for (int g = 0; g < addresses.length; g++) {
            // A group of an earlier version (a daemon of the previous release made the file) is
            // left alone: its layout is not the one this writer counts in.
            long offset = header.groupWritable(g) ? header.groupStripeOffset(g, stripe) : -1;
            addresses[g] = offset < 0 ? 0 : base + offset;
        }
        return addresses;
    }

    /** True if the buffer has the scene group in the version this release writes. */
    public boolean hasScenes() {
        return header.groupWritable(GroupStripes.SCENES);
    }

    /**
     * The version of the scene group in the file (0 without one). Scenes are counted only when it
     * is {@link SceneGroup#VERSION}: an earlier one (a gfxstatsd of an earlier release made the
     * file) is read, never written, so a session says once that its scenes are not counted.
     */
    public int sceneGroupVersion() {
        return header.groupVersion(GroupStripes.SCENES);
    }

    /**
     * Names scene slot {@code slot}: the name first, then the slot's state (release store), so
     * a reader that sees the slot named sees its name. Only the session owning the buffer names
     * slots, once each, before it counts a frame in them; naming a named slot again with the
     * same name does nothing, with another name fails.
     *
     * @return false if the buffer has no scene group (in the version this release writes)
     */
    public boolean nameScene(int slot, String name) {
        byte[] bytes = SceneGroup.requireName(name);
        Objects.checkIndex(slot, SceneGroup.SLOTS);
        int area = header.sceneGroupOffset();
        if (area < 0 || !hasScenes()) {
            return false;
        }
        reserve();
        try {
            SceneSlotEntry.name(base + area + (long) slot * SceneGroup.SLOT_ENTRY_BYTES, bytes,
                    () -> "scene slot " + slot + " of " + header.path);
            return true;
        } finally {
            region.release();
        }
    }

    void releaseClaim(int stripe) {
        // Ordered store: the next claimant's CAS sees every count written under this claim.
        BufferMemory.writeOrderedInt(base + header.claimOffset(stripe), 0);
    }

    /**
     * Whether this process still holds {@code file} mapped for counting (a writer or a stripe not yet
     * released). Once false, nothing of ours touches the file again; the JDK removes the mapping
     * itself when it is collected.
     */
    public static boolean isMapped(Path file) {
        return MappedRegion.isMapped(file);
    }

    MappedRegion region() {
        return region;
    }

    /** Publishes the client's liveness (epoch ms). Called a few times per second, never per frame. */
    public void heartbeat(long epochMillis) {
        reserve();
        try {
            BufferMemory.writeOrderedLong(base + HEARTBEAT_OFFSET, epochMillis);
        } finally {
            region.release();
        }
    }

    /**
     * Moves the stats start back to {@code epochMillis} if that is earlier (a client merging
     * counts it made before it had this buffer); never moves it forward.
     *
     * @return true if the start changed
     */
    public boolean lowerStatsStart(long epochMillis) {
        if (epochMillis <= 0) {
            return false;
        }
        reserve();
        try {
            long address = base + STATS_START_OFFSET;
            while (true) {
                long current = BufferMemory.readVolatileLong(address);
                if (current != 0 && current <= epochMillis) {
                    return false;
                }
                if (BufferMemory.compareAndSwapLong(address, current, epochMillis)) {
                    return true;
                }
            }
        } finally {
            region.release();
        }
    }

    /** The stats start now in the header (epoch ms). */
    public long statsStartMillis() {
        reserve();
        try {
            return BufferMemory.readVolatileLong(base + STATS_START_OFFSET);
        } finally {
            region.release();
        }
    }

    /**
     * Marks the buffer handed over to {@code successorId}: the successor id is written first,
     * then the state word (release), so a reader seeing RETIRED also sees the successor.
     */
    public void retire(String successorId) {
        BufferSpec.requireRegistrationId(successorId, "successor id");
        reserve();
        try {
            byte[] bytes = successorId.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < bytes.length; i++) {
                BufferMemory.writeByte(base + SUCCESSOR_ID_OFFSET + INT + i, bytes[i]);
            }
            BufferMemory.writeOrderedInt(base + SUCCESSOR_ID_OFFSET, bytes.length);
            BufferMemory.writeOrderedInt(base + STATE_OFFSET, STATE_RETIRED);
        } finally {
            region.release();
        }
    }

    /** A snapshot as the daemon would take it. */
    public BufferSnapshot snapshot() throws BufferFormatException {
        reserve();
        try {
            byte[] state = copyAfterFence(STATE_OFFSET, INT);
            byte[] first = copyAfterFence(0, header.countedLength());
            byte[] second = copyAfterFence(0, header.countedLength());
            int stateWord = ByteBuffer.wrap(state).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            return new BufferSnapshot(header, header.mutableFields(stateWord, ByteBuffer.wrap(first)),
                    header.sumStripes(ByteBuffer.wrap(first), ByteBuffer.wrap(second),
                            (offset, length) -> ByteBuffer.wrap(copyAfterFence(offset, length))
                                    .order(ByteOrder.LITTLE_ENDIAN)),
                    header.sceneNames(ByteBuffer.wrap(first)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } finally {
            region.release();
        }
    }

    /**
     * {@code length} bytes from {@code offset}, copied after an acquire fence: a snapshot's later
     * reads never see the file older than its earlier ones did.
     */
    private byte[] copyAfterFence(long offset, int length) {
        VarHandle.acquireFence();
        byte[] bytes = new byte[length];
        copy(offset, bytes);
        return bytes;
    }

    private void copy(long offset, byte[] dst) {
        // A bulk copy over the mapping: if the file was truncated under it,
        // HotSpot raises InternalError instead of dying on SIGBUS.
        region.read(offset, dst, 0, dst.length);
    }

    public Path path() {
        return header.path;
    }

    public String registrationId() {
        return header.registrationId;
    }

    public String predecessorId() {
        return header.predecessorId;
    }

    public String packageName() {
        return header.packageName;
    }

    public long versionCode() {
        return header.versionCode;
    }

    public Pipeline pipeline() {
        return header.pipeline;
    }

    public int pid() {
        return header.pid;
    }

    public int stripeCount() {
        return header.stripeCount;
    }

    public int layoutVersion() {
        return header.layoutVersion;
    }

    public long length() {
        return header.length;
    }

    /** True once closed and every stripe released: the file is no longer mapped. */
    public boolean isUnmapped() {
        return region.refCount() == 0;
    }

    /** A reference that keeps the mapping alive while a method touches it, even if close() races. */
    private void reserve() {
        if (closed.get() || !region.tryReserve()) {
            throw new IllegalStateException("buffer writer closed: " + header.path);
        }
    }

    /**
     * Drops this writer's reference to the mapping; the file is unmapped now, or when the last
     * stripe still in use is released. Idempotent.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            region.release();
        }
    }
}
