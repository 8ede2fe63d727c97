package io.gfxstats.cli;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;

/** GraphicsStatsProtos with full histograms for command and collector tests. */
public final class SampleProtos {
    private SampleProtos() {
    }

    /**
     * An entry whose {@code frames} frames all fall into the CPU bucket labelled {@code millis},
     * one janky frame in ten, and one of each jank type per hundred frames.
     */
    public static GraphicsStatsProto entry(String pkg, long version, int uid, long start, long end, int frames,
            int millis) {
        ProfileData d = new ProfileData(start, Pipeline.GL);
        int bucket = -1;
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            if (Histograms.cpuLabel(i) == millis) {
                bucket = i;
            }
        }
        if (bucket < 0) {
            throw new IllegalArgumentException("no CPU bucket is labelled " + millis + "ms");
        }
        d.add(Counters.CPU_BUCKET_BASE + bucket, frames);
        d.add(Counters.GPU_BUCKET_BASE + 3, frames);
        d.add(Counters.TOTAL_FRAMES, frames);
        d.add(Counters.JANKY_FRAMES, frames / 10);
        for (JankType t : JankType.values()) {
            d.add(t.counter(), frames / 100);
        }
        return StatsProtos.toProto(d, new StatsProtos.Source(pkg, version, uid, start, end));
    }
}
