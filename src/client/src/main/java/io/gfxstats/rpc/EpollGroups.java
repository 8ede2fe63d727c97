package io.gfxstats.rpc;

import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;

/** Epoll event loops (required for Unix sockets) on daemon threads, so they never keep a JVM alive. */
public final class EpollGroups {
    private EpollGroups() {
    }

    public static EventLoopGroup create(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), EpollIoHandler.newFactory());
    }
}
