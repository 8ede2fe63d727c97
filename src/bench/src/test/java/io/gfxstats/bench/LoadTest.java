package io.gfxstats.bench;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * {@code scripts/bench load}: a bounded load test on one machine, Unix socket only. A real
 * gfxstatsd process (as {@code scripts/gfxstatsd} starts it, default heap) serves
 * {@code --sessions} simulated rendering processes ({@link LoadClient}: threads in a few JVMs,
 * each session its own registration and buffer) recording at {@code --fps} frames per second,
 * while this driver dumps {@code --dump-rate} times per second for {@code --duration}, with the
 * same RPC as {@code gfxstats dump} (text, and every tenth dump proto). The daemon also flushes
 * every {@code --flush}, so saves happen under the load. A quiet phase of {@code --quiet} before
 * and after the dumps is the peer for the clients' per-frame cost.
 *
 * <p>Pass: no error anywhere (clients, dumps, daemon log), totals never decrease between
 * successive proto dumps, and after every client exited the dump holds exactly the frames the
 * clients say they recorded, package by package. Exit status 0 on pass, 1 on failure, 2 on bad
 * options.
 */
public final class LoadTest {
    record Options(Duration duration, Duration quiet, Duration warmup, int sessions, int jvms, int threadsPerJvm,
                   int fps, int dumpRate, Duration flush, Path doc) {
        int packages() {
            return Math.max(1, sessions / 2);
        }

        static Options parse(String... args) {
            Duration duration = Duration.ofSeconds(120);
            Duration quiet = Duration.ofSeconds(15);
            Duration warmup = Duration.ofSeconds(3);
            int sessions = 200;
            int jvms = 4;
            int threads = 2;
            int fps = 120;
            int dumpRate = 10;
            Duration flush = Duration.ofSeconds(30);
            Path doc = Path.of("docs/benchmarks.md");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--duration" -> duration = seconds(v);
                    case "--quiet" -> quiet = seconds(v);
                    case "--warmup" -> warmup = seconds(v);
                    case "--sessions" -> sessions = positive(a, v);
                    case "--jvms" -> jvms = positive(a, v);
                    case "--threads" -> threads = positive(a, v);
                    case "--fps" -> fps = positive(a, v);
                    case "--dump-rate" -> dumpRate = positive(a, v);
                    case "--flush" -> flush = seconds(v);
                    case "--doc" -> doc = v.equals("-") ? null : Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (duration.isZero() || duration.isNegative()) {
                throw new IllegalArgumentException("--duration must be positive");
            }
            jvms = Math.min(jvms, sessions);
            return new Options(duration, quiet, warmup, sessions, jvms, threads, fps, dumpRate, flush, doc);
        }

        /** "120", "120s", "500ms", "2m". */
        private static Duration seconds(String v) {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (v.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(v.endsWith("s") ? v.substring(0, v.length() - 1) : v));
        }

        private static int positive(String name, String v) {
            int n = Integer.parseInt(v);
            if (n < 1) {
                throw new IllegalArgumentException(name + " must be >= 1");
            }
            return n;
        }
    }

    /** Everything measured; {@link #passed()} is the verdict. */
    record Result(Options options, double loadAverage, long framesRecorded, long framesDumped,
                  Map<String, long[]> mismatches, int dumps, int dumpErrors, List<String> errors,
                  Histogram dumpLatency, Histogram textLatency, Map<String, Cost> costs, double ratePerSession,
                  int daemonExit, List<String> daemonProblems, double daemonCpuPercent, long daemonRssKib,
                  String heap) {
        boolean passed() {
            return mismatches.isEmpty() && dumpErrors == 0 && errors.isEmpty() && daemonProblems.isEmpty()
                    && ExternalDaemon.cleanExit(daemonExit) && framesRecorded == framesDumped && framesRecorded > 0;
        }
    }

    /** Per-frame client cost in one phase: mean over all frames, and the histogram of per-batch means. */
    record Cost(long frames, long nanos, Histogram perBatch) {
        double meanNanos() {
            return frames == 0 ? Double.NaN : (double) nanos / frames;
        }
    }

