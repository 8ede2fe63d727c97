package io.gfxstats.client;

/** The client's package-private benchmark hooks, for the benchmarks in io.gfxstats.bench. */
public final class BenchHooks {
    private BenchHooks() {
    }

    /** Ring size (a power of two) of the trackers {@code session} creates from now on. */
    public static void ringCapacity(StatsSession session, int frames) {
        session.ringCapacity(frames);
    }

    /** While paused, the session's drain thread counts nothing; {@link StatsSession#flush()} still does. */
    public static void pauseDrain(StatsSession session, boolean pause) {
        session.pauseDrain(pause);
    }

    /** The session's drain thread starts its next pass now, not at its period's end. */
    public static void wakeDrain(StatsSession session) {
        session.wakeDrain();
    }
}
