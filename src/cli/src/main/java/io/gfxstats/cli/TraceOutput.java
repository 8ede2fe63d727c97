package io.gfxstats.cli;

import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.trace.Trace;
import io.gfxstats.trace.TraceFrames;
import io.gfxstats.trace.output.CsvWriter;
import io.gfxstats.trace.output.FrameInfoMapping;
import io.gfxstats.trace.output.JsonWriter;
import io.gfxstats.trace.output.SqliteWriter;
import io.gfxstats.trace.output.SummaryWriter;
import io.gfxstats.trace.output.TraceReport;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes what {@code gfxstats trace} found in the format asked for, to {@code --out} or stdout. The
 * Android formats (dumpsys, proto) get the clock offset on stderr, since their bytes cannot say it.
 */
final class TraceOutput {
    private TraceOutput() {
    }

    static void write(TraceOptions options, Trace trace, List<TraceFrames.ProcessFrames> selected, TraceReport report,
                      PrintStream out, PrintStream err) throws IOException, SQLException {
        Path outPath = options.outPath();
        long refresh = options.refresh();
        switch (options.format()) {
            case SQLITE -> SqliteWriter.write(trace, options.input(), outPath);
            case PROTO -> {
                err.println("gfxstats trace: clock offset " + trace.clockOffset());
                writeBytes(outPath, out, o -> new ProtoDumpWriter().write(dumpEntries(selected, refresh), o));
            }
            case DUMPSYS -> {
                err.println("gfxstats trace: clock offset " + trace.clockOffset());
                writeBytes(outPath, out, o -> new TextDumpWriter(DumpFormat.ANDROID14).write(dumpEntries(selected, refresh), o));
            }
            case CSV -> writeText(outPath, out, p -> CsvWriter.write(report, p));
            case JSON -> writeText(outPath, out, p -> JsonWriter.write(report, p));
            case SUMMARY -> writeText(outPath, out, p -> SummaryWriter.write(report, p));
        }
    }

    private static List<GraphicsStatsProto> dumpEntries(List<TraceFrames.ProcessFrames> selected, long refresh) {
        List<GraphicsStatsProto> entries = new ArrayList<>();
        for (TraceFrames.ProcessFrames pf : selected) {
            entries.add(FrameInfoMapping.toProto(pf, refresh));
        }
        return entries;
    }

    @FunctionalInterface
    private interface ByteBody {
        void write(OutputStream out) throws IOException;
    }

    @FunctionalInterface
    private interface TextBody {
        void write(PrintStream out) throws IOException;
    }

    private static void writeBytes(Path path, PrintStream stdout, ByteBody body) throws IOException {
        if (path == null) {
            OutputStream o = BinaryStdout.of(stdout);
            body.write(o);
            o.flush();
            return;
        }
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(path))) {
            body.write(o);
        }
    }

    private static void writeText(Path path, PrintStream stdout, TextBody body) throws IOException {
        if (path == null) {
            body.write(stdout);
            stdout.flush();
            return;
        }
        try (PrintStream p = new PrintStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16), false,
                StandardCharsets.UTF_8)) {
            body.write(p);
            if (p.checkError()) {
                throw new IOException("cannot write " + path);
            }
        }
    }
}
