package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.rpc.ClientErrors;
import io.grpc.netty.shaded.io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.util.AsciiString;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Admission control in front of a listener's own negotiation: counts each connection against
 * {@link ConnectionLimits} as it becomes active and closes it at once when over a limit (one
 * rate-limited log line), so a flood costs a file descriptor for microseconds, not for ever. On
 * TCP it also closes a connection that has not completed its handshake (TLS, HTTP/2 preface)
 * within the idle timeout; after that, gRPC's max-connection-idle closes idle ones. Every
 * admitted connection is watched by a {@link StallGuard}.
 */
final class AdmissionNegotiator implements InternalProtocolNegotiator.ProtocolNegotiator {
    private final InternalProtocolNegotiator.ProtocolNegotiator next;
    private final ConnectionLimits.Counter counter;
    private final ConnectionLimits limits;
    private final int ownerUid;
    private final boolean tcp;
    private final RateLimitedLog refusals;
    private final boolean tlsListener;
    private final Duration stallTimeout;

    AdmissionNegotiator(InternalProtocolNegotiator.ProtocolNegotiator next, ConnectionLimits.Counter counter,
                        ConnectionLimits limits, int ownerUid, boolean tcp, boolean tlsListener, RateLimitedLog refusals,
                        Duration stallTimeout) {
        this.next = next;
        this.counter = counter;
        this.limits = limits;
        this.ownerUid = ownerUid;
        this.tcp = tcp;
        this.refusals = refusals;
        this.tlsListener = tlsListener;
        this.stallTimeout = stallTimeout;
    }

    @Override
    public AsciiString scheme() {
        return next.scheme();
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        return new Gate(next.newHandler(grpcHandler));
    }

    @Override
    public void close() {
        next.close();
    }

    /**
     * On a TLS listener, a client that starts with the plaintext HTTP/2 preface gets a plaintext
     * GOAWAY whose debug data says the listener speaks TLS, so it can tell its user so instead of
     * "network closed for unknown reason". Anything else passes on to TLS untouched.
     */
    static final class PlaintextOnTlsListener extends ChannelInboundHandlerAdapter {
        static final String MESSAGE = ClientErrors.PLAINTEXT_ON_TLS;
        private static final byte[] PREFACE_START = {'P', 'R', 'I', ' '};

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof io.grpc.netty.shaded.io.netty.buffer.ByteBuf buf && buf.readableBytes() >= 4) {
                boolean plaintext = true;
                for (int i = 0; i < PREFACE_START.length; i++) {
                    plaintext &= buf.getByte(buf.readerIndex() + i) == PREFACE_START[i];
                }
                if (plaintext) {
                    buf.release();
                    byte[] debug = MESSAGE.getBytes(StandardCharsets.US_ASCII);
                    io.grpc.netty.shaded.io.netty.buffer.ByteBuf out = ctx.alloc().buffer(9 + 9 + 8 + debug.length);
                    out.writeMedium(0).writeByte(0x4).writeByte(0).writeInt(0); // SETTINGS, empty
                    out.writeMedium(8 + debug.length).writeByte(0x7).writeByte(0).writeInt(0); // GOAWAY
                    out.writeInt(0).writeInt(0).writeBytes(debug); // last stream 0, NO_ERROR: the client may retry, with TLS
                    ctx.writeAndFlush(out).addListener(f -> ctx.close());
                    return;
                }
            }
            ctx.pipeline().remove(this);
            ctx.fireChannelRead(msg);
        }
    }

    private final class Gate extends ChannelInboundHandlerAdapter {
        private final ChannelHandler negotiation;

        Gate(ChannelHandler negotiation) {
            this.negotiation = negotiation;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ctx.pipeline().addAfter(ctx.name(), null, negotiation);
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            Channel ch = ctx.channel();
            String peer;
            String who; // for log lines: the process too
            boolean owner;
            if (tcp) {
                peer = ch.remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null
                        ? a.getAddress().getHostAddress() : String.valueOf(ch.remoteAddress());
                owner = false;
                who = String.valueOf(ch.remoteAddress());
            } else {
                int uid = -1;
                int pid = 0;
                try {
                    io.grpc.netty.shaded.io.netty.channel.unix.PeerCredentials c =
                            ((EpollDomainSocketChannel) ch).peerCredentials();
                    uid = c.uid();
                    pid = c.pid();
                } catch (IOException | RuntimeException e) {
                    // unknown: counted as another peer
                }
                peer = "uid " + uid;
                who = "pid " + pid + " " + peer;
                owner = uid == ownerUid;
            }
            String refused = counter.admit(peer, owner);
            if (refused != null) {
                refusals.warn(refused);
                ctx.close();
                return;
            }
            ch.closeFuture().addListener(f -> counter.release(peer, owner));
            StallGuard.watch(ch, stallTimeout, who, refusals);
            if (tcp) {
                var idle = ch.eventLoop().schedule(() -> {
                    if (ch.isActive() && !madeACall(ch)) {
                        refusals.warn("closed a connection from " + peer + ": no call within "
                                + limits.tcpIdle().toMillis() + " ms (setting tcp.idle.timeout)");
                        ch.close();
                    }
                }, limits.tcpIdle().toMillis(), TimeUnit.MILLISECONDS);
                // Cancelled with the connection: the pending timer would keep the closed channel and
                // its whole HTTP/2 pipeline reachable for tcp.idle.timeout, and a peer opening and
                // dropping thousands of connections a second filled the heap that way.
                ch.closeFuture().addListener(f -> idle.cancel(false));
            }
            if (tcp && tlsListener) {
                ctx.pipeline().addAfter(ctx.name(), null, new PlaintextOnTlsListener());
            }
            ctx.fireChannelActive();
            ctx.pipeline().remove(this);
        }

        /** Whether the peer got through TLS and the HTTP/2 preface and started at least one call. */
        private boolean madeACall(Channel ch) {
            GrpcHttp2ConnectionHandler h = ch.pipeline().get(GrpcHttp2ConnectionHandler.class);
            return h != null && h.connection().remote().lastStreamCreated() > 0;
        }
    }
}
