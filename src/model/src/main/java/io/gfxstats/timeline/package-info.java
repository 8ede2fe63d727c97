/**
 * SurfaceFlinger's FrameTimeline classification (present-time jank) for offline logs, Perfetto traces and Linux clients.
 *
 * <p>"spec N.M" in this package's comments (and in its tests) is section N.M of
 * {@code docs/spec/frametimeline.md}, the facts this package reproduces.
 */
package io.gfxstats.timeline;
