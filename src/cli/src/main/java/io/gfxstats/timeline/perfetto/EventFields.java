package io.gfxstats.timeline.perfetto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The fields of a trace's process tree and of FrameTimeline start events (spec 4.1 numbers). */
final class EventFields {
    private EventFields() {
    }

    static void readProcessTree(CodedInputStream in, Map<Integer, String> names) throws IOException {
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                return;
            }
            if (WireFormat.getTagFieldNumber(tag) == 1 && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                CodedInputStream p = in.readBytes().newCodedInput();
                int pid = 0;
                List<String> cmdline = new ArrayList<>();
                while (true) {
                    int t = p.readTag();
                    if (t == 0) {
                        break;
                    }
                    int f = WireFormat.getTagFieldNumber(t);
                    if (f == 1 && WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_VARINT) {
                        pid = p.readInt32();
                    } else if (f == 3 && WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                        cmdline.add(p.readStringRequireUtf8());
                    } else if (!p.skipField(t)) {
                        break;
                    }
                }
                if (!cmdline.isEmpty()) {
                    names.put(pid, cmdline.get(0));
                }
            } else if (!in.skipField(tag)) {
                return;
            }
        }
    }

    /** The fields of a start event; display and surface starts number them differently. */
    static void readStart(CodedInputStream m, FrameSlice s) throws IOException {
        boolean surface = s.isSurface();
        while (true) {
            int t = m.readTag();
            if (t == 0) {
                return;
            }
            int f = WireFormat.getTagFieldNumber(t);
            int wire = WireFormat.getTagWireType(t);
            if (surface && f == 5 && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                s.layerName = m.readString();
                continue;
            }
            if (surface && f == 13 && wire == WireFormat.WIRETYPE_FIXED32) {
                s.presentDelayMillis = m.readFloat();
                continue;
            }
            // jank_severity_score: field 15 of a surface start, 11 of a display start.
            if (f == (surface ? 15 : 11) && wire == WireFormat.WIRETYPE_FIXED32) {
                s.jankSeverityScore = m.readFloat();
                continue;
            }
            if (wire != WireFormat.WIRETYPE_VARINT) {
                if (!m.skipField(t)) {
                    return;
                }
                continue;
            }
            long v = m.readInt64();
            // Map display field numbers onto the surface numbering: display has no
            // display_frame_token (3) and no layer_name (5), so its pid is 3 and the rest shift by 2.
            int g = surface ? f : switch (f) {
                case 1, 2 -> f;
                case 3 -> 4;
                case 4, 5, 6, 7, 8 -> f + 2;
                case 9 -> 12;
                default -> -1;
            };
            switch (g) {
                case 1 -> s.cookie = v;
                case 2 -> s.token = v;
                case 3 -> s.displayFrameToken = v;
                case 4 -> s.pid = (int) v;
                case 6 -> s.presentType = (int) v;
                case 7 -> s.onTimeFinish = v != 0;
                case 8 -> s.gpuComposition = v != 0;
                case 9 -> s.jankType = (int) v;
                case 10 -> s.predictionType = (int) v;
                case 12 -> s.jankSeverityType = (int) v;
                default -> {
                    // other fields (is_buffer, Android 17 additions) are not needed here
                }
            }
        }
    }
}
