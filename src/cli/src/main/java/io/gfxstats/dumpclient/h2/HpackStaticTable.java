package io.gfxstats.dumpclient.h2;

import java.util.Arrays;

/** HPACK's static table (RFC 7541, appendix A): indexes 1 to 61, name and value ("" for none). */
final class HpackStaticTable {
    static final int LENGTH = 61;

    private static final String[] NAMES = {
        ":authority", ":method", ":method", ":path", ":path", ":scheme", ":scheme", ":status", ":status",
        ":status", ":status", ":status", ":status", ":status", "accept-charset", "accept-encoding",
        "accept-language", "accept-ranges", "accept", "access-control-allow-origin", "age", "allow",
        "authorization", "cache-control", "content-disposition", "content-encoding", "content-language",
        "content-length", "content-location", "content-range", "content-type", "cookie", "date", "etag",
        "expect", "expires", "from", "host", "if-match", "if-modified-since", "if-none-match", "if-range",
        "if-unmodified-since", "last-modified", "link", "location", "max-forwards", "proxy-authenticate",
        "proxy-authorization", "range", "referer", "refresh", "retry-after", "server", "set-cookie",
        "strict-transport-security", "transfer-encoding", "user-agent", "vary", "via", "www-authenticate",
    };

    private static final String[] VALUES = new String[LENGTH];

    static {
        Arrays.fill(VALUES, "");
        VALUES[1] = "GET";
        VALUES[2] = "POST";
        VALUES[3] = "/";
        VALUES[4] = "/index.html";
        VALUES[5] = "http";
        VALUES[6] = "https";
        String[] statuses = {"200", "204", "206", "304", "400", "404", "500"};
        System.arraycopy(statuses, 0, VALUES, 7, statuses.length);
        VALUES[15] = "gzip, deflate";
    }

    private HpackStaticTable() {
    }

    /** Name at {@code index}, 1-based. */
    static String name(int index) {
        return NAMES[index - 1];
    }

    static String value(int index) {
        return VALUES[index - 1];
    }
}
