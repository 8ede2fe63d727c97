package io.gfxstats.rpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Locale;

/** Turns a failed call into a one-line explanation naming the daemon's address. */
public final class ClientErrors {
    private ClientErrors() {
    }

    /**
     * The debug data of the GOAWAY a TLS listener sends a plaintext client: sent by the daemon
     * ({@code AdmissionNegotiator}), recognised here. Kept on the client side so that the client
     * library does not depend on the server's classes.
     */
    public static final String PLAINTEXT_ON_TLS = "this gfxstats daemon speaks TLS on this port";

    static GfxStatsClientException translate(StatusRuntimeException e, Path socket, String target, Duration deadline) {
        Status status = e.getStatus();
        return translate(status.getCode(), causeText(status), e, socket, target, deadline);
    }

    /**
     * The same explanation for a failure seen by a client other than grpc-java's (the dump path's
     * {@code io.gfxstats.dumpclient.UnixDumpClient}): {@code detail} is the status description plus the transport's reason.
     */
    public static GfxStatsClientException translate(Status.Code code, String detail, Throwable e, Path socket, String target,
            Duration deadline) {
        if (detail == null || detail.isEmpty()) {
            detail = code.toString();
        }
        detail = detail.replace('\n', ' ');
        if (mentions(detail, PLAINTEXT_ON_TLS.toLowerCase(Locale.ROOT))) {
            // Whatever code gRPC made of the daemon's GOAWAY (it may retry first), this is what happened.
            return new GfxStatsClientException("gfxstats daemon at " + target + " speaks TLS, this client "
                    + "plaintext (give the client the daemon's certificate)", Status.Code.UNAVAILABLE, false, e);
        }
        switch (code) {
            case UNAVAILABLE:
                if (socket != null && (mentions(detail, "permission denied") || !mayReach(socket))) {
                    // Checked before existence: a socket this user may not reach looks absent.
                    return new GfxStatsClientException("permission denied on the socket of the gfxstats daemon at "
                            + target + " (this user may not connect: join the daemon's group, or run a daemon of "
                            + "your own)", code, false, e);
                }
                if (socket != null && !Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
                    return notRunning("gfxstats daemon not running (no socket at " + socket + ")", e);
                }
                if (mentions(detail, "not an ssl/tls record")) {
                    return new GfxStatsClientException("gfxstats daemon at " + target + " speaks plaintext, this "
                            + "client TLS (the daemon has no tcp.tls.cert; connect without a certificate)", code, false, e);
                }
                if (mentions(detail, "connection refused")) {
                    return notRunning(socket != null
                            ? "gfxstats daemon not running (nothing listening on " + socket + ")"
                            : "gfxstats daemon at " + target + " not reachable (connection refused)", e);
                }
                if (mentions(detail, "permission denied")) {
                    return new GfxStatsClientException("permission denied connecting to the gfxstats daemon at " + target
                            + " (is this user in the daemon's group?)", code, false, e);
                }
                return new GfxStatsClientException("gfxstats daemon at " + target + " unavailable: " + detail,
                        code, false, e);
            case DEADLINE_EXCEEDED:
                return new GfxStatsClientException("gfxstats daemon at " + target + " did not answer within "
                        + seconds(deadline), code, false, e);
            case RESOURCE_EXHAUSTED:
                return new GfxStatsClientException("gfxstats daemon at " + target + " refused: " + detail, code,
                        false, e);
            case UNAUTHENTICATED:
                return new GfxStatsClientException("gfxstats daemon at " + target + " refused the call: " + detail
                        + " (check the token file)", code, false, e);
            default:
                return new GfxStatsClientException("gfxstats daemon at " + target + ": " + detail + " ("
                        + code + ")", code, false, e);
        }
    }

    /** False when a directory on the way to the socket (or the socket) denies this user access. */
    private static boolean mayReach(Path socket) {
        try {
            Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return true;
        } catch (AccessDeniedException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static GfxStatsClientException notRunning(String message, Throwable cause) {
        return new GfxStatsClientException(message, Status.Code.UNAVAILABLE, true, cause);
    }

    /** The status description plus the innermost cause, which is where transports put errno text. */
    private static String causeText(Status status) {
        StringBuilder sb = new StringBuilder();
        if (status.getDescription() != null) {
            sb.append(status.getDescription());
        }
        Throwable t = status.getCause();
        while (t != null && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        if (t != null && t.getMessage() != null && !sb.toString().contains(t.getMessage())) {
            if (sb.length() > 0) {
                sb.append(": ");
            }
            sb.append(t.getMessage());
        }
        return sb.length() == 0 ? status.getCode().toString() : sb.toString().replace('\n', ' ');
    }

    private static boolean mentions(String text, String what) {
        return text.toLowerCase(Locale.ROOT).contains(what);
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
