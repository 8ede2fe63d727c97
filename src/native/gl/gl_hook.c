/* libgfxstats_gl.so, loaded with LD_PRELOAD: counts every glXSwapBuffers and eglSwapBuffers of an
 * unmodified OpenGL application, and the extensions' swaps that stand in for them, with Android's
 * rules, one tracker per drawable (docs/native.md).
 * A frame runs from the return of the drawable's previous swap (the first: from when a context
 * was made current on the thread) to the application's next swap call. */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "../layer/common.h"

#define EXPORT __attribute__((visibility("default")))

typedef struct _XDisplay Display;
typedef unsigned long GLXDrawable;
typedef void *GLXContext;
typedef void *EGLDisplay;
typedef void *EGLSurface;
typedef void *EGLContext;
typedef unsigned int EGLBoolean;
typedef int32_t EGLint;
typedef int Bool;
typedef void (*any_fn)(void);

static __thread int64_t made_current;

#define GLX_TAG (1ULL << 62)

/* The functions hooked here, and the application's real ones. A real function is found with
 * dlsym(RTLD_NEXT) on first use, or - when the application dlopen()ed libGL/libEGL privately
 * (RTLD_LOCAL, as SDL does), so that RTLD_NEXT cannot see it - taken from the application's own
 * dlsym(handle, name) of that name, which the dlsym below intercepts. */
enum { F_GLX_SWAP, F_EGL_SWAP, F_GLX_MAKE, F_GLX_MAKE_CTX, F_EGL_MAKE, F_GLX_GPA_ARB, F_GLX_GPA,
       F_EGL_GPA, F_EGL_SWAP_DAMAGE_KHR, F_EGL_SWAP_DAMAGE_EXT, F_GLX_SWAP_MSC, F_EGL_DESTROY, F_GLX_DESTROY,
       F_X_DESTROY, F_X_CLOSE, F_EGL_TERMINATE, F_XCB_DESTROY, F_XCB_DESTROY_CHECKED, F_COUNT };
static const char *const names[F_COUNT] = {
    "glXSwapBuffers", "eglSwapBuffers", "glXMakeCurrent", "glXMakeContextCurrent", "eglMakeCurrent",
    "glXGetProcAddressARB", "glXGetProcAddress", "eglGetProcAddress",
    "eglSwapBuffersWithDamageKHR", "eglSwapBuffersWithDamageEXT", "glXSwapBuffersMscOML",
    "eglDestroySurface", "glXDestroyWindow", "XDestroyWindow", "XCloseDisplay", "eglTerminate",
    "xcb_destroy_window", "xcb_destroy_window_checked",
};
static void *reals[F_COUNT];

typedef void *(*dlsym_fn)(void *, const char *);

/* ThreadSanitizer's own start-up (in the TSan build of this hook, tests/tsan.sh) looks up the
 * functions it intercepts with dlsym(RTLD_NEXT), which lands in the dlsym exported below before
 * TSan's runtime is set up: instrumented code there would call into it (SIGSEGV). So dlsym and
 * what it calls until libc's dlsym is found stay uninstrumented; the pass-through also stays a
 * tail call (TSan's function-exit hook would otherwise follow the call), so RTLD_NEXT still
 * means "after TSan". Without -fsanitize=thread the attribute changes nothing. */
#define NO_TSAN __attribute__((no_sanitize("thread")))

/* libc's dlsym, looked up by version so that this library's own lookups never go through the
 * dlsym it exports (that one would hand back the hooks: endless recursion). */
NO_TSAN static dlsym_fn real_dlsym(void) {
    static dlsym_fn real;
    dlsym_fn r = __atomic_load_n(&real, __ATOMIC_RELAXED);
    if (!r) {
        r = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        if (!r) {
            r = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
        }
        __atomic_store_n(&real, r, __ATOMIC_RELAXED);
    }
    return r;
}

