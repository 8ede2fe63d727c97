package io.gfxstats.buffer;


import java.util.Objects;

/**
 * The per-scene half of a {@link StripeWriter}: its stripe of the scene group ({@link SceneGroup}),
 * the selected slot, the mirror of the first {@link SceneGroup#MIRRORED} counters that
 * {@link StripeWriter#increment} asks for, and Matrix's per-frame values. Same kinds and rules as
 * the stripe: single writer, plain stores into its own record, plus atomic adds into the shared
 * stripe for a shared writer; nothing allocates.
 *
 * <p>A superclass rather than an object the stripe holds: the per-frame path then reads the
 * scene fields from the same object as the counter fields. Held as a separate object, the extra
 * dependent load on every increment cost about 1.5 ns per frame (15 %, docs/benchmarks.md).
 */
public class SceneStripe {
    private static final int SLOT_BYTES = SceneGroup.U32_PER_SLOT * Integer.BYTES;
    private static final int WIDE_OFFSET = CounterGroups.SCENES.wideOffset();
    private static final int SLOT_WIDE_BYTES = SceneGroup.U64_PER_SLOT * Long.BYTES;

    /** The scene group stripe in the buffer (0: absent or in memory), added to atomically by a shared writer. */
    private final long sceneAddress;
    /** Where this writer's own scene counts are (0: the stripe has no scene group). */
    private final long sceneRecord;
    private final boolean sharedScenes;
    /** Offset of the selected slot's u32 counters in the group stripe; -1: none. */
    private int slotOffset = -1;
    /** The slot last passed to {@link #selectScene} (-1: none). */
    private int selected = -1;
    /** Offset of the selected slot's u64 sums in the group stripe. */
    private int wideOffset;

    SceneStripe(long address, long record, boolean shared) {
        this.sceneAddress = address;
        this.sceneRecord = record;
        this.sharedScenes = shared;
    }

    /** Counts the counter at byte {@code offset} of the counter stripe in the selected scene too, if any. */
    final void mirror(long offset) {
        int slot = slotOffset;
        if (slot >= 0) {
            long o = slot + offset;
            if (sharedScenes) {
                BufferMemory.addInt(sceneAddress + o, 1);
            }
            long r = sceneRecord + o;
            BufferMemory.writeInt(r, BufferMemory.readInt(r) + 1);
        }
    }

    /** The selected slot's u32 counters, for {@link StripeWriter#countFrame}; 0 when none is selected or the stripe is shared. */
    final long selectedSceneCounters() {
        return slotOffset < 0 || sharedScenes ? 0 : sceneRecord + slotOffset;
    }

    /** Slot {@code slot}'s u32 counters for a {@link StripeView}; 0 for -1, no scene group or a shared stripe. */
    final long sceneCountersOf(int slot) {
        return slot < 0 || sceneRecord == 0 || sharedScenes ? 0 : sceneRecord + (long) slot * SLOT_BYTES;
    }

    /** Slot {@code slot}'s u64 sums, under the rules of {@link #sceneCountersOf}. */
    final long sceneSumsOf(int slot) {
        return slot < 0 || sceneRecord == 0 || sharedScenes ? 0 : sceneRecord + WIDE_OFFSET + (long) slot * SLOT_WIDE_BYTES;
    }

    /** Bytes of one slot's counters and of its sums: what a view of the slot may touch. */
    static final int SLOT_COUNTER_BYTES = SLOT_BYTES;
    static final int SLOT_SUM_BYTES = SLOT_WIDE_BYTES;

    /**
     * Selects the scene slot that the following frames count into (0..{@link SceneGroup#SLOTS}-1),
     * or none with -1. Without a scene group (a buffer made without one) nothing is selected.
     */
    public final void selectScene(int slot) {
        if (slot == selected) {
            return; // the common case: the same scene as the last frame
        }
        selected = slot;
        if (slot < 0 || sceneRecord == 0) {
            slotOffset = -1;
            return;
        }
        Objects.checkIndex(slot, SceneGroup.SLOTS);
        slotOffset = slot * SLOT_BYTES;
        wideOffset = WIDE_OFFSET + slot * SLOT_WIDE_BYTES;
    }

