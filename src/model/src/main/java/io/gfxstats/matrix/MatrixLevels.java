package io.gfxstats.matrix;

/**
 * The four inclusive lower bounds of Matrix's levels in whole dropped frames (NORMAL, MIDDLE,
 * HIGH, FROZEN; below NORMAL is BEST). Matrix's defaults are 3/9/24/42, configurable there as
 * {@code clicfg_matrix_fps_dropped_*} and here as {@code matrix.levels}.
 */
public record MatrixLevels(int normal, int middle, int high, int frozen) {
    public static final MatrixLevels DEFAULT = new MatrixLevels(
            MatrixRule.DEFAULT_NORMAL, MatrixRule.DEFAULT_MIDDLE, MatrixRule.DEFAULT_HIGH, MatrixRule.DEFAULT_FROZEN);

    public MatrixLevels {
        if (normal < 1 || middle < normal || high < middle || frozen < high) {
            throw new IllegalArgumentException("matrix level bounds must satisfy 1 <= normal <= middle <= high <= frozen: "
                    + normal + "," + middle + "," + high + "," + frozen);
        }
    }

    /** Parses {@code normal,middle,high,frozen}, e.g. {@code 3,9,24,42}. */
    public static MatrixLevels parse(String text) {
        String[] parts = text.split(",", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("matrix level bounds must be four integers normal,middle,high,frozen: " + text);
        }
        int[] v = new int[4];
        for (int i = 0; i < 4; i++) {
            try {
                v[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("matrix level bound is not an integer: " + parts[i].trim());
            }
        }
        return new MatrixLevels(v[0], v[1], v[2], v[3]);
    }

    /** Level of whole dropped frames (Matrix's rule). */
    public int level(int dropped) {
        return MatrixRule.level(dropped, normal, middle, high, frozen);
    }

    /** Level under {@code mode}: {@link MatrixMode#TIME} scales the bounds by refresh / 60. */
    public int level(MatrixMode mode, int dropped, float refreshHz) {
        return mode == MatrixMode.TIME
                ? MatrixRule.timeLevel(dropped, refreshHz, normal, middle, high, frozen)
                : MatrixRule.level(dropped, normal, middle, high, frozen);
    }

    @Override
    public String toString() {
        return normal + "," + middle + "," + high + "," + frozen;
    }
}
