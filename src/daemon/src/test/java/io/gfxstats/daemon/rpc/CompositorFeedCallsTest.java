package io.gfxstats.daemon.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gfxstats.rpc.v1.CompositorDisplayFrame;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class CompositorFeedCallsTest {
    @Test
    void shouldTakeAFeedOnlyOverTheUnixSocketFromAnIdentifiedProcess() {
        assertNull(CompositorFeedCalls.refusal(new Caller(Transport.UNIX, new PeerIdentity(10, 1000, 0), null)),
                "which uids may feed is the backend's rule");
        assertEquals("the compositor feed is served on the Unix socket only",
                CompositorFeedCalls.refusal(new Caller(Transport.TCP, null, new InetSocketAddress("127.0.0.1", 9))));
        assertEquals("the compositor feed is served on the Unix socket only", CompositorFeedCalls.refusal(null));
        assertEquals("cannot identify the feeding process: no peer credentials on this connection",
                CompositorFeedCalls.refusal(new Caller(Transport.UNIX, null, null)));
    }

    @Test
    void shouldNameWhatIsWrongWithAFrame() {
        CompositorDisplayFrame ok = CompositorDisplayFrame.newBuilder().setOutput(1).setMsc(5).setPredictedStart(1)
                .setPredictedEnd(2).setPredictedPresent(3).setActualStart(1).setActualEnd(2).setActualPresent(-1)
                .setRefreshPeriod(16).build();
        assertNull(CompositorFeedCalls.problem(ok));
        assertNull(CompositorFeedCalls.problem(ok.toBuilder().setPredictionExpired(true).setPredictedStart(-9).build()),
                "predictions of an expired frame are not used");
        assertEquals("render_period must not be negative, got -1",
                CompositorFeedCalls.problem(ok.toBuilder().setRenderPeriod(-1).build()));
        assertEquals("predicted times must not be negative",
                CompositorFeedCalls.problem(ok.toBuilder().setPredictedEnd(-1).build()));
        assertEquals("actual_start and actual_end must not be negative",
                CompositorFeedCalls.problem(ok.toBuilder().setActualStart(-1).build()));
        assertEquals("gpu_fence must not be negative, got -3",
                CompositorFeedCalls.problem(ok.toBuilder().setGpuFence(-3).build()));
        assertEquals(16, CompositorFeedCalls.toDisplayFrame(ok, new io.gfxstats.timeline.DisplayFrame()).renderPeriod(),
                "render period 0: the refresh period");
    }
}
