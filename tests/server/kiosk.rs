//! The scoring kiosk page at /kiosk/ from a real server on loopback, and `--kiosk false`.

use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use mahjong_referee::config::Config;
use prost::bytes::Bytes;
use tokio::net::TcpStream;

use crate::helpers::{config, spawn, spawn_default};

/// One HTTP/1.1 GET (or another `method`) on a fresh connection: the head and the body.
async fn get(
    addr: std::net::SocketAddr,
    method: http::Method,
    path: &str,
) -> (http::response::Parts, Bytes) {
    let stream = TcpStream::connect(addr).await.expect("connects");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("HTTP/1.1 handshake");
    tokio::spawn(connection);
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "referee.test")
        .body(Empty::<Bytes>::new())
        .unwrap();
    let response = sender.send_request(request).await.expect("an answer");
    let (parts, body) = response.into_parts();
    (parts, body.collect().await.expect("the body").to_bytes())
}

fn header<'a>(head: &'a http::response::Parts, name: &str) -> &'a str {
    head.headers
        .get(name)
        .map_or("", |v| v.to_str().expect("ASCII header"))
}

#[tokio::test]
async fn the_kiosk_page_its_script_and_style_are_served() {
    let server = spawn_default().await;
    let (head, body) = get(server.addr, http::Method::GET, "/kiosk/").await;
    assert_eq!(head.status, 200);
    assert_eq!(header(&head, "content-type"), "text/html; charset=utf-8");
    assert!(header(&head, "content-security-policy").contains("connect-src 'self'"));
    let html = std::str::from_utf8(&body).expect("UTF-8");
    assert!(html.contains("<script src=\"kiosk.js\""), "{html}");
    assert!(html.contains("href=\"kiosk.css\""), "{html}");

    let (head, body) = get(server.addr, http::Method::GET, "/kiosk/kiosk.js").await;
    assert_eq!(head.status, 200);
    assert_eq!(
        header(&head, "content-type"),
        "text/javascript; charset=utf-8"
    );
    // The bundle calls the referee over gRPC-Web and has the test hooks of the sheet.
    let script = std::str::from_utf8(&body).expect("UTF-8");
    assert!(script.contains("application/grpc-web"));
    assert!(script.contains("scoreHand"));
    assert!(script.contains("fan-line"));

    let (head, body) = get(server.addr, http::Method::HEAD, "/kiosk/kiosk.css").await;
    assert_eq!(head.status, 200);
    assert_eq!(header(&head, "content-type"), "text/css; charset=utf-8");
    assert_ne!(header(&head, "content-length"), "0");
    assert!(body.is_empty());
    server.stop().await.expect("stops");
}

#[tokio::test]
async fn kiosk_redirects_not_found_and_methods() {
    let server = spawn_default().await;
    let (head, _) = get(server.addr, http::Method::GET, "/kiosk?hand=1m&lang=en").await;
    assert_eq!(head.status, 308);
    assert_eq!(header(&head, "location"), "/kiosk/?hand=1m&lang=en");
    let (head, _) = get(server.addr, http::Method::GET, "/kiosk/../Cargo.toml").await;
    assert_eq!(head.status, 404);
    let (head, _) = get(server.addr, http::Method::DELETE, "/kiosk/").await;
    assert_eq!(head.status, 405);
    assert_eq!(header(&head, "allow"), "GET, HEAD");
    // gRPC on the same port is untouched.
    let mut client = server.client().await;
    let fans = client
        .list_fans(mahjong_referee::pb::ListFansRequest::default())
        .await
        .expect("ListFans");
    assert!(!fans.into_inner().fans.is_empty());
    server.stop().await.expect("stops");
}

#[tokio::test]
async fn kiosk_false_serves_no_page() {
    let server = spawn(Config {
        kiosk: false,
        ..config()
    })
    .await;
    let (head, body) = get(server.addr, http::Method::GET, "/kiosk/").await;
    assert_ne!(head.status, 200, "{head:?}");
    assert!(
        !header(&head, "content-type").starts_with("text/html"),
        "{head:?}"
    );
    assert!(!body.starts_with(b"<!doctype html>"));
    server.stop().await.expect("stops");
}
