package io.gfxstats.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PackageNamesTest {
    @ParameterizedTest
    @ValueSource(strings = {"com.example.app", "glxgears", "a", "A_b.c9_", "org.mozilla.firefox",
            "com.android.systemui", "x.y.z.w", "my-game", "gnome-shell", "org.example.my-game_2"})
    void shouldAcceptAndroidPackageNames(String name) {
        assertEquals(name, PackageNames.requireValid(name));
        assertTrue(PackageNames.isValid(name));
    }

    @Test
    void shouldAcceptNamesUpToTheLengthLimit() {
        String longest = "a".repeat(PackageNames.MAX_LENGTH);
        assertTrue(PackageNames.isValid(longest));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> PackageNames.requireValid(longest + "b"));
        assertTrue(e.getMessage().contains("256 characters long, the limit is 255"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "../x", "../../etc", "a/b", "/abs", "a\\b", "com.foo:bar", ".hidden",
            "trailing.", "a..b", "com.1abc", "1abc", "_x", "a b", "a\tb", "a\nb", "a\u0000b", "a\u007fb",
            "com.ex\u0430mple", "a\uff0fb", "a\u2024b", "caf\u00e9", "-a", "a.-b", "-", "a.b-.", "a%2fb", "~user", "*", "a?"})
    void shouldRejectNamesThatAreNotAndroidPackageNames(String name) {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> PackageNames.requireValid(name));
        assertEquals(PackageNames.PACKAGE_FIELD, e.field());
        assertTrue(e.getMessage().startsWith("package_name: "), e.getMessage());
        assertFalse(PackageNames.isValid(name));
        for (char c : e.getMessage().toCharArray()) {
            assertTrue(c >= 0x20 && c < 0x7f, () -> "message must be printable ASCII: " + e.getMessage());
        }
    }

    @Test
    void shouldExplainWhatIsWrongWithTheName() {
        assertMessage("../x", "starts with '.'");
        assertMessage("a..b", "empty segment ('..') at index 2");
        assertMessage("a/b", "a path separator '/' at index 1");
        assertMessage("com.foo:bar", "process suffixes are not package names");
        assertMessage("a\u0000b", "\"a\\u0000b\" contains control character U+0000 at index 1");
        assertMessage("com.ex\u0430mple", "non-ASCII character U+0430 at index 6");
        assertMessage("com.1abc", "segment starting with '1'");
        assertMessage("", "empty");
    }

    @Test
    void shouldRejectNullPackageName() {
        assertThrows(InvalidArgumentException.class, () -> PackageNames.requireValid(null));
    }

    @Test
    void shouldAcceptEveryNonNegativeVersionCodeAndRejectNegativeOnes() {
        assertEquals(0, PackageNames.requireValidVersionCode(0));
        assertEquals(Long.MAX_VALUE, PackageNames.requireValidVersionCode(Long.MAX_VALUE));
        assertEquals((3L << 32) | 7, PackageNames.requireValidVersionCode((3L << 32) | 7));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> PackageNames.requireValidVersionCode(-1));
        assertEquals("version_code", e.field());
        assertThrows(InvalidArgumentException.class, () -> PackageNames.requireValidVersionCode(Long.MIN_VALUE));
    }

    @Test
    void shouldValidateEveryComponentOfAnEntryKey() {
        long day = StoreFixtures.DAY;
        assertEquals("1700006400000/com.a/3", new EntryKey(day, "com.a", 3).toString());
        assertEquals("day", assertThrows(InvalidArgumentException.class, () -> new EntryKey(day + 1, "com.a", 3)).field());
        assertEquals("day", assertThrows(InvalidArgumentException.class,
                () -> new EntryKey(-Days.MILLIS_PER_DAY, "com.a", 3)).field());
        assertEquals("package_name", assertThrows(InvalidArgumentException.class,
                () -> new EntryKey(day, "..", 3)).field());
        assertEquals("version_code", assertThrows(InvalidArgumentException.class,
                () -> new EntryKey(day, "com.a", -3)).field());
        assertEquals(new EntryKey(day, "com.a", 3), EntryKey.forStart(day + 5_000, "com.a", 3));
    }

    private static void assertMessage(String name, String fragment) {
        String message = assertThrows(InvalidArgumentException.class, () -> PackageNames.requireValid(name)).getMessage();
        assertTrue(message.contains(fragment), () -> "'" + message + "' should contain '" + fragment + "'");
    }
}
