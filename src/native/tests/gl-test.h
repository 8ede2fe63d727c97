/* What the GL test programs (gl-lookup.c, gl-swaps.c) share: GLX's types, which they take from
 * libGL with dlsym rather than from its headers; a lookup that must succeed; a window. Each
 * defines GL_TEST_NAME, the name its lines start with, before it includes this. */
#ifndef GFXSTATS_TESTS_GL_TEST_H
#define GFXSTATS_TESTS_GL_TEST_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*any_fn)(void);
typedef void (*clear_fn)(unsigned int);
typedef struct GLXContextRec *GLXContext;
typedef XID GLXDrawable;
typedef XVisualInfo *(*choose_fn)(Display *, int, int *);
typedef GLXContext (*create_fn)(Display *, XVisualInfo *, GLXContext, Bool);
typedef Bool (*make_fn)(Display *, GLXDrawable, GLXContext);
typedef void (*swap_fn)(Display *, GLXDrawable);
typedef any_fn (*gpa_fn)(const unsigned char *);

/* p, or the program ends with one line naming what was not found. */
static void *must(void *p, const char *what) {
    if (!p) {
        fprintf(stderr, GL_TEST_NAME ": %s not found\n", what);
        exit(1);
    }
    return p;
}

/* A mapped 64x64 window of this visual, known to the server when this returns. */
static Window window_for(Display *dpy, Visual *visual, int depth) {
    Window root = RootWindow(dpy, DefaultScreen(dpy));
    XSetWindowAttributes swa = {.colormap = XCreateColormap(dpy, root, visual, AllocNone)};
    Window win = XCreateWindow(dpy, root, 0, 0, 64, 64, 0, depth, InputOutput, visual, CWColormap, &swa);
    XMapWindow(dpy, win);
    /* On the server before the window is handed to EGL: an implementation with a connection of its
     * own (ANGLE on Vulkan) would not find it while the requests wait in Xlib's buffer. */
    XSync(dpy, False);
    return win;
}

#endif
