/* The C tests' one assertion: CHECK(condition, printf-style message) counts the check, and a
 * failure, which it reports with its file and line, without stopping the test. */
#ifndef GFXSTATS_TESTS_CHECK_H
#define GFXSTATS_TESTS_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                    \
    do {                                                    \
        checks++;                                           \
        if (!(cond)) {                                      \
            failures++;                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                   \
            fputc('\n', stderr);                            \
        }                                                   \
    } while (0)

#endif
