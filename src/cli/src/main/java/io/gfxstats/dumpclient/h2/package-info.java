/**
 * A small gRPC client for one server-streaming call over a Unix socket, written straight on the
 * wire protocol (HTTP/2 frames, HPACK, gRPC length-prefixed messages) with nothing but the JDK.
 *
 * <p>Why it exists: {@code gfxstats dump} is typed by people, and a grpc-java channel over Netty
 * links and initializes about 2,800 classes before the first byte moves (about 250 ms of CPU on
 * JDK 17, class-data sharing included). This client needs a few dozen. It talks to the same
 * daemon service as {@link io.gfxstats.rpc.GfxStatsClient}: nothing changes on the server side.
 *
 * <p>Scope, on purpose: one call per connection, plaintext (prior-knowledge HTTP/2, what the daemon's
 * Unix socket speaks), no request larger than one frame, no compression (the client never offers
 * any, so a conforming server never compresses). Everything a conforming server may send is
 * handled: SETTINGS, PING, WINDOW_UPDATE, GOAWAY, RST_STREAM, padding, CONTINUATION, HPACK with
 * its dynamic table and Huffman strings, trailers-only responses. Anything else fails the call with
 * a description, never a hang: a watchdog closes the socket at the deadline.
 */
package io.gfxstats.dumpclient.h2;
