package io.gfxstats.buffer;

import static io.gfxstats.buffer.BufferDescriptor.*;

import io.gfxstats.buffer.BufferFormatException.Reason;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The validated, immutable part of a buffer's header, and the parsing shared by reader and
 * writer. Everything is parsed from copies (bytes read with positional reads, or copied out of
 * a mapping), never from single loads on a mapping: see {@link BufferReader} for why.
 */
final class BufferHeader {
    final Path path;
    final long length;
    final int layoutVersion;
    final int headerLength;
    final int stripeCount;
    final int countersPerStripe;
    final int pid;
    final int uid;
    final Pipeline pipeline;
    final long versionCode;
    final String packageName;
    final String registrationId;
    final String predecessorId;
    /** Where the counter groups are (version 2; none for version 1). */
    final GroupDirectory groups;

    /**
     * @param state  the state word, read before {@code image} (acquire order)
     * @param image  the file's first bytes (at least its header when the file is long enough)
     * @param length the file's length
     */
    BufferHeader(Path path, int state, ByteBuffer image, long length) throws BufferFormatException {
        this.path = path;
        this.length = length;
        ByteBuffer h = image.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (h.limit() < MIN_PREFIX_LENGTH) {
            throw new BufferFormatException(Reason.TOO_SHORT, path, length + " bytes");
        }
        int magic = h.getInt(MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new BufferFormatException(Reason.WRONG_MAGIC, path,
                    String.format("found 0x%08x, expected 0x%08x", magic, MAGIC));
        }
        layoutVersion = h.getInt(LAYOUT_VERSION_OFFSET);
        if (!isSupported(layoutVersion)) {
            throw new BufferFormatException(Reason.UNSUPPORTED_VERSION, path,
                    "layout version " + layoutVersion + ", this release reads up to " + CURRENT_LAYOUT_VERSION);
        }
        if (state == STATE_INITIALISING) {
            throw new BufferFormatException(Reason.NOT_READY, path, "the creator has not marked it ready");
        }
        if (state != STATE_READY && state != STATE_RETIRED) {
            throw new BufferFormatException(Reason.CORRUPT_HEADER, path, "unknown state " + state);
        }
        if (length < claimsOffset(layoutVersion) || h.limit() < claimsOffset(layoutVersion)) {
            throw new BufferFormatException(Reason.TOO_SHORT, path,
                    length + " bytes, the header alone needs " + claimsOffset(layoutVersion));
        }
        stripeCount = h.getInt(STRIPE_COUNT_OFFSET);
        if (stripeCount < MIN_STRIPES || stripeCount > MAX_STRIPES) {
            throw new BufferFormatException(Reason.CORRUPT_HEADER, path, "stripe count " + stripeCount);
        }
        countersPerStripe = h.getInt(COUNTERS_PER_STRIPE_OFFSET);
        require(countersPerStripe == BufferDescriptor.countersPerStripe(layoutVersion),
                "counters per stripe " + countersPerStripe);
        int stripeLength = h.getInt(STRIPE_LENGTH_OFFSET);
        require(stripeLength == BufferDescriptor.stripeLength(layoutVersion), "stripe length " + stripeLength);
        headerLength = h.getInt(HEADER_LENGTH_OFFSET);
        require(headerLength == BufferDescriptor.headerLength(layoutVersion, stripeCount),
                "header length " + headerLength);
        long declared = h.getLong(TOTAL_LENGTH_OFFSET);
        if (layoutVersion == LAYOUT_VERSION_1) {
            long expected = BufferDescriptor.totalLength(layoutVersion, stripeCount);
            require(declared == expected, "total length " + declared + ", layout says " + expected);
            groups = GroupDirectory.none(stripeCount);
        } else {
            groups = GroupDirectory.read(path, h, stripeCount, declared, length);
        }
        if (length < declared) {
            throw new BufferFormatException(Reason.TOO_SHORT, path, length + " bytes, header declares " + declared);
        }
        if (length > declared) {
            throw new BufferFormatException(Reason.SIZE_MISMATCH, path, length + " bytes, header declares " + declared);
        }
        pid = h.getInt(PID_OFFSET);
        require(pid > 0, "pid " + pid);
        uid = h.getInt(UID_OFFSET);
        pipeline = Pipeline.fromCode(h.getInt(PIPELINE_OFFSET));
        versionCode = h.getLong(VERSION_CODE_OFFSET);
        packageName = string(h, PACKAGE_NAME_OFFSET, PACKAGE_NAME_MAX_BYTES, "package name");
        require(!packageName.isEmpty(), "empty package name");
        registrationId = string(h, REGISTRATION_ID_OFFSET, REGISTRATION_ID_MAX_BYTES, "registration id");
        require(BufferSpec.isRegistrationId(registrationId), "registration id '" + registrationId + "'");
        predecessorId = string(h, PREDECESSOR_ID_OFFSET, REGISTRATION_ID_MAX_BYTES, "predecessor id");
        require(predecessorId.isEmpty() || BufferSpec.isRegistrationId(predecessorId),
                "predecessor id '" + predecessorId + "'");
    }