static void *real_of(int f) {
    void *r = __atomic_load_n(&reals[f], __ATOMIC_RELAXED);
    if (!r) {
        dlsym_fn d = real_dlsym();
        r = d ? d(RTLD_NEXT, names[f]) : NULL;
        if (!r && d) {
            /* A program that dlopen()ed libEGL/libGL privately but looks a function up in the
             * global scope (apitrace's eglretrace: dlsym(RTLD_DEFAULT, "eglGetProcAddress")) gets
             * the hook, and RTLD_NEXT cannot see the private library: take the function from the
             * library already loaded (RTLD_NOLOAD matches its soname, so "libEGL.so" loaded by
             * that name is found too). The handle is kept: the function must outlive the lookup. */
            void *lib = dlopen(names[f][0] == 'e' ? "libEGL.so.1" : names[f][0] == 'X' ? "libX11.so.6"
                               : names[f][0] == 'x' ? "libxcb.so.1" : "libGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
            r = lib ? d(lib, names[f]) : NULL;
        }
        if (r) {
            __atomic_store_n(&reals[f], r, __ATOMIC_RELAXED);
        }
    }
    return r;
}

static struct hook_surface *surface_for(uint64_t key, const void *owner) {
    struct hook_surface *s = hook_surface_get(key);
    if (!s) {
        s = hook_surface_new(key, GFXSTATS_PIPELINE_GL, owner);
        if (s && made_current) {
            s->frame_start = made_current;
        }
    }
    return s;
}

/* How many swaps this thread is inside. A GL implementation layered on another one calls a swap of
 * the one below from inside the application's swap: ANGLE on its GL backend calls glXSwapBuffers
 * (found through dlopen and dlsym, so it gets this hook) inside the eglSwapBuffers the application
 * called, and on its Vulkan backend vkQueuePresentKHR (the layer asks gfxstats_gl_in_swap). The
 * application's swap is the frame; the swaps inside it are not counted again. */
static __thread int swap_depth;

static void swap_begin(uint64_t key, const void *owner, struct hook_surface **out) {
    *out = NULL;
    if (swap_depth++ == 0) {
        hook_swap_enter(); /* before the look-up: a surface destroyed meanwhile waits for the swap */
        *out = surface_for(key, owner);
        if (*out) {
            hook_surface_present_begin(*out, gfxstats_now_ns());
        }
    }
}

static void swap_end(struct hook_surface *s) {
    if (s) {
        hook_surface_present_end(s, gfxstats_now_ns());
    }
    if (--swap_depth == 0) {
        hook_swap_leave();
    }
}

/* For the Vulkan layer, which looks it up in the global scope (this library is preloaded): whether
 * the calling thread is inside a GL swap, so that a present made by the GL implementation below
 * that swap is not a second frame. */
EXPORT int gfxstats_gl_in_swap(void) {
    return swap_depth > 0;
}

EXPORT void glXSwapBuffers(Display *dpy, GLXDrawable drawable) {
    void (*real)(Display *, GLXDrawable) = (void (*)(Display *, GLXDrawable))real_of(F_GLX_SWAP);
    struct hook_surface *s;
    swap_begin(GLX_TAG | (uint64_t)drawable, dpy, &s);
    if (real) {
        real(dpy, drawable);
    }
    swap_end(s);
}

EXPORT EGLBoolean eglSwapBuffers(EGLDisplay dpy, EGLSurface surface) {
    EGLBoolean (*real)(EGLDisplay, EGLSurface) = (EGLBoolean (*)(EGLDisplay, EGLSurface))real_of(F_EGL_SWAP);
    struct hook_surface *s;
    swap_begin((uint64_t)(uintptr_t)surface, dpy, &s);
    EGLBoolean r = real ? real(dpy, surface) : 0;
    swap_end(s);
    return r;
}

/* The swaps of EGL_KHR_swap_buffers_with_damage and EGL_EXT_swap_buffers_with_damage: GTK 4,
 * weston's GL renderer and mutter's Cogl present every frame with one of them wherever the driver
 * offers it (Mesa does on its GPU drivers), and then never call eglSwapBuffers. libEGL exports
 * neither: a program finds them with eglGetProcAddress, which hands out these hooks. They
 * are not exported here either, so that dlsym(RTLD_DEFAULT) still finds no such function where
 * the driver has none; the same for glXSwapBuffersMscOML. */
static EGLBoolean egl_swap_damage(int f, EGLDisplay dpy, EGLSurface surface, const EGLint *rects, EGLint n) {
    EGLBoolean (*real)(EGLDisplay, EGLSurface, const EGLint *, EGLint) =
        (EGLBoolean (*)(EGLDisplay, EGLSurface, const EGLint *, EGLint))real_of(f);
    struct hook_surface *s;
    swap_begin((uint64_t)(uintptr_t)surface, dpy, &s);
    EGLBoolean r = real ? real(dpy, surface, rects, n) : 0;
    swap_end(s);
    return r;
}

static EGLBoolean eglSwapBuffersWithDamageKHR(EGLDisplay dpy, EGLSurface surface, const EGLint *rects, EGLint n) {
    return egl_swap_damage(F_EGL_SWAP_DAMAGE_KHR, dpy, surface, rects, n);
}

static EGLBoolean eglSwapBuffersWithDamageEXT(EGLDisplay dpy, EGLSurface surface, const EGLint *rects, EGLint n) {
    return egl_swap_damage(F_EGL_SWAP_DAMAGE_EXT, dpy, surface, rects, n);
}

/* GLX_OML_sync_control's swap at a chosen vblank count, which MangoHud counts too. A call is a
 * frame, as for the other swaps: the hook does not look at what the driver answers (-1 where the
 * extension is not enabled, and then nothing is swapped). */
static int64_t glXSwapBuffersMscOML(Display *dpy, GLXDrawable drawable, int64_t target, int64_t divisor,
                                    int64_t remainder) {
    int64_t (*real)(Display *, GLXDrawable, int64_t, int64_t, int64_t) =
        (int64_t (*)(Display *, GLXDrawable, int64_t, int64_t, int64_t))real_of(F_GLX_SWAP_MSC);
    struct hook_surface *s;
    swap_begin(GLX_TAG | (uint64_t)drawable, dpy, &s);
    int64_t r = real ? real(dpy, drawable, target, divisor, remainder) : -1;
    swap_end(s);
    return r;
}

/* A surface the application destroys: its tracker closes (see hook_surface_retire). GLX draws into
 * an X window directly (glxgears, SDL, GLFW) or into a GLX window made for one (GLX 1.3). */
EXPORT EGLBoolean eglDestroySurface(EGLDisplay dpy, EGLSurface surface) {
    EGLBoolean (*real)(EGLDisplay, EGLSurface) = (EGLBoolean (*)(EGLDisplay, EGLSurface))real_of(F_EGL_DESTROY);
    hook_surface_retire((uint64_t)(uintptr_t)surface);
    return real ? real(dpy, surface) : 0;
}

EXPORT void glXDestroyWindow(Display *dpy, GLXDrawable window) {
    void (*real)(Display *, GLXDrawable) = (void (*)(Display *, GLXDrawable))real_of(F_GLX_DESTROY);
    hook_surface_retire(GLX_TAG | (uint64_t)window);
    if (real) {
        real(dpy, window);
    }
}

EXPORT int XDestroyWindow(Display *dpy, unsigned long window) {
    int (*real)(Display *, unsigned long) = (int (*)(Display *, unsigned long))real_of(F_X_DESTROY);
    hook_surface_retire(GLX_TAG | (uint64_t)window);
    return real ? real(dpy, window) : 0;
}

/* The same window destroyed through xcb, as toolkits on xcb do (Qt's xcb platform draws with GLX
 * into windows it made and destroys with xcb). */
typedef struct xcb_connection_t xcb_connection_t;
typedef struct {
    unsigned int sequence;
} xcb_void_cookie_t;

static xcb_void_cookie_t xcb_destroy(int f, xcb_connection_t *c, uint32_t window) {
    xcb_void_cookie_t (*real)(xcb_connection_t *, uint32_t) = (xcb_void_cookie_t (*)(xcb_connection_t *, uint32_t))real_of(f);
    hook_surface_retire(GLX_TAG | (uint64_t)window);
    xcb_void_cookie_t none = {0};
    return real ? real(c, window) : none;
}

EXPORT xcb_void_cookie_t xcb_destroy_window(xcb_connection_t *c, uint32_t window) {
    return xcb_destroy(F_XCB_DESTROY, c, window);
}

EXPORT xcb_void_cookie_t xcb_destroy_window_checked(xcb_connection_t *c, uint32_t window) {
    return xcb_destroy(F_XCB_DESTROY_CHECKED, c, window);
}

/* What ends surfaces without a destroy call of their own: closing the X connection destroys the
 * client's windows (so their GLX drawables), and eglTerminate the display's surfaces. The X server
 * gives a new connection's windows the same ids as the closed one's (a new client takes the freed
 * client slot), so a record left behind would be found again by the next window: its first frame
 * would run from the old window's last swap. */
EXPORT int XCloseDisplay(Display *dpy) {
    int (*real)(Display *) = (int (*)(Display *))real_of(F_X_CLOSE);
    hook_surfaces_retire_owner(dpy);
    return real ? real(dpy) : 0;
}

EXPORT EGLBoolean eglTerminate(EGLDisplay dpy) {
    EGLBoolean (*real)(EGLDisplay) = (EGLBoolean (*)(EGLDisplay))real_of(F_EGL_TERMINATE);
    hook_surfaces_retire_owner(dpy);
    return real ? real(dpy) : 0;
}

EXPORT Bool glXMakeCurrent(Display *dpy, GLXDrawable drawable, GLXContext ctx) {
    Bool (*real)(Display *, GLXDrawable, GLXContext) = (Bool (*)(Display *, GLXDrawable, GLXContext))real_of(F_GLX_MAKE);
    Bool r = real ? real(dpy, drawable, ctx) : 0;
    made_current = gfxstats_now_ns();
    return r;
}

EXPORT Bool glXMakeContextCurrent(Display *dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx) {
    Bool (*real)(Display *, GLXDrawable, GLXDrawable, GLXContext) = (Bool (*)(Display *, GLXDrawable, GLXDrawable, GLXContext))real_of(F_GLX_MAKE_CTX);
    Bool r = real ? real(dpy, draw, read, ctx) : 0;
    made_current = gfxstats_now_ns();
    return r;
}

EXPORT EGLBoolean eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) {
    EGLBoolean (*real)(EGLDisplay, EGLSurface, EGLSurface, EGLContext) = (EGLBoolean (*)(EGLDisplay, EGLSurface, EGLSurface, EGLContext))real_of(F_EGL_MAKE);
    EGLBoolean r = real ? real(dpy, draw, read, ctx) : 0;
    made_current = gfxstats_now_ns();
    return r;
}

