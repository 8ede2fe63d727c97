package io.gfxstats.client;

import io.gfxstats.buffer.SceneGroup;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A session's scene names by slot: slot {@link SceneGroup#OTHER_SLOT} is "(other)", the next
 * names get the next slots up to the session's limit, later ones share "(other)". Slots never
 * change, so counts made in memory, in a buffer and in its successor line up. Guarded by the
 * session's lock.
 */
final class SceneTable {
    private final int maxScenes;
    private final String[] names = new String[SceneGroup.SLOTS];
    private final Map<String, Integer> slots = new HashMap<>();
    private int used = 1;

    SceneTable(int maxScenes) {
        this.maxScenes = maxScenes;
        names[SceneGroup.OTHER_SLOT] = SceneGroup.OTHER;
        slots.put(SceneGroup.OTHER, SceneGroup.OTHER_SLOT);
    }

    int slot(String name) {
        Integer slot = slots.get(name);
        if (slot != null) {
            return slot;
        }
        if (used > maxScenes) {
            return SceneGroup.OTHER_SLOT;
        }
        int s = used++;
        names[s] = name;
        slots.put(name, s);
        return s;
    }

    String name(int slot) {
        return names[slot];
    }

    void forEach(BiConsumer<Integer, String> action) {
        for (int s = 0; s < used; s++) {
            action.accept(s, names[s]);
        }
    }
}