    /** Bytes from the start that hold the header and the counts: all but the ring group. */
    int countedLength() {
        return (int) Math.min(length, groups.countedEnd);
    }

    /** Offset of the ring group's area, or -1 when the file has none. */
    long ringOffset() {
        return groups.ringOffset;
    }

    /** Offset of group stripe {@code stripe} of known group {@code group}, or -1 if the file lacks the group. */
    long groupStripeOffset(int group, int stripe) {
        return groups.stripeOffset(group, stripe);
    }

    int sceneGroupOffset() {
        return groups.sceneOffset();
    }

    /** The version of known group {@code group} in the file, 0 if it lacks the group. */
    int groupVersion(int group) {
        return groups.version(group);
    }

    /** Whether known group {@code group} is in the file in the version this release writes. */
    boolean groupWritable(int group) {
        return groups.writable(group);
    }

    /** The scene slots' names in a copy of the file ("" unnamed); null without a scene group. */
    String[] sceneNames(ByteBuffer image) {
        return groups.sceneNames(image, new ArrayList<>());
    }

    /** As {@link #sceneNames(ByteBuffer)}, adding each name refused to {@code refused}. */
    String[] sceneNames(ByteBuffer image, List<String> refused) {
        return groups.sceneNames(image, refused);
    }

    private void require(boolean ok, String detail) throws BufferFormatException {
        if (!ok) {
            throw new BufferFormatException(Reason.CORRUPT_HEADER, path, detail);
        }
    }

    private String string(ByteBuffer h, int offset, int max, String what) throws BufferFormatException {
        int len = h.getInt(offset);
        if (len < 0 || len > max) {
            throw new BufferFormatException(Reason.CORRUPT_HEADER, path, what + " length " + len);
        }
        byte[] bytes = new byte[len];
        h.get(offset + INT, bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new BufferFormatException(Reason.CORRUPT_HEADER, path, what + " is not UTF-8");
        }
    }

    long stripeOffset(int stripe) {
        return BufferDescriptor.stripeOffset(layoutVersion, stripeCount, stripe);
    }

    int claimOffset(int stripe) {
        return BufferDescriptor.claimOffset(layoutVersion, stripe);
    }

    /** The header fields a client changes, parsed from a copy of the header taken after {@code state}. */
    MutableFields mutableFields(int state, ByteBuffer image) {
        ByteBuffer h = image.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        String successor = "";
        if (state == STATE_RETIRED) {
            int len = h.getInt(SUCCESSOR_ID_OFFSET);
            if (len > 0 && len <= REGISTRATION_ID_MAX_BYTES) {
                byte[] bytes = new byte[len];
                h.get(SUCCESSOR_ID_OFFSET + INT, bytes);
                String id = new String(bytes, StandardCharsets.ISO_8859_1);
                successor = BufferSpec.isRegistrationId(id) ? id : "";
            }
        }
        int claimed = 0;
        for (int s = 1; s <= stripeCount; s++) {
            if (h.getInt(claimOffset(s)) != 0) {
                claimed++;
            }
        }
        return new MutableFields(state, h.getLong(STATS_START_OFFSET), h.getLong(HEARTBEAT_OFFSET), successor,
                claimed);
    }

    record MutableFields(int state, long statsStartMillis, long heartbeatMillis, String successorId,
                         int claimedStripes) {
    }

