package io.gfxstats.dumpclient.h2;

import java.nio.charset.StandardCharsets;

/**
 * What gRPC reads from a response's header blocks, apart from HTTP/2 framing: whether the headers
 * open a gRPC response, and the status the trailers end it with (gRPC over HTTP/2's rules, the
 * way grpc-java maps them to status codes).
 */
final class GrpcHeaders {
    private GrpcHeaders() {
    }

    /**
     * The first header block: HTTP 200 and a gRPC content type, except that a trailers-only
     * response (the block ends the stream) need not name a content type.
     */
    static void checkResponseHeaders(HeaderList headers, boolean trailersOnly) throws CallFailure {
        String status = headers.get(":status");
        if (status == null) {
            throw CallFailure.protocolError("response headers without :status");
        }
        if (!status.equals("200")) {
            int httpStatus;
            try {
                httpStatus = Integer.parseInt(status);
            } catch (NumberFormatException e) {
                throw CallFailure.protocolError("response :status '" + status + "'");
            }
            throw new CallFailure(GrpcCodes.fromHttpStatus(httpStatus), "HTTP status " + status + " from the daemon"
                    + (headers.get("grpc-message") != null ? ": " + percentDecode(headers.get("grpc-message")) : ""));
        }
        String type = headers.get("content-type");
        if (!trailersOnly && (type == null || !type.startsWith("application/grpc"))) {
            throw new CallFailure(GrpcCodes.UNKNOWN, "not a gRPC response (content-type " + type + ")");
        }
    }

    /** Returns when the trailers say OK; otherwise the failure they name. */
    static void checkTrailers(HeaderList trailers) throws CallFailure {
        String status = trailers.get("grpc-status");
        if (status == null) {
            throw new CallFailure(GrpcCodes.INTERNAL, "the daemon ended the response without a grpc-status");
        }
        int code;
        try {
            code = Integer.parseInt(status);
        } catch (NumberFormatException e) {
            throw new CallFailure(GrpcCodes.UNKNOWN, "unparseable grpc-status '" + status + "'");
        }
        if (code == GrpcCodes.OK) {
            return;
        }
        String message = trailers.get("grpc-message");
        throw new CallFailure(code < 0 || code > GrpcCodes.MAX_CODE ? GrpcCodes.UNKNOWN : code,
                message == null ? "" : percentDecode(message));
    }

    /** grpc-message is UTF-8 with bytes outside printable ASCII and '%' written as %XX. */
    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        byte[] out = new byte[s.length()];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi >= 0 && lo >= 0) {
                    out[n++] = (byte) (hi * 16 + lo);
                    i += 2;
                    continue;
                }
            }
            out[n++] = (byte) c;
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }
}
