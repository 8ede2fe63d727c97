package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.rpc.v1.CompositorDisplayFrame;
import io.gfxstats.rpc.v1.DisplayFrameBatch;
import io.gfxstats.rpc.v1.FeedSummary;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.feed.DisplayFramePublisher;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The FeedDisplayFrames call (compositor mode, docs/frametimeline.md): a compositor streams
 * its DisplayFrames, each is checked, classified and published by (output, MSC) through the
 * backend's {@link DisplayFramePublisher}; the summary answers the end of the stream.
 *
 * <p>Who may feed: only over the Unix socket, from a process the kernel identifies; which users
 * may is the backend's rule ({@link StatsBackend#displayFramePublisher}; the daemon's: its own
 * user, root and compositor.group), since the feed decides the compositor and display
 * attribution of every client's frames. Refusals are PERMISSION_DENIED.
 * A malformed frame ends the call with INVALID_ARGUMENT naming the frame (1-based, counted over
 * the whole stream); the frames before it stay published.
 */
final class CompositorFeedCalls {
    private static final Logger LOG = LoggerFactory.getLogger(CompositorFeedCalls.class);

    /** Feeds open at once: a compositor needs one (two while it restarts). */
    static final int MAX_FEEDS = 16;
    static final int MAX_FEEDS_PER_PEER = 4;

    private final StatsBackend backend;
    private final StreamShares shares;
    private final int ownerUid;
    private final RateLimitedLog refusals;

    /** @param shares the daemon's feed shares (one for all calls), see {@link #shares()} */
    CompositorFeedCalls(StatsBackend backend, StreamShares shares, int ownerUid, RateLimitedLog refusals) {
        this.backend = backend;
        this.shares = shares;
        this.ownerUid = ownerUid;
        this.refusals = refusals;
    }

    static StreamShares shares() {
        return new StreamShares("compositor feeds", MAX_FEEDS, MAX_FEEDS_PER_PEER, 0);
    }