    private LoadTest() {
    }

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench load: " + e.getMessage());
            System.exit(2);
            return;
        }
        Result r = run(o);
        String md = markdown(r);
        System.out.print(md);
        if (o.doc() != null) {
            BenchDoc.update(o.doc(), BenchDoc.LOAD, md);
            System.out.println("wrote " + o.doc());
        }
        System.out.println(r.passed() ? "PASS" : "FAIL");
        System.exit(r.passed() ? 0 : 1);
    }

    static Result run(Options o) throws Exception {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "gfxload");
        List<Client> clients = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        String heap = ExternalDaemon.configuredHeap();
        try (ExternalDaemon daemon = ExternalDaemon.start(work.resolve("state"), heap,
                "flush.interval=" + o.flush().toMillis() + "ms", "buffers.max=" + Math.max(1024, o.sessions() + 16),
                "buffers.max.per.pid=" + Math.max(1024, o.sessions() + 16),
                "buffers.max.per.uid=" + Math.max(1024, o.sessions() + 16))) {
            int per = (o.sessions() + o.jvms() - 1) / o.jvms();
            for (int first = 0; first < o.sessions(); first += per) {
                int n = Math.min(per, o.sessions() - first);
                clients.add(Client.start(daemon.socket(), first, n, o, work.resolve("client-" + first + ".log")));
            }
            for (Client c : clients) {
                c.await("ready", Duration.ofSeconds(180));
            }
            Progress.line("load: " + o.sessions() + " sessions attached in " + clients.size() + " JVMs");
            for (Client c : clients) {
                c.send("go");
            }
            Thread.sleep(o.warmup().toMillis()); // JIT warm-up of the recording path, not measured
            phase(clients, "quiet");
            Thread.sleep(o.quiet().toMillis());
            phase(clients, "dumping");
            long cpu0 = daemon.cpuMillis();
            long t0 = System.nanoTime();
            Dumper dumper = new Dumper(daemon.socket(), o.dumpRate());
            dumper.runFor(o.duration());
            double daemonCpu = 100.0 * (daemon.cpuMillis() - cpu0) / ((System.nanoTime() - t0) / 1e6);
            phase(clients, "quiet");
            Thread.sleep(o.quiet().toMillis());
            for (Client c : clients) {
                c.send("stop");
            }
            Map<String, Long> recorded = new TreeMap<>();
            Map<String, Cost> costs = new TreeMap<>();
            double rate = 0;
            for (Client c : clients) {
                c.finish(Duration.ofSeconds(120), recorded, costs, errors);
                rate += c.rate * c.sessions;
            }
            rate /= o.sessions();
            daemon.awaitNoLiveBuffers(Duration.ofSeconds(60));
            Map<String, Long> dumped = totals(dumpProto(daemon.socket()));
            long rss = daemon.rssKib();
            int exit = daemon.stop();

            Map<String, long[]> mismatches = new TreeMap<>();
            for (String pkg : union(recorded, dumped)) {
                long r = recorded.getOrDefault(pkg, 0L);
                long d = dumped.getOrDefault(pkg, 0L);
                if (r != d) {
                    mismatches.put(pkg, new long[] {r, d});
                }
            }
            errors.addAll(dumper.errors);
            return new Result(o, load, recorded.values().stream().mapToLong(Long::longValue).sum(),
                    dumped.values().stream().mapToLong(Long::longValue).sum(), mismatches, dumper.dumps,
                    dumper.errorCount, errors, dumper.all, dumper.text, costs, rate, exit, daemon.problems(),
                    daemonCpu, rss, heap);
        } finally {
            for (Client c : clients) {
                c.close();
            }
            DayFileSet.deleteTree(work);
        }
    }

    private static List<String> union(Map<String, Long> a, Map<String, Long> b) {
        TreeMap<String, Long> all = new TreeMap<>(a);
        all.putAll(b);
        return new ArrayList<>(all.keySet());
    }

    private static void phase(List<Client> clients, String name) throws IOException {
        for (Client c : clients) {
            c.send("phase " + name);
        }
    }

    static GraphicsStatsServiceDumpProto dumpProto(Path socket) throws Exception {
        try (GfxStatsClient c = GfxStatsClient.unix(socket)) {
            return GraphicsStatsServiceDumpProto.parseFrom(c.dumpBytes(DumpRequest.newBuilder().setProto(true).build()));
        }
    }

    /** Total frames per package over every entry (every day and version). */
    static Map<String, Long> totals(GraphicsStatsServiceDumpProto dump) {
        Map<String, Long> t = new TreeMap<>();
        for (GraphicsStatsProto p : dump.getStatsList()) {
            t.merge(p.getPackageName(), (long) p.getSummary().getTotalFrames(), Long::sum);
        }
        return t;
    }

    /** Dumps at a fixed rate on one connection; latency is corrected for coordinated omission. */
    static final class Dumper {
        private final Path socket;
        private final long intervalNanos;
        final Histogram all = new Histogram(3_600_000_000_000L, 3);
        final Histogram text = new Histogram(3_600_000_000_000L, 3);
        final List<String> errors = new ArrayList<>();
        int dumps;
        int errorCount;
        private Map<String, Long> lastTotals = Map.of();

        Dumper(Path socket, int perSecond) {
            this.socket = socket;
            this.intervalNanos = 1_000_000_000L / perSecond;
        }

        void runFor(Duration duration) throws InterruptedException {
            DumpRequest textRequest = DumpRequest.getDefaultInstance();
            DumpRequest protoRequest = DumpRequest.newBuilder().setProto(true).build();
            try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
                long start = System.nanoTime();
                long end = start + duration.toNanos();
                long next = start;
                while (next < end) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    boolean proto = dumps % 10 == 9;
                    long t0 = System.nanoTime();
                    try {
                        if (proto) {
                            checkMonotonic(GraphicsStatsServiceDumpProto.parseFrom(client.dumpBytes(protoRequest)));
                        } else {
                            client.dump(textRequest, OutputStream.nullOutputStream());
                        }
                    } catch (Exception e) {
                        errorCount++;
                        if (errors.size() < 10) {
                            errors.add("dump " + dumps + ": " + e);
                        }
                    }
                    long latency = System.nanoTime() - t0;
                    all.recordValueWithExpectedInterval(latency, intervalNanos);
                    if (!proto) {
                        text.recordValueWithExpectedInterval(latency, intervalNanos);
                    }
                    dumps++;
                    next += intervalNanos;
                    if (System.nanoTime() > next + intervalNanos) {
                        next = System.nanoTime(); // late: the histogram already accounts for the missed starts
                    }
                }
            }
        }

        /** A package's total may only grow between dumps: a drop would mean a frame counted twice, then once. */
        private void checkMonotonic(GraphicsStatsServiceDumpProto dump) {
            Map<String, Long> now = totals(dump);
            for (Map.Entry<String, Long> e : lastTotals.entrySet()) {
                long later = now.getOrDefault(e.getKey(), 0L);
                if (later < e.getValue() && errors.size() < 10) {
                    errorCount++;
                    errors.add("total of " + e.getKey() + " went down from " + e.getValue() + " to " + later);
                }
            }
            lastTotals = now;
        }
    }

    /** One LoadClient JVM and its output. */
    static final class Client implements AutoCloseable {
        private final Process process;
        private final int sessions;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Path log;
        double rate;

        private Client(Process process, int sessions, Path log) {
            this.process = process;
            this.sessions = sessions;
            this.log = log;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException ignored) {
                    // the process is gone; finish() reports it
                } finally {
                    lines.add("<eof>");
                }
            }, "load-client-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Client start(Path socket, int first, int sessions, Options o, Path log) throws IOException {
            List<String> cmd = JavaProcess.command(List.of("-Xmx256m"), LoadClient.class, socket.toString(),
                    Integer.toString(first), Integer.toString(sessions), Integer.toString(o.packages()),
                    Integer.toString(o.fps()), Integer.toString(o.threadsPerJvm()));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            return new Client(p, sessions, log);
        }

        void send(String line) throws IOException {
            process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        }

        void await(String expected, Duration timeout) throws InterruptedException, IOException {
            String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!expected.equals(line)) {
                throw new IllegalStateException("load client said " + line + " instead of " + expected + "; log:\n"
                        + logText());
            }
        }

        void finish(Duration timeout, Map<String, Long> recorded, Map<String, Cost> costs, List<String> errors)
                throws InterruptedException, IOException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null || line.equals("<eof>")) {
                    errors.add("load client ended without finishing: " + (line == null ? "timeout" : "eof") + "; log:\n"
                            + logText());
                    return;
                }
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "recorded" -> recorded.merge(f[1], Long.parseLong(f[2]), Long::sum);
                    case "cost" -> costs.merge(f[1], new Cost(Long.parseLong(f[2]), Long.parseLong(f[3]), decode(f[4])),
                            (a, b) -> {
                                Histogram h = a.perBatch().copy();
                                h.add(b.perBatch());
                                return new Cost(a.frames() + b.frames(), a.nanos() + b.nanos(), h);
                            });
                    case "rate" -> rate = Double.parseDouble(f[1]);
                    case "done" -> {
                        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                            errors.add("load client exited with " + (process.isAlive() ? "nothing (hung)"
                                    : process.exitValue()));
                        }
                        if (Files.exists(log) && Files.readString(log).contains("Exception")) {
                            errors.add("load client logged an exception:\n" + logText());
                        }
                        return;
                    }
                    default -> errors.add("load client: " + line);
                }
            }
        }

        private String logText() throws IOException {
            return Files.exists(log) ? Files.readString(log) : "";
        }

        private static Histogram decode(String base64) {
            try {
                return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
            } catch (java.util.zip.DataFormatException e) {
                throw new IllegalStateException("bad histogram from a load client", e);
            }
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.onExit().join();
            }
        }
    }

    static String markdown(Result r) {
        Options o = r.options();
        StringBuilder s = new StringBuilder();
        s.append("### Load test\n\n");
        s.append(String.format(Locale.ROOT, "Measured %s on %d CPUs (load average %.1f at start), by `scripts/bench "
                        + "load`. A gfxstatsd process (-Xmx%s, serial GC, flush every %d s) with %d simulated "
                        + "rendering processes (%d client JVMs, each session its own StatsSession, registration and "
                        + "buffer; %d packages, 2 processes each) recording at %d frames/s each; %d dumps per second "
                        + "for %d s through the Unix socket (the RPC of `gfxstats dump`: text, every tenth proto, "
                        + "which is checked to never go down); %d s of recording without dumps before and after.%n%n",
                LocalDate.ofInstant(Instant.now(), ZoneOffset.UTC), Runtime.getRuntime().availableProcessors(),
                r.loadAverage(), r.heap(), o.flush().toSeconds(), o.sessions(), o.jvms(), o.packages(), o.fps(),
                o.dumpRate(), o.duration().toSeconds(), o.quiet().toSeconds()));
        s.append("| result | frames recorded | frames in the final dump | packages off | dumps | dump errors "
                + "| other errors | daemon log warnings | achieved frames/s per session |\n");
        s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        s.append(String.format(Locale.ROOT, "| **%s** | %d | %d | %d | %d | %d | %d | %d | %.1f |%n%n",
                r.passed() ? "PASS" : "FAIL", r.framesRecorded(), r.framesDumped(), r.mismatches().size(), r.dumps(),
                r.dumpErrors(), r.errors().size(), r.daemonProblems().size(), r.ratePerSession()));
        s.append("Dump latency, client side, corrected for coordinated omission (HdrHistogram):\n\n");
        s.append("| dumps | p50 ms | p90 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|\n");
        for (Map.Entry<String, Histogram> e : Map.of("all", r.dumpLatency(), "text", r.textLatency()).entrySet()
                .stream().sorted(Map.Entry.comparingByKey()).toList()) {
            Histogram h = e.getValue();
            s.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f |%n", e.getKey(),
                    h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(90) / 1e6,
                    h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6));
        }
        s.append(String.format(Locale.ROOT, "%nDaemon during the dumps: %.0f %% of a CPU; RSS at the end %.1f MiB.%n%n",
                r.daemonCpuPercent(), r.daemonRssKib() / 1024.0));
        s.append("Client cost per frame (tracker + write into the mapped buffer), measured around each pacing tick's "
                + "batch and divided by its frames; *quiet* is the peer measured in the same run without dumps. "
                + "Each session records one frame every few milliseconds among many others, so its frame starts "
                + "from cold caches: hence far more than the back-to-back figure of the client benchmark.\n\n");
        s.append("| phase | frames | mean ns/frame | p50 ns | p99 ns | mean / quiet mean |\n|---|---:|---:|---:|---:|---:|\n");
        Cost quiet = r.costs().get("quiet");
        for (String phase : List.of("quiet", "dumping")) {
            Cost c = r.costs().get(phase);
            if (c == null) {
                continue;
            }
            s.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %d | %d | %.2f |%n", phase, c.frames(),
                    c.meanNanos(), c.perBatch().getValueAtPercentile(50), c.perBatch().getValueAtPercentile(99),
                    quiet == null ? Double.NaN : c.meanNanos() / quiet.meanNanos()));
        }
        s.append('\n');
        if (!r.mismatches().isEmpty()) {
            s.append("Packages whose dumped total differs from what was recorded (recorded, dumped):");
            r.mismatches().entrySet().stream().limit(20).forEach(e -> s.append(' ').append(e.getKey()).append(" (")
                    .append(e.getValue()[0]).append(", ").append(e.getValue()[1]).append(')'));
            s.append("\n\n");
        }
        List<String> problems = new ArrayList<>(r.errors());
        problems.addAll(r.daemonProblems());
        if (!ExternalDaemon.cleanExit(r.daemonExit())) {
            problems.add("daemon exit status " + r.daemonExit());
        }
        if (!problems.isEmpty()) {
            s.append("Problems:\n\n");
            problems.stream().limit(20).forEach(p -> s.append("- ").append(p.replace('\n', ' ')).append('\n'));
            s.append('\n');
        }
        return s.toString();
    }
}
