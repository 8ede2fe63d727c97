#include "common.h"

#include "../lib/scenes.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static gfxstats_session *session;
static int session_failed;
static struct hook_table surfaces;
/* Swaps in progress on any thread (the GL hook's), and the surfaces destroyed while one was. */
static int swaps_in_progress;
static struct hook_surface *retired;
/* GFXSTATS_TEST_SIGKILL_AFTER=N (tests/postmortem.sh): the process SIGKILLs itself right after
 * recording its Nth present, with frames still in a ring; 0: never. Read when a surface is made. */
static int64_t sigkill_after;
static int64_t presents;

/* A whole number from 0 to max, else fallback with one line: a value past max (a digit too many)
 * would otherwise wrap where it is narrowed (a wait of up to 24 days, or a negative one). */
static int64_t env_long(const char *name, int64_t fallback, int64_t max) {
    const char *v = getenv(name);
    if (!v || !*v) {
        return fallback;
    }
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || *end || x < 0 || x > max) {
        fprintf(stderr, "gfxstats: ignoring %s=%s (not a whole number from 0 to %lld)\n", name, v, (long long)max);
        return fallback;
    }
    return x;
}

/* GFXSTATS_REFRESH_HZ (default 60) as a period in ns, 0 for 0 Hz: read when the session opens. */
static int64_t refresh_ns;

const char *hook_package_name(char *out, size_t cap) {
    /* As given, not copied: a copy would cut a name over 255 characters to one the library might
     * take, where the whole name is refused with one line. */
    const char *env = getenv("GFXSTATS_PACKAGE");
    if (env && *env) {
        return env;
    }
    /* The program's name as one segment: characters outside [A-Za-z0-9_-] become '_', and a
     * name that does not start with a letter gets an 'x' in front ("7zip" -> "x7zip"). */
    extern char *program_invocation_short_name;
    const char *name = program_invocation_short_name && *program_invocation_short_name
            ? program_invocation_short_name : "unknown";
    size_t o = 0;
    char c0 = name[0];
    if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z'))) {
        out[o++] = 'x';
    }
    for (size_t i = 0; name[i] && o + 1 < cap && o < 255; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        out[o++] = ok ? c : '_';
    }
    out[o] = 0;
    return out;
}

/* In a child after fork() without exec: the session and the surfaces are the parent's (the library
 * has closed the child's copies of its sessions, and the parent's windows and swapchains are not
 * the child's to present), so they are forgotten here, untouched, and a child that renders opens a
 * session of its own at its first surface, as any process. Only the forking thread runs in the
 * child, so whatever another thread held at the fork is given up with a fresh lock. */
static void hook_after_fork(void) {
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    mu = fresh;
    session = NULL;
    session_failed = 0;
    memset(&surfaces, 0, sizeof surfaces);
    retired = NULL;
    swaps_in_progress = 0;
    presents = 0;
}

/* pthread_atfork's handlers of a library go with it when it is unloaded (the loader unloads the
 * layer at vkDestroyInstance). */
__attribute__((constructor)) static void hook_load(void) {
    pthread_atfork(NULL, NULL, hook_after_fork);
}

gfxstats_session *hook_session(int32_t pipeline) {
    gfxstats_session *s = __atomic_load_n(&session, __ATOMIC_ACQUIRE);
    if (s || __atomic_load_n(&session_failed, __ATOMIC_RELAXED)) {
        return s;
    }
    pthread_mutex_lock(&mu);
    if (!session && !session_failed) {
        char name[256];
        const char *pkg = hook_package_name(name, sizeof name);
        int64_t hz = env_long("GFXSTATS_REFRESH_HZ", 60, 9999);
        refresh_ns = hz > 0 ? (1000000000LL + hz / 2) / hz : 0;
        /* GFXSTATS_SCENE: the scene frames count in until the scene file or nothing says otherwise. */
        const char *scene = getenv("GFXSTATS_SCENE");
        const char *problem = scene && *scene ? gfx_scene_name_problem(scene) : NULL;
        if (problem || (scene && strcmp(scene, GFX_SCENE_OTHER) == 0)) {
            fprintf(stderr, "gfxstats: ignoring GFXSTATS_SCENE (a scene name is 1..120 bytes of UTF-8 without control "
                            "characters and not \"(other)\"; it is %s)\n", problem ? problem : "\"(other)\"");
            scene = NULL;
        }
        gfxstats_options o = {
            .struct_size = sizeof o,
            .package_name = pkg,
            .version_code = env_long("GFXSTATS_VERSION_CODE", 0, INT64_MAX),
            .pipeline = pipeline,
            .refresh_interval_ns = refresh_ns,
            .close_wait_ms = (int32_t)env_long("GFXSTATS_CLOSE_WAIT_MS", 2000, INT32_MAX),
            .davey = env_long("GFXSTATS_DAVEY", 1, INT64_MAX) == 0 ? GFXSTATS_DAVEY_OFF : GFXSTATS_DAVEY_LOG,
            .default_scene = scene && *scene ? scene : NULL,
            .scene_file = getenv("GFXSTATS_SCENE_FILE"),
        };
        gfxstats_session *created = NULL;
        if (gfxstats_session_open(&o, &created) != GFXSTATS_OK) {
            session_failed = 1;
        } else {
            /* Before the first tracker, so that its frames go straight into the daemon's buffer,
             * which outlives a SIGKILL of the app; a daemon that is not there costs no wait. */
            gfxstats_session_wait_answer(created, (int32_t)env_long("GFXSTATS_OPEN_WAIT_MS", 500, INT32_MAX));
        }
        __atomic_store_n(&session, created, __ATOMIC_RELEASE);
    }
    s = session;
    pthread_mutex_unlock(&mu);
    return s;
}

