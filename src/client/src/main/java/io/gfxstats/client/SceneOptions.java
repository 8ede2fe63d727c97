package io.gfxstats.client;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;

import java.util.Objects;

/**
 * Scene and Matrix settings of a {@link StatsSession} (docs/scenes.md).
 *
 * @param enabled       count per scene and Matrix's dropped-frame levels (default true); when
 *                      false the trackers skip that work entirely and buffers show no scenes
 * @param maxScenes     distinct scene names a session counts (1..{@value #MAX_SCENES}); frames of
 *                      further names go to {@link SceneGroup#OTHER}
 * @param defaultScene  the scene of frames of trackers that never set one, until
 *                      {@link StatsSession#setDefaultScene(String)} changes it (default "default",
 *                      Matrix's initial scene)
 * @param matrixMode    how dropped frames are computed (Matrix 2.1 by default)
 * @param matrixLevels  the level bounds (3, 9, 24, 42 by default)
 * @param refreshRateHz the display's refresh rate as the display reports it (Matrix uses the
 *                      float); 0: 1e9 / each frame's FrameInterval
 */
public record SceneOptions(boolean enabled, int maxScenes, String defaultScene, MatrixMode matrixMode,
                           MatrixLevels matrixLevels, float refreshRateHz) {
    /** Named scenes a buffer holds besides "(other)". */
    public static final int MAX_SCENES = SceneGroup.SLOTS - 1;
    public static final String DEFAULT_SCENE = "default";
    public static final SceneOptions DEFAULT = new SceneOptions(true, MAX_SCENES, DEFAULT_SCENE, MatrixMode.V2_1,
            MatrixLevels.DEFAULT, 0f);
    /** No scenes, no Matrix levels: nothing added to the per-frame path. */
    public static final SceneOptions DISABLED = new SceneOptions(false, MAX_SCENES, DEFAULT_SCENE, MatrixMode.V2_1,
            MatrixLevels.DEFAULT, 0f);

    public SceneOptions {
        if (maxScenes < 1 || maxScenes > MAX_SCENES) {
            throw new IllegalArgumentException("scenes.max must be 1.." + MAX_SCENES + ": " + maxScenes);
        }
        SceneGroup.requireName(defaultScene);
        if (SceneGroup.OTHER.equals(defaultScene)) {
            throw new IllegalArgumentException("the default scene cannot be " + SceneGroup.OTHER);
        }
        Objects.requireNonNull(matrixMode, "matrixMode");
        Objects.requireNonNull(matrixLevels, "matrixLevels");
        if (!(refreshRateHz == 0f || (refreshRateHz >= 1f && refreshRateHz <= 1000f))) {
            throw new IllegalArgumentException("refresh rate must be 0 (from the frames) or 1..1000 Hz: "
                    + refreshRateHz);
        }
    }

    public SceneOptions withMaxScenes(int max) {
        return new SceneOptions(enabled, max, defaultScene, matrixMode, matrixLevels, refreshRateHz);
    }

    public SceneOptions withDefaultScene(String scene) {
        return new SceneOptions(enabled, maxScenes, scene, matrixMode, matrixLevels, refreshRateHz);
    }

    public SceneOptions withMatrix(MatrixMode mode, MatrixLevels levels) {
        return new SceneOptions(enabled, maxScenes, defaultScene, mode, levels, refreshRateHz);
    }

    public SceneOptions withRefreshRateHz(float hz) {
        return new SceneOptions(enabled, maxScenes, defaultScene, matrixMode, matrixLevels, hz);
    }
}
