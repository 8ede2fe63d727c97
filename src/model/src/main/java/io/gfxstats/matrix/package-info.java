/**
 * Tencent Matrix FrameTracer's per-frame dropped-frame levels and its report formats.
 *
 * <p>"spec N.M" in this package's comments (and in its tests) is section N.M of
 * {@code docs/spec/matrix-frametracer.md}, the facts this package reproduces.
 */
package io.gfxstats.matrix;
