//! A deadline on writing to a client: a connection whose client takes none of the answer's
//! bytes for a while fails its write, and the server lets go of it (and of what it held).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `io` whose writes fail with [`io::ErrorKind::TimedOut`] once one has waited `limit` without
/// the client taking a byte. The clock runs only while a write waits: an idle connection (no
/// answer to send) is the header timeout's business.
#[derive(Debug)]
pub struct WriteDeadline<T> {
    io: T,
    limit: Duration,
    /// The deadline of the write waiting now, if one waits; the timer is kept to be reset.
    timer: Option<Pin<Box<Sleep>>>,
    waiting: bool,
}

impl<T> WriteDeadline<T> {
    /// `io` with writes bounded by `limit`.
    pub fn new(io: T, limit: Duration) -> WriteDeadline<T> {
        WriteDeadline { io, limit, timer: None, waiting: false }
    }

    /// What a write that returned `poll` answers: progress stops the clock; waiting starts it
    /// (once) and fails past the deadline.
    fn watch<R>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        if poll.is_ready() {
            self.waiting = false;
            return poll;
        }
        let deadline = Instant::now() + self.limit;
        let timer = self.timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if !self.waiting {
            timer.as_mut().reset(deadline);
            self.waiting = true;
        }
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {} s", self.limit.as_secs()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteDeadline<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_shutdown(cx);
        self.watch(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_write_nobody_reads_fails_at_the_deadline_and_one_read_in_time_goes_on() {
        // A pipe of 64 bytes: the 65th waits for the other end to read.
        let (near, mut far) = tokio::io::duplex(64);
        let mut io = WriteDeadline::new(near, Duration::from_secs(2));
        io.write_all(&[1; 64]).await.unwrap();
        let reader = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let mut got = [0; 64];
            far.read_exact(&mut got).await.unwrap();
            far
        });
        // Read well within the deadline: the write goes on.
        io.write_all(&[2; 64]).await.unwrap();
        let _far = reader.await.unwrap();
        // Nobody reads now (the other end still open): the write fails at the deadline.
        let e = io.write_all(&[3; 64]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
    }
}