    StreamObserver<DisplayFrameBatch> open(StreamObserver<FeedSummary> observer) {
        Caller caller = Caller.current();
        String refusal = refusal(caller);
        if (refusal != null) {
            refusals.warn("refused FeedDisplayFrames from " + (caller == null ? "unknown caller"
                    : caller.describe()) + ": " + refusal);
            observer.onError(Status.PERMISSION_DENIED.withDescription(refusal).asRuntimeException());
            return Ignored.INSTANCE;
        }
        DisplayFramePublisher publisher;
        try {
            publisher = backend.displayFramePublisher(caller.peer());
        } catch (StatsException e) {
            refusals.warn("refused FeedDisplayFrames from " + caller.describe() + ": " + e.getMessage());
            observer.onError(e.toStatus().asRuntimeException());
            return Ignored.INSTANCE;
        }
        try {
            shares.acquire(PeerKey.of(caller, ownerUid))
                    .releaseWhenDone((io.grpc.stub.ServerCallStreamObserver<FeedSummary>) observer, null);
        } catch (StreamShares.Refused e) {
            refusals.warn("refused FeedDisplayFrames from " + caller.describe() + ": " + e.getMessage());
            observer.onError(Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage()).asRuntimeException());
            return Ignored.INSTANCE;
        }
        LOG.info("compositor feed opened by {}", caller.describe());
        return new Feed(observer, publisher, caller.describe(), refusals);
    }

    /** Why {@code caller} may not feed whoever it is, or null. */
    static String refusal(Caller caller) {
        if (caller == null || caller.transport() != Transport.UNIX) {
            return "the compositor feed is served on the Unix socket only";
        }
        if (caller.peer() == null) {
            return "cannot identify the feeding process: no peer credentials on this connection";
        }
        return null;
    }

    /** What is wrong with {@code f}, or null. */
    static String problem(CompositorDisplayFrame f) {
        if (f.getMsc() == 0) {
            return "msc must be positive (0: the output has no refresh counter, so the frame cannot be joined)";
        }
        if (f.getRefreshPeriod() <= 0) {
            return "refresh_period must be positive, got " + f.getRefreshPeriod();
        }
        if (f.getRenderPeriod() < 0) {
            return "render_period must not be negative, got " + f.getRenderPeriod();
        }
        if (!f.getPredictionExpired() && (f.getPredictedStart() < 0 || f.getPredictedEnd() < 0
                || f.getPredictedPresent() < 0)) {
            return "predicted times must not be negative";
        }
        if (f.getActualStart() < 0 || f.getActualEnd() < 0) {
            return "actual_start and actual_end must not be negative";
        }
        if (f.getActualPresent() < -1) {
            return "actual_present must be a time or -1 (fence never signalled), got " + f.getActualPresent();
        }
        if (f.hasGpuFence() && f.getGpuFence() < 0) {
            return "gpu_fence must not be negative, got " + f.getGpuFence();
        }
        return null;
    }

    /** {@code f} as a DisplayFrame to classify (into {@code into}). */
    static DisplayFrame toDisplayFrame(CompositorDisplayFrame f, DisplayFrame into) {
        into.set(f.getToken(), f.getPredictionExpired() ? Prediction.EXPIRED : Prediction.VALID, f.getPredictedStart(),
                f.getPredictedEnd(), f.getPredictedPresent(), f.getActualStart(), f.getActualEnd(), f.getActualPresent(),
                f.getRefreshPeriod(), f.getRenderPeriod() > 0 ? f.getRenderPeriod() : f.getRefreshPeriod());
        if (f.hasGpuFence()) {
            into.gpuFence(f.getGpuFence());
        }
        return into;
    }

    /** One open feed. gRPC delivers its messages one at a time. */
    private static final class Feed implements StreamObserver<DisplayFrameBatch> {
        private final StreamObserver<FeedSummary> observer;
        private final DisplayFramePublisher publisher;
        private final String who;
        private final Set<Long> outputs = new HashSet<>();
        private final DisplayFrame scratch = new DisplayFrame();
        private long frames;
        private boolean failed;

        private final RateLimitedLog refusals;

        Feed(StreamObserver<FeedSummary> observer, DisplayFramePublisher publisher, String who, RateLimitedLog refusals) {
            this.refusals = refusals;
            this.observer = observer;
            this.publisher = publisher;
            this.who = who;
        }

        @Override
        public void onNext(DisplayFrameBatch batch) {
            if (failed) {
                return;
            }
            for (CompositorDisplayFrame f : batch.getFramesList()) {
                long n = frames + 1;
                String problem = problem(f);
                boolean first = !outputs.contains(f.getOutput());
                if (problem == null) {
                    problem = publisher.checkAndPublish(f.getOutput(), f.getMsc(), toDisplayFrame(f, scratch), first);
                }
                if (problem != null) {
                    failed = true;
                    String line = "frame " + n + " of the feed: " + problem;
                    // A compositor can reopen its feed in a loop: at most one line a second.
                    refusals.warn("compositor feed of " + who + " refused: " + line);
                    observer.onError(Status.INVALID_ARGUMENT.withDescription(line).asRuntimeException());
                    return;
                }
                outputs.add(f.getOutput());
                frames = n;
            }
        }

        @Override
        public void onError(Throwable t) {
            LOG.info("compositor feed of {} ended after {} frames: {}", who, frames, Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            if (failed) {
                return;
            }
            LOG.info("compositor feed of {} completed: {} frames", who, frames);
            observer.onNext(FeedSummary.newBuilder().setFrames(frames).setOutputs(outputs.size())
                    .setRingPath(publisher.ringPath().toString()).build());
            observer.onCompleted();
        }
    }

    /** The messages of a call already refused. */
    private enum Ignored implements StreamObserver<DisplayFrameBatch> {
        INSTANCE;

        @Override
        public void onNext(DisplayFrameBatch value) {
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public void onCompleted() {
        }
    }
}
