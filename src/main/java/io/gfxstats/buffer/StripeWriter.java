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
public final class StripeWriter implements StatsSink {
    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final int BYTES = Counters.COUNT * Integer.BYTES;

    private final BufferWriter buffer;
    private final int stripe;
    private final long address;
    private final long record;
    private final boolean shared;
    private final NativeBytesStore<Void> privateMemory;
    private final ReferenceOwner owner;
    private boolean released;

    private StripeWriter(BufferWriter buffer, int stripe, long address, boolean shared, ReferenceOwner owner) {
        this.buffer = buffer;
        this.stripe = stripe;
        this.address = address;
        this.shared = shared;
        this.owner = owner;
        if (buffer == null || shared) {
            privateMemory = NativeBytesStore.nativeStoreWithFixedCapacity(BYTES);
            privateMemory.zeroOut(0, BYTES);
            privateMemory.singleThreadedCheckDisabled(true);
            this.record = privateMemory.addressForWrite(0);
        } else {
            privateMemory = null;
            this.record = address;
        }
    }

    /** A stripe in process memory, for counting before a buffer is attached. */
    public static StripeWriter inMemory() {
        return new StripeWriter(null, -1, 0, false, null);
    }

    static StripeWriter exclusive(BufferWriter buffer, int stripe, long address, ReferenceOwner owner) {
        return new StripeWriter(buffer, stripe, address, false, owner);
    }

    static StripeWriter shared(BufferWriter buffer, long address, ReferenceOwner owner) {
        return new StripeWriter(buffer, BufferDescriptor.SHARED_STRIPE, address, true, owner);
    }

    /**
     * Adds one to a counter: a plain load and a plain store (plus an atomic add to the shared
     * stripe). The store of {@link Counters#TOTAL_FRAMES} is followed by a store fence, so every
     * counter a tracker increments after a frame's total (its histogram buckets, its jank
     * counters) becomes visible only after that total. Release stores on every counter would
     * give the same guarantee but cost a compiler barrier per counter, measurably more on the
     * per-frame path.
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
