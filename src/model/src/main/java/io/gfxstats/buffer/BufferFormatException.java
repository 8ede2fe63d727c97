package io.gfxstats.buffer;

import java.io.IOException;
import java.nio.file.Path;

/** A file that is not a usable gfxstats buffer; {@link #reason()} says why. */
public final class BufferFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why a buffer file was rejected. */
    public enum Reason {
        /** A symbolic link, directory, device or anything but a regular file. */
        NOT_REGULAR_FILE,
        /** The file is owned by another uid than the caller expects. */
        WRONG_OWNER,
        /** The file is shorter than its header, or than the length its header declares. */
        TOO_SHORT,
        /** The first four bytes are not the gfxstats buffer magic. */
        WRONG_MAGIC,
        /** A layout version this code does not know (written by a newer release, or garbage). */
        UNSUPPORTED_VERSION,
        /** The creator has not finished writing the header (state word still 0). */
        NOT_READY,
        /** The file length differs from the declared total length or from the length the caller expects. */
        SIZE_MISMATCH,
        /** A header field is out of range or inconsistent with the layout version. */
        CORRUPT_HEADER,
        /** The path was replaced by another file while it was being opened. */
        REPLACED,
        /** Writers only: the buffer was handed over to a successor and takes no more counts. */
        RETIRED
    }

    private final Reason reason;
    private final Path path;

    public BufferFormatException(Reason reason, Path path, String detail) {
        super(path + ": " + describe(reason) + ": " + detail);
        this.reason = reason;
        this.path = path;
    }

    public Reason reason() {
        return reason;
    }

    public Path path() {
        return path;
    }

    private static String describe(Reason reason) {
        return switch (reason) {
            case NOT_REGULAR_FILE -> "not a regular file";
            case WRONG_OWNER -> "wrong owner";
            case TOO_SHORT -> "file too short";
            case WRONG_MAGIC -> "not a gfxstats buffer (wrong magic)";
            case UNSUPPORTED_VERSION -> "unsupported layout version";
            case NOT_READY -> "buffer not ready";
            case SIZE_MISMATCH -> "size mismatch";
            case CORRUPT_HEADER -> "corrupt header";
            case REPLACED -> "file replaced while opening";
            case RETIRED -> "buffer retired";
        };
    }
}
