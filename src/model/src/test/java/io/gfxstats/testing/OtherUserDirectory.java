package io.gfxstats.testing;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The set-up of a test whose processes run as another user ({@link OtherUser}), as a JUnit
 * extension ({@code @RegisterExtension}): before each test, a skip with the reason when that
 * cannot be done here, else a fresh directory that user may enter and a class path it can read;
 * after each, what the test handed to {@link #closeAfter} is closed (newest first, so a daemon
 * stops before its directory goes), then the directory is deleted; one failing close does not keep
 * the others from running.
 */
public final class OtherUserDirectory implements BeforeEachCallback, AfterEachCallback {
    private final String prefix;
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private OtherUser user;

    /** {@code prefix} starts the directory's name, to tell whose it is when one is left behind. */
    public OtherUserDirectory(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        Assumptions.assumeTrue(OtherUser.unavailable().isEmpty(), () -> "skipped: " + OtherUser.unavailable().get());
        user = OtherUser.inNewDirectory(prefix);
    }

    public OtherUser user() {
        return user;
    }

    /** The test's directory (rwxr-xr-x, owned by this test's uid). */
    public Path path() {
        return user.directory();
    }

    /** Closes {@code resource} after the test, before the directory is deleted; returns it. */
    public <T extends AutoCloseable> T closeAfter(T resource) {
        resources.push(resource);
        return resource;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Exception failure = null;
        if (user != null) {
            resources.addLast(user);
            user = null;
        }
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
