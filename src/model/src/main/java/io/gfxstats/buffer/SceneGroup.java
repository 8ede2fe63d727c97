package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Layout of the scene group (id 1) of buffer layout 2: frames per scene with the Android jank
 * counters and Matrix's dropped-frame levels (docs/buffer-format.md, "Scene group"). Version 2
 * is written; version 1 (level sums in 32 bits) is still read.
 *
 * <pre>
 *  Prefix: slot table, {@link #SLOTS} entries of 128 bytes
 *  +---------------------------------------------------------------+
 *  |  State: 0 free, 1 named (release store after the name)        |  slot * 128
 *  +---------------------------------------------------------------+
 *  |  Name length (bytes, 1..120)                                  |  + 4
 *  +---------------------------------------------------------------+
 *  |  Name, UTF-8, 120 bytes                                       |  + 8
 *  +---------------------------------------------------------------+
 *
 *  Group stripe s, version 2 (one writer, the writer of counter stripe s):
 *  +---------------------------------------------------------------+
 *  |  Slot 0..15: 16 u32 each (one cache line), in this order:     |
 *  |    total frames, janky frames, janky frames (legacy),         |
 *  |    7 jank types (the first 10 Counters, same order),          |
 *  |    Matrix frames (valid durations), level counts BEST..FROZEN |
 *  +---------------------------------------------------------------+
 *  |  Slot 0..15: 18 u64 each, in this order:                      |
 *  |    sum of max(T, I) ns (Matrix's fps denominator),            |
 *  |    sum of the float dropped frames in units of 2^-20,         |
 *  |    sum of the refresh rate in milli-Hz,                       |
 *  |    10 stage duration sums ns (FrameMetrics order, GPU last),  |
 *  |    level sums BEST..FROZEN (dropped frames of that level)     |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Version 1 had the level sums as u32 counters 16..20 of a slot (21 u32, 13 u64): one
 * frame across a suspend drops millions of frames, so a sum passed 2^32 within hours.
 *
 * <p>In the counter vector, both versions number a slot's entries alike (version 1's order):
 * {@link #COUNTERS} counters ({@link #counter}; the level sums at {@link #LEVEL_SUM_BASE}), then
 * {@link #SUMS} sums ({@link #sum}).
 *
 * <p>Slot 0 is {@link #OTHER}: scenes beyond the session's limit are counted there. A slot is
 * named once, by the session that owns the buffer, before any frame is counted in it, and never
 * renamed; the daemon reads names only from named slots.
 */
public final class SceneGroup {
    public static final int ID = 1;
    /** The version written. */
    public static final int VERSION = 2;
    /** Slot names' table, the same in both versions. */
    public static final int SLOTS = 16;
    public static final int SLOT_ENTRY_BYTES = 128;
    public static final int NAME_MAX_BYTES = SLOT_ENTRY_BYTES - 2 * Integer.BYTES;
    public static final int SLOT_STATE = 0;
    public static final int SLOT_NAME_LENGTH = Integer.BYTES;
    public static final int SLOT_NAME = 2 * Integer.BYTES;
    public static final int SLOT_FREE = 0;
    public static final int SLOT_NAMED = 1;

    /** The overflow scene, always slot 0. */
    public static final String OTHER = "(other)";
    public static final int OTHER_SLOT = 0;

    // A slot's counters, as numbered in the counter vector (and, below LEVEL_SUM_BASE, its u32 words).
    /** The first {@value #MIRRORED} Counters (total, janky, janky legacy, 7 jank types) are also kept per scene. */
    public static final int MIRRORED = Counters.JANK_TYPE_BASE + JankType.COUNT;
    public static final int MATRIX_FRAMES = MIRRORED;
    public static final int LEVEL_COUNT_BASE = MATRIX_FRAMES + 1;
    public static final int LEVELS = 5;
    /** The level sums: u64 words {@link #WIDE_LEVEL_SUM_BASE}.. in the buffer since version 2. */
    public static final int LEVEL_SUM_BASE = LEVEL_COUNT_BASE + LEVELS;
    /** Counters per slot in the counter vector (the level sums included). */
    public static final int COUNTERS = LEVEL_SUM_BASE + LEVELS;

    // A slot's sums, as numbered in the counter vector (and its u64 words).
    public static final int COST_NANOS = 0;
    public static final int DROPPED_Q20 = 1;
    public static final int REFRESH_MILLIHZ = 2;
    public static final int STAGE_BASE = 3;
    /** Stage duration sums: the nine FrameMetrics durations UNKNOWN_DELAY..TOTAL, then GPU. */
    public static final int STAGES = 10;
    /** Index of TOTAL_DURATION among the stages (FrameMetrics order). */
    public static final int TOTAL_STAGE = 8;
    /** Sums per slot in the counter vector. */
    public static final int SUMS = STAGE_BASE + STAGES;
    /** Fixed-point scale of {@link #DROPPED_Q20}. */
    public static final float DROPPED_SCALE = 1 << 20;

    // Version 2 in the buffer.
    /** u32 words per slot: the counters before the level sums (64 bytes, one cache line). */
    public static final int U32_PER_SLOT = LEVEL_SUM_BASE;
    /** u64 words of a slot where the level sums are. */
    public static final int WIDE_LEVEL_SUM_BASE = SUMS;
    /** u64 words per slot: the sums, then the level sums. */
    public static final int U64_PER_SLOT = WIDE_LEVEL_SUM_BASE + LEVELS;

    /** Version 2, written: the level sums in 64 bits. */
    static final CounterGroup GROUP = new CounterGroup(ID, VERSION, "scenes", SLOTS * SLOT_ENTRY_BYTES,
            SLOTS * U32_PER_SLOT, SLOTS * U64_PER_SLOT, placementV2()).readingLate(SceneGroup::isSlotTotal);
    /** Version 1, still read (a buffer of an earlier release): the level sums as u32 counters. */
    static final CounterGroup VERSION_1 = new CounterGroup(ID, 1, "scenes", SLOTS * SLOT_ENTRY_BYTES,
            SLOTS * COUNTERS, SLOTS * SUMS).readingLate(SceneGroup::isSlotTotal);

    /** Where version 2 keeps each element of version 1's numbering. */
    private static int[] placementV2() {
        int[] p = new int[SLOTS * (COUNTERS + SUMS)];
        int wide = SLOTS * U32_PER_SLOT * Integer.BYTES; // a multiple of 8
        for (int slot = 0; slot < SLOTS; slot++) {
            for (int f = 0; f < COUNTERS; f++) {
                p[counter(slot, f)] = f < LEVEL_SUM_BASE ? (slot * U32_PER_SLOT + f) * Integer.BYTES << 1
                        : (wide + (slot * U64_PER_SLOT + WIDE_LEVEL_SUM_BASE + f - LEVEL_SUM_BASE) * Long.BYTES) << 1 | 1;
            }
            for (int f = 0; f < SUMS; f++) {
                p[sum(slot, f)] = (wide + (slot * U64_PER_SLOT + f) * Long.BYTES) << 1 | 1;
            }
        }
        return p;
    }

    private SceneGroup() {
    }

    /**
     * Whether element {@code element} (either version) is a scene slot's total frames, which a
     * writer counts before the frame's other counters and Matrix levels: a snapshot reads it late
     * ({@link CounterGroup#readingLate}).
     */
    private static boolean isSlotTotal(int element) {
        return element < SLOTS * COUNTERS && element % COUNTERS == Counters.TOTAL_FRAMES;
    }

    /** Element (in the group) of counter {@code field} of {@code slot}. */
    public static int counter(int slot, int field) {
        return slot * COUNTERS + field;
    }

    /** Element (in the group) of sum {@code field} of {@code slot}. */
    public static int sum(int slot, int field) {
        return SLOTS * COUNTERS + slot * SUMS + field;
    }

    /** Index in the counter vector of counter {@code field} of {@code slot}. */
    public static int vectorCounter(int slot, int field) {
        return CounterGroups.vectorOffset(GROUP) + counter(slot, field);
    }

    /** Index in the counter vector of sum {@code field} of {@code slot}. */
    public static int vectorSum(int slot, int field) {
        return CounterGroups.vectorOffset(GROUP) + sum(slot, field);
    }

    /**
     * Checks a scene name: 1..{@value #NAME_MAX_BYTES} UTF-8 bytes, no character {@link #refusedInName refused in names}.
     *
     * @return the name's UTF-8 bytes
     */
    public static byte[] requireName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("scene name must not be null");
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > NAME_MAX_BYTES) {
            throw new IllegalArgumentException("scene name must be 1.." + NAME_MAX_BYTES + " UTF-8 bytes, got "
                    + bytes.length);
        }
        requireNoRefused(name, "scene name");
        return bytes;
    }

    /**
     * Whether a name (a scene's, a package's) may not hold {@code c}: control characters (C0, DEL,
     * C1), the bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069),
     * and the line and paragraph separators (U+2028, U+2029). Names are printed in terminals and
     * logs among other text: a control character drives the terminal, a bidi control reorders
     * the rest of the line (a row can then show another name's numbers), a separator breaks the
     * line. Android's package names are Java identifiers, so none of these appear in real ones.
     */
    public static boolean refusedInName(char c) {
        return Character.isISOControl(c) || (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069')
                || c == '\u2028' || c == '\u2029';
    }

    /**
     * Throws naming the first refused character by code point and index; the name itself is left
     * out of the message, which would carry the character along to whoever prints it.
     */
    public static void requireNoRefused(String name, String what) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (refusedInName(c)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "%s contains U+%04X at index %d (control characters, bidi controls and line separators"
                                + " are refused in names)", what, (int) c, i));
            }
        }
    }
}
