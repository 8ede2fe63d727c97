package io.gfxstats.daemon.rpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/** Unix-socket listener: exposes the connection's peer credentials to the call as a {@link Caller}. */
final class UnixCallerInterceptor implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        PeerIdentity peer = call.getAttributes().get(PeerCredentialsNegotiator.PEER_IDENTITY);
        Caller caller = new Caller(Transport.UNIX, peer, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        return Contexts.interceptCall(Context.current().withValue(Caller.CONTEXT_KEY, caller), call, headers, next);
    }
}
