//! Glue the library uses internally and lends to its front ends (the CLI, the web lab, the
//! Python package, the benchmark report): not part of any puzzle's API, as regex-automata's
//! `util` is not. The operating system's figures (a thread's CPU time, the memory available
//! and total) and the one builder of thread pools; fallible allocation ([`try_filled`],
//! [`OutOfMemory`]) for the buffers that grow with a request; [`number`], the one format of a measured
//! quantity in messages and text tables, and [`range`] of an integer range in them; FNV-1a ([`Fnv1a`], [`fnv1a`]), the hash of the
//! library's fingerprints and checksums, whose output is part of on-disk formats.
//!
//! ```
//! use damier::util::{fnv1a, number, thread_pool};
//!
//! assert_eq!(number(134_000.0), "1.34e5");
//! assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325); // FNV-1a 64's offset basis
//! assert_eq!(thread_pool(Some(2)).unwrap().current_num_threads(), 2);
//! ```

mod alloc;
mod bits;
mod hash;
mod system;
mod text;

pub use alloc::{OutOfMemory, bytes_text, check_fits, try_filled, try_with_capacity};
pub(crate) use bits::SPREAD;
pub use hash::{Fnv1a, fnv1a};
pub use system::{
    POOL_MAX_THREADS, address_space_limit, available_memory, process_cpu_seconds, thread_cpu_seconds,
    thread_pool, total_memory,
};
pub(crate) use text::named;
pub use text::{bound, given, number, range};