static void close_surface(void *p) {
    struct hook_surface *h = p;
    if (h->before_close) {
        h->before_close(h);
    }
    gfxstats_tracker_close(h->tracker);
    free(h);
}

/* A retired list (next_retired), each record closed. */
static void close_retired(struct hook_surface *list) {
    while (list) {
        struct hook_surface *next = list->next_retired;
        close_surface(list);
        list = next;
    }
}

struct hook_surface *hook_surface_get(uint64_t handle) {
    return hook_table_get(&surfaces, handle);
}

/* GFXSTATS_TEST_SURFACES_AT_EXIT=1 (tests/gl-lookup.sh): at the unload, one line on stderr with
 * how many surfaces still have a record, closed only now. A program that ended every surface, by
 * its destroy call or by closing its display, leaves none. Called with mu held. */
static void report_surfaces_at_exit(void) {
    if (env_long("GFXSTATS_TEST_SURFACES_AT_EXIT", 0, 1) != 1) {
        return;
    }
    int open = 0;
    for (size_t i = 0; i < HOOK_TABLE_SLOTS; i++) {
        open += surfaces.values[i] != NULL;
    }
    for (struct hook_surface *r = retired; r; r = r->next_retired) {
        open++;
    }
    fprintf(stderr, "gfxstats test: %d surfaces open at exit\n", open);
}

void hook_shutdown(void) {
    pthread_mutex_lock(&mu);
    report_surfaces_at_exit();
    hook_table_drain(&surfaces, close_surface);
    close_retired(retired); /* unloading: no swap runs any more */
    retired = NULL;
    gfxstats_session *s = session;
    session = NULL;
    pthread_mutex_unlock(&mu);
    gfxstats_session_close(s);
}

struct hook_surface *hook_surface_new(uint64_t handle, int32_t pipeline, const void *owner) {
    gfxstats_session *s = hook_session(pipeline);
    if (!s) {
        return NULL;
    }
    struct hook_surface *h = calloc(1, sizeof *h);
    if (!h) {
        return NULL;
    }
    h->handle = handle;
    h->owner = owner;
    h->interval = refresh_ns; /* written before the session was published */
    __atomic_store_n(&sigkill_after, env_long("GFXSTATS_TEST_SIGKILL_AFTER", 0, INT64_MAX), __ATOMIC_RELAXED);
    if (gfxstats_tracker_new(s, &h->tracker) != GFXSTATS_OK) {
        free(h);
        return NULL;
    }
    pthread_mutex_lock(&mu);
    int ok = hook_table_put(&surfaces, handle, h) == 0;
    pthread_mutex_unlock(&mu);
    if (!ok) {
        gfxstats_tracker_close(h->tracker);
        free(h);
        return NULL;
    }
    return h;
}

int64_t hook_surface_present_begin(struct hook_surface *s, int64_t now) {
    int64_t start = s->frame_start;
    if (start == 0) {
        return 0; /* no start known: the surface's first present without a prior acquire */
    }
    start += __atomic_exchange_n(&s->blocked, 0, __ATOMIC_RELAXED);
    if (start >= now) {
        start = now - 1; /* a frame that was all waiting still counts, as 0 ms of work */
    }
    gfxstats_record(s->tracker, start, start, now, now, 0);
    s->frame_start = 0;
    int64_t kill_at = __atomic_load_n(&sigkill_after, __ATOMIC_RELAXED);
    if (__builtin_expect(kill_at > 0, 0) && __atomic_add_fetch(&presents, 1, __ATOMIC_RELAXED) == kill_at) {
        raise(SIGKILL);
    }
    return start;
}

void hook_surface_present_end(struct hook_surface *s, int64_t now) {
    s->frame_start = now;
    __atomic_store_n(&s->blocked, 0, __ATOMIC_RELAXED);
}

void hook_swap_enter(void) {
    __atomic_add_fetch(&swaps_in_progress, 1, __ATOMIC_SEQ_CST);
}

