package io.gfxstats.bench;

/** Progress lines on stderr, so stdout carries only the results. */
final class Progress {
    private Progress() {
    }

    static void line(Object what) {
        System.err.println("bench: " + what);
        System.err.flush();
    }
}
