#!/usr/bin/env python3
"""A Python program using libgfxstats through ctypes: one window, frames of a paced loop with
real monotonic times, each also written as a `gfxstats record` line to compare with the Java
client. Usage: example.py LIBRARY PACKAGE FRAMES OUT"""
import ctypes
import sys
import time


class Options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("package_name", ctypes.c_char_p),
        ("version_code", ctypes.c_int64),
        ("pipeline", ctypes.c_int32),
        ("refresh_interval_ns", ctypes.c_int64),
        ("socket_path", ctypes.c_char_p),
        ("close_wait_ms", ctypes.c_int32),
        ("deadlines_already_extended", ctypes.c_int32),
    ]


def main():
    lib_path, package, frames, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    lib = ctypes.CDLL(lib_path)
    lib.gfxstats_session_open.argtypes = [ctypes.POINTER(Options), ctypes.POINTER(ctypes.c_void_p)]
    lib.gfxstats_tracker_new.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.gfxstats_record.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 5
    lib.gfxstats_tracker_close.argtypes = [ctypes.c_void_p]
    lib.gfxstats_session_close.argtypes = [ctypes.c_void_p]
    lib.gfxstats_strerror.restype = ctypes.c_char_p
    opts = Options(ctypes.sizeof(Options), package.encode(), 9, 1, 0, None, -1, 0)
    session = ctypes.c_void_p()
    rc = lib.gfxstats_session_open(ctypes.byref(opts), ctypes.byref(session))
    if rc != 0:
        sys.exit(f"example.py: {lib.gfxstats_strerror(rc).decode()}")
    tracker = ctypes.c_void_p()
    if lib.gfxstats_tracker_new(session, ctypes.byref(tracker)) != 0:
        sys.exit("example.py: no tracker")
    with open(out, "w") as lines:
        for i in range(frames):
            vsync = time.monotonic_ns()
            time.sleep(0.030 if i % 40 == 39 else 0.001)
            done = time.monotonic_ns()
            if lib.gfxstats_record(tracker, vsync, vsync, done, done, 16666667) != 0:
                sys.exit("example.py: frame refused")
            lines.write(f"{vsync},{vsync},{done},{done},16666667\n")
    lib.gfxstats_tracker_close(tracker)
    lib.gfxstats_session_close(session)
    print(f"recorded {frames} frames")


if __name__ == "__main__":
    main()
