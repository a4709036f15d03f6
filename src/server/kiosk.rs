//! The scoring kiosk page at `/kiosk/` on the gRPC port (same origin as the gRPC-Web calls
//! it makes, so it needs no CORS).
//!
//! The page is built from `web/kiosk/` (TypeScript, esbuild) into `web/kiosk/dist/`, which
//! is committed and compiled into the binary: serving it needs no Node and no files at run
//! time. CI rebuilds the bundle and fails on a difference.
//!
//! | request | answer |
//! |---|---|
//! | `GET /kiosk` | 308 to `/kiosk/` (the query kept) |
//! | `GET /kiosk/`, `/kiosk/index.html` | the page |
//! | `GET /kiosk/kiosk.js`, `/kiosk/kiosk.css`, `/kiosk/favicon.svg` | its script, style sheet and icon |
//! | any other `/kiosk/…` | 404 |
//! | another method on `/kiosk…` | 405 |
//!
//! `HEAD` is answered as `GET` without the body. With `--kiosk false` every request goes
//! on to the gRPC routes, as if this layer were not there. The layer sits outside gRPC-Web,
//! CORS and the gRPC metrics, so page loads are neither counted nor limited as calls.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use tonic::body::Body;
use tower_layer::Layer;
use tower_service::Service;

/// Where the page is served.
pub const PATH: &str = "/kiosk/";

/// A file of the built page.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const INDEX: Asset = Asset {
    name: "index.html",
    content_type: "text/html; charset=utf-8",
    bytes: include_bytes!("../../web/kiosk/dist/index.html"),
};

const ASSETS: [Asset; 4] = [
    INDEX,
    Asset {
        name: "kiosk.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../../web/kiosk/dist/kiosk.js"),
    },
    Asset {
        name: "kiosk.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../../web/kiosk/dist/kiosk.css"),
    },
    Asset {
        name: "favicon.svg",
        content_type: "image/svg+xml",
        bytes: include_bytes!("../../web/kiosk/dist/favicon.svg"),
    },
];

/// The page's own script and style, calls to its own origin, tile faces from fonts.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'self'";

/// Serves the kiosk in front of `S` when enabled (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct KioskLayer {
    enabled: bool,
}

impl KioskLayer {
    /// The layer; `enabled` is `--kiosk`.
    pub fn new(enabled: bool) -> Self {
        KioskLayer { enabled }
    }
}

impl<S> Layer<S> for KioskLayer {
    type Service = Kiosk<S>;

    fn layer(&self, inner: S) -> Kiosk<S> {
        Kiosk {
            inner,
            enabled: self.enabled,
        }
    }
}

/// The service of [`KioskLayer`].
#[derive(Debug, Clone)]
pub struct Kiosk<S> {
    inner: S,
    enabled: bool,
}

impl<S, B, ResBody> Service<Request<B>> for Kiosk<S>
where
    S: Service<Request<B>, Response = Response<ResBody>>,
    ResBody: http_body::Body<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = KioskFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if self.enabled
            && let Some(response) = page(request.method(), request.uri())
        {
            return KioskFuture::Page {
                response: Some(response),
            };
        }
        KioskFuture::Inner {
            future: self.inner.call(request),
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer of [`Kiosk`]: a page at once, or the inner service's.
    #[project = KioskFutureProjection]
    pub enum KioskFuture<F> {
        /// A page request, answered here.
        Page { response: Option<Response<Body>> },
        /// Anything else.
        Inner { #[pin] future: F },
    }
}

impl<F, ResBody, E> Future for KioskFuture<F>
where
    F: Future<Output = Result<Response<ResBody>, E>>,
    ResBody: http_body::Body<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Output = Result<Response<Body>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            KioskFutureProjection::Page { response } => {
                Poll::Ready(Ok(response.take().expect("polled after completion")))
            }
            KioskFutureProjection::Inner { future } => {
                future.poll(cx).map_ok(|response| response.map(Body::new))
            }
        }
    }
}

/// The answer to a request for the kiosk, or `None` when the request is not for it.
fn page(method: &Method, uri: &http::Uri) -> Option<Response<Body>> {
    let path = uri.path();
    let rest = if path == "/kiosk" {
        None
    } else {
        Some(path.strip_prefix(PATH)?)
    };
    if method != Method::GET && method != Method::HEAD {
        let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "GET or HEAD only\n")?;
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Some(response);
    }
    let Some(rest) = rest else {
        let location = match uri.query() {
            Some(query) => format!("{PATH}?{query}"),
            None => PATH.to_owned(),
        };
        let mut response = plain(StatusCode::PERMANENT_REDIRECT, "moved to /kiosk/\n")?;
        response
            .headers_mut()
            .insert(header::LOCATION, HeaderValue::try_from(location).ok()?);
        return Some(response);
    };
    let name = if rest.is_empty() { INDEX.name } else { rest };
    let Some(asset) = ASSETS.iter().find(|asset| asset.name == name) else {
        return plain(StatusCode::NOT_FOUND, "not found\n");
    };
    let body = if method == Method::HEAD {
        Bytes::new()
    } else {
        Bytes::from_static(asset.bytes)
    };
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, asset.content_type)
        .header(header::CONTENT_LENGTH, asset.bytes.len())
        .header(header::CACHE_CONTROL, "no-cache")
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::REFERRER_POLICY, "no-referrer")
        .header(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY)
        .body(Body::new(Full::new(body)))
        .ok()
}

fn plain(status: StatusCode, text: &'static str) -> Option<Response<Body>> {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .body(Body::new(Full::new(Bytes::from_static(text.as_bytes()))))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(method: &Method, uri: &str) -> Option<StatusCode> {
        page(method, &uri.parse().unwrap()).map(|r| r.status())
    }

    #[test]
    fn only_kiosk_paths_are_answered() {
        assert_eq!(status(&Method::GET, "/kiosk/"), Some(StatusCode::OK));
        assert_eq!(
            status(&Method::HEAD, "/kiosk/kiosk.js"),
            Some(StatusCode::OK)
        );
        assert_eq!(
            status(&Method::GET, "/kiosk/nope"),
            Some(StatusCode::NOT_FOUND)
        );
        assert_eq!(
            status(&Method::GET, "/kiosk?hand=1m"),
            Some(StatusCode::PERMANENT_REDIRECT)
        );
        assert_eq!(
            status(&Method::POST, "/kiosk/"),
            Some(StatusCode::METHOD_NOT_ALLOWED)
        );
        assert_eq!(status(&Method::GET, "/kiosks"), None);
        assert_eq!(
            status(&Method::POST, "/mahjong.v1.MahjongService/ScoreHand"),
            None
        );
    }
}
