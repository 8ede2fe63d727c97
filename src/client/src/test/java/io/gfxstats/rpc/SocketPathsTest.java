package io.gfxstats.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SocketPathsTest {
    @Test
    void shouldPreferTheExplicitPathThenTheEnvironment() {
        Map<String, String> env = Map.of("GFXSTATS_SOCKET", "/run/x.sock", "HOME", "/home/u");
        assertEquals(Path.of("/tmp/a.sock"), SocketPaths.resolve("/tmp/a.sock", env));
        assertEquals(Path.of("/run/x.sock"), SocketPaths.resolve(null, env));
        assertEquals(Path.of("/run/x.sock"), SocketPaths.resolve(" ", env));
    }

    @Test
    void shouldDefaultToTheUsersStateDirectory() {
        assertEquals(Path.of("/home/u/.local/state/gfxstats/gfxstatsd.sock"),
                SocketPaths.resolve(null, Map.of("HOME", "/home/u")));
        assertEquals(Path.of("/xdg/state/gfxstats/gfxstatsd.sock"),
                SocketPaths.resolve(null, Map.of("HOME", "/home/u", "XDG_STATE_HOME", "/xdg/state")));
        assertEquals(Path.of("/home/u/.local/state/gfxstats/gfxstatsd.sock"),
                SocketPaths.resolve(null, Map.of("HOME", "/home/u", "XDG_STATE_HOME", "relative")),
                "a relative XDG_STATE_HOME is invalid and ignored");
    }
}
