/* A program that presents with the extensions' swap functions, which it can find only through the
 * GetProcAddress functions, and other shapes of a GL program: usage: gl-swaps egl|egl1|eglsurfaces|oml|glxsurfaces|threads|fork|glxreopen|eglreopen|xcbsurfaces FRAMES. Prints "drew N".
 *
 * egl: an OpenGL ES context on an X11 window through libEGL (dlopen()ed, as libepoxy does for GTK),
 *   swapping in turn with eglSwapBuffers, eglSwapBuffersWithDamageKHR and
 *   eglSwapBuffersWithDamageEXT (with one damage rectangle, the whole window; where the library
 *   has no EXT one, as ANGLE, the KHR one again), and saying which in a "swaps:" line. Mesa's
 *   software driver on X11 offers neither extension but presents on both calls as eglSwapBuffers
 *   does; every call must return EGL_TRUE.
 * egl1: the same with eglSwapBuffers alone (for an EGL whose damage swaps fail where it does not
 *   list them, as ANGLE on its GL backend).
 * oml: a GLX context, swapping in turn with glXSwapBuffers and glXSwapBuffersMscOML (target 0,
 *   divisor 0, remainder 0: as soon as possible). Where the server does not enable
 *   GLX_OML_sync_control (Xvfb), the second answers -1 and swaps nothing; the call is made all the
 *   same, and it is a frame to the hook, as to MangoHud.
 * eglsurfaces, glxsurfaces: FRAMES surfaces one after another, each swapped once and destroyed: an
 *   EGL window surface and its X window (eglDestroySurface, XDestroyWindow), or an X window used
 *   as the GLX drawable (XDestroyWindow), as a program that opens and closes windows does. More
 *   than the hook's table holds (1,024) at once, had it kept them.
 * xcbsurfaces: as glxsurfaces, each X window destroyed through xcb (xcb_destroy_window on Xlib's
 *   connection, as a toolkit on xcb does; XGetXCBConnection from libX11-xcb, taken with dlopen).
 * threads: one thread swaps FRAMES times on a window of its own (its own X connection) while the main
 *   thread makes, swaps once and destroys FRAMES/4 X windows as GLX drawables (glxsurfaces): the
 *   destroys fall while the other thread is inside its swaps.
 * fork: a process that forks after it rendered, without exec: a third of the frames through
 *   glXSwapBuffers, then fork(); the child, on a display connection and a window of its own, swaps
 *   a third and exits; the parent waits for it and swaps the rest on a new window. Every swap is a
 *   frame, the child's in a session of its own.
 * glxreopen, eglreopen: FRAMES times a new X connection with a window and a context (GLX, or EGL
 *   on it), made current, swapped once, and closed with no destroy call of its own: XCloseDisplay
 *   (which destroys the client's windows), or eglTerminate and then XCloseDisplay. The X server
 *   gives the next connection's window the id the last one had, so GLX finds the same drawable
 *   again: 40 ms pass before the next, which a frame counted from the last window's swap would
 *   hold.
 *
 * The program also checks that dlsym(RTLD_DEFAULT, ...) finds none of the three extension swaps: the
 * hook does not export them, so a program that probes the global scope learns what it learnt without
 * the hook. */
#define GL_TEST_NAME "gl-swaps"
#include "gl-test.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- EGL (the values of the Khronos headers, which this program does not need installed) */

typedef void *EGLDisplay;
typedef void *EGLConfig;
typedef void *EGLSurface;
typedef void *EGLContext;
typedef int32_t EGLint;
typedef unsigned int EGLBoolean;
enum {
    EGL_NONE = 0x3038, EGL_SURFACE_TYPE = 0x3033, EGL_WINDOW_BIT = 0x0004, EGL_RENDERABLE_TYPE = 0x3040,
    EGL_OPENGL_ES2_BIT = 0x0004, EGL_RED_SIZE = 0x3024, EGL_CONTEXT_CLIENT_VERSION = 0x3098,
    EGL_OPENGL_ES_API = 0x30A0, EGL_NATIVE_VISUAL_ID = 0x302E,
};

typedef any_fn (*egl_gpa_fn)(const char *);
typedef EGLDisplay (*egl_get_display_fn)(void *);
typedef EGLBoolean (*egl_init_fn)(EGLDisplay, EGLint *, EGLint *);
typedef EGLBoolean (*egl_choose_fn)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
typedef EGLBoolean (*egl_attrib_fn)(EGLDisplay, EGLConfig, EGLint, EGLint *);
typedef EGLBoolean (*egl_bind_fn)(unsigned int);
typedef EGLSurface (*egl_window_fn)(EGLDisplay, EGLConfig, unsigned long, const EGLint *);
typedef EGLContext (*egl_context_fn)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
typedef EGLBoolean (*egl_make_fn)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
typedef EGLBoolean (*egl_swap_fn)(EGLDisplay, EGLSurface);
typedef EGLBoolean (*egl_swap_damage_fn)(EGLDisplay, EGLSurface, const EGLint *, EGLint);
typedef EGLBoolean (*egl_terminate_fn)(EGLDisplay);
typedef EGLBoolean (*egl_destroy_fn)(EGLDisplay, EGLSurface);
typedef EGLint (*egl_error_fn)(void);

