// A Rust program using libgfxstats through bindings that bindgen generated from
// include/gfxstats.h (no hand-written declarations): a session, one window, FrameInfo-less
// frames of a fixed 60 Hz stream, every frame also written as a `gfxstats record` line to
// compare with the Java client. Built by tests/bindings.sh with rustc alone; the bindings' path
// comes from GFXSTATS_BINDINGS at compile time.
// Usage: example-rs PACKAGE FRAMES OUT
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]

mod sys {
    include!(env!("GFXSTATS_BINDINGS"));
}

use std::ffi::{CStr, CString};
use std::io::Write;

fn check(what: &str, rc: i32) {
    if rc != 0 {
        // SAFETY: gfxstats_strerror returns a static, NUL-terminated string for every status.
        let why = unsafe { CStr::from_ptr(sys::gfxstats_strerror(rc)) };
        eprintln!("example-rs: {}: {}", what, why.to_string_lossy());
        std::process::exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: example-rs PACKAGE FRAMES OUT");
        std::process::exit(2);
    }
    let package = CString::new(args[1].as_str()).expect("package name without NUL");
    let frames: i64 = args[2].parse().expect("FRAMES is a number");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args[3]).expect("OUT can be written"));
    // SAFETY: an all-zero gfxstats_options is valid (NULL pointers and 0s are the defaults).
    let mut o: sys::gfxstats_options = unsafe { std::mem::zeroed() };
    o.struct_size = std::mem::size_of::<sys::gfxstats_options>() as u32;
    o.package_name = package.as_ptr();
    o.version_code = 3;
    o.pipeline = sys::gfxstats_pipeline_GFXSTATS_PIPELINE_GL as i32;
    o.close_wait_ms = -1;
    let mut session: *mut sys::gfxstats_session = std::ptr::null_mut();
    let mut tracker: *mut sys::gfxstats_tracker = std::ptr::null_mut();
    // SAFETY: the options and out-pointers are valid for the calls; package outlives the session.
    unsafe {
        check("session", sys::gfxstats_session_open(&o, &mut session));
        check("tracker", sys::gfxstats_tracker_new(session, &mut tracker));
    }
    let interval: i64 = 16_666_667;
    let mut vsync: i64 = 2_000_000_000;
    for i in 0..frames {
        let work: i64 = if i % 30 == 29 { 40_000_000 } else { 3_000_000 + (i * 104_729 % 7) * 1_000_000 };
        let done = vsync + work;
        // SAFETY: tracker is open and used by this thread only.
        check("record", unsafe { sys::gfxstats_record(tracker, vsync, vsync, done, done + 500_000, interval) });
        writeln!(out, "{},{},{},{},{}", vsync, vsync, done, done + 500_000, interval).expect("OUT written");
        vsync += if work > interval { 3 * interval } else { interval };
    }
    out.flush().expect("OUT written");
    // SAFETY: closed once each, tracker first, on the thread that used it.
    unsafe {
        sys::gfxstats_tracker_close(tracker);
        sys::gfxstats_session_close(session);
    }
    println!("recorded {} frames", frames);
}
