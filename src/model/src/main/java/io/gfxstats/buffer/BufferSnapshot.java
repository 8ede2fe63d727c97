package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable copy of a buffer at one moment: header fields plus every counter, summed over
 * the stripes, in {@link Counters} order. Counters of groups that the buffer's layout version
 * does not have are zero.
 *
 * <p>Guarantees of a snapshot taken while writers run: each counter is at least its value in
 * any earlier snapshot of the same buffer, and the CPU histogram never holds more frames than
 * the total (a frame's total is published before its bucket).
 */
public final class BufferSnapshot {
    private final Path path;
    private final int layoutVersion;
    private final BufferState state;
    private final int pid;
    private final int uid;
    private final String packageName;
    private final long versionCode;
    private final String registrationId;
    private final String predecessorId;
    private final String successorId;
    private final long statsStartMillis;
    private final long heartbeatMillis;
    private final Pipeline pipeline;
    private final int stripeCount;
    private final int claimedStripes;
    private final long[] counters;
    private final String[] sceneNames;
    private final List<String> refusedNames;

    BufferSnapshot(BufferHeader header, BufferHeader.MutableFields fields, long[] counters, String[] sceneNames) {
        this(header, fields, counters, sceneNames, List.of());
    }

    BufferSnapshot(BufferHeader header, BufferHeader.MutableFields fields, long[] counters, String[] sceneNames,
                   List<String> refusedNames) {
        this.path = header.path;
        this.layoutVersion = header.layoutVersion;
        this.state = BufferState.fromWord(fields.state());
        this.pid = header.pid;
        this.uid = header.uid;
        this.packageName = header.packageName;
        this.versionCode = header.versionCode;
        this.registrationId = header.registrationId;
        this.predecessorId = header.predecessorId;
        this.successorId = fields.successorId();
        this.statsStartMillis = fields.statsStartMillis();
        this.heartbeatMillis = fields.heartbeatMillis();
        this.pipeline = header.pipeline;
        this.stripeCount = header.stripeCount;
        this.claimedStripes = fields.claimedStripes();
        this.counters = Objects.requireNonNull(counters);
        this.sceneNames = sceneNames;
        this.refusedNames = List.copyOf(refusedNames);
    }

    /**
     * The names the reader refused (against the library's rules: a client that writes its mapped
     * buffer itself is not bound by them), each as the slot and the name escaped for a terminal;
     * those slots read as unnamed, their counts stay.
     */
    public List<String> refusedNames() {
        return refusedNames;
    }

    public Path path() {
        return path;
    }

    public int layoutVersion() {
        return layoutVersion;
    }

    public BufferState state() {
        return state;
    }

    public int pid() {
        return pid;
    }

    public int uid() {
        return uid;
    }

    public String packageName() {
        return packageName;
    }

    public long versionCode() {
        return versionCode;
    }

    public String registrationId() {
        return registrationId;
    }

    /** Registration id of the buffer this one continues, or "" (see docs/buffer-format.md, "Handover"). */
    public String predecessorId() {
        return predecessorId;
    }

    /** Registration id of the buffer that continues this one when {@link #state()} is RETIRED, else "". */
    public String successorId() {
        return successorId;
    }

    /** Epoch ms from which the buffer counts; a client may lower it (never raise it) when it merges earlier counts. */
    public long statsStartMillis() {
        return statsStartMillis;
    }

    /** Epoch ms of the client's last heartbeat, 0 if it never beat. */
    public long heartbeatMillis() {
        return heartbeatMillis;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public int stripeCount() {
        return stripeCount;
    }

    /** Writer stripes currently claimed by a writer. */
    public int claimedStripes() {
        return claimedStripes;
    }

    /** One counter, {@link Counters} index. */
    public long counter(int counter) {
        return counters[counter];
    }

    /** A copy of the Android counters in {@link Counters} order. */
    public long[] counters() {
        return Arrays.copyOf(counters, Counters.COUNT);
    }

    /**
     * A copy of the whole counter vector ({@link CounterGroups}): the Android counters, then
     * every known group's elements, zero for groups this buffer lacks.
     */
    public long[] vector() {
        return counters.clone();
    }

    /** One entry of the counter vector. */
    public long element(int index) {
        return counters[index];
    }

    /** True if the buffer has the scene group (layout 2 files made by this release). */
    public boolean hasScenes() {
        return sceneNames != null;
    }

    /**
     * The name of a scene slot, "" for a slot not named yet (or a buffer without scenes).
     * Slot {@link SceneGroup#OTHER_SLOT} is "(other)" once named.
     */
    public String sceneName(int slot) {
        return sceneNames == null ? "" : sceneNames[slot];
    }

    public long totalFrames() {
        return counters[Counters.TOTAL_FRAMES];
    }

    /** The counts as a ProfileData with this buffer's stats start and pipeline. */
    public ProfileData toProfileData() {
        ProfileData data = new ProfileData(statsStartMillis, pipeline);
        data.addAll(counters());
        return data;
    }

    @Override
    public String toString() {
        return "BufferSnapshot{" + packageName + "/" + versionCode + " id=" + registrationId + " pid=" + pid
                + " state=" + state + " total=" + totalFrames() + "}";
    }
}
