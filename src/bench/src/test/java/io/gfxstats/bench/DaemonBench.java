package io.gfxstats.bench;

import io.gfxstats.store.Days;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code scripts/bench daemon}: how the daemon's costs grow with live buffers and day files.
 * Prints a markdown report and writes it into the "Daemon scale" section of docs/benchmarks.md.
 * Every figure is paired with a peer measured in the same run (see {@link DumpScale},
 * {@link SaveCost}, {@link DaemonMemory}, {@link FleetPull}). Options: {@link BenchOptions}.
 */
public final class DaemonBench {
    private DaemonBench() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench daemon: " + e.getMessage());
            System.exit(2);
            return;
        }
        Report report = run(options);
        System.out.print(report.markdown());
        if (options.doc() != null) {
            BenchDoc.update(options.doc(), BenchDoc.DAEMON, report.markdown());
            System.out.println("wrote " + options.doc());
        }
        System.exit(0);
    }

    static Report run(BenchOptions o) throws Exception {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Path work = o.workDir() != null ? Files.createDirectories(o.workDir())
                : Files.createTempDirectory("gfxbench");
        try {
            long today = Days.dayStart(System.currentTimeMillis());
            Map<Integer, Path> templates = new LinkedHashMap<>();
            Set<Integer> sizes = new LinkedHashSet<>(o.fileSizes());
            if (o.memoryBuffers() > 0) {
                sizes.add(o.memoryFiles());
            }
            for (int files : sizes) {
                Path t = work.resolve("template-" + files);
                DayFileSet.write(t, files / DayFileSet.DAYS, today);
                templates.put(files, t);
                Progress.line("wrote " + files + " day files");
            }

            DumpScale dumps = new DumpScale(o);
            SaveCost.Result[] save = new SaveCost.Result[1];
            for (int files : o.fileSizes()) {
                boolean largest = files == o.maxFiles();
                dumps.run(work, templates.get(files), files, true, !largest ? null
                        : (daemon, live, dataDir) -> save[0] = SaveCost.measure(daemon, live, dataDir,
                                work.resolve("save-peer"), o.saveRepeats()));
                if (files > 0) {
                    dumps.run(work, templates.get(files), files, false, null);
                }
            }
            Progress.line("save: " + save[0]);
            DaemonMemory.Result memory = null;
            DaemonMemory.Result memoryPeer = null;
            if (o.memoryBuffers() > 0) {
                memory = DaemonMemory.measure(work, templates.get(o.memoryFiles()), o.memoryFiles(),
                        o.memoryBuffers(), o.memoryDumps(), o.framesPerBuffer(), ExternalDaemon.configuredHeap(),
                        o.idleMillis());
                Progress.line("memory: " + memory);
                if (o.memoryPeerHeap() != null) {
                    memoryPeer = DaemonMemory.measure(work, templates.get(o.memoryFiles()), o.memoryFiles(),
                            o.memoryBuffers(), Math.max(1, o.memoryDumps() / 5), o.framesPerBuffer(),
                            o.memoryPeerHeap(), o.idleMillis());
                    Progress.line("memory peer: " + memoryPeer);
                }
            }
            Optional<FleetPull.Result> fleet = Optional.empty();
            if (o.fleetDaemons() > 0) {
                fleet = FleetPull.measure(work, o.fleetDaemons(), o.fleetPackages(), today, o.collectCommand());
                Progress.line("fleet: " + fleet);
            }
            return new Report(o, load, dumps.points(), save[0], memory, memoryPeer, fleet);
        } finally {
            DayFileSet.deleteTree(work);
        }
    }

    record Report(BenchOptions options, double loadAverage, List<DumpScale.Point> points, SaveCost.Result save,
                  DaemonMemory.Result memory, DaemonMemory.Result memoryPeer, Optional<FleetPull.Result> fleet) {

        Optional<DumpScale.Point> point(boolean cached, int live, int files, DumpScale.Format f) {
            return points.stream().filter(p -> p.cached() == cached && p.live() == live && p.files() == files
                    && p.format() == f).findFirst();
        }

        /** Per-entry cost at the largest point over the middle point's (cached path). */
        double growth(DumpScale.Format f, boolean cpu) {
            List<Integer> live = options.liveSizes();
            List<Integer> files = options.fileSizes();
            DumpScale.Point mid = point(true, live.get(live.size() / 2), files.get(files.size() / 2), f).orElseThrow();
            DumpScale.Point max = point(true, options.maxLive(), options.maxFiles(), f).orElseThrow();
            return cpu ? max.cpuNsPerEntry() / mid.cpuNsPerEntry() : max.nsPerEntry() / mid.nsPerEntry();
        }

        String markdown() {
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "Measured %s on %d CPUs (load average %.1f at start), %s %s, by "
                            + "`scripts/bench daemon`.%n%n", LocalDate.ofInstant(Instant.now(), ZoneOffset.UTC),
                    Runtime.getRuntime().availableProcessors(), loadAverage, System.getProperty("java.vm.name"),
                    System.getProperty("java.version")));
            dumpTable(s);
            saveTable(s);
            memoryTable(s);
            fleetTable(s);
            return s.toString();
        }

        private void dumpTable(StringBuilder s) {
            s.append("### Dump cost against live buffers and day files\n\n");
            s.append("Server-side time of one dump, median of at least ").append(options.runs())
                    .append(" (more for small points, up to ").append(DumpScale.MAX_RUNS).append(", so that each "
                    + "point is measured over at least ").append(options.minMeasuredMillis())
                    .append(" ms) after ").append(options.warmups()).append(" warm-up dumps: the daemon's backend "
                    + "(`Daemon.backend().dump`) writing into a discarding sink. In-process daemon, live buffers "
                    + "registered over its Unix socket by the driver (one package each, frames counted into the "
                    + "mapped buffers), real day files spread over 3 days (today's share a package with the first "
                    + "live buffers). *wall* is elapsed time, *cpu* the dumping thread's CPU time (steady on a busy "
                    + "machine). *naive* is the peer: the same daemon with its day-file cache off, re-reading and "
                    + "re-parsing every file on every dump. The cache trusts its last look at the disk for 1 s unless the "
                    + "daemon itself changed files; *recheck* is a dump after that second (a directory walk and a "
                    + "stat of every file, nothing re-parsed). *socket* is a full round trip through the Unix socket "
                    + "(client-side, cache on).\n\n");
            s.append("| live | files | entries | text ms wall / cpu | text KiB | text ns/entry | proto ms wall / cpu "
                    + "| proto KiB | proto ns/entry | naive text ms wall / cpu | naive proto ms wall / cpu "
                    + "| recheck text ms wall / cpu | naive / cached (text cpu) | naive / recheck (text cpu) "
                    + "| socket text ms |\n");
            s.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (int files : options.fileSizes()) {
                for (int live : options.liveSizes()) {
                    DumpScale.Point t = point(true, live, files, DumpScale.Format.TEXT).orElseThrow();
                    DumpScale.Point p = point(true, live, files, DumpScale.Format.PROTO).orElseThrow();
                    Optional<DumpScale.Point> nt = point(false, live, files, DumpScale.Format.TEXT);
                    Optional<DumpScale.Point> np = point(false, live, files, DumpScale.Format.PROTO);
                    s.append(String.format(Locale.ROOT,
                            "| %d | %d | %d | %s | %.0f | %.0f | %s | %.0f | %.0f | %s | %s | %s | %s | %s "
                                    + "| %.1f |%n",
                            live, files, t.entries(), times(t), t.bytes() / 1024.0, t.nsPerEntry(), times(p),
                            p.bytes() / 1024.0, p.nsPerEntry(), nt.map(Report::times).orElse("="),
                            np.map(Report::times).orElse("="),
                            Double.isNaN(t.recheckMs()) ? "-" : String.format(Locale.ROOT, "%.1f / %.1f",
                                    t.recheckMs(), t.recheckCpuMs()),
                            nt.map(x -> String.format(Locale.ROOT, "%.1fx", x.cpuMs() / t.cpuMs())).orElse("="),
                            nt.filter(x -> !Double.isNaN(t.recheckCpuMs()))
                                    .map(x -> String.format(Locale.ROOT, "%.1fx", x.cpuMs() / t.recheckCpuMs()))
                                    .orElse(Double.isNaN(t.recheckCpuMs()) ? "-" : "="),
                            t.socketMs()));
                }
            }
            int midLive = options.liveSizes().get(options.liveSizes().size() / 2);
            int midFiles = options.fileSizes().get(options.fileSizes().size() / 2);
            s.append(String.format(Locale.ROOT, "%nLinear growth, ns per entry at %d live x %d files over %d live "
                            + "x %d files (goal <= 1.5): text **%.2f** wall, **%.2f** cpu; proto **%.2f** wall, "
                            + "**%.2f** cpu.%n",
                    options.maxLive(), options.maxFiles(), midLive, midFiles,
                    growth(DumpScale.Format.TEXT, false), growth(DumpScale.Format.TEXT, true),
                    growth(DumpScale.Format.PROTO, false), growth(DumpScale.Format.PROTO, true)));
            DumpScale.Point big = point(true, options.maxLive(), options.maxFiles(), DumpScale.Format.TEXT)
                    .orElseThrow();
            point(false, options.maxLive(), options.maxFiles(), DumpScale.Format.TEXT).ifPresent(n -> s.append(
                    String.format(Locale.ROOT, "Largest point (text): %.0f ms wall, %.0f ms cpu server-side (%.0f ms "
                                    + "wall when it re-checks the disk), %.0f ms through the socket; the naive peer "
                                    + "needs %.1fx the CPU time.%n",
                            big.serverMs(), big.cpuMs(), big.recheckMs(), big.socketMs(), n.cpuMs() / big.cpuMs())));
            s.append('\n');
        }

        private static String times(DumpScale.Point p) {
            return String.format(Locale.ROOT, "%.1f / %.1f", p.serverMs(), p.cpuMs());
        }

        private void saveTable(StringBuilder s) {
            if (save == null) {
                return;
            }
            s.append("### Harvest: one flush saving every live buffer\n\n");
            s.append("`Daemon.flush()` (the periodic flush: snapshot every buffer, read-merge-write each day file "
                    + "with temp file, fsync, rename, directory fsync), median of ").append(options.saveRepeats())
                    .append(", each after more frames were counted into every buffer. Peer: the same number of files "
                    + "of the same sizes written with the bare atomic recipe, same file system, same run.\n\n");
            s.append("| live buffers | files written | frames saved | bytes written | flush ms | bare atomic writes ms "
                    + "| flush / bare | flush with nothing new ms |\n");
            s.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            s.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %.0f | %.0f | %.2f | %.1f |%n%n",
                    save.buffers(), save.files(), save.frames(), save.bytesWritten(), save.flushMs(), save.peerMs(),
                    save.ratio(), save.idleFlushMs()));
        }

        private void memoryTable(StringBuilder s) {
            if (memory == null) {
                return;
            }
            DaemonMemory.Result m = memory;
            s.append("### Daemon resident memory\n\n");
            s.append(String.format(Locale.ROOT, "A gfxstatsd process started like `scripts/gfxstatsd` (serial GC, "
                    + "-Xmx from GFXSTATSD_HEAP, default %s), %d day files on disk, %d live buffers registered by the "
                    + "driver; VmRSS from /proc. The dumps alternate text and proto over the Unix socket (latency "
                    + "client-side). Live heap: heap in use after a full GC at the end (jcmd). The peer row is the "
                    + "same daemon with a larger heap, to show what the default heap costs.%n%n",
                    ExternalDaemon.DEFAULT_HEAP, m.files(), m.buffers()));
            s.append("| -Xmx | idle MiB | with buffers MiB | after 1/10 of the dumps MiB | after all dumps MiB "
                    + "| dumps | growth over the last 9/10 | live heap MiB | dump p50 ms | dump p99 ms "
                    + "| log warnings |\n");
            s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (DaemonMemory.Result r : memoryPeer == null ? List.of(m) : List.of(m, memoryPeer)) {
                s.append(String.format(Locale.ROOT,
                        "| %s | %.1f | %.1f | %.1f | %.1f | %d | %+.1f %% | %s | %.1f | %.1f | %d |%n",
                        r.heap(), r.idleKib() / 1024.0, r.withBuffersKib() / 1024.0, r.warmKib() / 1024.0,
                        r.afterDumpsKib() / 1024.0, r.dumps(), 100 * r.growth(),
                        r.liveHeapKib() < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", r.liveHeapKib() / 1024.0),
                        r.dumpP50Ms(), r.dumpP99Ms(), r.problems()));
            }
            s.append('\n');
            if (memoryPeer != null) {
                s.append(String.format(Locale.ROOT, "Dump p50 with -Xmx%s over -Xmx%s: **%.2f**.%n%n", m.heap(),
                        memoryPeer.heap(), m.dumpP50Ms() / memoryPeer.dumpP50Ms()));
            }
            s.append(String.format(Locale.ROOT, "CPU used by the daemon while nothing happens (%.0f s, no dumps, no "
                            + "new frames): %.2f %% of a CPU with no client, %.2f %% with %d live buffers.%n%n",
                    options.idleMillis() / 1000.0, m.idleCpuPercent(), m.buffersCpuPercent(), m.buffers()));
        }

        private void fleetTable(StringBuilder s) {
            if (options.fleetDaemons() <= 0) {
                return;
            }
            s.append("### Fleet pull\n\n");
            if (fleet.isEmpty()) {
                s.append("Not measured: `gfxstats collect` is not available in this build.\n\n");
                return;
            }
            FleetPull.Result f = fleet.get();
            s.append(f.describe()).append("\n\n");
            s.append("| daemons | packages each | entries | collect s | entries/s | one-daemon collect s "
                    + "| fleet / (daemons x one) |\n");
            s.append("|---:|---:|---:|---:|---:|---:|---:|\n");
            s.append(String.format(Locale.ROOT, "| %d | %d | %d | %.2f | %.0f | %.2f | %.3f |%n%n", f.daemons(),
                    f.packages(), f.entries(), f.seconds(), f.entries() / f.seconds(), f.singleSeconds(),
                    f.seconds() / (f.daemons() * f.singleSeconds())));
        }
    }
}