static int draw_egl(Display *dpy, int frames, int plain, int surfaces) {
    void *egl = must(dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL), "libEGL.so.1");
    egl_gpa_fn gpa = (egl_gpa_fn)must(dlsym(egl, "eglGetProcAddress"), "eglGetProcAddress");
    EGLDisplay edpy = ((egl_get_display_fn)must(dlsym(egl, "eglGetDisplay"), "eglGetDisplay"))(dpy);
    if (!((egl_init_fn)must(dlsym(egl, "eglInitialize"), "eglInitialize"))(edpy, NULL, NULL)) {
        fprintf(stderr, "gl-swaps: eglInitialize failed\n");
        return 1;
    }
    const EGLint want[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                           EGL_RED_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!((egl_choose_fn)must(dlsym(egl, "eglChooseConfig"), "eglChooseConfig"))(edpy, want, &config, 1, &n) || n < 1) {
        fprintf(stderr, "gl-swaps: no EGL config for an OpenGL ES 2 window\n");
        return 1;
    }
    EGLint visual_id = 0;
    ((egl_attrib_fn)must(dlsym(egl, "eglGetConfigAttrib"), "eglGetConfigAttrib"))(edpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    XVisualInfo templ = {.visualid = (VisualID)visual_id}, *vi;
    int count = 0;
    vi = must(XGetVisualInfo(dpy, VisualIDMask, &templ, &count), "the EGL config's X visual");
    Window win = window_for(dpy, vi->visual, vi->depth);
    ((egl_bind_fn)must(dlsym(egl, "eglBindAPI"), "eglBindAPI"))(EGL_OPENGL_ES_API);
    egl_error_fn error = (egl_error_fn)must(dlsym(egl, "eglGetError"), "eglGetError");
    EGLSurface surface = ((egl_window_fn)must(dlsym(egl, "eglCreateWindowSurface"), "eglCreateWindowSurface"))(edpy, config, win, NULL);
    if (!surface) {
        fprintf(stderr, "gl-swaps: no EGL window surface (EGL error 0x%x)\n", (unsigned)error());
        return 1;
    }
    const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = ((egl_context_fn)must(dlsym(egl, "eglCreateContext"), "eglCreateContext"))(edpy, config, NULL, es2);
    egl_make_fn make = (egl_make_fn)must(dlsym(egl, "eglMakeCurrent"), "eglMakeCurrent");
    if (!ctx || !make(edpy, surface, surface, ctx)) {
        fprintf(stderr, "gl-swaps: no current EGL context (EGL error 0x%x)\n", (unsigned)error());
        return 1;
    }
    clear_fn clear = (clear_fn)must((void *)gpa("glClear"), "glClear");
    egl_swap_fn swap = (egl_swap_fn)must(dlsym(egl, "eglSwapBuffers"), "eglSwapBuffers");
    if (surfaces) {
        egl_window_fn create = (egl_window_fn)must(dlsym(egl, "eglCreateWindowSurface"), "eglCreateWindowSurface");
        egl_destroy_fn destroy = (egl_destroy_fn)must(dlsym(egl, "eglDestroySurface"), "eglDestroySurface");
        for (int i = 0; i < frames; i++) {
            Window w = window_for(dpy, vi->visual, vi->depth);
            EGLSurface one = create(edpy, config, w, NULL);
            if (!one || !make(edpy, one, one, ctx)) {
                fprintf(stderr, "gl-swaps: surface %d: no current EGL surface (EGL error 0x%x)\n", i, (unsigned)error());
                return 1;
            }
            clear(0x4000 /* GL_COLOR_BUFFER_BIT */);
            if (!swap(edpy, one)) {
                fprintf(stderr, "gl-swaps: surface %d: eglSwapBuffers failed\n", i);
                return 1;
            }
            make(edpy, NULL, NULL, NULL);
            destroy(edpy, one);
            XDestroyWindow(dpy, w);
        }
        printf("swaps: eglSwapBuffers\n");
        ((egl_terminate_fn)must(dlsym(egl, "eglTerminate"), "eglTerminate"))(edpy);
        return 0;
    }
    egl_swap_damage_fn khr = (egl_swap_damage_fn)must((void *)gpa("eglSwapBuffersWithDamageKHR"), "eglSwapBuffersWithDamageKHR");
    /* ANGLE offers only the KHR one: the KHR one stands in (the "swaps:" line says so). */
    egl_swap_damage_fn ext = (egl_swap_damage_fn)gpa("eglSwapBuffersWithDamageEXT");
    const char *third = "eglSwapBuffersWithDamageEXT";
    if (!ext) {
        ext = khr;
        third = "eglSwapBuffersWithDamageKHR";
    }
    const EGLint whole[] = {0, 0, 64, 64};
    for (int i = 0; i < frames; i++) {
        clear(0x4000 /* GL_COLOR_BUFFER_BIT */);
        EGLBoolean ok = plain || i % 3 == 0 ? swap(edpy, surface) : (i % 3 == 1 ? khr : ext)(edpy, surface, whole, 1);
        if (!ok) {
            fprintf(stderr, "gl-swaps: swap %d (%s) failed\n", i,
                    plain || i % 3 == 0 ? "eglSwapBuffers" : i % 3 == 1 ? "eglSwapBuffersWithDamageKHR" : third);
            return 1;
        }
    }
    if (plain) {
        printf("swaps: eglSwapBuffers\n");
    } else {
        printf("swaps: eglSwapBuffers eglSwapBuffersWithDamageKHR %s\n", third);
    }
    make(edpy, NULL, NULL, NULL);
    ((egl_terminate_fn)must(dlsym(egl, "eglTerminate"), "eglTerminate"))(edpy);
    return 0;
}

