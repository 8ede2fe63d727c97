package io.gfxstats.rpc;

import io.grpc.Metadata;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The shared secret a TCP caller presents as {@code authorization: Bearer <token>}. */
public final class BearerToken {
    private static final Logger LOG = LoggerFactory.getLogger(BearerToken.class);

    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    static final String SCHEME = "Bearer ";
    private static final int MIN_LENGTH = 16;

    private final byte[] digest;
    private final String token;

    private BearerToken(String token) {
        this.token = token;
        this.digest = sha256(token);
    }

    /**
     * Reads a token file: the token is the file's content without surrounding whitespace, at
     * least 16 printable ASCII characters (a header value cannot carry anything else).
     */
    public static BearerToken fromFile(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (MalformedInputException e) {
            throw new IOException("token file " + file + " is not ASCII text");
        }
        BearerToken token = of(text, "token file " + file);
        warnIfOthersCanRead(file);
        return token;
    }

    /** A token given directly (e.g. by a client that read it elsewhere). */
    public static BearerToken of(String token) {
        try {
            return of(token == null ? "" : token.strip(), "token");
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static BearerToken of(String text, String what) throws IOException {
        if (text.length() < MIN_LENGTH) {
            throw new IOException(what + " must hold a token of at least " + MIN_LENGTH + " characters");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c > '~') {
                throw new IOException(what + " holds a character not allowed in a token (position " + i + ")");
            }
        }
        return new BearerToken(text);
    }

    /** The header value a client sends. */
    String headerValue() {
        return SCHEME + token;
    }

    /** Whether an {@code authorization} header value carries this token. Constant time in the token. */
    public boolean matchesHeader(String headerValue) {
        if (headerValue == null || headerValue.length() < SCHEME.length()
                || !headerValue.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return false;
        }
        // Comparing digests hides the token's length as well as its content.
        return MessageDigest.isEqual(digest, sha256(headerValue.substring(SCHEME.length()).strip()));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    private static void warnIfOthersCanRead(Path file) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.OTHERS_READ)) {
                LOG.warn("token file {} is readable by every user; restrict it (chmod 600)", file);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // Permissions are advisory here; the read above already succeeded.
        }
    }

    @Override
    public String toString() {
        return "BearerToken[redacted]";
    }
}
