/* libgfxstats_gl.so, loaded with LD_PRELOAD: counts every glXSwapBuffers and eglSwapBuffers of an
 * unmodified OpenGL application with Android's rules, one tracker per drawable (docs/native.md).
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
typedef int Bool;
typedef void (*any_fn)(void);

static __thread int64_t made_current;

#define GLX_TAG (1ULL << 62)

static void *next(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

static struct hook_surface *surface_for(uint64_t key) {
    struct hook_surface *s = hook_surface_get(key);
    if (!s) {
        s = hook_surface_new(key, GFXSTATS_PIPELINE_GL);
        if (s && made_current) {
            s->frame_start = made_current;
        }
    }
    return s;
}

static void swap_begin(uint64_t key, struct hook_surface **out) {
    *out = surface_for(key);
    if (*out) {
        hook_surface_present_begin(*out, gfxstats_now_ns());
    }
}

static void swap_end(struct hook_surface *s) {
    if (s) {
        hook_surface_present_end(s, gfxstats_now_ns());
    }
}

EXPORT void glXSwapBuffers(Display *dpy, GLXDrawable drawable) {
    static void (*real)(Display *, GLXDrawable);
    if (!real) {
        real = (void (*)(Display *, GLXDrawable))next("glXSwapBuffers");
    }
    struct hook_surface *s;
    swap_begin(GLX_TAG | (uint64_t)drawable, &s);
    if (real) {
        real(dpy, drawable);
    }
    swap_end(s);
}

EXPORT EGLBoolean eglSwapBuffers(EGLDisplay dpy, EGLSurface surface) {
    static EGLBoolean (*real)(EGLDisplay, EGLSurface);
    if (!real) {
        real = (EGLBoolean (*)(EGLDisplay, EGLSurface))next("eglSwapBuffers");
    }
    struct hook_surface *s;
    swap_begin((uint64_t)(uintptr_t)surface, &s);
    EGLBoolean r = real ? real(dpy, surface) : 0;
    swap_end(s);
    return r;
}

EXPORT Bool glXMakeCurrent(Display *dpy, GLXDrawable drawable, GLXContext ctx) {
    static Bool (*real)(Display *, GLXDrawable, GLXContext);
    if (!real) {
        real = (Bool (*)(Display *, GLXDrawable, GLXContext))next("glXMakeCurrent");
    }
    Bool r = real ? real(dpy, drawable, ctx) : 0;
    made_current = gfxstats_now_ns();
    return r;
}

EXPORT Bool glXMakeContextCurrent(Display *dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx) {
    static Bool (*real)(Display *, GLXDrawable, GLXDrawable, GLXContext);
    if (!real) {
        real = (Bool (*)(Display *, GLXDrawable, GLXDrawable, GLXContext))next("glXMakeContextCurrent");
    }
    Bool r = real ? real(dpy, draw, read, ctx) : 0;
    made_current = gfxstats_now_ns();
    return r;
}

EXPORT EGLBoolean eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) {
    static EGLBoolean (*real)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    if (!real) {
        real = (EGLBoolean (*)(EGLDisplay, EGLSurface, EGLSurface, EGLContext))next("eglMakeCurrent");
    }
    EGLBoolean r = real ? real(dpy, draw, read, ctx) : 0;
    made_current = gfxstats_now_ns();
    return r;
}

/* Applications that look the swap functions up at run time get the hooks too. */
static any_fn hooked(const char *name) {
    if (name && strcmp(name, "glXSwapBuffers") == 0) return (any_fn)glXSwapBuffers;
    if (name && strcmp(name, "eglSwapBuffers") == 0) return (any_fn)eglSwapBuffers;
    if (name && strcmp(name, "glXMakeCurrent") == 0) return (any_fn)glXMakeCurrent;
    if (name && strcmp(name, "glXMakeContextCurrent") == 0) return (any_fn)glXMakeContextCurrent;
    if (name && strcmp(name, "eglMakeCurrent") == 0) return (any_fn)eglMakeCurrent;
    return NULL;
}

EXPORT any_fn glXGetProcAddressARB(const unsigned char *name) {
    static any_fn (*real)(const unsigned char *);
    any_fn h = hooked((const char *)name);
    if (h) return h;
    if (!real) real = (any_fn (*)(const unsigned char *))next("glXGetProcAddressARB");
    return real ? real(name) : NULL;
}

EXPORT any_fn glXGetProcAddress(const unsigned char *name) {
    static any_fn (*real)(const unsigned char *);
    any_fn h = hooked((const char *)name);
    if (h) return h;
    if (!real) real = (any_fn (*)(const unsigned char *))next("glXGetProcAddress");
    return real ? real(name) : NULL;
}

EXPORT any_fn eglGetProcAddress(const char *name) {
    static any_fn (*real)(const char *);
    any_fn h = hooked(name);
    if (h) return h;
    if (!real) real = (any_fn (*)(const char *))next("eglGetProcAddress");
    return real ? real(name) : NULL;
}

__attribute__((destructor)) static void gl_unload(void) {
    hook_shutdown();
}
