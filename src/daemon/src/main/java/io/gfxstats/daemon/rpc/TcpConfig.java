package io.gfxstats.daemon.rpc;

import java.nio.file.Path;

/**
 * The optional TCP listener. Off by default. A loopback bind may run in plaintext; any other
 * bind address requires TLS and a bearer token ({@link GfxStatsServer#start} refuses otherwise).
 * When a token file is given the token is required on every TCP call, loopback included.
 *
 * @param enabled whether to listen on TCP at all
 * @param host address to bind; a name is resolved once at start
 * @param port port to bind, 0 for an ephemeral port (see {@link GfxStatsServer#tcpPort()})
 * @param tlsCertificate PEM certificate chain, or {@code null} for plaintext
 * @param tlsPrivateKey PEM private key (PKCS#8) of that certificate, or {@code null}
 * @param tokenFile file holding the bearer token (surrounding whitespace ignored), or {@code null}
 */
public record TcpConfig(boolean enabled, String host, int port, Path tlsCertificate, Path tlsPrivateKey,
        Path tokenFile) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 7445;

    public TcpConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("tcp host must not be empty");
        }
        host = host.strip();
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("tcp port out of range 0..65535: " + port);
        }
        if ((tlsCertificate == null) != (tlsPrivateKey == null)) {
            throw new IllegalArgumentException(
                    "tcp TLS needs both a certificate and a private key file (got only the "
                            + (tlsCertificate == null ? "key" : "certificate") + ")");
        }
    }

    /** TCP off (the default). */
    public static TcpConfig disabled() {
        return new TcpConfig(false, DEFAULT_HOST, DEFAULT_PORT, null, null, null);
    }

    /** Plaintext TCP on loopback, no token: for local tools and tests. */
    public static TcpConfig loopback(int port) {
        return new TcpConfig(true, DEFAULT_HOST, port, null, null, null);
    }

    public boolean tls() {
        return tlsCertificate != null;
    }

    public TcpConfig withTls(Path certificate, Path privateKey) {
        return new TcpConfig(enabled, host, port, certificate, privateKey, tokenFile);
    }

    public TcpConfig withTokenFile(Path file) {
        return new TcpConfig(enabled, host, port, tlsCertificate, tlsPrivateKey, file);
    }
}