/* ---- GLX */

typedef int64_t (*swap_msc_fn)(Display *, GLXDrawable, int64_t, int64_t, int64_t);

typedef struct xcb_connection_t xcb_connection_t;
typedef xcb_connection_t *(*xcb_of_fn)(Display *);
typedef struct {
    unsigned int sequence;
} xcb_cookie;
typedef xcb_cookie (*xcb_destroy_fn)(xcb_connection_t *, uint32_t);
typedef int (*xcb_flush_fn)(xcb_connection_t *);

/* xcbsurfaces: the window destroyed through xcb on Xlib's own connection. */
static void destroy_with_xcb(Display *dpy, Window w) {
    static xcb_of_fn xcb_of;
    static xcb_destroy_fn destroy;
    static xcb_flush_fn flush;
    if (!xcb_of) {
        void *x11_xcb = must(dlopen("libX11-xcb.so.1", RTLD_NOW | RTLD_LOCAL), "libX11-xcb.so.1");
        xcb_of = (xcb_of_fn)must(dlsym(x11_xcb, "XGetXCBConnection"), "XGetXCBConnection");
        /* libxcb came with libX11: the first definition in the global scope, as a program linked
         * with -lxcb calls (a preloaded one first). */
        destroy = (xcb_destroy_fn)must(dlsym(RTLD_DEFAULT, "xcb_destroy_window"), "xcb_destroy_window");
        flush = (xcb_flush_fn)must(dlsym(RTLD_DEFAULT, "xcb_flush"), "xcb_flush");
    }
    xcb_connection_t *c = xcb_of(dpy);
    destroy(c, (uint32_t)w);
    flush(c);
}

/* GLX on a window of its own: glXSwapBuffers, or in turn with glXSwapBuffersMscOML (oml). */
static int draw_glx(Display *dpy, int frames, int oml_too, int surfaces) {
    void *gl = must(dlopen("libGL.so.1", RTLD_NOW | RTLD_LOCAL), "libGL.so.1");
    gpa_fn gpa = (gpa_fn)must(dlsym(gl, "glXGetProcAddressARB"), "glXGetProcAddressARB");
    int attrs[] = {4 /* GLX_RGBA */, 5 /* GLX_DOUBLEBUFFER */, 0};
    XVisualInfo *vi = must(((choose_fn)must(dlsym(gl, "glXChooseVisual"), "glXChooseVisual"))(dpy, DefaultScreen(dpy), attrs),
                           "a double-buffered RGBA visual");
    Window win = window_for(dpy, vi->visual, vi->depth);
    GLXContext ctx = must(((create_fn)must(dlsym(gl, "glXCreateContext"), "glXCreateContext"))(dpy, vi, NULL, True), "a GLX context");
    make_fn make = (make_fn)must(dlsym(gl, "glXMakeCurrent"), "glXMakeCurrent");
    make(dpy, win, ctx);
    clear_fn clear = (clear_fn)must(dlsym(gl, "glClear"), "glClear");
    swap_fn swap = (swap_fn)must(dlsym(gl, "glXSwapBuffers"), "glXSwapBuffers");
    swap_msc_fn oml = (swap_msc_fn)must((void *)gpa((const unsigned char *)"glXSwapBuffersMscOML"), "glXSwapBuffersMscOML");
    for (int i = 0; surfaces && i < frames; i++) {
        Window w = window_for(dpy, vi->visual, vi->depth);
        make(dpy, w, ctx);
        clear(0x4000 /* GL_COLOR_BUFFER_BIT */);
        swap(dpy, w);
        make(dpy, None, NULL);
        if (surfaces == 2) {
            destroy_with_xcb(dpy, w);
        } else {
            XDestroyWindow(dpy, w);
        }
    }
    for (int i = 0; !surfaces && i < frames; i++) {
        clear(0x4000 /* GL_COLOR_BUFFER_BIT */);
        if (i % 2 == 0 || !oml_too) {
            swap(dpy, win);
        } else {
            oml(dpy, win, 0, 0, 0);
        }
    }
    make(dpy, None, NULL);
    return 0;
}

