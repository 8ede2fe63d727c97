package io.gfxstats.timeline.feed;

import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.Severity;

/**
 * The classification of one compositor frame as published in the ring: what a client's frame
 * presented at the same (output, MSC) needs to be classified in compositor mode. Mutable and
 * reusable ({@link DisplayOutcomes#find} fills it), so that reading allocates nothing; it also
 * remembers where its last output's entries were, so use one per reading thread.
 */
public final class DisplayOutcome {
    private static final PresentMetadata[] PRESENTS = PresentMetadata.values();
    private static final FinishMetadata[] FINISHES = FinishMetadata.values();
    private static final Severity[] SEVERITIES = Severity.values();
    private static final Prediction[] PREDICTIONS = Prediction.values();

    long output;
    long msc;
    long token;
    long actualPresent;
    long refreshPeriod;
    long renderPeriod;
    int jank;
    /** The bytes of present, finish, severity and prediction, as in the ring (little-endian). */
    int metadata;
    /** The reader's hint: the region where {@link #regionOutput}'s entries were last found. */
    int region = -1;
    long regionOutput;

    public long output() {
        return output;
    }

    public long msc() {
        return msc;
    }

    /** The compositor's frame token. */
    public long token() {
        return token;
    }

    /** The display frame's present as given (-1: its present fence never signalled). */
    public long actualPresent() {
        return actualPresent;
    }

    public long refreshPeriod() {
        return refreshPeriod;
    }

    public long renderPeriod() {
        return renderPeriod;
    }

    /** The display frame's jank bits ({@link JankType}). */
    public int jank() {
        return jank;
    }

    public PresentMetadata present() {
        return PRESENTS[metadata & 0xff];
    }

    public FinishMetadata finish() {
        return FINISHES[metadata >>> 8 & 0xff];
    }

    public Severity severity() {
        return SEVERITIES[metadata >>> 16 & 0xff];
    }

    public Prediction prediction() {
        return PREDICTIONS[metadata >>> 24];
    }

    @Override
    public String toString() {
        return "output " + output + " msc " + msc + " token " + token + " present " + actualPresent + " jank "
                + JankType.names(jank, ",") + " " + present() + " " + finish() + " " + severity();
    }
}
