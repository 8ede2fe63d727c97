package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.daemon.dump.DumpService;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code pull --json} entries carry Android's janky count under the name every gfxstats JSON uses. */
class PullJsonTest {
    @Test
    void shouldCarryTheJankyFramesOfEachEntry() throws Exception {
        GraphicsStatsProto p = GraphicsStatsProto.newBuilder().setPackageName("com.example.app").setVersionCode(4)
                .setStatsStart(1).setStatsEnd(2)
                .setSummary(GraphicsStatsJankSummaryProto.newBuilder().setTotalFrames(1061).setJankyFrames(802)
                        .setHighInputLatencyCount(1313))
                .build();
        String json = DaemonCall.json(DumpService.pullResponse(0, List.of(p)));
        JsonObject entry = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("entries").get(0)
                .getAsJsonObject();
        assertEquals(1061, entry.get("totalFrames").getAsInt());
        assertEquals(802, entry.get("jankyFrames").getAsInt());
        assertEquals(1313, entry.get("highInputLatencyCount").getAsInt());
    }
}
