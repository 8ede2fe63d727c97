package io.gfxstats.buffer;

import io.gfxstats.stats.Pipeline;

import java.nio.charset.StandardCharsets;
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
 */
public record BufferSpec(int pid,
                         int uid,
                         String packageName,
                         long versionCode,
                         String registrationId,
                         long statsStartMillis,
                         Pipeline pipeline,
                         int stripeCount,
                         String predecessorId) {

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
        return BufferDescriptor.totalLength(BufferDescriptor.CURRENT_LAYOUT_VERSION, stripeCount);
    }

    static void requirePackageName(String packageName) {
        Objects.requireNonNull(packageName, "packageName");
        int bytes = packageName.getBytes(StandardCharsets.UTF_8).length;
        if (bytes == 0 || bytes > BufferDescriptor.PACKAGE_NAME_MAX_BYTES) {
            throw new IllegalArgumentException("package name must be 1.." + BufferDescriptor.PACKAGE_NAME_MAX_BYTES
                    + " UTF-8 bytes, got " + bytes);
        }
        for (int i = 0; i < packageName.length(); i++) {
            if (Character.isISOControl(packageName.charAt(i))) {
                throw new IllegalArgumentException("package name contains a control character: " + packageName);
            }
        }
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

    /** Builder with defaults: pipeline UNKNOWN, {@link BufferDescriptor#DEFAULT_STRIPES} stripes, no predecessor. */
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

        public BufferSpec build() {
            return new BufferSpec(pid, uid, packageName, versionCode, registrationId, statsStartMillis, pipeline,
                    stripeCount, predecessorId);
        }
    }
}
