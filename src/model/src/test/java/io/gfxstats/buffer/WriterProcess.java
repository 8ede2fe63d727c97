package io.gfxstats.buffer;

import io.gfxstats.frame.ModernJankTracker;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child process for multi-process tests: {@code <buffer> <threads> <frames> <firstSeed>}. Maps
 * the buffer, prepares one stripe and tracker per thread, prints "ready", waits for "go" on
 * stdin, records {@link FrameStream} frames (thread i uses seed firstSeed + i), prints "done".
 */
public final class WriterProcess {
    private WriterProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        int frames = Integer.parseInt(args[2]);
        long firstSeed = Long.parseLong(args[3]);
        try (BufferWriter writer = BufferWriter.open(file)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                StripeWriter stripe = writer.claimStripe();
                ModernJankTracker tracker = FrameStream.tracker();
                FrameStream stream = new FrameStream(firstSeed + t);
                workers.add(new Thread(() -> {
                    for (int i = 0; i < frames; i++) {
                        tracker.finishFrame(stream.next(), stripe);
                    }
                    stripe.release();
                }, "writer-" + t));
            }
            System.out.println("ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"go".equals(in.readLine())) {
                System.exit(3);
            }
            for (Thread w : workers) {
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
        }
        System.out.println("done");
        System.out.flush();
    }
}
