package io.gfxstats.dumpclient.h2;

/**
 * The {@code grpc-timeout} request header: at most 8 digits and a unit, so that the server can
 * stop working on a call its client has given up on.
 */
final class GrpcTimeout {
    private static final long MAX_VALUE = 99_999_999L;

    private GrpcTimeout() {
    }

    static String encode(long millis) {
        if (millis < 1) {
            return "1m";
        }
        if (millis <= MAX_VALUE) {
            return millis + "m";
        }
        // Rounded up: the server must not give up before the client does.
        long seconds = ceilDiv(millis, 1000);
        if (seconds <= MAX_VALUE) {
            return seconds + "S";
        }
        long minutes = ceilDiv(seconds, 60);
        if (minutes <= MAX_VALUE) {
            return minutes + "M";
        }
        return Math.min(ceilDiv(minutes, 60), MAX_VALUE) + "H";
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
