package io.gfxstats.cli;

import io.gfxstats.live.LiveSnapshot;
import io.gfxstats.live.SceneFeed;
import io.gfxstats.live.TopModel;
import io.gfxstats.live.TopRenderer;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.InfoCmp.Capability;
import org.jline.utils.NonBlockingReader;

/**
 * The interactive screen of {@code gfxstats top} on a terminal (JLine): the alternate screen,
 * raw keys ({@code q} or Ctrl-C quits, {@code s} changes the sort, {@code c} toggles cumulative),
 * redrawn on every snapshot, keystroke and resize; the terminal is restored however it ends
 * (also on SIGTERM, through a shutdown hook).
 */
final class TopScreen {
    private static final int KEY_POLL_MILLIS = 50;
    private static final int CTRL_C = 3;

    private TopScreen() {
    }

    /** Runs until quit or the end of the feed; returns the error that ended it, or null. */
    static String run(SceneFeed feed, TopModel model, TopRenderer renderer, boolean colourWanted) throws IOException {
        Terminal terminal = TerminalBuilder.builder().system(true).nativeSignals(true).build();
        AtomicBoolean quit = new AtomicBoolean();
        AtomicBoolean dirty = new AtomicBoolean(true);
        AtomicReference<String> error = new AtomicReference<>();
        BlockingQueue<LiveSnapshot> snapshots = new LinkedBlockingQueue<>();
        Attributes saved = terminal.enterRawMode();
        AtomicBoolean restored = new AtomicBoolean();
        Runnable restore = () -> {
            if (restored.compareAndSet(false, true)) {
                terminal.puts(Capability.exit_ca_mode);
                terminal.puts(Capability.cursor_visible);
                terminal.setAttributes(saved);
                terminal.flush();
            }
        };
        Thread hook = new Thread(restore, "gfxstats-top-restore");
        Runtime.getRuntime().addShutdownHook(hook);
        terminal.handle(Terminal.Signal.INT, s -> quit.set(true));
        terminal.handle(Terminal.Signal.WINCH, s -> dirty.set(true));
        Thread reader = new Thread(() -> {
            try {
                LiveSnapshot s;
                while (!quit.get() && (s = feed.next()) != null) {
                    snapshots.add(s);
                }
                if (!quit.get()) {
                    error.set("the daemon ended the stream");
                }
            } catch (IOException | RuntimeException e) {
                error.set(e.getMessage() != null ? e.getMessage() : e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gfxstats-top-feed");
        reader.setDaemon(true);
        try {
            terminal.puts(Capability.enter_ca_mode);
            terminal.puts(Capability.cursor_invisible);
            terminal.flush();
            boolean colour = colourWanted && colours(terminal) >= 256;
            reader.start();
            NonBlockingReader keys = terminal.reader();
            while (!quit.get() && error.get() == null) {
                int c = keys.read(KEY_POLL_MILLIS);
                if (c == 'q' || c == 'Q' || c == CTRL_C || c == NonBlockingReader.EOF) {
                    break;
                } else if (c == 's' || c == 'S') {
                    model.nextSort();
                    dirty.set(true);
                } else if (c == 'c' || c == 'C') {
                    model.toggleCumulative();
                    dirty.set(true);
                }
                LiveSnapshot s;
                while ((s = snapshots.poll()) != null) {
                    model.accept(s);
                    dirty.set(true);
                }
                if (dirty.getAndSet(false) && model.ready()) {
                    draw(terminal, renderer.lines(model.frame(), terminal.getWidth(), terminal.getHeight(), colour, true));
                }
            }
        } finally {
            quit.set(true);
            restore.run();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook restores
            }
            feed.close();
            terminal.close();
        }
        return error.get();
    }

    private static int colours(Terminal terminal) {
        Integer n = terminal.getNumericCapability(Capability.max_colors);
        return n == null ? 0 : n;
    }

    private static void draw(Terminal terminal, List<String> lines) {
        int height = Math.max(1, terminal.getHeight());
        int width = Math.max(1, terminal.getWidth());
        PrintWriter w = terminal.writer();
        terminal.puts(Capability.cursor_home);
        for (int i = 0; i < lines.size() && i < height; i++) {
            // Cut to the width (colours kept): a wrapped line would push the rest off the screen.
            w.print(AttributedString.fromAnsi(lines.get(i)).columnSubSequence(0, width).toAnsi(terminal));
            terminal.puts(Capability.clr_eol);
            if (i < height - 1 && i < lines.size() - 1) {
                w.print("\r\n");
            }
        }
        terminal.puts(Capability.clr_eos);
        w.flush();
    }
}
