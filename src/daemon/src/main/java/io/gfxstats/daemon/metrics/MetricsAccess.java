package io.gfxstats.daemon.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Who may scrape (setting {@code metrics.access}): anyone, or root, the daemon's user and a list
 * of users. A peer whose uid is unknown is allowed only under {@code any}.
 */
public final class MetricsAccess {
    private final Set<Integer> uids; // null: anyone
    private final String text;

    private MetricsAccess(Set<Integer> uids, String text) {
        this.uids = uids;
        this.text = text;
    }

    public static MetricsAccess anyone() {
        return new MetricsAccess(null, "any");
    }

    /**
     * @param value the setting's checked value: {@code any}, {@code owner} or users and uids
     * @throws IllegalArgumentException naming an unknown user
     */
    public static MetricsAccess of(String value, int daemonUid) throws IOException {
        return of(value, daemonUid, Path.of("/etc/passwd"));
    }

    static MetricsAccess of(String value, int daemonUid, Path passwd) throws IOException {
        if (value.equals("any")) {
            return anyone();
        }
        Set<Integer> uids = new HashSet<>(List.of(0, daemonUid));
        if (!value.equals("owner")) {
            List<String> lines = null;
            for (String user : value.split(",")) {
                if (user.equals("owner")) {
                    continue;
                }
                if (user.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    try {
                        uids.add(Integer.parseUnsignedInt(user));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("metrics.access: " + user + " is not a uid (0 to 4294967295)");
                    }
                    continue;
                }
                if (lines == null) {
                    lines = Files.readAllLines(passwd, StandardCharsets.UTF_8);
                }
                uids.add(uidOf(user, lines));
            }
        }
        return new MetricsAccess(Set.copyOf(uids), value);
    }

    private static int uidOf(String user, List<String> passwd) {
        for (String line : passwd) {
            String[] f = line.split(":", -1);
            if (f.length > 2 && f[0].equals(user)) {
                return Integer.parseUnsignedInt(f[2]);
            }
        }
        throw new IllegalArgumentException("metrics.access: no user " + user
                + " in /etc/passwd; name an existing user or give a uid");
    }

    boolean allows(OptionalInt uid) {
        return uids == null || (uid.isPresent() && uids.contains(uid.getAsInt()));
    }

    boolean open() {
        return uids == null;
    }

    @Override
    public String toString() {
        return text;
    }
}
