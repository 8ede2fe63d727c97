package io.gfxstats.daemon.rpc;

import io.grpc.Attributes;
import io.grpc.ChannelLogger;
import io.grpc.netty.shaded.io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiationEvent;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiators;
import io.grpc.netty.shaded.io.grpc.netty.ProtocolNegotiationEvent;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.PeerCredentials;
import io.grpc.netty.shaded.io.netty.util.AsciiString;
import java.io.IOException;

/**
 * Server-side plaintext negotiation for the Unix socket that also records the connecting
 * process's SO_PEERCRED in the transport attributes ({@link #PEER_IDENTITY}).
 *
 * <p>gRPC offers no public hook that sees the Netty channel of a server connection, so this uses
 * its {@code @Internal} negotiator API (pinned gRPC version, see pom.xml). The pipeline is the
 * stock plaintext one with one extra step: wait until active, read credentials, hand over to gRPC.
 * The credentials are read once per connection: they describe the process that connected.
 */
final class PeerCredentialsNegotiator implements InternalProtocolNegotiator.ProtocolNegotiator {
    /** The peer of a Unix-socket connection; absent if the kernel would not say. */
    static final Attributes.Key<PeerIdentity> PEER_IDENTITY = Attributes.Key.create("gfxstats-peer-identity");

    private static final AsciiString SCHEME = AsciiString.of("http");

    @Override
    public AsciiString scheme() {
        return SCHEME;
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        ChannelLogger logger = grpcHandler.getNegotiationLogger();
        ChannelHandler toGrpc = InternalProtocolNegotiators.grpcNegotiationHandler(grpcHandler);
        return InternalProtocolNegotiators.waitUntilActiveHandler(new CredentialsHandler(toGrpc, logger), logger);
    }

    @Override
    public void close() {
    }

    private static final class CredentialsHandler extends InternalProtocolNegotiators.ProtocolNegotiationHandler {
        CredentialsHandler(ChannelHandler next, ChannelLogger logger) {
            super(next, "gfxstats-peercred", logger);
        }

        @Override
        protected void protocolNegotiationEventTriggered(ChannelHandlerContext ctx) {
            PeerIdentity peer = readPeer(ctx.channel());
            if (peer != null) {
                ProtocolNegotiationEvent event = getProtocolNegotiationEvent();
                Attributes attrs = InternalProtocolNegotiationEvent.getAttributes(event).toBuilder()
                        .set(PEER_IDENTITY, peer)
                        .build();
                replaceProtocolNegotiationEvent(InternalProtocolNegotiationEvent.withAttributes(event, attrs));
            }
            fireProtocolNegotiationEvent(ctx);
        }

        private static PeerIdentity readPeer(Channel channel) {
            if (!(channel instanceof EpollDomainSocketChannel)) {
                return null;
            }
            try {
                PeerCredentials creds = ((EpollDomainSocketChannel) channel).peerCredentials();
                int[] gids = creds.gids();
                // A pid of 0 means the peer is in another pid namespace; treat it as unknown.
                if (creds.pid() <= 0 || gids.length == 0) {
                    return null;
                }
                return new PeerIdentity(creds.pid(), creds.uid(), gids[0]);
            } catch (IOException | RuntimeException e) {
                // Registration will be refused for lack of identity; other calls do not need it.
                return null;
            }
        }
    }
}
