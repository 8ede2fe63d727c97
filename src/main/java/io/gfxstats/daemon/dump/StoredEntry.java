package io.gfxstats.daemon.dump;

import io.gfxstats.proto.GraphicsStatsProto;

/** A readable day file and its content (marks included; writers strip them). */
public record StoredEntry(EntryKey key, GraphicsStatsProto proto) {
}
