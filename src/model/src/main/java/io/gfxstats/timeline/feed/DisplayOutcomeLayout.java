package io.gfxstats.timeline.feed;

import java.nio.file.Path;

/**
 * Layout of the display-frame outcome ring (compositor mode, docs/frametimeline.md), the one place
 * where its offsets are defined. The daemon writes it (single writer); clients map it read-only
 * and look up the outcome of the display frame at (output, MSC) when their presentation feedback
 * arrives. Little-endian; 64-bit fields on 8-byte boundaries.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 Magic 'GFXDRING' (64 bit)                      |   0
 *  +---------------------------------------------------------------+
 *  |                 Layout version (1)                            |   8
 *  +---------------------------------------------------------------+
 *  |                 Regions R (8)                                 |  12
 *  +---------------------------------------------------------------+
 *  |                 Slots per region S (512, a power of two)      |  16
 *  +---------------------------------------------------------------+
 *  |                 Entry length (64)                             |  20
 *  +---------------------------------------------------------------+
 *  |                 Entries published (64 bit)                    |  24
 *  +---------------------------------------------------------------+
 *  |                 Pid of the writing daemon                     |  32
 *  +---------------------------------------------------------------+
 *  |                 ... zero up to 64                             |
 *  +---------------------------------------------------------------+
 *  |  Region table: R x output id (64 bit; 0 and unused: -1)       |  64
 *  +===============================================================+
 *  |  Region 0: S entries, entry of MSC m at slot (m mod S)        | 128
 *  |  ...                                                          |
 *  |  Region R-1                                                   |
 *  +---------------------------------------------------------------+
 *
 *  Entry (64 bytes)
 *  +---------------------------------------------------------------+
 *  |  Sequence (64 bit): 0 never written, odd while being written  |   0
 *  +---------------------------------------------------------------+
 *  |  Output id (64 bit)                                           |   8
 *  +---------------------------------------------------------------+
 *  |  MSC (64 bit)                                                 |  16
 *  +---------------------------------------------------------------+
 *  |  Actual present, ns (64 bit; -1 invalid fence)                |  24
 *  +---------------------------------------------------------------+
 *  |  Refresh period, ns (64 bit)                                  |  32
 *  +---------------------------------------------------------------+
 *  |  Render period, ns (64 bit)                                   |  40
 *  +---------------------------------------------------------------+
 *  |  Display jank bits (JankType)                                 |  48
 *  +---------------+---------------+---------------+---------------+
 *  |  Present      |  Finish       |  Severity     |  Prediction   |  52
 *  +---------------+---------------+---------------+---------------+
 *  |  Compositor token (64 bit)                                    |  56
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The bytes at 52-55 are the ordinals of {@code PresentMetadata}, {@code FinishMetadata},
 * {@code Severity} and {@code Prediction}. An entry is read seqlock-style: sequence (acquire),
 * fields, sequence again; the read counts only when both sequences are equal and even. The writer
 * makes the sequence odd, writes the fields, then makes it even (release). A region belongs to one
 * output (table entry); when more outputs than regions appear, the daemon reuses the region
 * written longest ago, so readers also check the entry's output id.
 */
public final class DisplayOutcomeLayout {
    /** "GFXDRING" read as a little-endian 64-bit number. */
    public static final long MAGIC = 0x474E495244584647L;
    public static final int VERSION = 1;
    public static final int REGIONS = 8;
    public static final int SLOTS = 512;
    public static final int ENTRY_LENGTH = 64;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int REGIONS_OFFSET = 12;
    static final int SLOTS_OFFSET = 16;
    static final int ENTRY_LENGTH_OFFSET = 20;
    static final int PUBLISHED_OFFSET = 24;
    static final int PID_OFFSET = 32;
    static final int REGION_TABLE_OFFSET = 64;
    static final int ENTRIES_OFFSET = REGION_TABLE_OFFSET + REGIONS * 8;

    static final int SEQUENCE = 0;
    static final int OUTPUT = 8;
    static final int MSC = 16;
    static final int ACTUAL_PRESENT = 24;
    static final int REFRESH = 32;
    static final int RENDER = 40;
    static final int JANK = 48;
    static final int PRESENT = 52;
    static final int FINISH = 53;
    static final int SEVERITY = 54;
    static final int PREDICTION = 55;
    static final int TOKEN = 56;

    /** An unused region's output id. */
    static final long NO_OUTPUT = -1;

    /** The file length. */
    public static final int LENGTH = ENTRIES_OFFSET + REGIONS * SLOTS * ENTRY_LENGTH;

    /** The ring's file name in the daemon's buffer directory. */
    public static final String FILE_NAME = "display-frames.gfxring";

    private DisplayOutcomeLayout() {
    }

    static int entryOffset(int region, long msc) {
        return ENTRIES_OFFSET + (region * SLOTS + (int) (msc & (SLOTS - 1))) * ENTRY_LENGTH;
    }

    /** The ring beside a buffer the daemon handed out (same directory). */
    public static Path besideBuffer(Path bufferPath) {
        return bufferPath.resolveSibling(FILE_NAME);
    }
}
