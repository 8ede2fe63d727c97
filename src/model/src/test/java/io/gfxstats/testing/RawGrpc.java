package io.gfxstats.testing;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC client that sends arbitrary bytes as a request message of the daemon's service: what a
 * buggy or hostile client in another language could send. Responses are returned as bytes.
 */
public final class RawGrpc implements AutoCloseable {
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    private final ManagedChannel channel;

    public RawGrpc(Path socket) {
        channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(group).channelType(EpollDomainSocketChannel.class)
                .withOption(ChannelOption.SO_KEEPALIVE, null).usePlaintext().overrideAuthority("localhost").build();
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
                .setFullMethodName("gfxstats.v1.GfxStats/" + name).setRequestMarshaller(BYTES)
                .setResponseMarshaller(BYTES).build();
    }

    /** Calls a method with {@code request} as the message bytes; the status it ended with (OK if it did). */
    public Status call(String name, byte[] request) {
        boolean streaming = name.equals("Dump") || name.equals("Register");
        CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        try {
            if (streaming) {
                Iterator<byte[]> it = ClientCalls.blockingServerStreamingCall(channel,
                        method(name, MethodDescriptor.MethodType.SERVER_STREAMING), options, request);
                while (it.hasNext()) {
                    it.next();
                }
            } else {
                ClientCalls.blockingUnaryCall(channel, method(name, MethodDescriptor.MethodType.UNARY), options,
                        request);
            }
            return Status.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus();
        }
    }

    @Override
    public void close() {
        try {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
