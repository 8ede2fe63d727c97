package io.gfxstats.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock shifted by a number of milliseconds read from a file, re-read when the file
 * changes. Lets tests of a real daemon process move it across a UTC midnight without waiting
 * (the daemon's {@code --clock-offset-file} option). A missing or unreadable file keeps the last
 * offset. Re-read on every call: it is a test facility and the file is a few bytes.
 */
final class OffsetFileClock extends Clock {
    private final Path file;
    private final Clock base;
    private long offsetMillis;

    OffsetFileClock(Path file, Clock base) {
        this.file = file;
        this.base = base;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("gfxstats works in UTC");
    }

    @Override
    public synchronized long millis() {
        refresh();
        return base.millis() + offsetMillis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    private void refresh() {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            offsetMillis = text.isEmpty() ? 0 : Long.parseLong(text);
        } catch (IOException | NumberFormatException e) {
            // Keep the last offset: a test rewriting the file must never make time jump back.
        }
    }
}
