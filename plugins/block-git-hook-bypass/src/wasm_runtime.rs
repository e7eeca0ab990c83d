//! What `std` would give the component: an allocator, the canonical ABI's
//! `cabi_realloc`, and a panic handler.
//!
//! Tama's own components are built without `std` so that they import
//! nothing from WASI: `std` links in stdio, environment, exit and random
//! imports, and every import makes loading the component and each fresh
//! instance slower, on every tool call. Each crate that includes this file
//! says where a panic's message goes (`crate::on_panic`).

use alloc::alloc::{GlobalAlloc, Layout, alloc, handle_alloc_error, realloc};
use alloc::string::ToString;
use core::arch::wasm32;
use core::cell::UnsafeCell;
use core::ptr;
use core::sync::atomic::{AtomicBool, Ordering};

use dlmalloc::Dlmalloc;

// `memcmp` and its kin come from the target's C library, as they do under
// `std`; the linker takes only those, and none of them imports anything.
#[link(name = "c")]
unsafe extern "C" {}

#[global_allocator]
static HEAP: Heap = Heap(UnsafeCell::new(Dlmalloc::new_with_allocator(LinearMemory)));

/// dlmalloc over [`LinearMemory`].
struct Heap(UnsafeCell<Dlmalloc<LinearMemory>>);

// SAFETY: a component instance runs on one thread.
unsafe impl Sync for Heap {}

// SAFETY: dlmalloc upholds `GlobalAlloc`'s contract, and one thread at a
// time (the only one) reaches it.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).malloc(layout.size(), layout.align()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { (*self.0.get()).free(ptr, layout.size(), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).calloc(layout.size(), layout.align()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size) }
    }
}

const WASM_PAGE: usize = 64 << 10;

unsafe extern "C" {
    /// Where the linker's data ends and the heap may begin.
    static __heap_base: u8;
}

/// Where dlmalloc takes its memory from: first the free end of the initial
/// linear memory, then pages the memory grows by. dlmalloc's own wasm source
/// only grows the memory, and every growth costs each call system calls in
/// the host, which keeps the initial pages resident instead.
struct LinearMemory;

static INITIAL_TAKEN: AtomicBool = AtomicBool::new(false);

// SAFETY: the regions handed out are linear memory no one else uses: past
// the linker's data, or newly grown.
unsafe impl dlmalloc::Allocator for LinearMemory {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        if !INITIAL_TAKEN.load(Ordering::Relaxed) {
            let start = ptr::addr_of!(__heap_base) as usize;
            let end = wasm32::memory_size(0) * WASM_PAGE;
            if end.saturating_sub(start) >= size {
                INITIAL_TAKEN.store(true, Ordering::Relaxed);
                return (start as *mut u8, end - start, 0);
            }
        }
        let pages = size.div_ceil(WASM_PAGE);
        match wasm32::memory_grow(0, pages) {
            usize::MAX => (ptr::null_mut(), 0, 0),
            previous => ((previous * WASM_PAGE) as *mut u8, pages * WASM_PAGE, 0),
        }
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    /// A fresh instance's memory past its data is zeroed, as grown pages are.
    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        WASM_PAGE
    }
}

/// The allocator the host calls to hand the component its arguments and
/// the results of its imports.
///
/// # Safety
/// Called by the host as the canonical ABI specifies: `old` with `old_len`
/// and `align` was returned by an earlier call, or `old_len` is zero.
#[unsafe(no_mangle)]
unsafe extern "C" fn cabi_realloc(
    old: *mut u8,
    old_len: usize,
    align: usize,
    new_len: usize,
) -> *mut u8 {
    let Ok(layout) = Layout::from_size_align(new_len, align) else {
        wasm32::unreachable()
    };
    if new_len == 0 {
        return align as *mut u8;
    }
    // SAFETY: the layout is not zero-sized, and `old` is as the caller promises.
    let new = unsafe {
        if old_len == 0 {
            alloc(layout)
        } else {
            realloc(
                old,
                Layout::from_size_align_unchecked(old_len, align),
                new_len,
            )
        }
    };
    if new.is_null() {
        handle_alloc_error(layout);
    }
    new
}

/// A panic is a bug, never a verdict: its message goes where the crate
/// says, and the trap that follows makes Tama refuse on the component's
/// behalf.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    crate::on_panic(&info.to_string());
    wasm32::unreachable()
}
