package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import java.util.List;

/**
 * Layout of a gfxstats buffer file, the one place where offsets are defined (mirrored in
 * docs/buffer-format.md). All numbers are little-endian; every counter is an unsigned 32-bit
 * word on a 4-byte boundary; 64-bit header fields sit on 8-byte boundaries.
 *
 * <pre>
 * Layout version 1
 *
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     Magic 'GFXS' (0x53584647)                 |   0
 *  +---------------------------------------------------------------+
 *  |                     Layout version                            |   4
 *  +---------------------------------------------------------------+
 *  |    State: 0 initialising, 1 ready, 2 retired (release/acquire)|   8
 *  +---------------------------------------------------------------+
 *  |                     Header length                             |  12
 *  +---------------------------------------------------------------+
 *  |                     Total length (64 bit)                     |  16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Writer stripe count N                     |  24
 *  +---------------------------------------------------------------+
 *  |                     Counters per stripe                       |  28
 *  +---------------------------------------------------------------+
 *  |                     Stripe length                             |  32
 *  +---------------------------------------------------------------+
 *  |                     Pipeline (0 unknown, 1 GL, 2 Vulkan)      |  36
 *  +---------------------------------------------------------------+
 *  |                     Pid of the registering process            |  40
 *  +---------------------------------------------------------------+
 *  |                     Uid of the registering process            |  44
 *  +---------------------------------------------------------------+
 *  |                     Version code (64 bit)                     |  48
 *  +---------------------------------------------------------------+
 *  |                     Stats start, epoch ms (64 bit)            |  56
 *  +---------------------------------------------------------------+
 *  |                     Heartbeat, epoch ms (64 bit)              |  64
 *  +---------------------------------------------------------------+
 *  |  Package name length  |  Package name, UTF-8, 256 bytes       |  72
 *  +---------------------------------------------------------------+
 *  |  Registration id length |  Registration id, 64 bytes          | 332
 *  +---------------------------------------------------------------+
 *  |  Predecessor id length  |  Predecessor registration id, 64    | 400
 *  +---------------------------------------------------------------+
 *  |  Successor id length    |  Successor registration id, 64      | 468
 *  +---------------------------------------------------------------+
 *  |  Claim words of stripes 1..N: 0 free, else pid of the owner   | 536
 *  |  ...                                    padding to 64 bytes   |
 *  +===============================================================+
 *  |  Stripe 0, shared: 190 counters in Counters order, atomic adds|  header length
 *  |  ...                                    padding to 64 bytes   |
 *  +---------------------------------------------------------------+
 *  |  Stripe 1..N, one writer each: 190 counters, plain stores     |
 *  |  ...                                                          |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>A counter's value is the sum over all N + 1 stripes.
 *
 * <pre>
 * Layout version 2: version 1's header with two more words before the claim words, version 1's
 * stripes unchanged, then a directory of counter groups and the groups themselves.
 *
 *  +---------------------------------------------------------------+
 *  |  Header fields 0..535 exactly as in version 1                 |   0
 *  +---------------------------------------------------------------+
 *  |                     Group directory offset D                  | 536
 *  +---------------------------------------------------------------+
 *  |                     Group count G                             | 540
 *  +---------------------------------------------------------------+
 *  |  Claim words of stripes 1..N: 0 free, else pid of the owner   | 544
 *  |  ...                                    padding to 64 bytes   |
 *  +===============================================================+
 *  |  Stripes 0..N: 190 counters each, exactly as in version 1     |  header length
 *  +===============================================================+
 *  |  Group directory, G entries of 16 bytes:                      |  D
 *  |  +-------------------------------------------------------------+
 *  |  |  Group id      |  Group version  |  Offset  |  Length       |
 *  |  +-------------------------------------------------------------+
 *  |  ...                                    padding to 64 bytes   |
 *  +---------------------------------------------------------------+
 *  |  Group area 1, at its offset, 64-byte aligned:                |
 *  |  +-------------------------------------------------------------+
 *  |  |  Prefix (group-specific, e.g. the scene names) padded to 64 |
 *  |  +-------------------------------------------------------------+
 *  |  |  Group stripe 0 (shared) .. N, one per counter stripe:      |
 *  |  |  C32 u32 counters, padding to 8, C64 u64 sums, padding to 64|
 *  |  +-------------------------------------------------------------+
 *  +---------------------------------------------------------------+
 *  |  Group area 2 ...                                             |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Group stripe s belongs to the writer of counter stripe s (same claim, same single-writer
 * rules). Readers skip groups whose id or version they do not know; {@link CounterGroups} lists
 * the groups this release knows. {@link #countersPerStripe(int)} and {@link #claimsOffset(int)}
 * are defined per layout version, and readers keep accepting every version listed in
 * {@link #isSupported(int)}.
 */
