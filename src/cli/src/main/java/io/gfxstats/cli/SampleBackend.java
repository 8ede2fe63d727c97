package io.gfxstats.cli;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.daemon.rpc.Registration;
import io.gfxstats.daemon.rpc.StatsBackend;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixed, made-up statistics of a few packages served through the real dump writers: the
 * workload of the class-data-sharing training run and of the start-up benchmark while no daemon
 * is at hand. It is not a daemon: nothing is counted, registrations are refused.
 */
public final class SampleBackend implements StatsBackend {
    private final List<GraphicsStatsProto> entries;
    private final long dayStart;

    public SampleBackend(int packages, long nowMillis) {
        this.dayStart = Days.dayStart(nowMillis);
        List<GraphicsStatsProto> list = new ArrayList<>();
        for (int i = 0; i < packages; i++) {
            list.add(sample("com.example.sample" + i, 100 + i, 10_000 + i, dayStart + 3_600_000L * (i % 20), i));
        }
        this.entries = List.copyOf(list);
    }

    private static GraphicsStatsProto sample(String pkg, long version, int uid, long start, int seed) {
        ProfileData d = new ProfileData(start, seed % 2 == 0 ? Pipeline.GL : Pipeline.VULKAN);
        long total = 0;
        for (int b = 0; b < Histograms.CPU_BUCKETS; b++) {
            long n = b < 20 ? 50L + (b * 37L + seed * 11L) % 400 : (b * 7L + seed) % 3;
            d.add(Counters.CPU_BUCKET_BASE + b, n);
            total += n;
        }
        for (int b = 0; b < Histograms.GPU_BUCKETS; b++) {
            d.add(Counters.GPU_BUCKET_BASE + b, b < 10 ? 30L + (b * 13L + seed) % 90 : 1);
        }
        d.add(Counters.TOTAL_FRAMES, total);
        d.add(Counters.JANKY_FRAMES, total / 17);
        for (JankType t : JankType.values()) {
            d.add(t.counter(), total / (23 + t.ordinal()));
        }
        return StatsProtos.toProto(d, new StatsProtos.Source(pkg, version, uid, start, start + 600_000L));
    }

    List<GraphicsStatsProto> entries() {
        return entries;
    }

    @Override
    public Registration register(PeerIdentity peer, RegisterRequest request) throws StatsException {
        throw StatsException.permissionDenied("this is a sample server for benchmarks; it takes no registrations");
    }

    @Override
    public void dump(DumpRequest request, OutputStream sink) throws StatsException, IOException {
        List<GraphicsStatsProto> selected = entries;
        if (!request.getPackageName().isEmpty()) {
            selected = entries.stream().filter(e -> e.getPackageName().equals(request.getPackageName())).toList();
        }
        if (request.getProto()) {
            new ProtoDumpWriter().write(selected, sink);
        } else {
            new TextDumpWriter(format(request.getFormat())).write(selected, sink);
        }
    }

    private static DumpFormat format(io.gfxstats.rpc.v1.DumpFormat wire) throws StatsException {
        return switch (wire) {
            case ANDROID14, DUMP_FORMAT_UNSPECIFIED -> DumpFormat.ANDROID14;
            case ANDROID11 -> DumpFormat.ANDROID11;
            case ANDROID9 -> DumpFormat.ANDROID9;
            case ANDROID8 -> DumpFormat.ANDROID8;
            default -> throw StatsException.invalidArgument("unknown dump format " + wire);
        };
    }

    @Override
    public PullResponse pull(PullRequest request) {
        if (request.getLastFullDay()) {
            return PullResponse.newBuilder().setDayStart(Days.previousDayStart(dayStart)).build();
        }
        return PullResponse.newBuilder().setDayStart(dayStart)
                .setStats(GraphicsStatsServiceDumpProto.newBuilder().addAllStats(entries)).build();
    }

    @Override
    public HealthResponse health() {
        return HealthResponse.newBuilder().setVersion("sample").build();
    }
}
