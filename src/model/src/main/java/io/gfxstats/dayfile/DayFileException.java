package io.gfxstats.dayfile;

/** A day file, or a proto merged into one, that cannot be used. Subclasses say why. */
public abstract class DayFileException extends Exception {
    private static final long serialVersionUID = 1L;

    protected DayFileException(String message) {
        super(message);
    }

    protected DayFileException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Shorter than the 4-byte version header. */
    public static final class TooShort extends DayFileException {
        private static final long serialVersionUID = 1L;

        public TooShort(int length) {
            super("day file too short: " + length + " bytes, need at least 4");
        }
    }

    /** Header version other than 1. */
    public static final class WrongVersion extends DayFileException {
        private static final long serialVersionUID = 1L;
        private final int version;

        public WrongVersion(int version) {
            super("day file has version " + version + ", expected " + DayFileCodec.VERSION);
            this.version = version;
        }

        public int version() {
            return version;
        }
    }

    /** The body is not a GraphicsStatsProto. */
    public static final class Unparseable extends DayFileException {
        private static final long serialVersionUID = 1L;

        public Unparseable(String detail, Throwable cause) {
            super("day file body does not parse as GraphicsStatsProto: " + detail, cause);
        }
    }

    /** A histogram whose bucket count or labels differ from Android's. */
    public static final class HistogramMismatch extends DayFileException {
        private static final long serialVersionUID = 1L;

        public HistogramMismatch(String detail) {
            super("histogram mismatch: " + detail);
        }
    }
}