void hook_swap_leave(void) {
    __atomic_sub_fetch(&swaps_in_progress, 1, __ATOMIC_RELEASE);
}

/* A program that makes and destroys surfaces as it runs (windows, dialogs, a toolkit's popups)
 * would otherwise keep a tracker for each until it exits: a stripe held (the 17th surface on
 * counts in memory), a ring drained every period, and once the table is full (1,024 surfaces) no
 * tracker for the next. EGL lets a program destroy a surface that is current to another thread,
 * which may be inside a swap with its record: a swap enters (hook_swap_enter, sequentially
 * consistent) before it looks the surface up, and the record is removed before the count of swaps
 * is read, so either that swap sees the removal or the removal sees the swap, and then the record
 * waits on the retired list until a retirement finds no swap in progress (or the unload). */

static void push_retired_locked(struct hook_surface *s) {
    if (s) {
        s->next_retired = retired;
        retired = s;
    }
}

/* Unlocks mu; then closes the retired records if no swap was in progress. */
static void unlock_and_close_retired(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    struct hook_surface *gone = NULL;
    if (retired && __atomic_load_n(&swaps_in_progress, __ATOMIC_SEQ_CST) == 0) {
        gone = retired;
        retired = NULL;
    }
    pthread_mutex_unlock(&mu);
    close_retired(gone);
}

void hook_surface_retire(uint64_t handle) {
    pthread_mutex_lock(&mu);
    push_retired_locked(hook_table_remove(&surfaces, handle));
    unlock_and_close_retired();
}

/* Every record whose owner matches leaves the table (a walk of its 1,024 slots: a display closes
 * rarely) and is retired as one destroyed by its own call. */
void hook_surfaces_retire_owner(const void *owner) {
    if (!owner) {
        return;
    }
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < HOOK_TABLE_SLOTS; i++) {
        struct hook_surface *s = surfaces.values[i];
        if (s && s->owner == owner) {
            push_retired_locked(hook_table_remove(&surfaces, surfaces.keys[i]));
        }
    }
    unlock_and_close_retired();
}

void hook_surface_free(struct hook_surface *s) {
    if (!s) {
        return;
    }
    pthread_mutex_lock(&mu);
    hook_table_remove(&surfaces, s->handle);
    pthread_mutex_unlock(&mu);
    close_surface(s);
}

/* ---- table: open addressing, linear probing; a removed slot keeps a tombstone key */

#define TOMBSTONE UINT64_MAX

static size_t slot_of(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)(key % HOOK_TABLE_SLOTS);
}

void *hook_table_get(struct hook_table *t, uint64_t key) {
    size_t i = slot_of(key);
    for (size_t n = 0; n < HOOK_TABLE_SLOTS; n++, i = (i + 1) % HOOK_TABLE_SLOTS) {
        uint64_t k = __atomic_load_n(&t->keys[i], __ATOMIC_ACQUIRE);
        if (k == key) {
            return __atomic_load_n(&t->values[i], __ATOMIC_ACQUIRE);
        }
        if (k == 0) {
            return NULL;
        }
    }
    return NULL;
}

int hook_table_put(struct hook_table *t, uint64_t key, void *value) {
    size_t i = slot_of(key);
    for (size_t n = 0; n < HOOK_TABLE_SLOTS; n++, i = (i + 1) % HOOK_TABLE_SLOTS) {
        uint64_t k = t->keys[i];
        if (k == 0 || k == TOMBSTONE || k == key) {
            __atomic_store_n(&t->values[i], value, __ATOMIC_RELEASE);
            __atomic_store_n(&t->keys[i], key, __ATOMIC_RELEASE);
            return 0;
        }
    }
    return -1;
}

void *hook_table_remove(struct hook_table *t, uint64_t key) {
    size_t i = slot_of(key);
    for (size_t n = 0; n < HOOK_TABLE_SLOTS; n++, i = (i + 1) % HOOK_TABLE_SLOTS) {
        uint64_t k = t->keys[i];
        if (k == key) {
            void *v = t->values[i];
            __atomic_store_n(&t->keys[i], TOMBSTONE, __ATOMIC_RELEASE);
            __atomic_store_n(&t->values[i], NULL, __ATOMIC_RELEASE);
            return v;
        }
        if (k == 0) {
            return NULL;
        }
    }
    return NULL;
}

void hook_table_drain(struct hook_table *t, void (*fn)(void *)) {
    for (size_t i = 0; i < HOOK_TABLE_SLOTS; i++) {
        uint64_t k = t->keys[i];
        if (k != 0 && k != TOMBSTONE) {
            void *v = t->values[i];
            t->keys[i] = TOMBSTONE;
            t->values[i] = NULL;
            if (v) {
                fn(v);
            }
        }
    }
}
