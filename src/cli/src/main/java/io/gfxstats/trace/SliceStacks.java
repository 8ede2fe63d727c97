package io.gfxstats.trace;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-thread B/E slice stacks and S/F async pairs (spec 5, step 3). Every slice gets an id, whether
 * or not frames use it, so that a frame's callstack id is the slice row trace_streamer would give it.
 * An E closes what its B opened: a remembered vsync slice ends its frame, an Android slice gets its end.
 */
final class SliceStacks {
    private static final byte[] H_PREFIX = MarkerLine.ascii("H:");
    private static final String FRAME_QUEUED = "H:M: Frame queued";
    private static final Pattern CHAIN = Pattern.compile("H:\\[[a-z0-9]+,[a-z0-9]+,[a-z0-9]+\\]#(.*)");

    private final OhosFrames ohos;
    private final Threads threads;
    private final Map<String, Long> openFrameQueued = new HashMap<>();
    private final Set<Long> frameQueuedIds = new HashSet<>();
    private long nextSliceId;

    SliceStacks(OhosFrames ohos, Threads threads) {
        this.ohos = ohos;
        this.threads = threads;
    }

    long nextId() {
        return nextSliceId++;
    }

    /** Opens slice {@code id} on {@code t}; {@code tag} is what its end must reach (or null). */
    void push(ThreadInfo t, long id, Object tag) {
        if (t.depth == t.stackIds.length) {
            t.stackIds = Arrays.copyOf(t.stackIds, t.depth * 2);
            t.stackTags = Arrays.copyOf(t.stackTags, t.depth * 2);
        }
        t.stackIds[t.depth] = id;
        t.stackTags[t.depth] = tag;
        t.depth++;
    }

    /** Marks slice {@code id} of {@code t} as a vsync slice whose end ends the thread's frame. */
    static void remember(ThreadInfo t, long id) {
        if (t.rememberedCount == t.remembered.length) {
            t.remembered = Arrays.copyOf(t.remembered, t.rememberedCount * 2);
        }
        t.remembered[t.rememberedCount++] = id;
    }

    /** An E: closes the innermost open slice of {@code t}; an E with nothing open is ignored. */
    void end(MarkerLine line, ThreadInfo t) {
        if (t.depth == 0) {
            return;
        }
        t.depth--;
        long id = t.stackIds[t.depth];
        Object tag = t.stackTags[t.depth];
        t.stackTags[t.depth] = null;
        for (int i = 0; i < t.rememberedCount; i++) {
            if (t.remembered[i] == id) {
                ohos.endVsync(line.ts(), t.itid);
                System.arraycopy(t.remembered, i + 1, t.remembered, i, t.rememberedCount - i - 1);
                t.rememberedCount--;
                break;
            }
        }
        t.closedSlice = true;
        if (tag instanceof AndroidFrames.Slice s) {
            s.end = line.ts();
        } else if (tag instanceof CallSlice s) {
            s.end = line.ts();
        }
    }

    /** An S: only {@code H:M: Frame queued} matters to frames (its pair bounds the GPU interval). */
    void asyncStart(MarkerLine line) {
        long id = nextId();
        String key = frameQueuedKey(line);
        if (key == null) {
            return;
        }
        if (openFrameQueued.containsKey(key)) {
            // A second S of the same process, name and cookie while the first is open: trace_streamer
            // drops it, so the GPU interval keeps the first start.
            return;
        }
        openFrameQueued.put(key, id);
        if (ohos.frameQueuedStart(line.ts(), threads.itidOrNone(line.pid()))) {
            frameQueuedIds.add(id);
        }
    }

    /** An F: finishes the S of the same process, name and cookie. */
    void asyncFinish(MarkerLine line) {
        String key = frameQueuedKey(line);
        if (key == null) {
            return;
        }
        Long id = openFrameQueued.remove(key);
        if (id != null && frameQueuedIds.remove(id)) {
            ohos.frameQueuedEnd(line.ts(), threads.itidOrNone(line.pid()));
        }
    }

    /** What pairs an S with its F, for {@code H:M: Frame queued} only (else null). */
    private static String frameQueuedKey(MarkerLine line) {
        if (!line.nameStartsWith(H_PREFIX)) {
            return null;
        }
        String name = asyncName(line);
        return name.equals(FRAME_QUEUED) ? asyncKey(line.pid(), name, line.value()) : null;
    }

    private static String asyncKey(int pid, String name, long cookie) {
        return pid + "|" + cookie + "|" + name;
    }

    /**
     * An S/F name as upstream reads it: a HiTraceChain prefix {@code H:[chain,span,parent]#} is removed
     * from async names (not from B names, whose frame events then go unrecognised).
     */
    private static String asyncName(MarkerLine line) {
        String name = line.name();
        if (name.startsWith("H:[")) {
            Matcher m = CHAIN.matcher(name);
            if (m.matches()) {
                return "H:" + m.group(1);
            }
        }
        return name;
    }
}
