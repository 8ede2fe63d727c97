package io.gfxstats.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * UTC day arithmetic for day files (spec 7: a file belongs to the UTC midnight of its stats
 * start). Days are plain epoch-millisecond multiples of 86,400,000: UTC has no DST and Java's
 * epoch time has no leap seconds, so no calendar is needed. Anything that depends on "now" takes
 * a {@link Clock} so that rotation can be tested without waiting for midnight.
 */
public final class Days {
    public static final long MILLIS_PER_DAY = 86_400_000L;

    private Days() {
    }

    /** UTC midnight at or before {@code epochMillis}; correct for instants before 1970 too. */
    public static long dayStart(long epochMillis) {
        return Math.floorDiv(epochMillis, MILLIS_PER_DAY) * MILLIS_PER_DAY;
    }

    /** The first UTC midnight strictly after {@code epochMillis}. */
    public static long nextDayStart(long epochMillis) {
        return dayStart(epochMillis) + MILLIS_PER_DAY;
    }

    /** The UTC midnight before the day that contains {@code epochMillis} began. */
    public static long previousDayStart(long epochMillis) {
        return dayStart(epochMillis) - MILLIS_PER_DAY;
    }

    public static boolean isDayStart(long epochMillis) {
        return Math.floorMod(epochMillis, MILLIS_PER_DAY) == 0;
    }

    /** Whether {@code epochMillis} falls inside the day that starts at {@code dayStart}. */
    public static boolean contains(long dayStart, long epochMillis) {
        return dayStart(epochMillis) == dayStart;
    }

    /** Start of the current UTC day. */
    public static long today(Clock clock) {
        return dayStart(clock.millis());
    }

    /** The next UTC midnight after the clock's now. */
    public static long nextMidnight(Clock clock) {
        return nextDayStart(clock.millis());
    }

    /** Time left until the next UTC midnight; never zero, so a timer set with it always moves forward. */
    public static Duration untilNextMidnight(Clock clock) {
        long now = clock.millis();
        return Duration.ofMillis(nextDayStart(now) - now);
    }

    /** The calendar date of a day start, for log lines and docs ("1700006400000 (2023-11-15)"). */
    public static LocalDate date(long dayStart) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(dayStart), ZoneOffset.UTC);
    }

    /** Inverse of {@link #date(long)}. */
    public static long dayStart(LocalDate date) {
        return Math.multiplyExact(date.toEpochDay(), MILLIS_PER_DAY);
    }
}