    /**
     * Counts one frame's Matrix values in the selected scene, in one call (the per-frame path):
     * Matrix frames, the level's count and dropped-frame sum, Σ max(T, I), Σ dropped (2^-20
     * units), Σ refresh (milli-Hz) and the TOTAL stage sum. Adds of zero are skipped: most
     * frames drop nothing, and their callers pass constant zeros, which the JIT folds away.
     * {@code dropped} is one frame's whole dropped frames (0..Integer.MAX_VALUE, Matrix's int),
     * added to a 64-bit level sum: a frame across a suspend drops millions.
     */
    public final void countMatrix(int level, int dropped, long costNanos, long droppedQ20, long refreshMilliHz,
                            long totalNanos) {
        int slot = slotOffset;
        if (slot < 0) {
            return;
        }
        if (sharedScenes) {
            countMatrixShared(slot, level, dropped, costNanos, droppedQ20, refreshMilliHz, totalNanos);
        }
        addMatrixFrame(sceneRecord + slot, sceneRecord + wideOffset, level, dropped, costNanos, droppedQ20,
                refreshMilliHz, totalNanos);
    }

    /** {@link #countMatrix} at the addresses of a slot's counters and sums in an exclusive or in-memory stripe. */
    static void addMatrixFrame(long u, long w, int level, int dropped, long costNanos, long droppedQ20,
                                      long refreshMilliHz, long totalNanos) {
        Objects.checkIndex(level, SceneGroup.LEVELS);
        long a = u + (SceneGroup.MATRIX_FRAMES << 2);
        BufferMemory.writeInt(a, BufferMemory.readInt(a) + 1);
        a = u + ((long) (SceneGroup.LEVEL_COUNT_BASE + level) << 2);
        BufferMemory.writeInt(a, BufferMemory.readInt(a) + 1);
        if (dropped != 0) {
            a = w + ((long) (SceneGroup.WIDE_LEVEL_SUM_BASE + level) << 3);
            BufferMemory.writeLong(a, BufferMemory.readLong(a) + Integer.toUnsignedLong(dropped));
        }
        a = w + (SceneGroup.COST_NANOS << 3);
        BufferMemory.writeLong(a, BufferMemory.readLong(a) + costNanos);
        if (droppedQ20 != 0) {
            a = w + (SceneGroup.DROPPED_Q20 << 3);
            BufferMemory.writeLong(a, BufferMemory.readLong(a) + droppedQ20);
        }
        a = w + (SceneGroup.REFRESH_MILLIHZ << 3);
        BufferMemory.writeLong(a, BufferMemory.readLong(a) + refreshMilliHz);
        a = w + ((SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE) << 3);
        BufferMemory.writeLong(a, BufferMemory.readLong(a) + totalNanos);
    }

    /** True if the stripe has the scene group (frames can be counted per scene). */
    public final boolean hasScenes() {
        return sceneRecord != 0;
    }

    /** Adds {@code delta} to u32 word {@code field} (below {@link SceneGroup#U32_PER_SLOT}) of the selected scene. */
    public final void addScene(int field, int delta) {
        int slot = slotOffset;
        if (slot < 0) {
            return;
        }
        long o = slot + ((long) field << 2);
        if (sharedScenes) {
            BufferMemory.addInt(sceneAddress + o, delta);
        }
        long r = sceneRecord + o;
        BufferMemory.writeInt(r, BufferMemory.readInt(r) + delta);
    }

    /**
     * Adds {@code delta} to u64 word {@code field} (below {@link SceneGroup#U64_PER_SLOT}) of the
     * selected scene: one aligned 8-byte store
     * (readers take a 64-bit sum only when two reads agree, see docs/buffer-format.md).
     */
    public final void addSceneSum(int field, long delta) {
        int slot = slotOffset;
        if (slot < 0) {
            return;
        }
        long o = wideOffset + ((long) field << 3);
        if (sharedScenes) {
            BufferMemory.addLong(sceneAddress + o, delta);
        }
        long r = sceneRecord + o;
        BufferMemory.writeLong(r, BufferMemory.readLong(r) + delta);
    }

    private void countMatrixShared(int slot, int level, int dropped, long costNanos, long droppedQ20,
                                   long refreshMilliHz, long totalNanos) {
        long u = sceneAddress + slot;
        long w = sceneAddress + wideOffset;
        BufferMemory.addInt(u + (SceneGroup.MATRIX_FRAMES << 2), 1);
        BufferMemory.addInt(u + ((long) (SceneGroup.LEVEL_COUNT_BASE + level) << 2), 1);
        BufferMemory.addLong(w + ((long) (SceneGroup.WIDE_LEVEL_SUM_BASE + level) << 3),
                Integer.toUnsignedLong(dropped));
        BufferMemory.addLong(w + (SceneGroup.COST_NANOS << 3), costNanos);
        BufferMemory.addLong(w + (SceneGroup.DROPPED_Q20 << 3), droppedQ20);
        BufferMemory.addLong(w + (SceneGroup.REFRESH_MILLIHZ << 3), refreshMilliHz);
        BufferMemory.addLong(w + ((SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE) << 3), totalNanos);
    }
}
