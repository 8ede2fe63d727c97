package io.gfxstats.store;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayDeque;
import java.util.Deque;

/** Directories opened one inside the other (openat), closed innermost first. */
final class DirChain implements AutoCloseable {
    private final Deque<SecureDirectoryStream<Path>> dirs = new ArrayDeque<>();

    SecureDirectoryStream<Path> push(SecureDirectoryStream<Path> dir) {
        dirs.push(dir);
        return dir;
    }

    SecureDirectoryStream<Path> last() {
        return dirs.peek();
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        while (!dirs.isEmpty()) {
            try {
                dirs.pop().close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
