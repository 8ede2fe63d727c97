package io.gfxstats.matrix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The device keys a Matrix report starts with ({@code DeviceUtil.getDeviceInfo}): {@code machine}
 * (a RAM class), {@code cpu_app} (the process's CPU share), {@code mem} (total RAM, bytes) and
 * {@code mem_free} (available RAM, KiB).
 */
public record MatrixDevice(String machine, double cpuApp, long memBytes, long memFreeKib) {
    /** What Matrix prints when it cannot tell: an offline capture carries none of it. */
    public static final MatrixDevice UNKNOWN = new MatrixDevice("UN_KNOW", 0, 0, 0);

    private static final long GIB = 1L << 30;

    public MatrixDevice {
        if (machine == null || machine.isEmpty()) {
            throw new IllegalArgumentException("machine must be named");
        }
    }

    /**
     * Matrix's RAM classes: BEST from 8 GiB, HIGH from 6, MIDDLE from 4, from 2 GiB MIDDLE with
     * at least 4 cores else LOW, below 2 GiB BAD; UN_KNOW without a total.
     */
    public static String machineClass(long memBytes, int cores) {
        if (memBytes <= 0) {
            return "UN_KNOW";
        }
        if (memBytes >= 8 * GIB) {
            return "BEST";
        }
        if (memBytes >= 6 * GIB) {
            return "HIGH";
        }
        if (memBytes >= 4 * GIB) {
            return "MIDDLE";
        }
        if (memBytes >= 2 * GIB) {
            return cores >= 4 ? "MIDDLE" : "LOW";
        }
        return "BAD";
    }

    /** This machine, from {@code /proc/meminfo} (MemTotal, MemAvailable); UNKNOWN if unreadable. */
    public static MatrixDevice ofThisMachine(double cpuApp) {
        return ofMeminfo(Path.of("/proc/meminfo"), Runtime.getRuntime().availableProcessors(), cpuApp);
    }

    static MatrixDevice ofMeminfo(Path meminfo, int cores, double cpuApp) {
        long totalKib = -1;
        long availableKib = -1;
        try {
            List<String> lines = Files.readAllLines(meminfo);
            for (String line : lines) {
                if (line.startsWith("MemTotal:")) {
                    totalKib = kib(line);
                } else if (line.startsWith("MemAvailable:")) {
                    availableKib = kib(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
        if (totalKib <= 0) {
            return UNKNOWN;
        }
        long mem = totalKib * 1024;
        return new MatrixDevice(machineClass(mem, cores), cpuApp, mem, Math.max(availableKib, 0));
    }

    private static long kib(String line) {
        String[] parts = line.trim().split("\\s+");
        return Long.parseLong(parts[1]);
    }
}