static void *swap_on_own_display(void *arg) {
    Display *own = must(XOpenDisplay(NULL), "X display (thread)");
    draw_glx(own, *(int *)arg, 0, 0);
    XCloseDisplay(own);
    return NULL;
}

static int draw_threads(Display *dpy, int frames) {
    pthread_t th;
    if (pthread_create(&th, NULL, swap_on_own_display, &frames) != 0) {
        fprintf(stderr, "gl-swaps: no thread\n");
        return 1;
    }
    int rc = draw_glx(dpy, frames / 4, 0, 1);
    pthread_join(th, NULL);
    printf("swaps: %d on the thread, %d on as many windows\n", frames, frames / 4);
    return rc;
}

static int draw_fork(Display *dpy, int frames) {
    int first = frames / 3, child = frames / 3;
    draw_glx(dpy, first, 0, 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("gl-swaps: fork");
        return 1;
    }
    if (pid == 0) {
        /* The parent's connection is the parent's: a second user would break its request stream. */
        Display *own = must(XOpenDisplay(NULL), "X display (child)");
        draw_glx(own, child, 0, 0);
        XCloseDisplay(own);
        exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "gl-swaps: the child failed\n");
        return 1;
    }
    return draw_glx(dpy, frames - first - child, 0, 0);
}

/* glxreopen, eglreopen: see the top. The pause is the program's, between its windows. */
static int draw_reopen(int frames, int egl) {
    for (int i = 0; i < frames; i++) {
        Display *own = must(XOpenDisplay(NULL), "X display (reopen)");
        int rc = egl ? draw_egl(own, 1, 1, 0) : draw_glx(own, 1, 0, 0);
        XCloseDisplay(own);
        if (rc != 0) {
            return rc;
        }
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 40 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int frames = argc > 2 ? atoi(argv[2]) : 0;
    const char *const modes[] = {"egl", "egl1", "eglsurfaces", "oml", "glxsurfaces", "threads", "fork", "glxreopen",
                                 "eglreopen", "xcbsurfaces"};
    int known = 0;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        known |= strcmp(mode, modes[i]) == 0;
    }
    if (!known || frames < 1) {
        fprintf(stderr, "usage: gl-swaps egl|egl1|eglsurfaces|oml|glxsurfaces|threads|fork|glxreopen|eglreopen|xcbsurfaces FRAMES\n");
        return 2;
    }
    const char *exported[] = {"eglSwapBuffersWithDamageKHR", "eglSwapBuffersWithDamageEXT", "glXSwapBuffersMscOML"};
    for (int i = 0; i < 3; i++) {
        if (dlsym(RTLD_DEFAULT, exported[i])) {
            fprintf(stderr, "gl-swaps: dlsym(RTLD_DEFAULT, %s) found a function\n", exported[i]);
            return 1;
        }
    }
    XInitThreads(); /* one connection for each thread, but Xlib's own state is shared */
    Display *dpy = must(XOpenDisplay(NULL), "X display");
    int rc = strcmp(mode, "oml") == 0 ? draw_glx(dpy, frames, 1, 0)
           : strcmp(mode, "glxsurfaces") == 0 ? draw_glx(dpy, frames, 0, 1)
           : strcmp(mode, "xcbsurfaces") == 0 ? draw_glx(dpy, frames, 0, 2)
           : strcmp(mode, "fork") == 0 ? draw_fork(dpy, frames)
           : strcmp(mode, "threads") == 0 ? draw_threads(dpy, frames)
           : strcmp(mode, "glxreopen") == 0 ? draw_reopen(frames, 0)
           : strcmp(mode, "eglreopen") == 0 ? draw_reopen(frames, 1)
           : draw_egl(dpy, frames, strcmp(mode, "egl1") == 0, strcmp(mode, "eglsurfaces") == 0);
    if (rc == 0) {
        printf("drew %d\n", frames);
    }
    return rc;
}
