/* An OpenGL program that finds every GL function itself, as SDL and other loaders do: it dlopen()s
 * libGL privately (RTLD_LOCAL, so the preloaded hook cannot find libGL through RTLD_NEXT), then
 * draws FRAMES frames swapping with the glXSwapBuffers it got from one lookup (MODE "dlsym":
 * dlsym(libGL handle), "arb": glXGetProcAddressARB, "gpa": glXGetProcAddress, both taken from
 * that handle too), or from all three in turn ("all"); usage: gl-lookup FRAMES MODE. Each mode on
 * its own checks that the hook found the real function through that path alone. It also checks that dlsym(RTLD_NEXT, ...) from the program still means "after the
 * program": with the hook preloaded that is the hook's glXSwapBuffers; a dlsym interposer that
 * lost the caller would search after itself and find nothing. Prints "drew N" and exits 0. */
#define GL_TEST_NAME "gl-lookup"
#include "gl-test.h"

#include <dlfcn.h>
#include <string.h>

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 100;
    void *gl = must(dlopen("libGL.so.1", RTLD_NOW | RTLD_LOCAL), "libGL.so.1");
    choose_fn choose = (choose_fn)must(dlsym(gl, "glXChooseVisual"), "glXChooseVisual");
    create_fn create = (create_fn)must(dlsym(gl, "glXCreateContext"), "glXCreateContext");
    make_fn make = (make_fn)must(dlsym(gl, "glXMakeCurrent"), "glXMakeCurrent");
    gpa_fn gpa_arb = (gpa_fn)must(dlsym(gl, "glXGetProcAddressARB"), "glXGetProcAddressARB");
    gpa_fn gpa = (gpa_fn)must(dlsym(gl, "glXGetProcAddress"), "glXGetProcAddress");
    clear_fn clear = (clear_fn)must(dlsym(gl, "glClear"), "glClear");
    const char *mode = argc > 2 ? argv[2] : "all";
    int all = strcmp(mode, "all") == 0;
    swap_fn swaps[3] = {NULL, NULL, NULL};
    if (all || strcmp(mode, "arb") == 0) {
        swaps[1] = (swap_fn)must((void *)gpa_arb((const unsigned char *)"glXSwapBuffers"), "ARB glXSwapBuffers");
    }
    if (all || strcmp(mode, "gpa") == 0) {
        swaps[2] = (swap_fn)must((void *)gpa((const unsigned char *)"glXSwapBuffers"), "glXGetProcAddress glXSwapBuffers");
    }
    if (all || strcmp(mode, "dlsym") == 0) {
        swaps[0] = (swap_fn)must(dlsym(gl, "glXSwapBuffers"), "dlsym glXSwapBuffers");
    }
    swap_fn only = swaps[0] ? swaps[0] : swaps[1] ? swaps[1] : swaps[2];
    if (!only) {
        fprintf(stderr, "gl-lookup: mode is dlsym, arb, gpa or all, not %s\n", mode);
        return 2;
    }
    void *next = dlsym(RTLD_NEXT, "glXSwapBuffers");
    if (getenv("GL_LOOKUP_EXPECT_HOOK") && next != (void *)only) {
        fprintf(stderr, "gl-lookup: dlsym(RTLD_NEXT, glXSwapBuffers) from the program gave %p, not the hook %p\n",
                next, (void *)only);
        return 1;
    }
    Display *dpy = must(XOpenDisplay(NULL), "X display");
    int attrs[] = {4 /* GLX_RGBA */, 5 /* GLX_DOUBLEBUFFER */, 0};
    XVisualInfo *vi = must(choose(dpy, DefaultScreen(dpy), attrs), "a double-buffered RGBA visual");
    Window win = window_for(dpy, vi->visual, vi->depth);
    GLXContext ctx = must(create(dpy, vi, NULL, True), "a GLX context");
    make(dpy, win, ctx);
    for (int i = 0; i < frames; i++) {
        clear(0x4000 /* GL_COLOR_BUFFER_BIT */);
        (all ? swaps[i % 3] : only)(dpy, win);
    }
    make(dpy, None, NULL);
    printf("drew %d\n", frames);
    return 0;
}
