package io.gfxstats.trace;

/** Receives the user-marker lines of a trace, in file order. */
@FunctionalInterface
public interface MarkerSink {
    void marker(MarkerLine line) throws TraceFormatException;
}
