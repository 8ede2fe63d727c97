package io.gfxstats.client;

import java.io.IOException;

/**
 * The provider will never hand out a buffer for this request (the daemon refused it with
 * INVALID_ARGUMENT, PERMISSION_DENIED or another permanent status): asking again cannot help,
 * so the session stops asking and reports the reason once, as an error.
 */
public final class AttachRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    public AttachRefusedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
