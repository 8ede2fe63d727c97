package io.gfxstats.cli;

import io.gfxstats.args.UsageException;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsFormatException;
import io.gfxstats.framestats.FramestatsReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/** The {@code FILE|-} argument of the commands that take a framestats capture. */
final class FramestatsInput {
    private FramestatsInput() {
    }

    /**
     * The capture's framestats blocks, at least one: a file that cannot be read, a malformed one or
     * one holding no framestats is a one-line usage error.
     */
    static List<FramestatsBlock> read(String input, InputStream stdin) throws UsageException, IOException {
        List<FramestatsBlock> blocks = readBlocks(input, stdin);
        if (blocks.isEmpty()) {
            throw new UsageException(noFramestats(input.equals("-") ? "stdin" : input));
        }
        return blocks;
    }

    /** The error for an input without framestats. */
    static String noFramestats(String source) {
        return "no framestats found in " + source + " (capture with: adb shell dumpsys gfxinfo <package> framestats)";
    }

    private static List<FramestatsBlock> readBlocks(String input, InputStream stdin)
            throws UsageException, IOException {
        try {
            if (input.equals("-")) {
                return FramestatsReader.read(stdin, "stdin");
            }
            Path path = Paths.get(input);
            if (Files.isDirectory(path)) {
                throw new UsageException("cannot read " + input + ": is a directory");
            }
            return FramestatsReader.read(path);
        } catch (NoSuchFileException e) {
            throw new UsageException("cannot read " + input + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UsageException("cannot read " + input + ": permission denied");
        } catch (FramestatsFormatException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
