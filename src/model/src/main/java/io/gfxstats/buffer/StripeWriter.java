package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.FrameOutcome;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.StatsSink;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineSink;
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
public final class StripeWriter extends SceneStripe implements StatsSink, TimelineSink {
    private static final int BYTES = Counters.COUNT * Integer.BYTES;
    private static final long TOTAL_OFFSET = (long) Counters.TOTAL_FRAMES << 2;
    private static final long LATENCY_OFFSET = (long) JankType.HIGH_INPUT_LATENCY.counter() << 2;

    private final BufferWriter buffer;
    private final int stripe;
    private final long address;
    private final long record;
    private final boolean shared;
    private final MappedRegion privateMemory;
    private final GroupStripes groups;
    /** The FrameTimeline group stripe in the buffer, and where this writer's own counts are (0: absent). */
    private final long timelineAddress;
    private final long timelineRecord;
    private boolean released;
    /** Taken over from a dead claimant ({@link BufferWriter#takeOverStripe}): release leaves the claim word alone. */
    boolean keepClaim;

    private StripeWriter(BufferWriter buffer, int stripe, long address, boolean shared,
                         MappedRegion privateMemory, long record, GroupStripes groups) {
        super(groups.address(GroupStripes.SCENES), groups.record(GroupStripes.SCENES), shared);
        this.buffer = buffer;
        this.stripe = stripe;
        this.address = address;
        this.shared = shared;
        this.privateMemory = privateMemory;
        this.record = record;
        this.groups = groups;
        this.timelineAddress = groups.address(GroupStripes.TIMELINE);
        this.timelineRecord = groups.record(GroupStripes.TIMELINE);
    }

    /**
     * A writer of counter stripe {@code address}: its own counts are the stripe itself, or for a
     * shared or in-memory writer private memory holding its counters and then its groups.
     */
    private static StripeWriter create(BufferWriter buffer, int stripe, long address, long[] groupAddresses,
                                       boolean shared) {
        if (buffer != null && !shared) {
            return new StripeWriter(buffer, stripe, address, false, null, address,
                    GroupStripes.inBuffer(groupAddresses));
        }
        int bytes = BYTES + GroupStripes.privateBytes(groupAddresses);
        MappedRegion memory = MappedRegion.allocate(bytes);
        long record = memory.baseAddress();
        return new StripeWriter(buffer, stripe, address, shared, memory, record,
                GroupStripes.inPrivateMemory(record + BYTES, groupAddresses, shared));
    }

    /** A stripe in process memory, for counting before a buffer is attached. It has every known group. */
    public static StripeWriter inMemory() {
        return create(null, -1, 0, null, false);
    }

    static StripeWriter exclusive(BufferWriter buffer, int stripe, long address, long[] groupAddresses) {
        return create(buffer, stripe, address, groupAddresses, false);
    }

