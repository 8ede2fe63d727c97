package io.gfxstats.daemon;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.slf4j.LoggerFactory;

/**
 * What gRPC, Netty, the Prometheus exporter and the JDK's HTTP server log (java.util.logging) as the daemon's one-line log: no stack traces and
 * at most one line per kind of message every {@value #GAP_SECONDS} s, with the number left out.
 * Their records are nearly all about a peer (a reset stream, an oversized frame, a connection
 * closed mid-write), which any peer can cause as often as it likes; by default each came with a
 * 20-40 line stack trace on stderr.
 */
final class TransportLogs extends Handler {
    private static final long GAP_SECONDS = 10;
    private static final String[] ROOTS = {"io.grpc", "io.netty", "io.prometheus", "com.sun.net.httpserver"};

    private final Map<String, long[]> byKind = new HashMap<>(); // kind -> {last nanos, suppressed}

    private TransportLogs() {
    }

    /** Replaces the console output of those loggers; info and below are dropped. */
    static void install() {
        TransportLogs handler = new TransportLogs();
        handler.setLevel(Level.WARNING);
        for (String root : ROOTS) {
            Logger logger = Logger.getLogger(root);
            logger.setUseParentHandlers(false);
            logger.addHandler(handler);
            KEEP.put(root, logger); // JUL holds loggers weakly: the settings would be lost with them
        }
    }

    private static final Map<String, Logger> KEEP = new HashMap<>();

    @Override
    public void publish(LogRecord record) {
        if (!isLoggable(record)) {
            return;
        }
        String message = record.getMessage() == null ? "" : record.getMessage();
        Throwable t = record.getThrown();
        String text = message + (t == null ? "" : " (" + t.getClass().getSimpleName() + ")");
        String kind = record.getLoggerName() + ": " + text;
        long now = System.nanoTime();
        long suppressed;
        synchronized (byKind) {
            long[] last = byKind.get(kind);
            if (last != null && now - last[0] < GAP_SECONDS * 1_000_000_000L) {
                last[1]++;
                return;
            }
            suppressed = last == null ? 0 : last[1];
            byKind.put(kind, new long[] {now, 0});
            if (byKind.size() > 1000) {
                byKind.clear(); // kinds are few; a flood of distinct ones must not grow this
            }
        }
        String line = text + (t == null || t.getMessage() == null ? "" : ": " + oneLine(t.getMessage()))
                + (suppressed > 0 ? " (" + suppressed + " more like it in the last " + GAP_SECONDS + " s)" : "");
        org.slf4j.Logger out = LoggerFactory.getLogger(shortName(record.getLoggerName()));
        if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
            out.error("{}", line);
        } else {
            out.warn("{}", line);
        }
    }

    private static String oneLine(String s) {
        String flat = s.replaceAll("\\p{Cntrl}", " ");
        return flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }

    private static String shortName(String logger) {
        return logger == null ? "transport" : logger.substring(logger.lastIndexOf('.') + 1);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
