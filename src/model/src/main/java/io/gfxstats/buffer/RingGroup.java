package io.gfxstats.buffer;

/**
 * The ring group (directory id 4, version 1; docs/buffer-format.md, "Ring group (id 4, version
 * 1)"): where a native client's frame rings live when it asked for them at registration, so that
 * the daemon can count what a client killed by SIGKILL had recorded and not drained. It is not a
 * counter group: it holds no element of the counter vector, so {@link CounterGroups} does not
 * list it, and a reader only checks its length. The one place for its offsets; the doc's tables
 * are checked against these constants (RingGroupDocTest).
 *
 * <p>No prefix and no stripe for the shared counter stripe 0: ring stripe s - 1 belongs to writer
 * stripe s (1..N), whoever holds stripe s's claim word.
 */
public final class RingGroup {
    public static final int ID = 4;
    public static final int VERSION = 1;
    /** Bytes of one ring stripe. */
    public static final int STRIPE_BYTES = 87_424;

    /** The producer's next word (a client address). */
    public static final int WP = 0;
    /** The producer's limit (client-private). */
    public static final int WLIM = 8;
    /** Frames the producer could not record because the ring was full. */
    public static final int DROPPED = 16;
    /** The consumer's next word (a client address). */
    public static final int RP = 64;
    public static final int CLOSED = 72;
    public static final int DROPPED_LOGGED = 80;
    /** The client address of word 0. */
    public static final int BASE = 88;
    /** Ring words, {@link #WORDS}. */
    public static final int WORDS_FIELD = 96;
    public static final int RING = 128;
    public static final int WORDS = 8192;
    /** One kind byte per word plus one, zero padding to {@link #COMMITTED}. */
    public static final int KINDS = RING + WORDS * Long.BYTES;
    /** The last complete checkpoint's number n (0: none). */
    public static final int COMMITTED = 73_920;
    /** Checkpoint slot 0 (even n); slot 1 (odd n) follows. */
    public static final int SLOTS = 73_984;
    public static final int SLOT_BYTES = 6_720;

    /** Entry kinds (the kind byte of an entry's first word). */
    public static final int KIND_TIMES = 0;
    public static final int KIND_FRAMEINFO = 1;
    public static final int KIND_TL_COMMIT = 2;
    public static final int KIND_TL_UNPREDICTED = 3;
    public static final int KIND_TL_PRESENTED = 4;
    public static final int KIND_TL_DISCARDED = 5;
    public static final int KIND_TL_POLL = 6;
    public static final int KIND_WRAP = 255;
    /** Words of an entry of each kind: times, FrameInfo, FrameTimeline call. */
    public static final int TIMES_WORDS = 5;
    public static final int FRAMEINFO_WORDS = 23;
    public static final int TIMELINE_WORDS = 7;

    /** Checkpoint slot fields (offsets from the slot's start). */
    public static final int CP_N = 0;
    public static final int CP_RP = 8;
    public static final int CP_FLAGS = 12;
    public static final int CP_DROPS_COUNTED = 16;
    public static final int CP_RULES_KIND = 24;
    public static final int CP_DEADLINES_EXTENDED = 28;
    public static final int CP_REFRESH = 32;
    public static final int CP_DEFAULT_INTERVAL = 40;
    public static final int CP_DEQUEUE_FORGIVENESS = 48;
    public static final int CP_SWAP_DEADLINE = 56;
    public static final int CP_NEXT_FRAME_START = 64;
    public static final int CP_TRACKER_INTERVAL = 72;
    public static final int CP_MATRIX_MODE = 80;
    public static final int CP_MATRIX_LEVELS = 84;
    public static final int CP_REFRESH_HZ = 100;
    public static final int CP_OWN_SLOT = 104;
    public static final int CP_OWN_PREVIOUS = 108;
    public static final int CP_OWN_SINCE = 112;
    public static final int CP_DEFAULT_SLOT = 120;
    public static final int CP_DEFAULT_PREVIOUS = 124;
    public static final int CP_DEFAULT_SINCE = 128;
    public static final int CP_TL_NEXT = 136;
    public static final int CP_TL_AWAITING = 140;
    public static final int CP_TL_PREVIOUS_PREDICTED_PRESENT = 144;
    public static final int CP_TL_PREVIOUS_PRESENT = 152;
    public static final int CP_TL_JOIN_WAIT = 160;
    public static final int CP_TL_LAST_PRESENTED = 168;
    public static final int CP_ZERO = 176;
    public static final int CP_PENDING = 256;
    public static final int CP_COUNTER_IMAGE = 2_304;
    public static final int CP_SCENE_IMAGE = 3_072;
    public static final int CP_TIMELINE_IMAGE = 6_400;
    public static final int CP_HEALTH_IMAGE = 6_656;

    /** Checkpoint flags. */
    public static final int FLAG_SCENES = 1;
    public static final int FLAG_TIMELINE = 2;
    public static final int FLAG_OWN_SCENE = 4;
    public static final int FLAG_COMPOSITOR = 8;
    public static final int FLAG_HEALTH = 16;
    public static final int KNOWN_FLAGS = 31;

    /** The FrameTimeline pending table: slots of {@link #PENDING_BYTES}. */
    public static final int PENDING_SLOTS = 16;
    public static final int PENDING_BYTES = 128;
    public static final int PENDING_TOKEN = 0;
    public static final int PENDING_PREDICTED_START = 8;
    public static final int PENDING_PREDICTED_END = 16;
    public static final int PENDING_PREDICTED_PRESENT = 24;
    public static final int PENDING_ACTUAL_START = 32;
    public static final int PENDING_ACTUAL_END = 40;
    public static final int PENDING_USED = 48;
    public static final int PENDING_PREDICTED = 49;
    public static final int PENDING_AWAITING = 50;
    public static final int PENDING_FLAGS = 52;
    public static final int PENDING_PRESENTED = 56;
    public static final int PENDING_REFRESH = 64;
    public static final int PENDING_LATCH = 72;
    public static final int PENDING_OUTPUT = 80;
    public static final int PENDING_MSC = 88;

    /** Room for the counter stripe's image (190 u32, zero padding). */
    public static final int COUNTER_IMAGE_BYTES = CP_SCENE_IMAGE - CP_COUNTER_IMAGE;

    private RingGroup() {
    }

    /** Length of the group's area in a buffer with {@code stripeCount} writer stripes. */
    public static long length(int stripeCount) {
        return (long) stripeCount * STRIPE_BYTES;
    }

    /** Offset, from the area's start, of the ring stripe of writer stripe {@code stripe} (1..N). */
    public static long stripeOffset(int stripe) {
        if (stripe < 1) {
            throw new IllegalArgumentException("the ring group has no stripe for stripe " + stripe);
        }
        return (long) (stripe - 1) * STRIPE_BYTES;
    }

    /** Offset of checkpoint slot {@code n & 1} from the ring stripe's start. */
    public static int slotOffset(long n) {
        return SLOTS + (int) (n & 1) * SLOT_BYTES;
    }
}
