package io.gfxstats.buffer;

import io.gfxstats.stats.Pipeline;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * What a new buffer's header says: who counts into it and since when. Validated on construction
 * so that a header can always be written and read back.
 *
 * @param pid                     process that counts into the buffer (from SO_PEERCRED for the daemon)
 * @param uid                     uid of that process
 * @param packageName             1..256 UTF-8 bytes, no control characters
 * @param versionCode             the package's version code
 * @param registrationId          identity of this buffer, 1..64 printable ASCII characters
 * @param statsStartMillis        epoch ms from which the buffer counts
 * @param pipeline                render pipeline of the process
 * @param stripeCount             writer stripes (1..255) besides the shared one
 * @param predecessorId           registration id of the buffer this one continues (see
 *                                docs/buffer-format.md, "Handover"), or "" for none
 * @param layoutVersion           {@link BufferDescriptor#CURRENT_LAYOUT_VERSION} (version 1 only for
 *                                compatibility tests)
 * @param groups                  counter groups of a version 2 file, in file order (none for version 1)
 * @param rings                   a version 2 file gets the ring group ({@link RingGroup}) after its
 *                                counter groups: the registering client asked for it
 */
public record BufferSpec(int pid,
                         int uid,
                         String packageName,
                         long versionCode,
                         String registrationId,
                         long statsStartMillis,
                         Pipeline pipeline,
                         int stripeCount,
                         String predecessorId,
                         int layoutVersion,
                         List<CounterGroup> groups,
                         boolean rings) {

    public BufferSpec {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive: " + pid);
        }
        requirePackageName(packageName);
        requireRegistrationId(registrationId, "registration id");
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(predecessorId, "predecessorId (use \"\" for none)");
        if (!predecessorId.isEmpty()) {
            requireRegistrationId(predecessorId, "predecessor id");
        }
        if (statsStartMillis < 0) {
            throw new IllegalArgumentException("stats start must not be negative: " + statsStartMillis);
        }
        groups = List.copyOf(Objects.requireNonNull(groups, "groups"));
        if (layoutVersion != BufferDescriptor.LAYOUT_VERSION_1 && layoutVersion != BufferDescriptor.LAYOUT_VERSION_2) {
            throw new IllegalArgumentException("cannot create layout version " + layoutVersion);
        }
        if (layoutVersion == BufferDescriptor.LAYOUT_VERSION_1 && (!groups.isEmpty() || rings)) {
            throw new IllegalArgumentException("layout version 1 has no counter groups and no ring group");
        }
        if (groups.stream().map(CounterGroup::id).distinct().count() != groups.size()) {
            throw new IllegalArgumentException("a counter group appears twice: " + groups);
        }
        if (stripeCount < BufferDescriptor.MIN_STRIPES || stripeCount > BufferDescriptor.MAX_STRIPES) {
            throw new IllegalArgumentException("stripe count must be in [" + BufferDescriptor.MIN_STRIPES + ", "
                    + BufferDescriptor.MAX_STRIPES + "]: " + stripeCount);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Length in bytes of the file this spec creates. */
    public long totalLength() {
        return layoutVersion == BufferDescriptor.LAYOUT_VERSION_1
                ? BufferDescriptor.totalLength(layoutVersion, stripeCount)
                : BufferDescriptor.totalLength(stripeCount, groups, rings);
    }

    /** Entries of the group directory: the counter groups and the ring group. */
    public int directoryEntries() {
        return groups.size() + (rings ? 1 : 0);
    }

    static void requirePackageName(String packageName) {
        Objects.requireNonNull(packageName, "packageName");
        int bytes = packageName.getBytes(StandardCharsets.UTF_8).length;
        if (bytes == 0 || bytes > BufferDescriptor.PACKAGE_NAME_MAX_BYTES) {
            throw new IllegalArgumentException("package name must be 1.." + BufferDescriptor.PACKAGE_NAME_MAX_BYTES
                    + " UTF-8 bytes, got " + bytes);
        }
        SceneGroup.requireNoRefused(packageName, "package name");
    }

    static void requireRegistrationId(String id, String what) {
        Objects.requireNonNull(id, what);
        if (!isRegistrationId(id)) {
            throw new IllegalArgumentException(what + " must be 1.." + BufferDescriptor.REGISTRATION_ID_MAX_BYTES
                    + " printable ASCII characters: '" + id + "'");
        }
    }

    static boolean isRegistrationId(String id) {
        if (id.isEmpty() || id.length() > BufferDescriptor.REGISTRATION_ID_MAX_BYTES) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Builder with defaults: pipeline UNKNOWN, {@link BufferDescriptor#DEFAULT_STRIPES} stripes, no
     * predecessor, the current layout with every group of {@link CounterGroups#KNOWN}.
     */
    public static final class Builder {
        private int pid;
        private int uid;
        private String packageName;
        private long versionCode;
        private String registrationId;
        private long statsStartMillis;
        private Pipeline pipeline = Pipeline.UNKNOWN;
        private int stripeCount = BufferDescriptor.DEFAULT_STRIPES;
        private String predecessorId = "";
        private int layoutVersion = BufferDescriptor.CURRENT_LAYOUT_VERSION;
        private List<CounterGroup> groups = CounterGroups.KNOWN;
        private boolean rings;

        private Builder() {
        }

        public Builder pid(long pid) {
            if (pid > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("pid out of range: " + pid);
            }
            this.pid = (int) pid;
            return this;
        }

        public Builder uid(int uid) {
            this.uid = uid;
            return this;
        }

        public Builder packageName(String packageName) {
            this.packageName = packageName;
            return this;
        }

        public Builder versionCode(long versionCode) {
            this.versionCode = versionCode;
            return this;
        }

        public Builder registrationId(String registrationId) {
            this.registrationId = registrationId;
            return this;
        }

        public Builder statsStartMillis(long statsStartMillis) {
            this.statsStartMillis = statsStartMillis;
            return this;
        }

        public Builder pipeline(Pipeline pipeline) {
            this.pipeline = pipeline;
            return this;
        }

        public Builder stripeCount(int stripeCount) {
            this.stripeCount = stripeCount;
            return this;
        }

        public Builder predecessorId(String predecessorId) {
            this.predecessorId = predecessorId == null ? "" : predecessorId;
            return this;
        }

        /** A version 1 file (no groups): only to test that readers keep accepting it. */
        public Builder layoutVersion1() {
            this.layoutVersion = BufferDescriptor.LAYOUT_VERSION_1;
            this.groups = List.of();
            return this;
        }

        /** The counter groups of a version 2 file, in file order. */
        public Builder groups(List<CounterGroup> groups) {
            this.groups = groups;
            return this;
        }

        /** With the ring group (a client that asked for {@code native_rings}). */
        public Builder rings(boolean rings) {
            this.rings = rings;
            return this;
        }

        public BufferSpec build() {
            return new BufferSpec(pid, uid, packageName, versionCode, registrationId, statsStartMillis, pipeline,
                    stripeCount, predecessorId, layoutVersion, groups, rings);
        }
    }
}
