package io.gfxstats.daemon.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamSharesTest {
    private static final PeerKey OWNER = new PeerKey("pid 10", true);
    private static final PeerKey OTHER_OWNER_PROCESS = new PeerKey("pid 11", true);

    @Test
    void shouldKeepTheReserveForTheOwnerWhateverOtherPeersOpen() throws Exception {
        StreamShares shares = new StreamShares("open dump streams", 6, 2, 2);
        List<StreamShares.Share> held = new ArrayList<>();
        for (int uid = 1001; uid <= 1002; uid++) {
            for (int i = 0; i < 2; i++) {
                held.add(shares.acquire(new PeerKey("uid " + uid, false)));
            }
        }
        StreamShares.Refused e = assertThrows(StreamShares.Refused.class,
                () -> shares.acquire(new PeerKey("uid 1003", false)));
        assertEquals("too many open dump streams (the last 2 are kept for the daemon's own user); retry shortly",
                e.getMessage());
        held.add(shares.acquire(OWNER));
        held.add(shares.acquire(OTHER_OWNER_PROCESS));
        assertEquals("too many open dump streams (limit 6); retry shortly",
                assertThrows(StreamShares.Refused.class, () -> shares.acquire(OWNER)).getMessage());
        held.get(0).release();
        held.get(0).release(); // close and cancel both come: counted once
        assertEquals(5, shares.open());
    }

    @Test
    void shouldLimitEachPeerIncludingEachProcessOfTheOwner() throws Exception {
        StreamShares shares = new StreamShares("live watches", 40, 2, 8);
        shares.acquire(OWNER);
        shares.acquire(OWNER);
        assertEquals("too many live watches from pid 10 (limit 2 per peer, each held until its client has read it);"
                + " read or cancel them first", assertThrows(StreamShares.Refused.class,
                        () -> shares.acquire(OWNER)).getMessage());
        shares.acquire(OTHER_OWNER_PROCESS);
        assertEquals(3, shares.open());
    }
}
