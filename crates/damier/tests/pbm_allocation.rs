//! Reading a PBM file allocates in proportion to the file, not to the size its header
//! announces: a 20-byte file claiming a board of 2^34 cells must fail without asking for
//! gigabytes (found by the `pbm` fuzz target; see docs/fuzzing.md).
//!
//! This test binary holds this test only: its allocator records the largest single request.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use damier::board::{Board, PbmError, read_board};

struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only records sizes.
unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by this allocator (that is, by `System`) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

#[test]
fn a_short_file_announcing_a_huge_board_allocates_little() {
    let huge = [
        "P4 131072 131072\n\u{ff}",
        "P4 17179869184 1\n\u{ff}",
        "P1 131072 131072\n1 0 1",
        "P1 17179869184 1\n1 0 1",
    ];
    for file in huge {
        LARGEST.store(0, Ordering::Relaxed);
        let read = Board::read_pbm(file.as_bytes());
        assert!(matches!(read, Err(PbmError::Truncated { .. })), "{file:?}: {read:?}");
        let largest = LARGEST.load(Ordering::Relaxed);
        assert!(largest <= 1 << 20, "{file:?}: one allocation of {largest} bytes");
        assert!(read_board(file.as_bytes()).is_err());
    }
    // A board that is there is still read whole.
    let board = Board::read_pbm(&b"P1 3 2\n1 0 1\n0 1 0\n"[..]).unwrap();
    assert_eq!(board.to_string(), "101\n010\n");
}
