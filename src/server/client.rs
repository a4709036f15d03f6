//! A client of the server is one connection. Each keeps a [`Client`]: what it holds of what
//! the connections share (bytes of the budget, call slots, turns at the compute pool), so that
//! none takes more than its share while others want some, and the switch that closes it.
//!
//! - **Shares** ([`within_share`]): of a shared limit, a client may hold at most one part in
//!   n + 1, where n is the number of clients holding some of it (itself included), and a
//!   client that holds some may not take the last part in n + 1: however the clients filled
//!   up, a newcomer finds its part. A client alone may take half. A client over its share (it
//!   took more while fewer shared) takes no more until it is back within it.
//! - **Turns**: at most one call per core of each client waits for or runs on the compute
//!   pool, so a client's calls queue behind its own, and the pool's queue holds a few calls of
//!   each client rather than all the calls of one.
//! - **Closing** ([`Client::close`]): an answer that its reader did not take in time closes
//!   the connection. HTTP/2 as served here cannot reset one stream whose flow-control window
//!   the client keeps shut (the stream waits in hyper for window that never comes), so the
//!   connection goes, with every buffer of its streams.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::Context;

use futures_util::task::AtomicWaker;
use tokio::sync::Semaphore;

/// One connection's holdings and its closing switch (shared by its calls).
#[derive(Debug)]
pub struct Client {
    /// Bytes of the budget held for this connection (its requests and unsent answers).
    bytes: Holding,
    /// Its calls in flight.
    calls: Holding,
    /// Its turns at the compute pool.
    turns: Arc<Semaphore>,
    /// Set once the connection is to be closed.
    closed: AtomicBool,
    /// The connection's reader, woken to find it closed.
    reader: AtomicWaker,
}

/// How many clients hold some of a shared limit.
#[derive(Debug, Default)]
pub struct Holders(AtomicUsize);

impl Holders {
    /// How many clients hold some now.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }
}

/// How much of a shared limit one client holds.
#[derive(Debug, Default)]
struct Holding(AtomicUsize);

impl Holding {
    fn get(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }

