package io.gfxstats.daemon;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Buffer files are named by registration id only ({@code <id>.gfxbuf}), never by package name,
 * so nothing a client sends can steer a path outside the buffer directory.
 */
final class BufferNames {
    static final String SUFFIX = ".gfxbuf";
    private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private BufferNames() {
    }

    static String newId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static boolean isValidId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    static Path pathOf(Path bufferDir, String id) {
        return bufferDir.resolve(id + SUFFIX);
    }

    /** The id of a buffer file name, or null for a file that is not ours. */
    static String idOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(SUFFIX)) {
            return null;
        }
        String id = name.substring(0, name.length() - SUFFIX.length());
        return isValidId(id) ? id : null;
    }
}
