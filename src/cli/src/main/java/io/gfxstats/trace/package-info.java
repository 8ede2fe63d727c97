/**
 * Frames from OpenHarmony (hitrace) and Android (atrace) text traces, as OpenHarmony's trace_streamer computes them.
 *
 * <p>"spec N.M" in this package's comments (and in its tests) is section N.M of
 * {@code docs/spec/trace-frames.md}, the facts this package reproduces.
 */
package io.gfxstats.trace;
