package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.dumpclient.DumpQuery;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.DumpRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * {@code gfxstats dump} through grpc-java ({@code GFXSTATS_DUMP_CLIENT=grpc}). A class of its own so
 * that the default path never loads grpc-java's classes, not even to verify {@link DumpCommand}.
 */
final class GrpcJavaDump {
    private GrpcJavaDump() {
    }

    static void dump(Args.Parsed args, Map<String, String> env, DumpQuery query, OutputStream out)
            throws UsageException, GfxStatsClientException, IOException {
        try (GfxStatsClient client = DaemonCall.open(args, env)) {
            client.dump(DumpRequest.parseFrom(query.encode()), out);
        }
    }
}
