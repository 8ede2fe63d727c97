package io.gfxstats.buffer;

import static io.gfxstats.buffer.BufferDescriptor.*;

import io.gfxstats.buffer.BufferFormatException.Reason;
import io.gfxstats.text.TerminalText;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The counter groups of one buffer (layout version 2's group directory, validated): where each
 * group this release knows lies, how many unknown ones were skipped, and reading them from a
 * copy of the file (their sums over the stripes, the scene names).
 */
final class GroupDirectory {
    /** Reads of a 64-bit word before a writer that never pauses is given up on. */
    private static final int STABLE_TRIES = 100;
    /**
     * Reads of a group stripe before it is taken element by element: a writer at a display's
     * rate leaves it alone between two reads microseconds apart, one counting flat out never does.
     */
    private static final int REGION_TRIES = 8;

    private final int stripeCount;
    /** Per group of {@link CounterGroups#KNOWN}: offset of its area in the file, or -1 when absent. */
    private final int[] offsets;
    /** Per group of {@link CounterGroups#KNOWN}: the version of its layout the file has (null when absent). */
    private final CounterGroup[] layouts;
    /** Directory entries of groups this release does not know (skipped). */
    final int foreignGroups;
    /** Offset of the ring group's area ({@link RingGroup}), or -1 when the file has none. */
    final long ringOffset;
    /**
     * Where everything but the ring group ends: a reader's copy of the counts needs no more (the
     * rings are 1.4 MB at 16 stripes, against 78 KB of counts).
     */
    final long countedEnd;

    private GroupDirectory(int stripeCount, int[] offsets, CounterGroup[] layouts, int foreignGroups,
                           long ringOffset, long countedEnd) {
        this.stripeCount = stripeCount;
        this.offsets = offsets;
        this.layouts = layouts;
        this.foreignGroups = foreignGroups;
        this.ringOffset = ringOffset;
        this.countedEnd = countedEnd;
    }

    /** No groups (a version 1 file). */
    static GroupDirectory none(int stripeCount) {
        int[] offsets = new int[CounterGroups.KNOWN.size()];
        Arrays.fill(offsets, -1);
        return new GroupDirectory(stripeCount, offsets, new CounterGroup[offsets.length], 0, -1, Long.MAX_VALUE);
    }

    /**
     * Validates the version 2 group directory and records where the known groups are. Every
     * entry must lie inside the declared length, 64-byte aligned, without overlapping another;
     * a known group must have exactly the length its layout gives; unknown ids and versions
     * are skipped.
     *
     */
    static GroupDirectory read(Path path, ByteBuffer h, int stripeCount, long declared, long fileLength)
            throws BufferFormatException {
        GroupDirectory none = none(stripeCount);
        int[] groupOffsets = none.offsets;
        CounterGroup[] layouts = none.layouts;
        long directory = Integer.toUnsignedLong(h.getInt(GROUP_DIRECTORY_OFFSET_OFFSET));
        int count = h.getInt(GROUP_COUNT_OFFSET);
        require(path, directory == groupDirectoryOffset(stripeCount), "group directory offset " + directory);
        require(path, count >= 0 && count <= MAX_GROUPS, "group count " + count);
        long areasStart = directory + align(count * GROUP_ENTRY_LENGTH, ALIGNMENT);
        require(path, declared >= areasStart && declared <= maxTotalLength(), "total length " + declared);
        if (fileLength < areasStart || h.limit() < areasStart) {
            throw new BufferFormatException(Reason.TOO_SHORT, path,
                    fileLength + " bytes, the group directory ends at " + areasStart);
        }
        long[][] areas = new long[count][];
        int skipped = 0;
        long end = areasStart;
        long ring = -1;
        long counted = areasStart;
        for (int i = 0; i < count; i++) {
            int entry = (int) directory + i * GROUP_ENTRY_LENGTH;
            int id = h.getInt(entry + GROUP_ENTRY_ID);
            int version = h.getInt(entry + GROUP_ENTRY_VERSION);
            long offset = Integer.toUnsignedLong(h.getInt(entry + GROUP_ENTRY_OFFSET));
            long len = Integer.toUnsignedLong(h.getInt(entry + GROUP_ENTRY_LENGTH_FIELD));
            require(path, offset % ALIGNMENT == 0 && offset >= areasStart && offset + len <= declared,
                    "group " + id + " at " + offset + " length " + len);
            for (int j = 0; j < i; j++) {
                boolean apart = offset + len <= areas[j][0] || areas[j][0] + areas[j][2] <= offset;
                require(path, areas[j][1] != id && apart,
                        "group " + id + " overlaps or repeats group " + areas[j][1]);
            }
            areas[i] = new long[] {offset, id, len};
            end = Math.max(end, offset + len);
            if (id == RingGroup.ID && version == RingGroup.VERSION) {
                // Not a counter group: only its length is checked here (the daemon's finisher
                // checks its contents before it counts anything from it).
                require(path, len == RingGroup.length(stripeCount), "ring group length " + len + ", layout says "
                        + RingGroup.length(stripeCount));
                ring = offset;
                continue;
            }
            counted = Math.max(counted, offset + len);
            int known = CounterGroups.indexOf(id, version);
            if (known < 0) {
                skipped++;
                continue;
            }
            CounterGroup g = CounterGroups.layout(id, version);
            require(path, len == g.length(stripeCount), "group " + g.name() + " length " + len + ", layout says "
                    + g.length(stripeCount));
            groupOffsets[known] = (int) offset;
            layouts[known] = g;
        }
        require(path, declared == end, "total length " + declared + ", the groups end at " + end);
        return new GroupDirectory(stripeCount, groupOffsets, layouts, skipped, ring, ring < 0 ? declared : counted);
    }

    /** Offset of group stripe {@code stripe} of known group {@code group}, or -1 if the file lacks the group. */
    long stripeOffset(int group, int stripe) {
        int area = offsets[group];
        return area < 0 ? -1 : area + layouts[group].stripeOffset(stripe);
    }

    /**
     * Whether known group {@code group} is in the file in the version this release writes: a
     * writer counts only into those (an earlier version is read, never written).
     */
    boolean writable(int group) {
        return offsets[group] >= 0 && layouts[group].equals(CounterGroups.KNOWN.get(group));
    }

    /** The version of known group {@code group}'s layout in the file, 0 if the file lacks the group. */
    int version(int group) {
        return layouts[group] == null ? 0 : layouts[group].version();
    }

    int sceneOffset() {
        return offsets[CounterGroups.KNOWN.indexOf(CounterGroups.SCENES)];
    }

    /**
     * The names of the scene slots in a copy of the file, "" for a slot not (validly) named -
     * not UTF-8, or against {@link SceneGroup#requireName} (a control character);
     * null when the file has no scene group. Each name refused is added to {@code refused}, as
     * the slot and the name escaped for a terminal, so the reader can say what it left out.
     */
    String[] sceneNames(ByteBuffer image, List<String> refused) {
        int area = sceneOffset();
        if (area < 0) {
            return null;
        }
        ByteBuffer h = image.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        String[] names = new String[SceneGroup.SLOTS];
        for (int slot = 0; slot < SceneGroup.SLOTS; slot++) {
            int entry = area + slot * SceneGroup.SLOT_ENTRY_BYTES;
            names[slot] = "";
            if (h.getInt(entry + SceneGroup.SLOT_STATE) != SceneGroup.SLOT_NAMED) {
                continue;
            }
            int len = h.getInt(entry + SceneGroup.SLOT_NAME_LENGTH);
            if (len <= 0 || len > SceneGroup.NAME_MAX_BYTES) {
                refused.add("scene slot " + slot + ": name length " + len);
                continue;
            }
            byte[] bytes = new byte[len];
            h.get(entry + SceneGroup.SLOT_NAME, bytes);
            try {
                String name = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes)).toString();
                // The writer's own rule, applied again: a client that writes its mapped buffer
                // itself (any non-Java client) is not bound by our library (issue 26: escape
                // sequences and forged log lines as scene names).
                SceneGroup.requireName(name);
                names[slot] = name;
            } catch (CharacterCodingException e) {
                names[slot] = "";
                refused.add("scene slot " + slot + ": name not UTF-8");
            } catch (IllegalArgumentException e) {
                names[slot] = "";
                refused.add("scene slot " + slot + ": name '"
                        + TerminalText.escape(new String(bytes, StandardCharsets.UTF_8)) + "'");
            }
        }
        return names;
    }

    /**
     * Adds every known group's elements, summed over the stripes, to {@code sums} (a counter
     * vector), whichever of its readable versions the file has.
     *
     * <p>A group's stripe that is the same in both copies did not change while they were read,
     * so the first copy holds it as it was at one instant. One that changed (a frame was counted
     * in between) is read again, alone, until two reads in a row agree, and taken whole from
     * that read: its counters and sums then cover the same frames, where taking the counters from
     * one copy and the sums from a later read once made a live slice's Matrix refresh rate 59 for
     * 60 Hz frames (one frame's refresh counted without the frame). Its values only grow, so two
     * equal reads saw it unchanged in between. Only a writer stopped in the middle of a frame for
     * the whole of both reads leaves that frame half counted (docs/buffer-format.md, "Reading").
     *
     * <p>A stripe that never reads the same twice (a writer counting faster than it can be read)
     * is taken element by element: 32-bit counters from the first copy, but totals read late
     * from the second ({@link CounterGroup#readsLate}); a 64-bit sum only when both copies agree,
     * otherwise read again until two reads in a row agree (a copy is not guaranteed to read 8
     * bytes at once, and its writer may have stored it in between).
     */
    void sum(ByteBuffer a, ByteBuffer b, long[] sums, BufferHeader.WordReader reread) throws IOException {
        for (int g = 0; g < offsets.length; g++) {
            if (offsets[g] < 0) {
                continue;
            }
            CounterGroup group = layouts[g];
            int vector = CounterGroups.vectorOffset(g);
            int length = group.stripeLength();
            for (int s = 0; s <= stripeCount; s++) {
                int base = (int) stripeOffset(g, s);
                if (a.slice(base, length).equals(b.slice(base, length))) {
                    addWhole(group, a, base, sums, vector);
                    continue;
                }
                ByteBuffer stable = stableRegion(reread, base, length);
                if (stable != null) {
                    addWhole(group, stable, 0, sums, vector);
                    continue;
                }
                for (int e = 0; e < group.elements(); e++) {
                    int at = base + group.elementOffset(e);
                    if (!group.isWide(e)) {
                        sums[vector + e] += Integer.toUnsignedLong((group.readsLate(e) ? b : a).getInt(at));
                        continue;
                    }
                    long v = a.getLong(at);
                    if (v != b.getLong(at)) {
                        v = stableLong(reread, at);
                    }
                    sums[vector + e] += v;
                }
            }
        }
    }

    /** Adds a group stripe's elements, read at {@code base} of {@code from}. */
    private static void addWhole(CounterGroup group, ByteBuffer from, int base, long[] sums, int vector) {
        for (int e = 0; e < group.elements(); e++) {
            int at = base + group.elementOffset(e);
            sums[vector + e] += group.isWide(e) ? from.getLong(at) : Integer.toUnsignedLong(from.getInt(at));
        }
    }

    /** Tries to read a region the same twice in a row; null when it changed every time. */
    private static ByteBuffer stableRegion(BufferHeader.WordReader reread, long offset, int length)
            throws IOException {
        ByteBuffer previous = reread.read(offset, length);
        for (int i = 0; i < REGION_TRIES; i++) {
            ByteBuffer next = reread.read(offset, length);
            if (next.equals(previous)) {
                return previous;
            }
            previous = next;
        }
        return null;
    }

    private static long stableLong(BufferHeader.WordReader reread, long offset) throws IOException {
        long previous = reread.readLong(offset);
        for (int i = 0; i < STABLE_TRIES; i++) {
            long v = reread.readLong(offset);
            if (v == previous) {
                return v;
            }
            previous = v;
        }
        // A writer storing on every read for 100 reads: its value only grows, the last read stands.
        return previous;
    }

    private static void require(Path path, boolean ok, String detail) throws BufferFormatException {
        if (!ok) {
            throw new BufferFormatException(Reason.CORRUPT_HEADER, path, detail);
        }
    }
}
