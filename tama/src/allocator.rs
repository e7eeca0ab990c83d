//! The process's allocator: mimalloc in a serving engine, the system's in
//! every other run.
//!
//! A serving engine allocates on one thread and frees on another, for hours;
//! against glibc's malloc, mimalloc takes about a sixth off a pipelined
//! dispatch's CPU. A one-event run is over in milliseconds, and mimalloc's
//! set-up (its arena and per-thread heaps, faulted in page by page) makes it
//! about 7% slower. No allocator crate chooses at run time, hence this one.
//!
//! The choice is made from the command line before Rust allocates anything,
//! and never changes: every block is freed by the allocator that gave it.
//! Where the command line cannot be read that early, or anything allocates
//! first, the system's allocator serves the whole run.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU8, Ordering};

use mimalloc::MiMalloc;

const UNDECIDED: u8 = 0;
const SYSTEM: u8 = 1;
const MIMALLOC: u8 = 2;

static CHOICE: AtomicU8 = AtomicU8::new(UNDECIDED);

/// Settles the choice once: `wanted` if nothing decided it before.
fn settle(wanted: u8) -> u8 {
    match CHOICE.compare_exchange(UNDECIDED, wanted, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => wanted,
        Err(settled) => settled,
    }
}

/// Whether mimalloc serves this process; the first allocation settles an
/// undecided choice on the system's allocator.
#[inline]
fn mimalloc() -> bool {
    match CHOICE.load(Ordering::Acquire) {
        UNDECIDED => settle(SYSTEM) == MIMALLOC,
        settled => settled == MIMALLOC,
    }
}

pub struct Chosen;

// SAFETY: each call goes to the one allocator settled for the whole process,
// which gave every block it is asked to free or grow.
unsafe impl GlobalAlloc for Chosen {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            if mimalloc() {
                MiMalloc.alloc(layout)
            } else {
                System.alloc(layout)
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            if mimalloc() {
                MiMalloc.alloc_zeroed(layout)
            } else {
                System.alloc_zeroed(layout)
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            if mimalloc() {
                MiMalloc.dealloc(ptr, layout)
            } else {
                System.dealloc(ptr, layout)
            }
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            if mimalloc() {
                MiMalloc.realloc(ptr, layout, new_size)
            } else {
                System.realloc(ptr, layout, new_size)
            }
        }
    }
}

/// Run by glibc before `main`, with the command line, as every ELF
/// initializer is: chooses mimalloc for `tama run-hook --serve`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static CHOOSE: extern "C" fn(
    std::ffi::c_int,
    *const *const std::ffi::c_char,
    *const *const std::ffi::c_char,
) = choose;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn choose(
    argc: std::ffi::c_int,
    argv: *const *const std::ffi::c_char,
    _env: *const *const std::ffi::c_char,
) {
    let args = (1..usize::try_from(argc).unwrap_or(0)).map(|i| {
        // SAFETY: glibc hands initializers the process's `argc` strings.
        unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) }.to_bytes()
    });
    settle(if serves(args) { MIMALLOC } else { SYSTEM });
}

/// Whether a command line (without the program) starts a serving engine.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn serves<'a>(mut args: impl Iterator<Item = &'a [u8]>) -> bool {
    args.any(|arg| arg == b"--serve" || arg.starts_with(b"--serve="))
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    #[test]
    fn only_a_serving_engine_gets_mimalloc() {
        let line = |words: &[&'static str]| words.iter().map(|w| w.as_bytes()).collect::<Vec<_>>();
        for (words, serving) in [
            (line(&["run-hook", "--serve", "omp"]), true),
            (line(&["run-hook", "--serve=omp"]), true),
            (
                line(&["run-hook", "--provider", "claude", "pre_tool_use"]),
                false,
            ),
            (line(&["hook", "block-git-hook-bypass"]), false),
            (line(&[]), false),
        ] {
            assert_eq!(serves(words.iter().copied()), serving, "{words:?}");
        }
    }
}
