package io.gfxstats.daemon.dump;

import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.DumpWriter;
import io.gfxstats.dump.FrameTimelineDumpWriter;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.PulledEntry;
import io.gfxstats.store.PackageNames;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes dumps and answers pulls from assembled entries (see {@link DumpAssembler}). */
public final class DumpService {
    private static final Logger log = LoggerFactory.getLogger(DumpService.class);

    private DumpService() {
    }

    public static DumpWriter writerFor(DumpRequest req) throws StatsException {
        if (req.getFrametimeline()) {
            return new FrameTimelineDumpWriter();
        }
        if (req.getProto()) {
            return ProtoDumpWriter.keeping(req.getKeepFrameTimeline(), req.getKeepRingDropped());
        }
        DumpFormat format = switch (req.getFormat()) {
            case DUMP_FORMAT_UNSPECIFIED, ANDROID14 -> DumpFormat.ANDROID14;
            case ANDROID11 -> DumpFormat.ANDROID11;
            case ANDROID9 -> DumpFormat.ANDROID9;
            case ANDROID8 -> DumpFormat.ANDROID8;
            case UNRECOGNIZED -> throw StatsException.invalidArgument("unknown dump format " + req.getFormatValue());
        };
        return new TextDumpWriter(format);
    }

    /** Checks a dump's package filter; an unknown package is NOT_FOUND, not an empty success. */
    public static void checkFilter(String packageName, List<GraphicsStatsProto> entries) throws StatsException {
        if (packageName.isEmpty()) {
            return;
        }
        if (!PackageNames.isValid(packageName)) {
            throw StatsException.invalidArgument(PackageNames.problem(packageName).orElse("invalid package name"));
        }
        if (entries.isEmpty()) {
            throw StatsException.notFound("no statistics for package " + packageName);
        }
    }

    public static void write(DumpWriter writer, List<GraphicsStatsProto> entries, OutputStream out) throws IOException {
        writer.write(entries, out);
    }

    /** Problems already logged: every dump meets the same entry again, one line each is enough. */
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    public static void logProblem(String problem) {
        if (LOGGED.size() < 1024 && LOGGED.add(problem)) {
            log.warn("dump: {} (logged once)", problem);
        }
    }

    public static PullResponse pullResponse(long dayStart, List<GraphicsStatsProto> entries) {
        PullResponse.Builder r = PullResponse.newBuilder().setDayStart(dayStart);
        GraphicsStatsServiceDumpProto.Builder stats = GraphicsStatsServiceDumpProto.newBuilder();
        for (GraphicsStatsProto p : entries) {
            if (p.getPackageName().isEmpty() || !p.hasSummary()) {
                continue;
            }
            stats.addStats(p);
            GraphicsStatsJankSummaryProto s = p.getSummary();
            PulledEntry.Builder e = PulledEntry.newBuilder()
                    .setPackageName(p.getPackageName()).setVersionCode(p.getVersionCode()).setUid(p.getUid())
                    .setStatsStart(p.getStatsStart()).setStatsEnd(p.getStatsEnd())
                    .setPipeline(p.getPipeline().getNumber())
                    .setTotalFrames(s.getTotalFrames())
                    .setJankyFrames(s.getJankyFrames())
                    .setMissedVsyncCount(s.getMissedVsyncCount())
                    .setHighInputLatencyCount(s.getHighInputLatencyCount())
                    .setSlowUiThreadCount(s.getSlowUiThreadCount())
                    .setSlowBitmapUploadCount(s.getSlowBitmapUploadCount())
                    .setSlowDrawCount(s.getSlowDrawCount())
                    .setMissedDeadlineCount(s.getMissedDeadlineCount());
            if (p.hasGfxstatsFrameTimeline()) {
                e.setFrameTimeline(p.getGfxstatsFrameTimeline());
            }
            for (GraphicsStatsHistogramBucketProto b : p.getHistogramList()) {
                e.addCpuBucketMillis(b.getRenderMillis()).addCpuBucketCounts(b.getFrameCount());
            }
            for (GraphicsStatsHistogramBucketProto b : p.getGpuHistogramList()) {
                e.addGpuBucketMillis(b.getRenderMillis()).addGpuBucketCounts(b.getFrameCount());
            }
            r.addEntries(e);
        }
        return r.setStats(stats).build();
    }
}
