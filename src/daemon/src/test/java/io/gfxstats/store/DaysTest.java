package io.gfxstats.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DaysTest {
    private static long utc(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void shouldPutLastMillisecondBeforeMidnightOnPreviousDay() {
        long midnight = utc("2023-11-15T00:00:00Z");
        assertEquals(midnight - Days.MILLIS_PER_DAY, Days.dayStart(midnight - 1));
        assertEquals(midnight, Days.dayStart(midnight));
        assertEquals(midnight, Days.dayStart(midnight + 1));
        assertEquals(midnight, Days.dayStart(midnight + Days.MILLIS_PER_DAY - 1));
    }

    @Test
    void shouldGiveNextMidnightStrictlyAfterTheInstant() {
        long midnight = utc("2023-11-15T00:00:00Z");
        assertEquals(midnight, Days.nextDayStart(midnight - 1));
        assertEquals(midnight + Days.MILLIS_PER_DAY, Days.nextDayStart(midnight));
        assertEquals(midnight - Days.MILLIS_PER_DAY, Days.previousDayStart(midnight + 5));
    }

    @Test
    void shouldMeasureTimeUntilMidnightFromTheInjectedClock() {
        Clock almost = Clock.fixed(Instant.parse("2023-11-15T23:59:59.750Z"), ZoneOffset.UTC);
        assertEquals(Duration.ofMillis(250), Days.untilNextMidnight(almost));
        assertEquals(utc("2023-11-16T00:00:00Z"), Days.nextMidnight(almost));
        assertEquals(utc("2023-11-15T00:00:00Z"), Days.today(almost));

        Clock atMidnight = Clock.fixed(Instant.parse("2023-11-16T00:00:00Z"), ZoneOffset.UTC);
        assertEquals(Duration.ofDays(1), Days.untilNextMidnight(atMidnight), "a timer set at midnight waits a day");
    }

    @Test
    void shouldIgnoreTheClockZoneAndUseUtc() {
        Instant i = Instant.parse("2023-11-15T22:30:00Z"); // already the 16th in Tokyo
        Clock tokyo = Clock.fixed(i, ZoneId.of("Asia/Tokyo"));
        assertEquals(utc("2023-11-15T00:00:00Z"), Days.today(tokyo));
    }

    @Test
    void shouldKeepEveryDayExactly24HoursAcrossLocalDstChanges() {
        // Europe/Berlin springs forward on 2024-03-31 and falls back on 2024-10-27: UTC days do not care.
        for (String day : new String[] {"2024-03-31", "2024-10-27", "2024-03-10", "2024-11-03"}) {
            long start = Days.dayStart(LocalDate.parse(day));
            assertEquals(start + Days.MILLIS_PER_DAY, Days.nextDayStart(start));
            ZonedDateTime berlinNoon = ZonedDateTime.of(LocalDate.parse(day).atTime(12, 0), ZoneId.of("Europe/Berlin"));
            assertEquals(start, Days.dayStart(berlinNoon.toInstant().toEpochMilli()));
        }
    }

    @Test
    void shouldTreatLeapDaysAndLeapSecondDaysLikeAnyOtherDay() {
        long feb29 = utc("2024-02-29T00:00:00Z");
        assertEquals(feb29, Days.dayStart(utc("2024-02-29T23:59:59.999Z")));
        assertEquals(utc("2024-03-01T00:00:00Z"), Days.nextDayStart(feb29));
        assertEquals(LocalDate.parse("2024-02-29"), Days.date(feb29));
        // 2016-12-31 had a leap second; epoch time (and so the day file name) does not count it.
        assertEquals(utc("2017-01-01T00:00:00Z"), Days.nextDayStart(utc("2016-12-31T23:59:59.999Z")));
    }

    @Test
    void shouldHandleInstantsBefore1970() {
        assertEquals(-Days.MILLIS_PER_DAY, Days.dayStart(-1));
        assertTrue(Days.isDayStart(-Days.MILLIS_PER_DAY));
        assertFalse(Days.isDayStart(-1));
    }

    @Test
    void shouldAgreeWithJavaTimeTruncationForRandomInstants() {
        SplittableRandom random = new SplittableRandom(42);
        long from = utc("1950-01-01T00:00:00Z");
        long to = utc("2150-01-01T00:00:00Z");
        for (int i = 0; i < 100_000; i++) {
            long t = random.nextLong(from, to);
            long expected = Instant.ofEpochMilli(t).truncatedTo(ChronoUnit.DAYS).toEpochMilli();
            assertEquals(expected, Days.dayStart(t), () -> "instant " + t);
            assertTrue(Days.contains(expected, t));
        }
    }
}
