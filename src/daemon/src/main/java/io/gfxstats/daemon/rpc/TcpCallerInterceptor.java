package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.BearerToken;

import io.gfxstats.rpc.v1.GfxStatsGrpc;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Set;

/**
 * TCP listener: checks the bearer token on every call (when one is configured), then lets only
 * the read-only methods through. Unknown methods are refused, so a method added to the service
 * later stays off TCP until it is listed here on purpose.
 */
final class TcpCallerInterceptor implements ServerInterceptor {
    static final Set<String> READ_ONLY_METHODS = Set.of(
            GfxStatsGrpc.getDumpMethod().getFullMethodName(),
            GfxStatsGrpc.getPullMethod().getFullMethodName(),
            GfxStatsGrpc.getHealthMethod().getFullMethodName(),
            GfxStatsGrpc.getScenesMethod().getFullMethodName(),
            GfxStatsGrpc.getWatchMethod().getFullMethodName());

    private static final ServerCall.Listener<Object> NOOP = new ServerCall.Listener<>() {
    };

    private final BearerToken token;

    /** @param token required token, or {@code null} when TCP runs without one (loopback only) */
    TcpCallerInterceptor(BearerToken token) {
        this.token = token;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        if (token != null) {
            String presented = headers.get(BearerToken.AUTHORIZATION);
            if (presented == null) {
                return refuse(call, Status.UNAUTHENTICATED.withDescription("bearer token required"));
            }
            if (!token.matchesHeader(presented)) {
                return refuse(call, Status.UNAUTHENTICATED.withDescription("invalid bearer token"));
            }
        }
        String method = call.getMethodDescriptor().getFullMethodName();
        if (method.equals(GfxStatsGrpc.getRegisterMethod().getFullMethodName())) {
            return refuse(call, Status.PERMISSION_DENIED.withDescription("registration is Unix-socket only"));
        }
        if (!READ_ONLY_METHODS.contains(method)) {
            return refuse(call, Status.PERMISSION_DENIED.withDescription(method + " is not available over TCP"));
        }
        Caller caller = new Caller(Transport.TCP, null, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        return Contexts.interceptCall(Context.current().withValue(Caller.CONTEXT_KEY, caller), call, headers, next);
    }

    @SuppressWarnings("unchecked")
    private static <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, Status status) {
        call.close(status, new Metadata());
        return (ServerCall.Listener<Q>) (ServerCall.Listener<?>) NOOP;
    }
}
