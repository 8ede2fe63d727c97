package io.gfxstats.buffer;


import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The writer's side of one entry of the scene group's slot table ({@link SceneGroup}): the name
 * first, then the state with a release store, so a reader that sees the slot named sees its whole
 * name.
 */
final class SceneSlotEntry {

    private SceneSlotEntry() {
    }

    /**
     * Names the entry at {@code entry} with {@code name} (checked UTF-8 bytes). Naming a named
     * entry again with the same name does nothing; with another name it fails, naming the entry
     * as {@code what} says.
     */
    static void name(long entry, byte[] name, Supplier<String> what) {
        if (BufferMemory.readVolatileInt(entry + SceneGroup.SLOT_STATE) == SceneGroup.SLOT_NAMED) {
            byte[] existing = read(entry);
            if (!Arrays.equals(existing, name)) {
                throw new IllegalStateException(what.get() + " is already named '"
                        + new String(existing, StandardCharsets.UTF_8) + "', not '"
                        + new String(name, StandardCharsets.UTF_8) + "'");
            }
            return;
        }
        for (int i = 0; i < name.length; i++) {
            BufferMemory.writeByte(entry + SceneGroup.SLOT_NAME + i, name[i]);
        }
        BufferMemory.writeInt(entry + SceneGroup.SLOT_NAME_LENGTH, name.length);
        BufferMemory.writeOrderedInt(entry + SceneGroup.SLOT_STATE, SceneGroup.SLOT_NAMED);
    }

    private static byte[] read(long entry) {
        int length = BufferMemory.readInt(entry + SceneGroup.SLOT_NAME_LENGTH);
        byte[] bytes = new byte[Math.max(0, Math.min(length, SceneGroup.NAME_MAX_BYTES))];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = BufferMemory.readByte(entry + SceneGroup.SLOT_NAME + i);
        }
        return bytes;
    }
}