    /** Reads part of the file again (the reader's positional reads, the writer's loads). */
    interface WordReader {
        /** {@code length} bytes from {@code offset}, little-endian, positioned at 0. */
        ByteBuffer read(long offset, int length) throws IOException;

        default long readLong(long offset) throws IOException {
            return read(offset, Long.BYTES).getLong(0);
        }
    }

    /**
     * Sums the stripes of two copies of the file taken one after the other into a counter vector
     * ({@link CounterGroups}): every counter from the first copy except the totals, which come
     * from the second. Writers bump a frame's total before its bucket, so every frame seen in a
     * bucket is in the later total and the histogram never holds more frames than the total.
     *
     * <p>A group's stripe that changed between the copies is read again until two reads in a row
     * agree, and then taken whole from that read, so that its counters and sums cover the same
     * frames ({@link GroupDirectory#sum}).
     */
    long[] sumStripes(ByteBuffer first, ByteBuffer second, WordReader reread) throws IOException {
        ByteBuffer a = first.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = second.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long[] sums = new long[CounterGroups.VECTOR_LENGTH];
        for (int s = 0; s <= stripeCount; s++) {
            int base = (int) stripeOffset(s);
            sums[Counters.TOTAL_FRAMES] += Integer.toUnsignedLong(b.getInt(base));
            for (int c = 1; c < countersPerStripe; c++) {
                sums[c] += Integer.toUnsignedLong(a.getInt(base + (c << 2)));
            }
        }
        groups.sum(a, b, sums, reread);
        return sums;
    }

    /**
     * Opens a buffer file for reading or writing without following a symbolic link, and checks
     * what can be checked before anything is mapped: regular file, owner, plausible length.
     */
    static FileChannel openChannel(Path path, boolean writable, Integer expectedOwnerUid, long expectedLength)
            throws IOException {
        Map<String, Object> before = Files.readAttributes(path, "unix:isRegularFile,uid,ino,dev",
                LinkOption.NOFOLLOW_LINKS);
        if (!(Boolean) before.get("isRegularFile")) {
            throw new BufferFormatException(Reason.NOT_REGULAR_FILE, path,
                    Files.isSymbolicLink(path) ? "a symbolic link" : "not a regular file");
        }
        int owner = (Integer) before.get("uid");
        if (expectedOwnerUid != null && owner != expectedOwnerUid) {
            throw new BufferFormatException(Reason.WRONG_OWNER, path,
                    "owned by uid " + Integer.toUnsignedString(owner) + ", expected "
                    + Integer.toUnsignedString(expectedOwnerUid));
        }
        OpenOption[] options = writable
                ? new OpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS}
                : new OpenOption[] {StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS};
        FileChannel channel = FileChannel.open(path, options);
        try {
            Map<String, Object> after = Files.readAttributes(path, "unix:ino,dev", LinkOption.NOFOLLOW_LINKS);
            if (!before.get("ino").equals(after.get("ino")) || !before.get("dev").equals(after.get("dev"))) {
                throw new BufferFormatException(Reason.REPLACED, path, "inode changed during open");
            }
            long length = channel.size();
            if (length > maxTotalLength()) {
                throw new BufferFormatException(Reason.SIZE_MISMATCH, path,
                        length + " bytes, larger than any buffer (" + maxTotalLength() + ")");
            }
            if (expectedLength >= 0 && length != expectedLength) {
                throw new BufferFormatException(Reason.SIZE_MISMATCH, path,
                        length + " bytes, expected " + expectedLength);
            }
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Reads and validates the header through the channel. */
    static BufferHeader read(Path path, FileChannel channel) throws IOException {
        long length = channel.size();
        int state = readStateWord(channel);
        ByteBuffer image = readFully(channel, 0, (int) Math.min(length, maxTotalLength()));
        return new BufferHeader(path, state, image, length);
    }

    static int readStateWord(FileChannel channel) throws IOException {
        ByteBuffer word = readFully(channel, STATE_OFFSET, INT);
        return word.limit() == INT ? word.order(ByteOrder.LITTLE_ENDIAN).getInt(0) : STATE_INITIALISING;
    }

    /** Up to {@code length} bytes at {@code position}; shorter (limit) if the file is shorter. */
    static ByteBuffer readFully(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (channel.read(b, position + b.position()) < 0) {
                break;
            }
        }
        return b.flip();
    }
}
