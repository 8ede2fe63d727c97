package io.gfxstats.dumpclient;

import io.gfxstats.dump.DumpFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What {@code gfxstats dump} asks for, serialized by hand to the bytes of the service's
 * {@code DumpRequest} message: the generated class would build the service's descriptors (and
 * those of every proto they import) on first use, tens of milliseconds on a path people type.
 * A test keeps the bytes equal to the generated class's.
 *
 * @param packageName only this package; empty for all
 * @param format the text variant, or null to leave it to the daemon (ANDROID14)
 * @param frametimeline the FrameTimeline summary per entry instead of the Android dump
 */
public record DumpQuery(boolean proto, String packageName, DumpFormat format, boolean frametimeline) {
    // DumpRequest field numbers and wire types (proto/gfxstats/v1/gfxstats.proto).
    private static final int PROTO_TAG = 1 << 3;
    private static final int PACKAGE_NAME_TAG = (2 << 3) | 2;
    private static final int FORMAT_TAG = 3 << 3;
    /** Field 1020 (varint): its tag takes two varint bytes. */
    private static final int FRAMETIMELINE_TAG = 1020 << 3;

    public DumpQuery {
        Objects.requireNonNull(packageName, "packageName");
    }

    /** An Android dump (no FrameTimeline summary). */
    public DumpQuery(boolean proto, String packageName, DumpFormat format) {
        this(proto, packageName, format, false);
    }

    /** Everything, as text in the newest format. */
    public static DumpQuery all() {
        return new DumpQuery(false, "", null);
    }

    /** The DumpRequest bytes; proto3 leaves out fields at their default. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + packageName.length());
        if (proto) {
            out.write(PROTO_TAG);
            out.write(1);
        }
        if (!packageName.isEmpty()) {
            byte[] name = packageName.getBytes(StandardCharsets.UTF_8);
            out.write(PACKAGE_NAME_TAG);
            varint(out, name.length);
            out.write(name, 0, name.length);
        }
        int number = formatNumber(format);
        if (number != 0) {
            out.write(FORMAT_TAG);
            varint(out, number);
        }
        if (frametimeline) {
            varint(out, FRAMETIMELINE_TAG);
            out.write(1);
        }
        return out.toByteArray();
    }

    /** The wire number of gfxstats.v1.DumpFormat for {@code format}; 0 (unspecified) for null. */
    static int formatNumber(DumpFormat format) {
        if (format == null) {
            return 0;
        }
        return switch (format) {
            case ANDROID14 -> 1;
            case ANDROID11 -> 2;
            case ANDROID9 -> 3;
            case ANDROID8 -> 4;
        };
    }

    private static void varint(ByteArrayOutputStream out, int value) {
        while ((value & ~0x7f) != 0) {
            out.write((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }
}