public final class BufferDescriptor {
    /** 'G' 'F' 'X' 'S' read as a little-endian int. */
    public static final int MAGIC = 0x53584647;
    public static final int LAYOUT_VERSION_1 = 1;
    /** Version 1 plus a directory of appended counter groups (scenes, FrameTimeline, ...). */
    public static final int LAYOUT_VERSION_2 = 2;
    /** The layout version this code writes. */
    public static final int CURRENT_LAYOUT_VERSION = LAYOUT_VERSION_2;

    public static final int STATE_INITIALISING = 0;
    public static final int STATE_READY = 1;
    public static final int STATE_RETIRED = 2;

    static final int INT = Integer.BYTES;
    static final int LONG = Long.BYTES;
    static final int ALIGNMENT = 64;

    public static final int MAGIC_OFFSET = 0;
    public static final int LAYOUT_VERSION_OFFSET = MAGIC_OFFSET + INT;
    public static final int STATE_OFFSET = LAYOUT_VERSION_OFFSET + INT;
    public static final int HEADER_LENGTH_OFFSET = STATE_OFFSET + INT;
    public static final int TOTAL_LENGTH_OFFSET = HEADER_LENGTH_OFFSET + INT;
    public static final int STRIPE_COUNT_OFFSET = TOTAL_LENGTH_OFFSET + LONG;
    public static final int COUNTERS_PER_STRIPE_OFFSET = STRIPE_COUNT_OFFSET + INT;
    public static final int STRIPE_LENGTH_OFFSET = COUNTERS_PER_STRIPE_OFFSET + INT;
    public static final int PIPELINE_OFFSET = STRIPE_LENGTH_OFFSET + INT;
    public static final int PID_OFFSET = PIPELINE_OFFSET + INT;
    public static final int UID_OFFSET = PID_OFFSET + INT;
    public static final int VERSION_CODE_OFFSET = UID_OFFSET + INT;
    public static final int STATS_START_OFFSET = VERSION_CODE_OFFSET + LONG;
    public static final int HEARTBEAT_OFFSET = STATS_START_OFFSET + LONG;

    /** Longest package name in UTF-8 bytes. */
    public static final int PACKAGE_NAME_MAX_BYTES = 256;
    /** Longest registration id (also predecessor and successor ids) in bytes, printable ASCII. */
    public static final int REGISTRATION_ID_MAX_BYTES = 64;

    public static final int PACKAGE_NAME_OFFSET = HEARTBEAT_OFFSET + LONG;
    public static final int REGISTRATION_ID_OFFSET = PACKAGE_NAME_OFFSET + INT + PACKAGE_NAME_MAX_BYTES;
    public static final int PREDECESSOR_ID_OFFSET = REGISTRATION_ID_OFFSET + INT + REGISTRATION_ID_MAX_BYTES;
    public static final int SUCCESSOR_ID_OFFSET = PREDECESSOR_ID_OFFSET + INT + REGISTRATION_ID_MAX_BYTES;
    static final int CLAIMS_OFFSET_V1 = SUCCESSOR_ID_OFFSET + INT + REGISTRATION_ID_MAX_BYTES;

    /** Version 2: where the group directory starts (64-byte aligned, after the last stripe). */
    public static final int GROUP_DIRECTORY_OFFSET_OFFSET = CLAIMS_OFFSET_V1;
    /** Version 2: number of directory entries. */
    public static final int GROUP_COUNT_OFFSET = GROUP_DIRECTORY_OFFSET_OFFSET + INT;
    static final int CLAIMS_OFFSET_V2 = GROUP_COUNT_OFFSET + INT;