/* Applications that look the swap functions up at run time get the hooks too. */
EXPORT any_fn glXGetProcAddressARB(const unsigned char *name);
EXPORT any_fn glXGetProcAddress(const unsigned char *name);
EXPORT any_fn eglGetProcAddress(const char *name);

static void *hook_fn(int f) {
    switch (f) {
    case F_GLX_SWAP: return (void *)glXSwapBuffers;
    case F_EGL_SWAP: return (void *)eglSwapBuffers;
    case F_GLX_MAKE: return (void *)glXMakeCurrent;
    case F_GLX_MAKE_CTX: return (void *)glXMakeContextCurrent;
    case F_EGL_MAKE: return (void *)eglMakeCurrent;
    case F_GLX_GPA_ARB: return (void *)glXGetProcAddressARB;
    case F_GLX_GPA: return (void *)glXGetProcAddress;
    case F_EGL_GPA: return (void *)eglGetProcAddress;
    case F_EGL_SWAP_DAMAGE_KHR: return (void *)eglSwapBuffersWithDamageKHR;
    case F_EGL_SWAP_DAMAGE_EXT: return (void *)eglSwapBuffersWithDamageEXT;
    case F_EGL_DESTROY: return (void *)eglDestroySurface;
    case F_GLX_DESTROY: return (void *)glXDestroyWindow;
    case F_X_DESTROY: return (void *)XDestroyWindow;
    case F_X_CLOSE: return (void *)XCloseDisplay;
    case F_EGL_TERMINATE: return (void *)eglTerminate;
    case F_XCB_DESTROY: return (void *)xcb_destroy_window;
    case F_XCB_DESTROY_CHECKED: return (void *)xcb_destroy_window_checked;
    default: return (void *)glXSwapBuffersMscOML;
    }
}

