package io.gfxstats.dump;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import io.gfxstats.proto.GraphicsStatsProto;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Removes gfxstats' private fields (numbers >= {@value #FIRST_PRIVATE_FIELD}) from a message
 * before it leaves the daemon. Day files carry them (e.g. {@code gfxstats_buffer_marks}); dumps
 * must be exactly what Android would emit.
 *
 * <p>Works from the descriptors rather than a list of known fields, so a private field added to
 * the schema later, or one kept as an unknown field from a newer daemon's file, is removed too, at
 * any nesting depth. Messages without private fields are returned as the same instance.
 */
public final class PrivateFields {
    public static final int FIRST_PRIVATE_FIELD = 1000;

    private static final Map<Descriptor, Shape> SHAPES = new ConcurrentHashMap<>();

    private PrivateFields() {
    }

    /**
     * Whether GraphicsStatsProto's only private fields are {@code gfxstats_buffer_marks} and
     * {@code gfxstats_scenes}, {@code gfxstats_frame_timeline} and
     * {@code gfxstats_ring_dropped_frames} and its
     * nested summary and bucket messages have none, so that {@link #strip(GraphicsStatsProto)}
     * can use the generated accessors instead of walking 180 buckets by reflection. If the schema
     * grows another private or nested field, this turns false and the generic walk takes over.
     */
    private static final boolean KNOWN_SHAPE = knownShape();

    public static GraphicsStatsProto strip(GraphicsStatsProto proto) {
        return KNOWN_SHAPE ? stripKnownShape(proto) : (GraphicsStatsProto) stripMessage(proto);
    }

    private static GraphicsStatsProto stripKnownShape(GraphicsStatsProto proto) {
        GraphicsStatsProto.Builder b = null;
        if (proto.getGfxstatsBufferMarksCount() != 0) {
            b = proto.toBuilder().clearGfxstatsBufferMarks();
        }
        if (proto.getGfxstatsScenesCount() != 0) {
            b = (b != null ? b : proto.toBuilder()).clearGfxstatsScenes();
        }
        if (proto.hasGfxstatsFrameTimeline()) {
            b = (b != null ? b : proto.toBuilder()).clearGfxstatsFrameTimeline();
        }
        if (proto.hasGfxstatsRingDroppedFrames()) {
            b = (b != null ? b : proto.toBuilder()).clearGfxstatsRingDroppedFrames();
        }
        if (hasPrivate(proto.getUnknownFields())) {
            b = b != null ? b : proto.toBuilder();
            b.setUnknownFields(publicOnly(proto.getUnknownFields()));
        }
        if (proto.hasSummary() && hasPrivate(proto.getSummary().getUnknownFields())) {
            b = b != null ? b : proto.toBuilder();
            b.setSummary(proto.getSummary().toBuilder().setUnknownFields(publicOnly(proto.getSummary().getUnknownFields())));
        }
        for (int i = 0; i < proto.getHistogramCount(); i++) {
            UnknownFieldSet u = proto.getHistogram(i).getUnknownFields();
            if (hasPrivate(u)) {
                b = b != null ? b : proto.toBuilder();
                b.setHistogram(i, proto.getHistogram(i).toBuilder().setUnknownFields(publicOnly(u)));
            }
        }
        for (int i = 0; i < proto.getGpuHistogramCount(); i++) {
            UnknownFieldSet u = proto.getGpuHistogram(i).getUnknownFields();
            if (hasPrivate(u)) {
                b = b != null ? b : proto.toBuilder();
                b.setGpuHistogram(i, proto.getGpuHistogram(i).toBuilder().setUnknownFields(publicOnly(u)));
            }
        }
        return b == null ? proto : b.build();
    }

    private static boolean knownShape() {
        Descriptor top = GraphicsStatsProto.getDescriptor();
        Shape shape = new Shape(top);
        List<String> privateNames = shape.privateFields.stream().map(FieldDescriptor::getName).toList();
        List<String> messageNames = shape.messageFields.stream().map(FieldDescriptor::getName).toList();
        if (!privateNames.equals(List.of("gfxstats_buffer_marks", "gfxstats_scenes", "gfxstats_frame_timeline",
                "gfxstats_ring_dropped_frames"))
                || !messageNames.equals(List.of("summary", "histogram", "gpu_histogram"))) {
            return false;
        }
        for (FieldDescriptor f : shape.messageFields) {
            Shape nested = new Shape(f.getMessageType());
            if (!nested.privateFields.isEmpty() || !nested.messageFields.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@link #strip(GraphicsStatsProto)} uses the generated accessors (for tests). */
    static boolean usesKnownShape() {
        return KNOWN_SHAPE;
    }

    /** {@code message} without private fields, at any depth. */
    public static Message stripMessage(Message message) {
        Message.Builder b = null;
        UnknownFieldSet unknown = message.getUnknownFields();
        if (hasPrivate(unknown)) {
            b = message.toBuilder();
            b.setUnknownFields(publicOnly(unknown));
        }
        Shape shape = SHAPES.computeIfAbsent(message.getDescriptorForType(), Shape::new);
        for (FieldDescriptor f : shape.privateFields) {
            if (f.isRepeated() ? message.getRepeatedFieldCount(f) > 0 : message.hasField(f)) {
                if (b == null) {
                    b = message.toBuilder();
                }
                b.clearField(f);
            }
        }
        for (FieldDescriptor f : shape.messageFields) {
            if (f.isRepeated()) {
                int n = message.getRepeatedFieldCount(f);
                for (int i = 0; i < n; i++) {
                    Message child = (Message) message.getRepeatedField(f, i);
                    Message clean = stripMessage(child);
                    if (clean != child) {
                        if (b == null) {
                            b = message.toBuilder();
                        }
                        b.setRepeatedField(f, i, clean);
                    }
                }
            } else if (message.hasField(f)) {
                Message child = (Message) message.getField(f);
                Message clean = stripMessage(child);
                if (clean != child) {
                    if (b == null) {
                        b = message.toBuilder();
                    }
                    b.setField(f, clean);
                }
            }
        }
        return b == null ? message : b.build();
    }

    private static boolean hasPrivate(UnknownFieldSet unknown) {
        if (unknown.asMap().isEmpty()) {
            return false;
        }
        for (Integer number : unknown.asMap().keySet()) {
            if (number >= FIRST_PRIVATE_FIELD) {
                return true;
            }
        }
        return false;
    }

    private static UnknownFieldSet publicOnly(UnknownFieldSet unknown) {
        UnknownFieldSet.Builder kept = UnknownFieldSet.newBuilder();
        unknown.asMap().forEach((number, field) -> {
            if (number < FIRST_PRIVATE_FIELD) {
                kept.addField(number, field);
            }
        });
        return kept.build();
    }

    /** Per message type: its private fields, and its public message-typed fields to descend into. */
    private static final class Shape {
        final List<FieldDescriptor> privateFields = new ArrayList<>();
        final List<FieldDescriptor> messageFields = new ArrayList<>();

        Shape(Descriptor type) {
            for (FieldDescriptor f : type.getFields()) {
                if (f.getNumber() >= FIRST_PRIVATE_FIELD) {
                    privateFields.add(f);
                } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                    messageFields.add(f);
                }
            }
        }
    }
}
