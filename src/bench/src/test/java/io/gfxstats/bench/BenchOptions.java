package io.gfxstats.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sizes of a {@link DaemonBench} run. Defaults are the full sizes; the JUnit smoke test
 * passes tiny ones.
 *
 * <pre>
 *   --live 10,100,1000        live buffer counts
 *   --files 0,300,3000        day files (spread over 3 days; multiples of 3)
 *   --warmups 3 --runs 9      dumps per point before and while measuring
 *   --min-measured-ms 500     small points repeat (up to 200 dumps) until they took this long
 *   --idle-ms 5000            how long the daemon's idle CPU use is watched
 *   --frames 200              frames counted into each live buffer at registration
 *   --save-repeats 3          flushes measured (each saves every live buffer)
 *   --memory-buffers 1000 --memory-files 3000 --memory-dumps 1000
 *   --memory-peer-heap 256m   the same measurement with this heap and a fifth of the dumps (- : skip)
 *   --fleet-daemons 50 --fleet-packages 100   (0 daemons: skip)
 *   --collect-command PATH    run the collector as PATH collect ... (scripts/gfxstats, with its
 *                             start-up flags and class-data archive); default: java on this
 *                             classpath with the same JVM flags
 *   --doc FILE | --doc -      where the table goes (- : print only)
 *   --work DIR                scratch directory (default: a new one under java.io.tmpdir)
 * </pre>
 */
record BenchOptions(List<Integer> liveSizes, List<Integer> fileSizes, int warmups, int runs, long minMeasuredMillis,
                    long idleMillis, int framesPerBuffer,
                    int saveRepeats, int memoryBuffers, int memoryFiles, int memoryDumps, String memoryPeerHeap,
                    int fleetDaemons,
                    int fleetPackages, String collectCommand, Path doc, Path workDir) {

    static BenchOptions parse(String... args) {
        List<Integer> live = List.of(10, 100, 1000);
        List<Integer> files = List.of(0, 300, 3000);
        int warmups = 3;
        int runs = 9;
        long minMeasured = 500;
        long idle = 5000;
        int frames = 200;
        int saveRepeats = 3;
        int memBuffers = 1000;
        int memFiles = 3000;
        int memDumps = 1000;
        String peerHeap = "256m";
        int fleetDaemons = 50;
        int fleetPackages = 100;
        Path doc = Path.of("docs/benchmarks.md");
        Path work = null;
        String collect = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--live" -> live = ints(v);
                case "--files" -> files = ints(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--runs" -> runs = Integer.parseInt(v);
                case "--min-measured-ms" -> minMeasured = Long.parseLong(v);
                case "--idle-ms" -> idle = Long.parseLong(v);
                case "--frames" -> frames = Integer.parseInt(v);
                case "--save-repeats" -> saveRepeats = Integer.parseInt(v);
                case "--memory-buffers" -> memBuffers = Integer.parseInt(v);
                case "--memory-files" -> memFiles = Integer.parseInt(v);
                case "--memory-dumps" -> memDumps = Integer.parseInt(v);
                case "--memory-peer-heap" -> peerHeap = v.equals("-") ? null : v;
                case "--fleet-daemons" -> fleetDaemons = Integer.parseInt(v);
                case "--fleet-packages" -> fleetPackages = Integer.parseInt(v);
                case "--doc" -> doc = v.equals("-") ? null : Path.of(v);
                case "--work" -> work = Path.of(v);
                case "--collect-command" -> collect = v;
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        for (int f : files) {
            if (f % DayFileSet.DAYS != 0) {
                throw new IllegalArgumentException("--files values must be multiples of 3: " + f);
            }
        }
        if (runs < 1 || warmups < 0 || saveRepeats < 1) {
            throw new IllegalArgumentException("--runs and --save-repeats must be >= 1, --warmups >= 0");
        }
        return new BenchOptions(sorted(live), sorted(files), warmups, runs, minMeasured, idle, frames, saveRepeats, memBuffers,
                memFiles, memDumps, peerHeap, fleetDaemons, fleetPackages, collect, doc, work);
    }

    int maxLive() {
        return liveSizes.get(liveSizes.size() - 1);
    }

    int maxFiles() {
        return fileSizes.get(fileSizes.size() - 1);
    }

    private static List<Integer> ints(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            int n = Integer.parseInt(s.trim());
            if (n < 0) {
                throw new IllegalArgumentException("sizes must not be negative: " + csv);
            }
            out.add(n);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no sizes in " + csv);
        }
        return out;
    }

    private static List<Integer> sorted(List<Integer> l) {
        Integer[] a = l.toArray(new Integer[0]);
        Arrays.sort(a);
        return List.of(a);
    }
}
