package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.BearerToken;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The TCP listener's settings, checked before anything binds: a non-loopback address needs TLS
 * and a token; certificate, key and token files must load.
 */
final class TcpListener {
    final InetSocketAddress address;
    final SslContext sslContext;
    final BearerToken token;

    private TcpListener(InetSocketAddress address, SslContext sslContext, BearerToken token) {
        this.address = address;
        this.sslContext = sslContext;
        this.token = token;
    }

    static TcpListener check(TcpConfig tcp) throws ServerStartException {
        InetAddress host;
        try {
            host = InetAddress.getByName(tcp.host());
        } catch (UnknownHostException e) {
            throw new ServerStartException("tcp host " + tcp.host() + " does not resolve", e);
        }
        if (!host.isLoopbackAddress()) {
            if (!tcp.tls() || tcp.tokenFile() == null) {
                throw new ServerStartException("tcp host " + tcp.host() + " is not a loopback address: listening there"
                        + " requires TLS (certificate and key files) and a token file; missing "
                        + missing(tcp));
            }
        }
        SslContext ssl = null;
        if (tcp.tls()) {
            requireReadable(tcp.tlsCertificate(), "TLS certificate");
            requireReadable(tcp.tlsPrivateKey(), "TLS private key");
            try {
                ssl = GrpcSslContexts.forServer(tcp.tlsCertificate().toFile(), tcp.tlsPrivateKey().toFile()).build();
            } catch (IOException | IllegalArgumentException e) {
                throw new ServerStartException("cannot load TLS certificate " + tcp.tlsCertificate() + " with key "
                        + tcp.tlsPrivateKey() + " (PEM certificate and PKCS#8 PEM key expected): " + rootMessage(e), e);
            }
        }
        BearerToken token = null;
        if (tcp.tokenFile() != null) {
            OwnerOnly.checkSecretFile(tcp.tokenFile(), "token file (tcp.token.file)");
            requireReadable(tcp.tokenFile(), "token file");
            try {
                token = BearerToken.fromFile(tcp.tokenFile());
            } catch (IOException e) {
                throw new ServerStartException("cannot use " + e.getMessage(), e);
            }
        }
        return new TcpListener(new InetSocketAddress(host, tcp.port()), ssl, token);
    }

    /** For log lines and errors; {@code port} is the bound port (the configured one may be 0). */
    String describe(int port) {
        return "tcp " + address.getAddress().getHostAddress() + ":" + port
                + (sslContext != null ? " (TLS" : " (plaintext") + (token != null ? ", token required)" : ", no token)");
    }

    private static String missing(TcpConfig tcp) {
        if (!tcp.tls() && tcp.tokenFile() == null) {
            return "both";
        }
        return tcp.tls() ? "the token file" : "TLS";
    }

    private static void requireReadable(Path file, String what) throws ServerStartException {
        if (!Files.isRegularFile(file)) {
            throw new ServerStartException(what + " " + file + " does not exist or is not a regular file");
        }
        if (!Files.isReadable(file)) {
            throw new ServerStartException(what + " " + file + " is not readable by the daemon");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
