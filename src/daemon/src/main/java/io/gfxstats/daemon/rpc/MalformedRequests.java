package io.gfxstats.daemon.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import io.gfxstats.daemon.log.RateLimitedLog;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Requests whose bytes are not the method's message (truncated, invalid UTF-8 in a string, a
 * client in another language with another .proto) are refused with INVALID_ARGUMENT and one
 * readable line, instead of grpc-java's UNKNOWN plus a stack trace in the log for each.
 *
 * <p>grpc-java parses a request before any interceptor sees it and treats a parse failure as an
 * application error. So the request parser is wrapped: on failure it returns an empty message
 * carrying the reason in an unknown field no client sends, and an interceptor closes such a call
 * with the reason before the service sees it.
 */
final class MalformedRequests {
    /** The largest field number protobuf allows: the marker of a request that did not parse. */
    private static final int MARKER_FIELD = (1 << 29) - 1;

    private MalformedRequests() {
    }

    /** {@code service} with lenient request parsers and the interceptor that refuses what they could not parse. */
    static ServerServiceDefinition guard(ServerServiceDefinition service, RateLimitedLog refusals) {
        ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(service.getServiceDescriptor().getName());
        for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
            b.addMethod(lenient(m));
        }
        return ServerInterceptors.intercept(b.build(), new Refuser(refusals));
    }

    private static <Q, R> ServerMethodDefinition<Q, R> lenient(ServerMethodDefinition<Q, R> def) {
        MethodDescriptor<Q, R> m = def.getMethodDescriptor();
        MethodDescriptor<Q, R> lenient = m.toBuilder(new LenientParser<>(m.getRequestMarshaller()),
                m.getResponseMarshaller()).build();
        return ServerMethodDefinition.create(lenient, def.getServerCallHandler());
    }

    /** Why a request did not parse, or null for a real request. */
    static String reasonOf(Object request) {
        if (request instanceof Message msg) {
            UnknownFieldSet.Field f = msg.getUnknownFields().getField(MARKER_FIELD);
            if (f != null && !f.getLengthDelimitedList().isEmpty()) {
                return f.getLengthDelimitedList().get(0).toString(StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        m = m.replaceFirst("^While parsing a protocol message, ", "");
        int end = m.indexOf(". ");
        if (end > 0) {
            m = m.substring(0, end);
        }
        if (m.endsWith(".")) {
            m = m.substring(0, m.length() - 1);
        }
        return m.replace('\n', ' ');
    }

    private static final class LenientParser<Q> implements MethodDescriptor.PrototypeMarshaller<Q> {
        private final MethodDescriptor.Marshaller<Q> delegate;

        LenientParser(MethodDescriptor.Marshaller<Q> delegate) {
            this.delegate = delegate;
        }

        @Override
        public InputStream stream(Q value) {
            return delegate.stream(value);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Q parse(InputStream stream) {
            try {
                return delegate.parse(stream);
            } catch (RuntimeException e) {
                Message prototype = (Message) getMessagePrototype();
                if (prototype == null) {
                    throw e;
                }
                String reason = "malformed " + prototype.getDescriptorForType().getName() + ": " + describe(e);
                return (Q) prototype.toBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
                        .addField(MARKER_FIELD, UnknownFieldSet.Field.newBuilder()
                                .addLengthDelimited(ByteString.copyFromUtf8(reason)).build())
                        .build()).build();
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public Q getMessagePrototype() {
            return delegate instanceof MethodDescriptor.PrototypeMarshaller<?> p ? (Q) p.getMessagePrototype() : null;
        }

        @Override
        public Class<Q> getMessageClass() {
            return delegate instanceof MethodDescriptor.ReflectableMarshaller<Q> r ? r.getMessageClass() : null;
        }
    }

    private static final class Refuser implements ServerInterceptor {
        private final RateLimitedLog refusals;

        Refuser(RateLimitedLog refusals) {
            this.refusals = refusals;
        }

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                           ServerCallHandler<Q, R> next) {
            ServerCall.Listener<Q> delegate = next.startCall(call, headers);
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
                private boolean refused;

                @Override
                public void onMessage(Q message) {
                    String reason = reasonOf(message);
                    if (reason == null) {
                        super.onMessage(message);
                        return;
                    }
                    refused = true;
                    Caller caller = Caller.current();
                    refusals.warn("refused " + call.getMethodDescriptor().getBareMethodName() + " from "
                            + (caller == null ? "unknown caller" : caller.describe()) + ": " + reason);
                    call.close(Status.INVALID_ARGUMENT.withDescription(reason), new Metadata());
                }

                @Override
                public void onHalfClose() {
                    if (!refused) {
                        super.onHalfClose();
                    }
                }
            };
        }
    }
}
