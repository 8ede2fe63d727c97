package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.StatsSink;
import net.openhft.chronicle.bytes.internal.NativeBytesStore;
import net.openhft.chronicle.core.UnsafeMemory;
import net.openhft.chronicle.core.io.ReferenceOwner;

import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * Where one tracker counts: a {@link StatsSink} over one stripe of counters. Three kinds:
 * <ul>
 *   <li><b>exclusive</b>: a writer stripe of a buffer claimed for this writer alone; an
 *       increment is a plain load and a plain store, no atomic instruction (see
 *       {@link #increment} for the one fence per frame);</li>
 *   <li><b>shared</b>: when every writer stripe is claimed, increments go to the buffer's shared
 *       stripe with atomic adds, and are mirrored into a private record of this writer's own
 *       contribution (needed to hand counts over exactly, see {@link #contribution});</li>
 *   <li><b>in memory</b>: process memory, for frames recorded before any buffer is attached.</li>
 * </ul>
 *
 * <p>Single writer: {@link #increment} and {@link #add} must not be called by two threads at
 * once (one tracker, one thread). {@link #contribution} may be read by any thread at any time.
 * Nothing allocates on the counting path.
 */
public final class StripeWriter implements StatsSink, io.gfxstats.timeline.TimelineSink {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final int BYTES = Counters.COUNT * Integer.BYTES;
    private static final int GROUPS = CounterGroups.KNOWN.size();
    private static final int SCENES = CounterGroups.KNOWN.indexOf(CounterGroups.SCENES);
    private static final int TIMELINE = CounterGroups.KNOWN.indexOf(CounterGroups.FRAMETIMELINE);
    private static final int SCENE_SLOT_BYTES = SceneGroup.COUNTERS32 * Integer.BYTES;
    private static final int SCENE_WIDE_OFFSET = CounterGroups.SCENES.wideOffset();
    private static final int SCENE_SLOT_WIDE_BYTES = SceneGroup.COUNTERS64 * Long.BYTES;

    private final BufferWriter buffer;
    private final int stripe;
    private final long address;
    private final long record;
    private final boolean shared;
    private final NativeBytesStore<Void> privateMemory;
    private final ReferenceOwner owner;
    /** Per known group: its group stripe in the buffer (0 when the buffer lacks the group). */
    private final long[] groupAddress = new long[GROUPS];
    /** Per known group: where this writer's own counts are (the group stripe, or private memory); 0 when absent. */
    private final long[] groupRecord = new long[GROUPS];
    private final long sceneAddress;
    private final long sceneRecord;
    /** The FrameTimeline group stripe in the buffer, and where this writer's own counts are (0: absent). */
    private final long timelineAddress;
    private final long timelineRecord;
    /** Offset of the selected scene slot's u32 counters in the scene group stripe; -1: none. */
    private int sceneSlot = -1;
    /** The slot last passed to {@link #selectScene} (-1: none). */
    private int selectedSlot = -1;
    /** Offset of the selected scene slot's u64 sums in the scene group stripe. */
    private int sceneWide;
    private boolean released;

    private StripeWriter(BufferWriter buffer, int stripe, long address, long[] groupAddresses, boolean shared,
                         ReferenceOwner owner) {
        this.buffer = buffer;
        this.stripe = stripe;
        this.address = address;
        this.shared = shared;
        this.owner = owner;
        if (buffer == null || shared) {
            int bytes = BYTES;
            for (int g = 0; g < GROUPS; g++) {
                if (groupAddresses == null || groupAddresses[g] != 0) {
                    bytes += CounterGroups.KNOWN.get(g).stripeLength();
                }
            }
            privateMemory = NativeBytesStore.nativeStoreWithFixedCapacity(bytes);
            privateMemory.zeroOut(0, bytes);
            privateMemory.singleThreadedCheckDisabled(true);
            this.record = privateMemory.addressForWrite(0);
            long next = record + BYTES;
            for (int g = 0; g < GROUPS; g++) {
                if (groupAddresses == null || groupAddresses[g] != 0) {
                    groupRecord[g] = next;
                    next += CounterGroups.KNOWN.get(g).stripeLength();
                    groupAddress[g] = groupAddresses == null ? 0 : groupAddresses[g];
                }
            }
        } else {
            privateMemory = null;
            this.record = address;
            for (int g = 0; g < GROUPS; g++) {
                groupAddress[g] = groupAddresses[g];
                groupRecord[g] = groupAddresses[g];
            }
        }
        this.sceneAddress = groupAddress[SCENES];
        this.sceneRecord = groupRecord[SCENES];
        this.timelineAddress = groupAddress[TIMELINE];
        this.timelineRecord = groupRecord[TIMELINE];
    }

    /** A stripe in process memory, for counting before a buffer is attached. It has every known group. */
    public static StripeWriter inMemory() {
        return new StripeWriter(null, -1, 0, null, false, null);
    }

    static StripeWriter exclusive(BufferWriter buffer, int stripe, long address, long[] groupAddresses,
                                  ReferenceOwner owner) {
        return new StripeWriter(buffer, stripe, address, groupAddresses, false, owner);
    }

    static StripeWriter shared(BufferWriter buffer, long address, long[] groupAddresses, ReferenceOwner owner) {
        return new StripeWriter(buffer, BufferDescriptor.SHARED_STRIPE, address, groupAddresses, true, owner);
    }

    /**
     * Adds one to a counter: a plain load and a plain store (plus an atomic add to the shared
     * stripe). The store of {@link Counters#TOTAL_FRAMES} is followed by a store fence, so every
     * counter a tracker increments after a frame's total (its histogram buckets, its jank
     * counters) becomes visible only after that total. Release stores on every counter would
     * give the same guarantee but cost a compiler barrier per counter, measurably more on the
     * per-frame path.
     *
     * <p>The first {@link SceneGroup#MIRRORED} counters (total, janky, jank types) are also
     * counted in the selected scene ({@link #selectScene}), if any.
     */
    @Override
    public void increment(int counter) {
        long offset = (long) Objects.checkIndex(counter, Counters.COUNT) << 2;
        if (shared) {
            MEMORY.addInt(address + offset, 1);
        }
        long r = record + offset;
        MEMORY.writeInt(r, MEMORY.readInt(r) + 1);
        if (counter == Counters.TOTAL_FRAMES) {
            VarHandle.releaseFence();
        }
        int slot = sceneSlot;
        if (counter < SceneGroup.MIRRORED && slot >= 0) {
            long o = slot + offset;
            if (shared) {
                MEMORY.addInt(sceneAddress + o, 1);
            }
            long sr = sceneRecord + o;
            MEMORY.writeInt(sr, MEMORY.readInt(sr) + 1);
        }
    }

    /**
     * Selects the scene slot that the following frames count into (0..{@link SceneGroup#SLOTS}-1),
     * or none with -1. Without a scene group (a buffer made without one) nothing is selected.
     */
    public void selectScene(int slot) {
        if (slot == selectedSlot) {
            return; // the common case: the same scene as the last frame
        }
        selectedSlot = slot;
        if (slot < 0 || sceneRecord == 0) {
            sceneSlot = -1;
            return;
        }
        Objects.checkIndex(slot, SceneGroup.SLOTS);
        sceneSlot = slot * SCENE_SLOT_BYTES;
        sceneWide = SCENE_WIDE_OFFSET + slot * SCENE_SLOT_WIDE_BYTES;
    }

    /**
     * Counts one frame's Matrix values in the selected scene, in one call (the per-frame path):
     * Matrix frames, the level's count and dropped-frame sum, Σ max(T, I), Σ dropped (2^-20
     * units), Σ refresh (milli-Hz) and the TOTAL stage sum. Adds of zero are skipped (most
     * frames drop nothing).
     */
    public void countMatrix(int level, int dropped, long costNanos, long droppedQ20, long refreshMilliHz,
                            long totalNanos) {
        int slot = sceneSlot;
        if (slot < 0) {
            return;
        }
        if (shared) {
            countMatrixShared(slot, level, dropped, costNanos, droppedQ20, refreshMilliHz, totalNanos);
        }
        long u = sceneRecord + slot;
        long w = sceneRecord + sceneWide;
        long a = u + (SceneGroup.MATRIX_FRAMES << 2);
        MEMORY.writeInt(a, MEMORY.readInt(a) + 1);
        a = u + ((long) (SceneGroup.LEVEL_COUNT_BASE + level) << 2);
        MEMORY.writeInt(a, MEMORY.readInt(a) + 1);
        if (dropped != 0) {
            a = u + ((long) (SceneGroup.LEVEL_SUM_BASE + level) << 2);
            MEMORY.writeInt(a, MEMORY.readInt(a) + dropped);
        }
        a = w + (SceneGroup.COST_NANOS << 3);
        MEMORY.writeLong(a, MEMORY.readLong(a) + costNanos);
        if (droppedQ20 != 0) {
            a = w + (SceneGroup.DROPPED_Q20 << 3);
            MEMORY.writeLong(a, MEMORY.readLong(a) + droppedQ20);
        }
        a = w + (SceneGroup.REFRESH_MILLIHZ << 3);
        MEMORY.writeLong(a, MEMORY.readLong(a) + refreshMilliHz);
        a = w + ((SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE) << 3);
        MEMORY.writeLong(a, MEMORY.readLong(a) + totalNanos);
    }

    /**
     * {@link #countMatrix} for a frame that dropped nothing: no dropped-frame sums to add. The
     * common frame, so it is its own short path.
     */
    public void countMatrixOnTime(int level, long costNanos, long refreshMilliHz, long totalNanos) {
        int slot = sceneSlot;
        if (slot < 0) {
            return;
        }
        if (shared) {
            countMatrixShared(slot, level, 0, costNanos, 0, refreshMilliHz, totalNanos);
        }
        long u = sceneRecord + slot;
        long w = sceneRecord + sceneWide;
        long a = u + (SceneGroup.MATRIX_FRAMES << 2);
        MEMORY.writeInt(a, MEMORY.readInt(a) + 1);
        a = u + ((long) (SceneGroup.LEVEL_COUNT_BASE + level) << 2);
        MEMORY.writeInt(a, MEMORY.readInt(a) + 1);
        a = w + (SceneGroup.COST_NANOS << 3);
        MEMORY.writeLong(a, MEMORY.readLong(a) + costNanos);
        a = w + (SceneGroup.REFRESH_MILLIHZ << 3);
        MEMORY.writeLong(a, MEMORY.readLong(a) + refreshMilliHz);
        a = w + ((SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE) << 3);
        MEMORY.writeLong(a, MEMORY.readLong(a) + totalNanos);
    }

    private void countMatrixShared(int slot, int level, int dropped, long costNanos, long droppedQ20,
                                   long refreshMilliHz, long totalNanos) {
        long u = sceneAddress + slot;
        long w = sceneAddress + sceneWide;
        MEMORY.addInt(u + (SceneGroup.MATRIX_FRAMES << 2), 1);
        MEMORY.addInt(u + ((long) (SceneGroup.LEVEL_COUNT_BASE + level) << 2), 1);
        MEMORY.addInt(u + ((long) (SceneGroup.LEVEL_SUM_BASE + level) << 2), dropped);
        MEMORY.addLong(w + (SceneGroup.COST_NANOS << 3), costNanos);
        MEMORY.addLong(w + (SceneGroup.DROPPED_Q20 << 3), droppedQ20);
        MEMORY.addLong(w + (SceneGroup.REFRESH_MILLIHZ << 3), refreshMilliHz);
        MEMORY.addLong(w + ((SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE) << 3), totalNanos);
    }

    /**
     * Adds one to FrameTimeline counter {@code counter} (a {@link io.gfxstats.timeline.TimelineCounter}
     * ordinal): a plain load and store (plus an atomic add to the shared stripe); nothing when the
     * buffer has no FrameTimeline group. Single writer, like {@link #increment}.
     */
    @Override
    public void incrementTimeline(int counter) {
        if (timelineRecord == 0) {
            return;
        }
        long o = (long) Objects.checkIndex(counter, io.gfxstats.timeline.TimelineCounter.COUNT) << 2;
        if (shared) {
            MEMORY.addInt(timelineAddress + o, 1);
        }
        long r = timelineRecord + o;
        MEMORY.writeInt(r, MEMORY.readInt(r) + 1);
    }

    /** True if this stripe has the FrameTimeline group. */
    public boolean hasTimeline() {
        return timelineRecord != 0;
    }

    /** True if this stripe has the scene group (frames can be counted per scene). */
    public boolean hasScenes() {
        return sceneRecord != 0;
    }

    /** Adds one to u32 counter {@code field} (a {@link SceneGroup} field) of the selected scene. */
    public void incrementScene(int field) {
        int slot = sceneSlot;
        if (slot < 0) {
            return;
        }
        long o = slot + ((long) field << 2);
        if (shared) {
            MEMORY.addInt(sceneAddress + o, 1);
        }
        long r = sceneRecord + o;
        MEMORY.writeInt(r, MEMORY.readInt(r) + 1);
    }

    /** Adds {@code delta} to u32 counter {@code field} of the selected scene. */
    public void addScene(int field, int delta) {
        int slot = sceneSlot;
        if (slot < 0) {
            return;
        }
        long o = slot + ((long) field << 2);
        if (shared) {
            MEMORY.addInt(sceneAddress + o, delta);
        }
        long r = sceneRecord + o;
        MEMORY.writeInt(r, MEMORY.readInt(r) + delta);
    }

    /**
     * Adds {@code delta} to u64 sum {@code field} of the selected scene: one aligned 8-byte store
     * (readers take a 64-bit sum only when two reads agree, see docs/buffer-format.md).
     */
    public void addSceneSum(int field, long delta) {
        int slot = sceneSlot;
        if (slot < 0) {
            return;
        }
        long o = sceneWide + ((long) field << 3);
        if (shared) {
            MEMORY.addLong(sceneAddress + o, delta);
        }
        long r = sceneRecord + o;
        MEMORY.writeLong(r, MEMORY.readLong(r) + delta);
    }

    /**
     * Adds {@code delta} (taken as unsigned 32-bit, like the counters) to one counter. Used to
     * move counts between stripes; same single-writer rule as {@link #increment}.
     */
    public void add(int counter, int delta) {
        if (delta == 0) {
            return;
        }
        long offset = (long) Objects.checkIndex(counter, Counters.COUNT) << 2;
        if (shared) {
            MEMORY.addInt(address + offset, delta);
        }
        long r = record + offset;
        MEMORY.writeOrderedInt(r, MEMORY.readInt(r) + delta);
    }

    /**
     * This writer's own count for a counter (unsigned 32-bit, wrapping like the counters): the
     * stripe's value for an exclusive or in-memory stripe, the private record of this writer's
     * adds for a shared one. Safe to read from any thread while the writer counts; every value
     * read is one the count actually had.
     */
    public int contribution(int counter) {
        return MEMORY.readVolatileInt(record + ((long) Objects.checkIndex(counter, Counters.COUNT) << 2));
    }

    /**
     * This writer's own value of one entry of the counter vector ({@link CounterGroups}): a
     * counter as unsigned 32-bit, a 64-bit sum as is; 0 for a group this stripe lacks. Same
     * rules as {@link #contribution}.
     */
    public long contributionOf(int element) {
        Objects.checkIndex(element, CounterGroups.VECTOR_LENGTH);
        if (element < Counters.COUNT) {
            return Integer.toUnsignedLong(contribution(element));
        }
        int g = group(element);
        if (groupRecord[g] == 0) {
            return 0;
        }
        CounterGroup group = CounterGroups.KNOWN.get(g);
        int e = element - CounterGroups.vectorOffset(g);
        long at = groupRecord[g] + group.elementOffset(e);
        return group.isWide(e) ? MEMORY.readVolatileLong(at) : Integer.toUnsignedLong(MEMORY.readVolatileInt(at));
    }

    /**
     * Adds {@code delta} to one entry of the counter vector (a counter wraps as unsigned 32-bit);
     * nothing for a group this stripe lacks. Used to move counts; single-writer rule as {@link #add}.
     */
    public void addElement(int element, long delta) {
        Objects.checkIndex(element, CounterGroups.VECTOR_LENGTH);
        if (element < Counters.COUNT) {
            add(element, (int) delta);
            return;
        }
        int g = group(element);
        if (groupRecord[g] == 0 || delta == 0) {
            return;
        }
        CounterGroup group = CounterGroups.KNOWN.get(g);
        int e = element - CounterGroups.vectorOffset(g);
        int offset = group.elementOffset(e);
        long r = groupRecord[g] + offset;
        if (group.isWide(e)) {
            if (shared) {
                MEMORY.addLong(groupAddress[g] + offset, delta);
            }
            MEMORY.writeOrderedLong(r, MEMORY.readLong(r) + delta);
        } else {
            if (shared) {
                MEMORY.addInt(groupAddress[g] + offset, (int) delta);
            }
            MEMORY.writeOrderedInt(r, MEMORY.readInt(r) + (int) delta);
        }
    }

    /** True if this stripe counts the known group {@code index} of {@link CounterGroups#KNOWN}. */
    public boolean hasGroup(int index) {
        return groupRecord[index] != 0;
    }

    private static int group(int element) {
        int g = GROUPS - 1;
        while (CounterGroups.vectorOffset(g) > element) {
            g--;
        }
        return g;
    }

    /** The buffer this stripe lives in, null for an in-memory stripe. */
    public BufferWriter buffer() {
        return buffer;
    }

    /** Writer stripe index 1..N, 0 for the shared stripe, -1 in memory. */
    public int stripeIndex() {
        return stripe;
    }

    public boolean isShared() {
        return shared;
    }

    public boolean isInMemory() {
        return buffer == null;
    }

    /**
     * Stops using this stripe: an exclusive stripe's claim is given back (its counts stay in the
     * buffer and keep being summed by readers; the next claimant continues from them), private
     * memory is freed, and this writer's reference to the mapping is dropped. Idempotent; the
     * writer must not count afterwards.
     */
    public void release() {
        if (released) {
            return;
        }
        released = true;
        if (privateMemory != null) {
            privateMemory.releaseLast();
        }
        if (buffer != null) {
            if (!shared) {
                buffer.releaseClaim(stripe);
            }
            buffer.region().release(owner);
        }
    }

    public boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return buffer == null ? "StripeWriter{memory}"
                : "StripeWriter{" + buffer.registrationId() + (shared ? " shared" : " stripe " + stripe) + "}";
    }
}
