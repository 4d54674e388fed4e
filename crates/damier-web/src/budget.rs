//! The bytes the whole server holds for answers and request bodies, under one cap.
//!
//! Every answer the server keeps before its client has read it (a command's output, a live
//! view's JSON, a request body being read) takes its bytes from one [`Budget`] first; the
//! bytes go back when the buffer is freed, which for an answer is when the connection has
//! handed it to the kernel (a [`Chunk`] becomes [`Bytes`] that own their share of the budget).
//! So N clients cannot multiply the memory of one answer: past the cap, a job's reading of its
//! child waits (the child waits on its full pipe), within the job's time limit. Clients that
//! read nothing give their share back at the send deadline ([`crate::Settings::send_timeout`]).

use std::sync::Arc;

use axum::body::Bytes;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The bytes of answers the whole server holds at once, by default
/// ([`crate::Settings::answer_memory`]): one answer of the largest size
/// ([`crate::jobs::MAX_OUTPUT`]) and half as much besides.
pub const ANSWER_MEMORY: usize = 96 << 20;

/// The bytes of request bodies the whole server holds at once (32 bodies of the largest size,
/// [`crate::MAX_BODY`]); a budget of their own, so that requests waiting for a job slot
/// never stop the running jobs' answers.
pub const REQUEST_MEMORY: usize = 32 << 20;

/// The size of the buffers an answer is read into.
// PERF: above glibc's mmap threshold (128 KiB, kept there by [`keep_chunks_mapped`]), so that
// each chunk is a mapping of its own, given back to the system when freed; large enough that a
// 64 MiB answer is 256 frames.
pub const CHUNK: usize = 256 << 10;

/// Keeps glibc's mmap threshold at 128 KiB, below a [`CHUNK`], for the whole process. By
/// default glibc raises the threshold to the size of each mapped block freed, so after the
/// first answers the chunks came from the threads' heaps, which keep freed memory and split it
/// between threads: rounds of 20 clients that never read took the server to 185 MB at the
/// peak, and it kept 104 MB once they were let go (a release build); with the threshold fixed,
/// 109 MB each round and 9.4 MB after. Elsewhere (another allocator) it does nothing.
pub fn keep_chunks_mapped() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a parameter of glibc's allocator, under the allocator's own
    // lock; no memory is touched.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

/// The server-wide budget of bytes held (a semaphore counting bytes).
#[derive(Debug, Clone)]
pub struct Budget {
    bytes: Arc<Semaphore>,
    total: usize,
}

/// Why bytes could not be held.
#[derive(Debug, thiserror::Error)]
pub enum HoldError {
    /// More than the whole budget was asked for.
    #[error("{0} bytes is more than the server holds for all its answers together")]
    TooLarge(usize),
    /// The budget is closed (never, in practice).
    #[error("the server is stopping")]
    Closed,
}

impl Budget {
    /// A budget of `total` bytes (at least one [`CHUNK`], so that any answer can make progress).
    pub fn new(total: usize) -> Budget {
        let total = total.clamp(CHUNK, Semaphore::MAX_PERMITS);
        Budget { bytes: Arc::new(Semaphore::new(total)), total }
    }

    /// The bytes not held now.
    pub fn available(&self) -> usize {
        self.bytes.available_permits()
    }

    /// Waits until `n` bytes are free and takes them.
    pub async fn take(&self, n: usize) -> Result<OwnedSemaphorePermit, HoldError> {
        if n > self.total {
            return Err(HoldError::TooLarge(n));
        }
        let Ok(k) = u32::try_from(n) else { return Err(HoldError::TooLarge(n)) };
        self.bytes.clone().acquire_many_owned(k).await.map_err(|_| HoldError::Closed)
    }

    /// `bytes`, made elsewhere, counted from now on (waiting for room first).
    pub async fn hold(&self, bytes: Vec<u8>) -> Result<Chunk, HoldError> {
        let permit = self.take(bytes.capacity()).await?;
        Ok(Chunk { bytes, _permit: permit })
    }

    /// Reads `reader` to its end in [`CHUNK`]s, each taken from the budget before it is
    /// allocated; `Ok(None)` when it holds more than `max` bytes (the reading stops there).
    pub async fn read_to_end(
        &self,
        mut reader: impl AsyncRead + Unpin,
        max: u64,
    ) -> std::io::Result<Option<Vec<Chunk>>> {
        let mut chunks = Vec::new();
        let mut total = 0u64;
        loop {
            let mut permit = self.take(CHUNK).await.map_err(std::io::Error::other)?;
            let mut bytes = Vec::with_capacity(CHUNK);
            // Fill the chunk: a pipe answers a few KiB at a time.
            while bytes.len() < CHUNK {
                if reader.read_buf(&mut bytes).await? == 0 {
                    break;
                }
            }
            let last = bytes.len() < CHUNK;
            total += bytes.len() as u64;
            if total > max {
                return Ok(None);
            }
            if last {
                // A short answer holds what it is, not a whole chunk.
                bytes.shrink_to_fit();
                drop(permit.split(CHUNK - bytes.capacity().min(CHUNK)));
            }
            if !bytes.is_empty() {
                chunks.push(Chunk { bytes, _permit: permit });
            }
            if last {
                return Ok(Some(chunks));
            }
        }
    }
}

