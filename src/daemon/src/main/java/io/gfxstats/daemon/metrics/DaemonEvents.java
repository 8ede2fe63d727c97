package io.gfxstats.daemon.metrics;

/** What the daemon tells its health metrics; {@link #NONE} when the exposition is off. */
public interface DaemonEvents {
    DaemonEvents NONE = new DaemonEvents() {
        @Override
        public void saved(int files, long frames, int failures) {
        }

        @Override
        public void served(String call, long nanos) {
        }
    };

    /** A save (flush, exit, rotation or shutdown) wrote {@code files} day files holding {@code frames} new frames. */
    void saved(int files, long frames, int failures);

    /** A dump or pull was answered in {@code nanos}. */
    void served(String call, long nanos);
}
