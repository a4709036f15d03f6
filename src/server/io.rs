//! The connections the server speaks HTTP/2 over.
//!
//! A TCP stream that does not offer vectored writes. HTTP/2 (`h2`) then copies every frame up
//! to 1 KiB into its write buffer instead of queueing it as a separate slice, and a response
//! (headers, data, trailers) leaves in one `write` call with the others ready at the same
//! time. With vectored writes, every data frame over 256 bytes — any scored hand — makes the
//! buffer flush on its own: measured 1.5 system calls per `ScoreHand` response against 1.0 for
//! the health check (see the README's performance section). Larger frames are still written
//! from their own buffers, without a copy.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tonic::transport::server::{Connected, TcpConnectInfo};

/// An accepted TCP connection, written in whole buffers.
#[derive(Debug)]
pub struct Connection(TcpStream);

impl From<TcpStream> for Connection {
    fn from(stream: TcpStream) -> Self {
        Connection(stream)
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }

    /// No: see the module documentation.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

impl Connected for Connection {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.0.connect_info()
    }
}