    static StripeWriter shared(BufferWriter buffer, long address, long[] groupAddresses) {
        return create(buffer, BufferDescriptor.SHARED_STRIPE, address, groupAddresses, true);
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
            BufferMemory.addInt(address + offset, 1);
        }
        long r = record + offset;
        BufferMemory.writeInt(r, BufferMemory.readInt(r) + 1);
        if (counter == Counters.TOTAL_FRAMES) {
            VarHandle.releaseFence();
        }
        if (counter < SceneGroup.MIRRORED) {
            mirror(offset);
        }
    }

    /**
     * Counts one frame's {@link FrameOutcome}: what {@link FrameOutcome#countInto} counts, written
     * by {@link #countCounted} on an exclusive or in-memory stripe; a shared stripe's counters,
     * and a frame without a total, go through {@link #increment}.
     */
    public void countFrame(int outcome) {
        if (shared || !FrameOutcome.isCounted(outcome)) {
            FrameOutcome.countInto(outcome, this);
            return;
        }
        countCounted(record, selectedSceneCounters(), outcome);
    }

    /**
     * This exclusive or in-memory stripe's counters, for a {@link StripeView}, after checking that
     * the writer is live and that its counters and scene slots lie inside its memory.
     */
    long countersForView() {
        if (released) {
            throw new IllegalStateException(this + " was released; count with the tracker's current stripe");
        }
        MappedRegion memory = privateMemory != null ? privateMemory : buffer.region();
        checkWithin(memory, record, BYTES);
        for (int slot = 0; hasScenes() && slot < SceneGroup.SLOTS; slot++) {
            checkWithin(memory, sceneCountersOf(slot), SLOT_COUNTER_BYTES);
            checkWithin(memory, sceneSumsOf(slot), SLOT_SUM_BYTES);
        }
        return record;
    }

    private void checkWithin(MappedRegion memory, long address, int bytes) {
        long base = memory.baseAddress();
        if (address < base || address + bytes > base + memory.capacity()) {
            throw new IllegalStateException(this + ": " + bytes + " bytes at offset " + (address - base)
                    + " lie outside its " + memory.capacity() + "-byte memory");
        }
    }

    /**
     * Counts a counted frame's {@link FrameOutcome} at the addresses of an exclusive or in-memory
     * stripe's counters and of a scene slot's (0: no scene): total (then a
     * store fence, as in {@link #increment}), CPU bucket, High input latency 0-2 times, the rare
     * jank counters ({@link FrameOutcome#RARE}, one pass over the bits set) and the GPU bucket,
     * and in the scene the total, latency and rare counters (they are all mirrored).
     */
    static void countCounted(long counters, long sceneCounters, int outcome) {
        bump(counters + TOTAL_OFFSET, 1);
        VarHandle.releaseFence();
        bump(counters + ((long) Objects.checkIndex(Counters.CPU_BUCKET_BASE + FrameOutcome.cpuBucket(outcome),
                Counters.GPU_BUCKET_BASE) << 2), 1);
        int latency = FrameOutcome.latencyCount(outcome);
        bump(counters + LATENCY_OFFSET, latency);
        if (sceneCounters != 0) {
            bump(sceneCounters + TOTAL_OFFSET, 1);
            bump(sceneCounters + LATENCY_OFFSET, latency);
        }
        for (int r = outcome & FrameOutcome.RARE; r != 0; r &= r - 1) {
            long offset = (long) FrameOutcome.lowestRareCounter(r) << 2;
            bump(counters + offset, 1);
            if (sceneCounters != 0) {
                bump(sceneCounters + offset, 1);
            }
        }
        int gpu = FrameOutcome.gpuBucket(outcome);
        if (gpu >= 0) {
            bump(counters + ((long) Objects.checkIndex(Counters.GPU_BUCKET_BASE + gpu, Counters.COUNT) << 2), 1);
        }
    }

    private static void bump(long address, int delta) {
        BufferMemory.writeInt(address, BufferMemory.readInt(address) + delta);
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
        long o = (long) Objects.checkIndex(counter, TimelineCounter.COUNT) << 2;
        if (shared) {
            BufferMemory.addInt(timelineAddress + o, 1);
        }
        long r = timelineRecord + o;
        BufferMemory.writeInt(r, BufferMemory.readInt(r) + 1);
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
            BufferMemory.addInt(address + offset, delta);
        }
        long r = record + offset;
        BufferMemory.writeOrderedInt(r, BufferMemory.readInt(r) + delta);
    }

    /**
     * This writer's own count for a counter (unsigned 32-bit, wrapping like the counters): the
     * stripe's value for an exclusive or in-memory stripe, the private record of this writer's
     * adds for a shared one. Safe to read from any thread while the writer counts; every value
     * read is one the count actually had.
     */
    public int contribution(int counter) {
        return BufferMemory.readVolatileInt(record + ((long) Objects.checkIndex(counter, Counters.COUNT) << 2));
    }

    /**
     * This writer's own value of one entry of the counter vector ({@link CounterGroups}): a
     * counter as unsigned 32-bit, a 64-bit sum as is; 0 for a group this stripe lacks. Same
     * rules as {@link #contribution}.
     */
    public long contributionOf(int element) {
        Objects.checkIndex(element, CounterGroups.VECTOR_LENGTH);
        return element < Counters.COUNT ? Integer.toUnsignedLong(contribution(element)) : groups.contributionOf(element);
    }

    /**
     * Adds {@code delta} to one entry of the counter vector (a counter wraps as unsigned 32-bit);
     * nothing for a group this stripe lacks. Used to move counts; single-writer rule as {@link #add}.
     */
    public void addElement(int element, long delta) {
        Objects.checkIndex(element, CounterGroups.VECTOR_LENGTH);
        if (element < Counters.COUNT) {
            add(element, (int) delta);
        } else {
            groups.add(element, delta);
        }
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
            privateMemory.release();
        }
        if (buffer != null) {
            if (!shared && !keepClaim) {
                buffer.releaseClaim(stripe);
            }
            buffer.region().release();
        }
    }

    @Override
    public String toString() {
        return buffer == null ? "StripeWriter{memory}"
                : "StripeWriter{" + buffer.registrationId() + (shared ? " shared" : " stripe " + stripe) + "}";
    }
}
