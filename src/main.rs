//! The `bailab` binary: parses the command line and reports errors with a non-zero exit.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// The system allocator, counting the heap allocations (and reallocations) of the whole process,
/// so that a test can check from outside that a run allocates nothing per deal (`tests/
/// alloc_run.rs`). A relaxed counter costs nothing next to an allocation; the count is printed
/// only when [`COUNT_VAR`] is set.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

/// The environment variable that makes the binary print `allocations: N` to stderr at exit.
const COUNT_VAR: &str = "BAILAB_COUNT_ALLOCATIONS";

// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let result = bailab::cli::main();
    if std::env::var_os(COUNT_VAR).is_some() {
        eprintln!("allocations: {}", ALLOCATIONS.load(Ordering::Relaxed));
    }
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
