package io.gfxstats.trace;

import java.util.Arrays;

/**
 * A growing table of two long columns: {@link FrameTable}'s side tables, frame_maps (source row,
 * destination row) and gpu_slice (frame row, GPU duration), kept apart from the frame rows.
 */
final class RowPairs {
    private long[] first = new long[16];
    private long[] second = new long[16];
    private int size;

    void append(long a, long b) {
        if (size == first.length) {
            first = Arrays.copyOf(first, size * 2);
            second = Arrays.copyOf(second, size * 2);
        }
        first[size] = a;
        second[size] = b;
        size++;
    }

    int size() {
        return size;
    }

    long first(int i) {
        return first[i];
    }

    long second(int i) {
        return second[i];
    }
}