    /** One directory entry: group id, group version, offset of its area, length of its area (u32 each). */
    public static final int GROUP_ENTRY_LENGTH = 4 * INT;
    public static final int GROUP_ENTRY_ID = 0;
    public static final int GROUP_ENTRY_VERSION = INT;
    public static final int GROUP_ENTRY_OFFSET = 2 * INT;
    public static final int GROUP_ENTRY_LENGTH_FIELD = 3 * INT;
    /** Most directory entries a reader accepts (garbage guard; this release writes at most a few). */
    public static final int MAX_GROUPS = 64;

    /** Shortest prefix from which magic, layout version, state and header length can be read. */
    public static final int MIN_PREFIX_LENGTH = HEADER_LENGTH_OFFSET + INT;

    public static final int MIN_STRIPES = 1;
    public static final int MAX_STRIPES = 255;
    public static final int DEFAULT_STRIPES = 16;

    /** Index of the shared stripe; writer stripes are 1..N. */
    public static final int SHARED_STRIPE = 0;

    private BufferDescriptor() {
    }

    public static boolean isSupported(int layoutVersion) {
        return layoutVersion == LAYOUT_VERSION_1 || layoutVersion == LAYOUT_VERSION_2;
    }

    /** Counters held by each stripe in a layout; they are the first counters of {@link Counters}. */
    public static int countersPerStripe(int layoutVersion) {
        requireSupported(layoutVersion);
        return Counters.COUNT;
    }

    public static int claimsOffset(int layoutVersion) {
        requireSupported(layoutVersion);
        return layoutVersion == LAYOUT_VERSION_1 ? CLAIMS_OFFSET_V1 : CLAIMS_OFFSET_V2;
    }

    /** Offset of the claim word of writer stripe {@code stripe} (1..N). */
    public static int claimOffset(int layoutVersion, int stripe) {
        return claimsOffset(layoutVersion) + (stripe - 1) * INT;
    }

    public static int stripeLength(int layoutVersion) {
        return align(countersPerStripe(layoutVersion) * INT, ALIGNMENT);
    }

    public static int headerLength(int layoutVersion, int stripeCount) {
        return align(claimsOffset(layoutVersion) + stripeCount * INT, ALIGNMENT);
    }

    /** Offset of stripe {@code stripe} (0 shared, 1..N writers). */
    public static long stripeOffset(int layoutVersion, int stripeCount, int stripe) {
        return headerLength(layoutVersion, stripeCount) + (long) stripe * stripeLength(layoutVersion);
    }

    /** Length of a file without counter groups (all of a version 1 file). */
    public static long totalLength(int layoutVersion, int stripeCount) {
        return stripeOffset(layoutVersion, stripeCount, stripeCount + 1);
    }

    /** Version 2: offset of the group directory, right after the last stripe. */
    public static long groupDirectoryOffset(int stripeCount) {
        return totalLength(LAYOUT_VERSION_2, stripeCount);
    }

    /** Version 2: length of a file with these groups, laid out in this order after the directory. */
    public static long totalLength(int stripeCount, List<CounterGroup> groups) {
        return totalLength(stripeCount, groups, false);
    }

    /** Version 2: as {@link #totalLength(int, List)}, with the ring group after the counter groups. */
    public static long totalLength(int stripeCount, List<CounterGroup> groups, boolean rings) {
        int entries = groups.size() + (rings ? 1 : 0);
        long offset = groupDirectoryOffset(stripeCount) + align(entries * GROUP_ENTRY_LENGTH, ALIGNMENT);
        for (CounterGroup g : groups) {
            offset += g.length(stripeCount);
        }
        return offset + (rings ? RingGroup.length(stripeCount) : 0);
    }

    /** Largest file any supported layout can describe; anything bigger is not a buffer. */
    public static long maxTotalLength() {
        return totalLength(MAX_STRIPES, CounterGroups.KNOWN, true) + MAX_FOREIGN_GROUP_BYTES;
    }

    /** Room a reader allows for groups it does not know (written by a newer release). */
    public static final long MAX_FOREIGN_GROUP_BYTES = 4L << 20;

    static int align(int value, int alignment) {
        return (value + alignment - 1) & -alignment;
    }

    private static void requireSupported(int layoutVersion) {
        if (!isSupported(layoutVersion)) {
            throw new IllegalArgumentException("unsupported buffer layout version " + layoutVersion);
        }
    }
}
