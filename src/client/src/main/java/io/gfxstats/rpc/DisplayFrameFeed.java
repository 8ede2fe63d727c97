package io.gfxstats.rpc;

import io.gfxstats.rpc.v1.CompositorDisplayFrame;
import io.gfxstats.rpc.v1.DisplayFrameBatch;
import io.gfxstats.rpc.v1.FeedSummary;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.Prediction;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A compositor's open FeedDisplayFrames call (compositor mode, docs/frametimeline.md), from
 * {@link GfxStatsClient#feedDisplayFrames(int)}: {@link #send} each DisplayFrame as its flip
 * completes (in presentation order per output); frames go out in batches of the given size, or at
 * {@link #flush()}; {@link #finish} ends the stream and returns the daemon's summary. Sending
 * waits while the daemon is slower than the compositor (gRPC flow control), so memory stays
 * bounded. A refusal by the daemon (PERMISSION_DENIED, INVALID_ARGUMENT naming the frame) is
 * thrown by the next call. One thread at a time.
 */
public final class DisplayFrameFeed implements AutoCloseable {
    private final Path socket;
    private final String target;
    private final int batchSize;
    private final Object ready = new Object();
    private final CompletableFuture<FeedSummary> result = new CompletableFuture<>();
    private final DisplayFrameBatch.Builder batch = DisplayFrameBatch.newBuilder();
    private volatile ClientCallStreamObserver<DisplayFrameBatch> requests;
    private boolean finished;

    DisplayFrameFeed(Path socket, String target, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        this.socket = socket;
        this.target = target;
        this.batchSize = batchSize;
    }

    /** The observer the call is started with. */
    ClientResponseObserver<DisplayFrameBatch, FeedSummary> observer() {
        return new ClientResponseObserver<>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<DisplayFrameBatch> stream) {
                requests = stream;
                stream.setOnReadyHandler(() -> {
                    synchronized (ready) {
                        ready.notifyAll();
                    }
                });
            }

            @Override
            public void onNext(FeedSummary summary) {
                result.complete(summary);
            }

            @Override
            public void onError(Throwable t) {
                result.completeExceptionally(t);
                synchronized (ready) {
                    ready.notifyAll();
                }
            }

            @Override
            public void onCompleted() {
                result.complete(FeedSummary.getDefaultInstance());
            }
        };
    }

    /** Queues one frame; sends the batch when it is full. */
    public void send(CompositorDisplayFrame frame) throws GfxStatsClientException {
        failIfRefused();
        if (finished) {
            throw new IllegalStateException("the feed is finished");
        }
        batch.addFrames(frame);
        if (batch.getFramesCount() >= batchSize) {
            flush();
        }
    }

    /**
     * Queues the display frame {@code frame} (its inputs; token, predictions, actual times,
     * GPU fence, periods) of {@code output} shown at {@code msc}.
     */
    public void send(long output, long msc, DisplayFrame frame) throws GfxStatsClientException {
        send(toProto(output, msc, frame));
    }

    /** The wire form of a display frame of {@code output} shown at {@code msc}. */
    public static CompositorDisplayFrame toProto(long output, long msc, DisplayFrame d) {
        CompositorDisplayFrame.Builder b = CompositorDisplayFrame.newBuilder()
                .setOutput(output)
                .setMsc(msc)
                .setToken(d.token())
                .setPredictionExpired(d.prediction() != Prediction.VALID)
                .setPredictedStart(d.predictedStart())
                .setPredictedEnd(d.predictedEnd())
                .setPredictedPresent(d.predictedPresent())
                .setActualStart(d.actualStart())
                .setActualEnd(d.actualEnd())
                .setActualPresent(d.actualPresent())
                .setRefreshPeriod(d.refreshPeriod())
                .setRenderPeriod(d.renderPeriod());
        if (d.hasGpuFence()) {
            b.setGpuFence(d.gpuFenceTime());
        }
        return b.build();
    }

    /** Sends the frames queued so far, waiting while the daemon is not ready for more. */
    public void flush() throws GfxStatsClientException {
        if (batch.getFramesCount() == 0) {
            return;
        }
        synchronized (ready) {
            while (!requests.isReady() && !result.isDone()) {
                try {
                    ready.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    requests.cancel("interrupted", e);
                    throw new GfxStatsClientException("interrupted while feeding display frames",
                            Status.Code.CANCELLED, false, e);
                }
            }
        }
        failIfRefused();
        requests.onNext(batch.build());
        batch.clear();
    }

    /** Sends what is queued, ends the stream and waits (at most {@code timeout}) for the daemon's summary. */
    public FeedSummary finish(Duration timeout) throws GfxStatsClientException {
        flush();
        if (!finished) {
            finished = true;
            requests.onCompleted();
        }
        try {
            return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), timeout);
        } catch (TimeoutException e) {
            requests.cancel("no summary in time", null);
            throw ClientErrors.translate(Status.DEADLINE_EXCEEDED.withDescription("no feed summary").asRuntimeException(),
                    socket, target, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            requests.cancel("interrupted", e);
            throw new GfxStatsClientException("interrupted while finishing the feed", Status.Code.CANCELLED, false, e);
        }
    }

    /** Cancels the call if it was not finished. */
    @Override
    public void close() {
        if (!finished && !result.isDone()) {
            finished = true;
            requests.cancel("feed closed", null);
        }
    }

    private void failIfRefused() throws GfxStatsClientException {
        if (result.isCompletedExceptionally()) {
            try {
                result.join();
            } catch (CompletionException e) {
                throw translate(e.getCause(), Duration.ZERO);
            }
        }
    }

    private GfxStatsClientException translate(Throwable t, Duration deadline) {
        StatusRuntimeException s = t instanceof StatusRuntimeException e ? e : Status.fromThrowable(t).asRuntimeException();
        return ClientErrors.translate(s, socket, target, deadline);
    }
}