    /// `n` more, counting the client among `holders` if it held none.
    fn add(&self, n: usize, holders: &Holders) {
        if n > 0 && self.0.fetch_add(n, Ordering::AcqRel) == 0 {
            holders.0.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// `n` given back, no longer counting the client among `holders` if it holds none.
    fn sub(&self, n: usize, holders: &Holders) {
        if n > 0 && self.0.fetch_sub(n, Ordering::AcqRel) == n {
            holders.0.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl Client {
    /// A new connection's, with `cores` turns at the compute pool.
    pub fn new(cores: usize) -> Arc<Client> {
        Arc::new(Client {
            bytes: Holding::default(),
            calls: Holding::default(),
            turns: Arc::new(Semaphore::new(cores.max(1))),
            closed: AtomicBool::new(false),
            reader: AtomicWaker::new(),
        })
    }

    /// Bytes of the budget held for it now.
    pub fn bytes(&self) -> usize {
        self.bytes.get()
    }

    /// `n` more bytes held (the budget's `holders`).
    pub(super) fn hold_bytes(&self, n: usize, holders: &Holders) {
        self.bytes.add(n, holders);
    }

    /// `n` bytes given back (the budget's `holders`).
    pub(super) fn release_bytes(&self, n: usize, holders: &Holders) {
        self.bytes.sub(n, holders);
    }

    /// Its calls in flight now.
    pub fn calls(&self) -> usize {
        self.calls.get()
    }

    /// One more call in flight (among the callers `holders`), until the returned guard is
    /// dropped.
    pub(super) fn count_call(self: &Arc<Self>, holders: &Arc<Holders>) -> CallCounted {
        self.calls.add(1, holders);
        CallCounted(Arc::clone(self), Arc::clone(holders))
    }

    /// Its turns at the compute pool.
    pub(super) fn turns(&self) -> Arc<Semaphore> {
        Arc::clone(&self.turns)
    }

    /// Closes the connection: its next read fails, and the server drops it with its streams.
    pub fn close(&self) {
        if !self.closed.swap(true, Ordering::AcqRel) {
            tracing::debug!("closing a connection that left an answer untaken");
            self.reader.wake();
        }
    }

    /// Whether the connection is to be closed.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Whether the connection is to be closed; else `cx` is woken when it is (one waker: the
    /// connection's reader's).
    pub fn poll_closed(&self, cx: &Context<'_>) -> bool {
        if self.closed.load(Ordering::Acquire) {
            return true;
        }
        self.reader.register(cx.waker());
        self.closed.load(Ordering::Acquire)
    }
}

/// A call counted among its client's in flight.
#[derive(Debug)]
pub struct CallCounted(Arc<Client>, Arc<Holders>);

impl Drop for CallCounted {
    fn drop(&mut self) {
        self.0.calls.sub(1, &self.1);
    }
}

/// Whether a client holding `mine` of a shared `limit`, of which `in_use` is taken in all and
/// `holders` clients hold some (the client among them if `mine` is not 0), may take `more`:
///
/// - its share: at most one part in n + 1 of the limit, rounded up, n counting the client;
/// - a newcomer's part: a client that already holds some may not take the last part in
///   n + 1 of the limit, which is kept for a client that holds none (however the holders
///   filled up, one after another or at once).
pub fn within_share(mine: usize, more: usize, in_use: usize, holders: usize, limit: usize) -> bool {
    // A client that holds some counts itself even when the count of holders, updated apart
    // from its own holding, has not caught up yet (it may read 0 for a moment).
    let n = if mine == 0 {
        holders.saturating_add(1)
    } else {
        holders.max(1)
    };
    let share = limit.div_ceil(n.saturating_add(1));
    let reserve = if mine == 0 {
        0
    } else {
        limit / n.saturating_add(1)
    };
    mine.saturating_add(more) <= share && in_use.saturating_add(more) <= limit - reserve
}

/// What tonic knows of a connection (its `ConnectInfo`, in every request's extensions).
#[derive(Debug, Clone)]
pub struct Peer {
    /// The server's address of the connection.
    pub local: Option<SocketAddr>,
    /// The client's address.
    pub remote: Option<SocketAddr>,
    /// The connection's holdings.
    pub client: Arc<Client>,
}

/// The connection's [`Peer`] of a request, over TLS or not.
pub fn peer_of(extensions: &http::Extensions) -> Option<&Peer> {
    extensions.get::<Peer>().or_else(|| {
        extensions
            .get::<tonic::transport::server::TlsConnectInfo<Peer>>()
            .map(tonic::transport::server::TlsConnectInfo::get_ref)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_alone_takes_half_rounded_up() {
        assert!(within_share(0, 50, 0, 0, 100));
        assert!(!within_share(0, 51, 0, 0, 100));
        assert!(within_share(0, 1, 0, 0, 1));
        assert!(within_share(0, 1, 0, 0, 2));
        assert!(!within_share(1, 1, 1, 1, 2));
    }

    /// The count of holders is updated apart from a client's own holding and may lag it: a
    /// client that holds some while the count still reads 0 is a client alone, not refused.
    /// (A load of four calls at a time on one connection was refused twice in 44,000 calls
    /// before.)
    #[test]
    fn a_lagging_count_of_holders_refuses_nobody() {
        assert!(within_share(3, 1, 3, 0, 1024));
        assert!(within_share(3, 1, 3, 1, 1024));
        assert!(within_share(0, 1, 0, usize::MAX, 1024));
    }

    #[test]
    fn beside_others_a_client_takes_one_part_in_n_plus_one() {
        // Three others hold some: a part in five.
        assert!(within_share(0, 20, 30, 3, 100));
        assert!(!within_share(0, 21, 30, 3, 100));
        assert!(within_share(10, 10, 40, 4, 100));
        assert!(!within_share(10, 11, 40, 4, 100));
    }

    /// Clients that keep taking all they may, each giving back what it held before taking
    /// again (as calls end and answers leave), a few bytes at a time or all at once: once
    /// each has turned over, a newcomer's part is left.
    #[test]
    fn greedy_clients_leave_a_newcomer_its_part_once_they_turn_over() {
        let limit: usize = 1 << 20;
        for clients in [1, 2, 3, 7, 50, 500] {
            let mut held = vec![0usize; clients];
            for _ in 0..4 {
                for i in 0..clients {
                    held[i] = 0;
                    // Small takes first, then all that is left to take.
                    for step in [1, 1000, usize::MAX] {
                        let in_use: usize = held.iter().sum();
                        let holders = held.iter().filter(|&&h| h > 0).count();
                        let mut more = step.min(limit - in_use);
                        while more > 0 && !within_share(held[i], more, in_use, holders, limit) {
                            more = more * 15 / 16;
                        }
                        held[i] += more;
                    }
                }
            }
            let in_use: usize = held.iter().sum();
            let holders = held.iter().filter(|&&h| h > 0).count();
            let newcomer = limit / (holders + 2);
            assert!(
                within_share(0, newcomer, in_use, holders, limit),
                "{clients} clients: {in_use} of {limit} held, a newcomer's part is {newcomer}"
            );
        }
    }

    #[test]
    fn holders_are_counted_while_they_hold() {
        let holders = Holders::default();
        let (a, b) = (Client::new(1), Client::new(1));
        a.hold_bytes(5, &holders);
        a.hold_bytes(5, &holders);
        b.hold_bytes(1, &holders);
        assert_eq!(holders.count(), 2);
        a.release_bytes(10, &holders);
        assert_eq!((holders.count(), a.bytes(), b.bytes()), (1, 0, 1));
    }
}