/// Why a request body could not be read.
#[derive(Debug)]
pub enum BodyError<E> {
    /// Larger than the bound.
    TooLarge,
    /// The body's own error (a timeout, a connection gone).
    Read(E),
    /// No room in the budget.
    Hold(HoldError),
    /// The body's frames took longer than the time given, in all.
    TimedOut,
}

impl Budget {
    /// Reads a request body of at most `max` bytes into one buffer whose capacity is taken
    /// from the budget as it grows, its frames arriving within `limit` in all.
    ///
    /// The waits for room in the budget do not count against `limit`: a client that sent its
    /// body whole and on time is not answered "too slow" because the server was busy (those
    /// waits are bounded by the request's own time limit).
    pub async fn read_body<B>(
        &self,
        mut body: B,
        max: usize,
        limit: std::time::Duration,
    ) -> Result<Chunk, BodyError<B::Error>>
    where
        B: hyper::body::Body<Data = Bytes> + Unpin,
    {
        use http_body_util::BodyExt;
        let mut bytes = Vec::new();
        let mut held: Option<OwnedSemaphorePermit> = None;
        let mut deadline = tokio::time::Instant::now() + limit;
        loop {
            let Ok(frame) = tokio::time::timeout_at(deadline, body.frame()).await else {
                return Err(BodyError::TimedOut);
            };
            let Some(frame) = frame else { break };
            let Ok(data) = frame.map_err(BodyError::Read)?.into_data() else { continue };
            let need = bytes.len() + data.len();
            if need > max {
                return Err(BodyError::TooLarge);
            }
            if need > bytes.capacity() {
                let capacity = need.max(2 * bytes.capacity()).clamp(1024, max);
                let waited = tokio::time::Instant::now();
                let more = self.take(capacity - bytes.capacity()).await.map_err(BodyError::Hold)?;
                deadline += waited.elapsed();
                match held.as_mut() {
                    Some(h) => h.merge(more),
                    None => held = Some(more),
                }
                bytes.reserve_exact(capacity - bytes.len());
            }
            bytes.extend_from_slice(&data);
        }
        let permit = match held {
            Some(p) => p,
            None => self.take(0).await.map_err(BodyError::Hold)?,
        };
        Ok(Chunk { bytes, _permit: permit })
    }
}

/// A buffer and its share of the [`Budget`], given back when it is dropped.
#[derive(Debug)]
pub struct Chunk {
    bytes: Vec<u8>,
    _permit: OwnedSemaphorePermit,
}

impl Chunk {
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, to change in place.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// The bytes as the body's frame: its share of the budget goes back when the connection
    /// drops the frame (once written), not before.
    pub fn into_bytes(self) -> Bytes {
        Bytes::from_owner(self)
    }
}

impl AsRef<[u8]> for Chunk {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bytes_held_come_back_when_their_frames_are_dropped() {
        let budget = Budget::new(4 * CHUNK);
        let data = vec![7u8; 3 * CHUNK - 5];
        let chunks = budget.read_to_end(&data[..], u64::MAX).await.unwrap().unwrap();
        assert_eq!(chunks.iter().map(|c| c.as_slice().len()).sum::<usize>(), data.len());
        // The last chunk holds its length only.
        let held = 4 * CHUNK - budget.available();
        assert!((data.len()..data.len() + 64).contains(&held), "{held}");
        let frames: Vec<Bytes> = chunks.into_iter().map(Chunk::into_bytes).collect();
        assert_eq!(4 * CHUNK - budget.available(), held, "a frame keeps its share until it is dropped");
        drop(frames);
        assert_eq!(budget.available(), 4 * CHUNK);
        // Past `max`: refused, and nothing is held.
        assert!(budget.read_to_end(&data[..], CHUNK as u64).await.unwrap().is_none());
        assert_eq!(budget.available(), 4 * CHUNK);
        assert!(matches!(budget.hold(vec![0; 5 * CHUNK]).await, Err(HoldError::TooLarge(_))));
    }

    #[tokio::test]
    async fn a_reader_waits_for_room_and_goes_on_when_it_comes() {
        let budget = Budget::new(2 * CHUNK);
        let first = budget.take(2 * CHUNK).await.unwrap();
        let data = vec![1u8; CHUNK + 1];
        let reading = tokio::spawn({
            let budget = budget.clone();
            async move { budget.read_to_end(&data[..], u64::MAX).await.unwrap().unwrap().len() }
        });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!reading.is_finished(), "no room: the reader waits");
        drop(first);
        assert_eq!(reading.await.unwrap(), 2);
    }
}
