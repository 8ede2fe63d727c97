/* The process-wide memory barrier (membarrier's private expedited command) that lets the frame
 * path go without fences of its own, and the visibility of streamed entries (docs/native.md,
 * "Streamed entries"). */
#include "gfxstats.h"
#include "internal.h"
#include "ring.h"
#include "session.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Whether this process may use membarrier's private expedited command (Linux 4.14 and later).
 * Registering takes 12-16 ms in a process with threads (the kernel waits for an RCU grace
 * period), so the session thread does it once per process before it first connects, outside the
 * session mutex; a move before that, or without the command (a seccomp filter that refuses it),
 * uses the drain's own fence, and the entry in flight at its mark then goes along at the
 * producer's next entry or is counted at the next drain. */
int gfx_barrier_registered;
static pthread_once_t barrier_once = PTHREAD_ONCE_INIT;

/* Streamed times-path entries (GFX_RING_STREAM) follow gfx_barrier_registered: once the command is
 * registered, never in a child after fork (its registration is not known). A non-temporal store is
 * not ordered before the release store that publishes it, nor flushed by it; what makes it visible
 * to a consumer on another core is an interrupt or a locked instruction on the recording core (both
 * drain its write-combining buffers), which membarrier's command brings about on every running
 * thread of the process before it returns. So every consumer reads the published position first,
 * then calls gfx_render_threads_barrier, then reads the entries up to that position
 * (gfx_ring_entries_visible); entries published after the call wait for the next drain. The
 * recording thread itself pays nothing: no fence, and its next lap's stores find no line to take
 * back from the draining core (docs/native.md, "Streamed entries"). */
static void register_barrier_once(void) {
    int ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    __atomic_store_n(&gfx_barrier_registered, ok, __ATOMIC_RELEASE);
}

void gfx_register_render_threads_barrier(void) {
    pthread_once(&barrier_once, register_barrier_once);
}

/* A full memory barrier on every running thread of the process (the render threads included), so
 * that their frame path needs none: Dekker's pattern with the cost on this side (3-11 us). Under
 * the session mutex, once per move. */
void gfx_render_threads_barrier(void) {
    if (!__atomic_load_n(&gfx_barrier_registered, __ATOMIC_ACQUIRE)
        || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}

/* Makes the entries published up to the positions this consumer has read visible to it: with
 * streamed entries, gfx_render_threads_barrier (see gfx_barrier_registered); else the acquire load
 * of the position did it already. Called after reading the positions and before reading any entry;
 * the flag is read after the positions too, so a producer that streamed an entry this consumer saw
 * published is seen streaming here. */
void gfx_ring_entries_visible(void) {
    if (GFX_RING_STREAM && __atomic_load_n(&gfx_barrier_registered, __ATOMIC_ACQUIRE)) {
        gfx_render_threads_barrier();
    }
}

/* In a child after fork: its registration is not known, so no streaming and no membarrier. */
void gfx_ring_stream_off(void) {
    __atomic_store_n(&gfx_barrier_registered, 0, __ATOMIC_RELEASE);
}

int gfx_ring_streams(void) {
    return GFX_RING_STREAM && __atomic_load_n(&gfx_barrier_registered, __ATOMIC_ACQUIRE);
}