/* A hooked name that the library defines (r): keep the library's function for the hook to call
 * (the first one found wins) and hand out the hook; any other name: the library's answer. */
NO_TSAN static int hooked(const char *name) {
    for (int f = 0; f < F_COUNT; f++) {
        if (strcmp(name, names[f]) == 0) {
            return f;
        }
    }
    return -1;
}

static void *take(const char *name, void *r) {
    int f = r ? hooked(name) : -1;
    if (f < 0) {
        return r;
    }
    void *none = NULL;
    /* A library that itself looks up through the global scope gets our hook back: keeping that
     * as the real function would make the hook call itself. */
    if (r != hook_fn(f)) {
        __atomic_compare_exchange_n(&reals[f], &none, r, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    return hook_fn(f);
}

EXPORT any_fn glXGetProcAddressARB(const unsigned char *name) {
    any_fn (*real)(const unsigned char *) = (any_fn (*)(const unsigned char *))real_of(F_GLX_GPA_ARB);
    any_fn r = real ? real(name) : NULL;
    return (any_fn)take((const char *)name, (void *)r);
}

EXPORT any_fn glXGetProcAddress(const unsigned char *name) {
    any_fn (*real)(const unsigned char *) = (any_fn (*)(const unsigned char *))real_of(F_GLX_GPA);
    any_fn r = real ? real(name) : NULL;
    return (any_fn)take((const char *)name, (void *)r);
}

EXPORT any_fn eglGetProcAddress(const char *name) {
    any_fn (*real)(const char *) = (any_fn (*)(const char *))real_of(F_EGL_GPA);
    any_fn r = real ? real(name) : NULL;
    return (any_fn)take((const char *)name, (void *)r);
}

/* Whether the object that holds the code at caller defines name itself: a library that wraps the
 * same function as this hook (apitrace's tracers) and looks up the one it wraps. */
NO_TSAN static int caller_defines(const void *caller, const char *name, dlsym_fn d) {
    Dl_info at, sym;
    if (!dladdr(caller, &at) || !at.dli_fname) {
        return 0;
    }
    /* A handle of the caller's object (not its link map: a lookup through the link map of an
     * object loaded at start-up crashed in glibc 2.36); the lookup searches the object and what it
     * depends on, so the definition found must be in the object itself. */
    void *h = dlopen(at.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) {
        return 0;
    }
    void *own = d(h, name);
    int defines = own && dladdr(own, &sym) && sym.dli_fbase == at.dli_fbase;
    dlclose(h);
    return defines;
}

/* Applications that dlopen libGL/libEGL and dlsym the swap function (or glXGetProcAddress) from
 * that handle get the hooks as well; the real function found there is kept for the hook to call.
 * Lookups with RTLD_NEXT or RTLD_DEFAULT are passed through untouched: other preload libraries
 * (MangoHud's) find the next swap function that way, and handing them ours would loop. So is a
 * lookup from a library that defines the name itself: apitrace's tracer, loaded after this hook,
 * dlopens libGL and looks up the function it wraps from that handle; given the hook, it called the
 * hook as its real function and the hook called it as its own (RTLD_NEXT): glmark2 under both
 * overflowed its stack in glXMakeCurrent (tests/glmark2.sh). libc's dlsym resolves RTLD_NEXT
 * relative to its caller's return address, so the pass-through must be a tail call that leaves
 * the application's return address in place: the hook is built with -O2
 * -foptimize-sibling-calls (Makefile) and tests/gl-lookup.sh checks RTLD_NEXT through it. */
EXPORT NO_TSAN void *dlsym(void *handle, const char *name) {
    dlsym_fn d = real_dlsym();
    if (handle == RTLD_NEXT || handle == RTLD_DEFAULT || (name[0] != 'g' && name[0] != 'e')) {
        return d(handle, name);
    }
    void *r = d(handle, name);
    if (r && hooked(name) >= 0 && caller_defines(__builtin_return_address(0), name, d)) {
        return r;
    }
    return take(name, r);
}

__attribute__((destructor)) static void gl_unload(void) {
    hook_shutdown();
}
