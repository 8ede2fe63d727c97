package io.gfxstats.collect;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One daemon to pull from: {@code host:port} (TCP; IPv6 in brackets, {@code [::1]:7445}) or
 * {@code unix:/path/to.sock}.
 *
 * @param host TCP host, or {@code null} for a Unix socket
 * @param port TCP port, or 0 for a Unix socket
 * @param socket the absolute socket path, or {@code null} for TCP
 */
public record Target(String host, int port, Path socket) {
    public static final String UNIX_PREFIX = "unix:";

    public Target {
        if ((socket == null) == (host == null)) {
            throw new IllegalArgumentException("a target is either a TCP host:port or a unix:path");
        }
        if (socket != null) {
            socket = socket.toAbsolutePath().normalize();
        } else if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range 1..65535: " + port);
        }
    }

    public static Target tcp(String host, int port) {
        return new Target(Objects.requireNonNull(host, "host"), port, null);
    }

    public static Target unix(Path socket) {
        return new Target(null, 0, Objects.requireNonNull(socket, "socket"));
    }

    public boolean isUnix() {
        return socket != null;
    }

    /**
     * Parses {@code host:port} or {@code unix:/path}.
     *
     * @throws IllegalArgumentException with a message that names the rejected text
     */
    public static Target parse(String text) {
        String t = text.strip();
        if (t.startsWith(UNIX_PREFIX)) {
            String path = t.substring(UNIX_PREFIX.length());
            if (path.isEmpty()) {
                throw new IllegalArgumentException("'" + t + "' names no socket path (expected unix:/path/to.sock)");
            }
            return unix(Path.of(path));
        }
        String host;
        String port;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0 || close + 1 >= t.length() || t.charAt(close + 1) != ':') {
                throw new IllegalArgumentException("'" + t + "' is not [ipv6]:port");
            }
            host = t.substring(1, close);
            port = t.substring(close + 2);
        } else {
            int colon = t.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + t + "' is not host:port or unix:/path/to.sock");
            }
            host = t.substring(0, colon);
            port = t.substring(colon + 1);
            if (host.indexOf(':') >= 0) {
                throw new IllegalArgumentException("'" + t + "': write an IPv6 address in brackets, e.g. [::1]:7445");
            }
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> c <= ' ' || c == ',' || c == '/')) {
            throw new IllegalArgumentException("'" + t + "' has no usable host name");
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException("'" + t + "' has no port from 1 to 65535");
        }
        return tcp(host, p);
    }

    /** The target as written in a targets file (and in reports). */
    @Override
    public String toString() {
        if (socket != null) {
            return UNIX_PREFIX + socket;
        }
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
