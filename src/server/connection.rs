//! The connections the server speaks HTTP/2 over: each with its [`Client`] (what it holds of
//! the shared limits), and closed when its client says so ([`Client::close`]: its reads and
//! writes fail, and the server drops it with its streams).
//!
//! A TCP stream that does not offer vectored writes. HTTP/2 (`h2`) then copies every frame up
//! to 1 KiB into its write buffer instead of queueing it as a separate slice, and a response
//! (headers, data, trailers) leaves in one `write` call with the others ready at the same
//! time. With vectored writes, every data frame over 256 bytes — any scored hand — makes the
//! buffer flush on its own: measured 1.5 system calls per `ScoreHand` response against 1.0 for
//! the health check (see the README's performance section).
//!
//! Larger frames are written from their own buffers, without a copy: `h2` hands over the
//! buffered frame header and then the payload, in two writes. So that they leave in one
//! system call, a write of up to `HOLD_BYTES` is held back and sent together with the next
//! one (`writev`), or at the flush that `h2` makes after every burst of frames: a batch answer
//! of 300 KB takes about 20 system calls instead of 38 (strace, `BatchScoreHands` load).

use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tonic::transport::server::Connected;

use super::client::{Client, Peer};

/// The most bytes held back for the next write. `h2` puts a large data frame's header
/// in its buffer with the payload's first KiB and any smaller frames before it, and writes
/// that buffer first: it is held, and the rest of the payload leaves with it.
const HOLD_BYTES: usize = 4 * 1024;

/// An accepted TCP connection, written in whole buffers.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    /// Bytes accepted from the writer and not yet sent: they go before anything else.
    held: Vec<u8>,
    /// The connection's place among the server's (`--max-connections`), given back when it
    /// closes.
    _slot: Option<OwnedSemaphorePermit>,
    /// What it holds of what the connections share, and its closing switch.
    client: Arc<Client>,
}

impl Connection {
    /// `stream`, holding `slot` until the connection closes, its calls taking turns at a
    /// compute pool of `cores`.
    pub fn holding(stream: TcpStream, slot: Option<OwnedSemaphorePermit>, cores: usize) -> Self {
        Connection {
            stream,
            held: Vec::with_capacity(HOLD_BYTES),
            _slot: slot,
            client: Client::new(cores),
        }
    }

    /// The error of a read or write once the connection is closed.
    fn closed() -> io::Error {
        io::Error::new(
            io::ErrorKind::ConnectionAborted,
            "closed: an answer was not taken in time",
        )
    }

    /// Sends what is held, as far as the socket takes it now.
    fn poll_send_held(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.held.is_empty() {
            let n = ready!(Pin::new(&mut self.stream).poll_write(cx, &self.held))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.held.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        // The server always waits to read a connection: the reader is the one woken.
        if self.client.poll_closed(cx) {
            return Poll::Ready(Err(Self::closed()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.client.is_closed() {
            return Poll::Ready(Err(Self::closed()));
        }
        if this.held.len() + buf.len() <= HOLD_BYTES {
            this.held.extend_from_slice(buf);
            return Poll::Ready(Ok(buf.len()));
        }
        // The held bytes and this buffer in one system call, until the held ones are out.
        while !this.held.is_empty() {
            let slices = [IoSlice::new(&this.held), IoSlice::new(buf)];
            let n = ready!(Pin::new(&mut this.stream).poll_write_vectored(cx, &slices))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            if n > this.held.len() {
                let of_buf = n - this.held.len();
                this.held.clear();
                return Poll::Ready(Ok(of_buf));
            }
            this.held.drain(..n);
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_send_held(cx))?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_send_held(cx))?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    /// No: see the module documentation.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

impl Connected for Connection {
    type ConnectInfo = Peer;

    fn connect_info(&self) -> Peer {
        Peer {
            local: self.stream.local_addr().ok(),
            remote: self.stream.peer_addr().ok(),
            client: Arc::clone(&self.client),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    use tokio::net::{TcpListener, TcpSocket};

    use super::*;

    /// Writes `chunks` through a [`Connection`], flushing after those marked, to a reader
    /// that pauses now and then (so that the socket fills and writes come back short or
    /// pending); returns what the reader got and what was sent.
    async fn round_trip(chunks: Vec<(usize, bool)>, pause_every: usize) -> (Vec<u8>, Vec<u8>) {
        // Small socket buffers: writes come back short or pending.
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4 * 1024).unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let listener = socket.listen(8).unwrap();
        let addr = listener.local_addr().unwrap();
        let reader = tokio::spawn(async move {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut got = Vec::new();
            let mut buf = vec![0; 8 * 1024];
            let mut reads = 0;
            loop {
                let n = stream.read(&mut buf).await.unwrap();
                if n == 0 {
                    return got;
                }
                got.extend_from_slice(&buf[..n]);
                reads += 1;
                if reads % pause_every == 0 {
                    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                }
            }
        });
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_send_buffer_size(4 * 1024).unwrap();
        let mut connection = Connection::holding(socket.connect(addr).await.unwrap(), None, 1);
        let mut sent = Vec::new();
        for (i, (len, flush)) in chunks.into_iter().enumerate() {
            let bytes: Vec<u8> = (0..len)
                .map(|k| u8::try_from((i * 31 + k) % 251).unwrap())
                .collect();
            connection.write_all(&bytes).await.unwrap();
            sent.extend_from_slice(&bytes);
            if flush {
                connection.flush().await.unwrap();
            }
        }
        connection.shutdown().await.unwrap();
        (reader.await.unwrap(), sent)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn every_byte_arrives_in_order(
            chunks in prop::collection::vec(
                (prop_oneof![1usize..20, 1usize..2_000, 4_000usize..70_000], any::<bool>()),
                1..30,
            ),
            pause_every in 4usize..50,
        ) {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let (got, sent) = runtime.block_on(round_trip(chunks, pause_every));
            prop_assert_eq!(got.len(), sent.len());
            prop_assert!(got == sent);
        }
    }

    #[tokio::test]
    async fn small_writes_wait_for_the_flush() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut connection = Connection::holding(TcpStream::connect(addr).await.unwrap(), None, 1);
        let (mut peer, _) = listener.accept().await.unwrap();
        connection.write_all(b"frame header").await.unwrap();
        let mut buf = [0; 64];
        let early =
            tokio::time::timeout(std::time::Duration::from_millis(50), peer.read(&mut buf)).await;
        assert!(early.is_err(), "held until the flush");
        connection.flush().await.unwrap();
        let n = peer.read(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"frame header");
    }
}
