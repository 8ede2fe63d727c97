package io.gfxstats.cli;

import io.gfxstats.args.UsageException;
import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.dumpclient.DumpQuery;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code gfxstats dump --from FILE}: a GraphicsStatsServiceDumpProto on disk (collect's
 * {@code merged.pb}, a saved {@code dump --proto}) printed by the same writers as the daemon's
 * dump, so a fleet's merge reads as {@code dumpsys graphicsstats} without protoc.
 */
final class DumpFromFile {
    private DumpFromFile() {
    }

    static int run(Path file, DumpQuery query, OutputStream stdout, PrintStream err) throws UsageException {
        GraphicsStatsServiceDumpProto dump;
        try (InputStream in = Files.newInputStream(file)) {
            dump = GraphicsStatsServiceDumpProto.parseFrom(in);
        } catch (NoSuchFileException e) {
            throw new UsageException("no such file: " + file, e);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + " as a GraphicsStatsServiceDumpProto: " + e.getMessage(), e);
        }
        List<GraphicsStatsProto> entries = dump.getStatsList().stream()
                .filter(p -> query.packageName().isEmpty() || p.getPackageName().equals(query.packageName()))
                .toList();
        try {
            if (query.proto()) {
                new ProtoDumpWriter().write(entries, stdout);
            } else {
                new TextDumpWriter(query.format() != null ? query.format() : DumpFormat.ANDROID14)
                        .write(entries, stdout);
            }
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
        if (entries.isEmpty()) {
            err.println("gfxstats dump: " + file + " holds no entry" + (query.packageName().isEmpty() ? ""
                    : " of " + query.packageName()));
        }
        return 0;
    }
}
