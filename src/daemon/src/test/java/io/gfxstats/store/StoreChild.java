package io.gfxstats.store;

import java.nio.file.Path;

/**
 * A separate JVM using a store, for tests that SIGKILL it. {@code hold ROOT}: open the store and
 * wait for stdin to close. {@code write ROOT}: rewrite one entry forever, printing
 * {@code wrote N} after each write returned (so the parent knows what was acknowledged).
 */
public final class StoreChild {
    static final EntryKey KEY = new EntryKey(StoreFixtures.DAY, "com.example.crash", 1);

    private StoreChild() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[1]);
        try (DayStore store = DayStore.open(root, StoreFixtures.CLOCK)) {
            if (args[0].equals("hold")) {
                System.out.println("ready");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // wait for the parent
                }
                return;
            }
            FileStamp stamp = store.stamp(KEY);
            int start = store.read(KEY).proto().map(p -> p.getSummary().getTotalFrames()).orElse(0);
            for (int i = start + 1; ; i++) {
                stamp = store.write(KEY, StoreFixtures.proto(KEY, i), stamp);
                System.out.println("wrote " + i);
                System.out.flush();
            }
        }
    }
}
