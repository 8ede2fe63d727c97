package io.gfxstats.collect;

import com.google.gson.stream.JsonWriter;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The files of one collection in its output directory, each replaced atomically (a reader sees
 * the old or the new file, never half of one):
 *
 * <ul>
 *   <li>{@value #MERGED}: the merged GraphicsStatsServiceDumpProto (what {@code dumpsys graphicsstats
 *       --proto} would print for the whole fleet). Left untouched when no target succeeded, so a
 *       failed run never replaces good data with nothing.</li>
 *   <li>{@value #STATUS_TSV}: one line per target: target, ok|failed, entries, attempts, ms, error.</li>
 *   <li>{@value #STATUS_JSON}: the same and the run's totals, for programs.</li>
 * </ul>
 */
public final class CollectOutput {
    public static final String MERGED = "merged.pb";
    public static final String STATUS_TSV = "status.tsv";
    public static final String STATUS_JSON = "status.json";
    /** The fleet's scenes (ScenesResponse, canonical JSON), written when any target counted scenes. */
    public static final String SCENES_JSON = "scenes.json";

    private CollectOutput() {
    }

    /** Writes the files; creates {@code dir} if needed. */
    public static void write(Path dir, Collector.Result result) throws IOException {
        Files.createDirectories(dir);
        if (result.succeeded() > 0) {
            writeAtomically(dir.resolve(MERGED), result.merged().toByteArray());
            if (result.scenes().getEntriesCount() > 0) {
                writeAtomically(dir.resolve(SCENES_JSON), (JsonFormat.printer()
                        .alwaysPrintFieldsWithNoPresence().print(result.scenes()) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        writeAtomically(dir.resolve(STATUS_TSV), tsv(result).getBytes(StandardCharsets.UTF_8));
        writeAtomically(dir.resolve(STATUS_JSON), json(result).getBytes(StandardCharsets.UTF_8));
    }

    static String tsv(Collector.Result result) {
        StringBuilder sb = new StringBuilder("target\tstatus\tentries\tattempts\tms\terror\n");
        for (TargetResult t : result.targets()) {
            sb.append(oneField(t.target().toString())).append('\t')
                    .append(t.ok() ? "ok" : "failed").append('\t')
                    .append(t.entries()).append('\t')
                    .append(t.attempts()).append('\t')
                    .append(t.millis()).append('\t')
                    .append(t.error() == null ? "" : oneField(t.error())).append('\n');
        }
        return sb.toString();
    }

    /** The status as JSON, written by Gson (escaping, numbers), indented for people who open the file. */
    static String json(Collector.Result result) {
        StringWriter text = new StringWriter();
        try (JsonWriter w = new JsonWriter(text)) {
            w.setIndent("  ");
            w.beginObject();
            w.name("targetsTotal").value(result.targets().size());
            w.name("targetsOk").value(result.succeeded());
            w.name("entriesMerged").value(result.entriesMerged());
            w.name("mergedEntries").value(result.merged().getStatsCount());
            w.name("mergedWritten").value(result.succeeded() > 0);
            array(w.name("saturated"), result.saturated());
            w.name("targets").beginArray();
            for (TargetResult t : result.targets()) {
                w.beginObject();
                w.name("target").value(t.target().toString());
                w.name("status").value(t.ok() ? "ok" : "failed");
                w.name("entries").value(t.entries());
                w.name("attempts").value(t.attempts());
                w.name("ms").value(t.millis());
                w.name("error");
                if (t.error() == null) {
                    w.nullValue();
                } else {
                    w.value(t.error());
                }
                array(w.name("rejected"), t.rejected());
                w.endObject();
            }
            w.endArray();
            w.endObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string", e);
        }
        return text.append('\n').toString();
    }

    private static void array(JsonWriter w, List<String> items) throws IOException {
        w.beginArray();
        for (String item : items) {
            w.value(item);
        }
        w.endArray();
    }

    /** TSV has no quoting: tabs and line breaks inside a field become spaces. */
    private static String oneField(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    /** Temp file in the same directory, fsync, rename over the old file, fsync the directory. */
    static void writeAtomically(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        // Not Files.createTempFile: its mode is 0600; these files get the umask's mode like any other output.
        Path tmp = dir.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
                    OutputStream out = Channels.newOutputStream(ch)) {
                out.write(content);
                out.flush();
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // Not every file system lets a directory be synced; the rename itself is still atomic.
        }
    }
}
