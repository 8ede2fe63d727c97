package io.gfxstats.demo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How badly a synthetic app renders. Each profile sets how heavy an ordinary frame is and how
 * often a jank episode (one of {@link Episode}) hits; the cause of each episode is drawn from a
 * shuffled bag of all causes, so every cause shows up within a few gaps, whatever the seed.
 *
 * @param load           multiplies the work of ordinary frames (1.0: well within a 60 Hz frame)
 * @param causeGapMinSec shortest time between two jank episodes
 * @param causeGapMaxSec longest time between two jank episodes
 * @param hitchGapMinSec shortest time between two long hitches (GC, loading); 0: no hitches
 * @param hitchGapMaxSec longest time between two long hitches
 */
public record JankProfile(String name, double load, double causeGapMinSec, double causeGapMaxSec,
                          double hitchGapMinSec, double hitchGapMaxSec) {

    /** A well-behaved app: ordinary frames fit easily, an occasional episode (about 2-3 % janky). */
    public static final JankProfile SMOOTH = new JankProfile("smooth", 1.0, 0.5, 2.0, 0, 0);
    /** A struggling app: heavier frames and an episode every 100-300 ms (about 15-25 % janky). */
    public static final JankProfile JANKY = new JankProfile("janky", 1.6, 0.1, 0.3, 0, 0);
    /** Smooth most of the time, with a long hitch (100-450 ms) every 1.5-3 s and some episodes. */
    public static final JankProfile STUTTER = new JankProfile("stutter", 1.0, 0.8, 1.6, 1.5, 3.0);

    private static final JankProfile[] ALL = {SMOOTH, JANKY, STUTTER};

    public JankProfile {
        if (!(load > 0) || !(causeGapMinSec > 0) || causeGapMaxSec < causeGapMinSec
                || hitchGapMinSec < 0 || hitchGapMaxSec < hitchGapMinSec) {
            throw new IllegalArgumentException("inconsistent jank profile " + name);
        }
    }

    public boolean hasHitches() {
        return hitchGapMaxSec > 0;
    }

    /** The profile of that name (case-insensitive). */
    public static JankProfile parse(String name) {
        for (JankProfile p : ALL) {
            if (p.name.equalsIgnoreCase(name.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown jank profile '" + name + "'; one of " + names());
    }

    /** "smooth|janky|stutter". */
    public static String names() {
        return Arrays.stream(ALL).map(JankProfile::name).collect(Collectors.joining("|"));
    }

    @Override
    public String toString() {
        return name.toLowerCase(Locale.ROOT);
    }
}
