//! gRPC-Web with CORS, gzip, reflection, the message size limit, TLS and mutual TLS.

use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use mahjong_referee::config::Config;
use mahjong_referee::pb;
use prost::Message as _;
use prost::bytes::Bytes;
use tokio::net::TcpStream;
use tonic::Code;
use tonic::codec::CompressionEncoding;
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint, Identity};

use crate::helpers::{E23, config, details, grpc_frame, score_request, spawn, spawn_default};

/// One HTTP/1.1 exchange on a fresh connection: the response head and its whole body.
async fn http1(
    addr: std::net::SocketAddr,
    request: http::Request<Full<Bytes>>,
) -> (http::response::Parts, Bytes) {
    let stream = TcpStream::connect(addr).await.expect("connects");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("HTTP/1.1 handshake");
    tokio::spawn(connection);
    let response = sender.send_request(request).await.expect("an answer");
    let (parts, body) = response.into_parts();
    (parts, body.collect().await.expect("the body").to_bytes())
}

/// A gRPC-Web POST of `message` to `method`.
fn grpc_web_post(method: &str, message: &[u8]) -> http::Request<Full<Bytes>> {
    http::Request::post(format!("/mahjong.v1.MahjongService/{method}"))
        .header("host", "referee.test")
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .header("origin", "https://kiosk.example")
        .body(Full::new(Bytes::from(grpc_frame(message))))
        .unwrap()
}

/// The frames of a gRPC-Web body: the messages and the trailers as text.
fn frames(mut body: &[u8]) -> (Vec<Vec<u8>>, String) {
    let mut messages = Vec::new();
    let mut trailers = String::new();
    while body.len() >= 5 {
        let flag = body[0];
        let len = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        let payload = &body[5..5 + len];
        if flag & 0x80 == 0 {
            messages.push(payload.to_vec());
        } else {
            trailers.push_str(std::str::from_utf8(payload).unwrap());
        }
        body = &body[5 + len..];
    }
    assert!(body.is_empty(), "a partial frame is left");
    (messages, trailers.to_ascii_lowercase())
}

/// A server whose `--cors-origins` lists the origin of [`grpc_web_post`].
async fn spawn_for_kiosk_example() -> crate::helpers::TestServer {
    spawn(Config {
        cors_origins: vec!["https://kiosk.example".to_owned()],
        ..config()
    })
    .await
}

#[tokio::test]
async fn grpc_web_over_http1_scores_a_hand() {
    let server = spawn_for_kiosk_example().await;
    let request = score_request(E23, true, pb::Ruleset::Unspecified).encode_to_vec();
    let (head, body) = http1(server.addr, grpc_web_post("ScoreHand", &request)).await;
    assert_eq!(head.status, http::StatusCode::OK);
    assert_eq!(head.headers["content-type"], "application/grpc-web+proto");
    assert_eq!(
        head.headers["access-control-allow-origin"],
        "https://kiosk.example"
    );
    let exposed = head.headers["access-control-expose-headers"]
        .to_str()
        .unwrap();
    for header in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
        assert!(exposed.contains(header), "{exposed}");
    }
    let (messages, trailers) = frames(&body);
    assert_eq!(messages.len(), 1);
    let response = pb::ScoreHandResponse::decode(messages[0].as_slice()).unwrap();
    assert_eq!(response.total, 18);
    assert!(trailers.contains("grpc-status:0"), "{trailers}");
}

#[tokio::test]
async fn grpc_web_errors_carry_their_status_and_details() {
    let server = spawn_default().await;
    let request = score_request("123x", false, pb::Ruleset::Unspecified).encode_to_vec();
    let (head, body) = http1(server.addr, grpc_web_post("ScoreHand", &request)).await;
    assert_eq!(head.status, http::StatusCode::OK);
    // A trailers-only answer: the status is in the headers.
    assert_eq!(head.headers["grpc-status"], "3");
    assert!(head.headers.contains_key("grpc-status-details-bin"));
    let status = tonic::Status::from_header_map(&head.headers).unwrap();
    assert_eq!(details(&status).info.reason, "INVALID_HAND");
    assert!(frames(&body).0.is_empty());

    // No message at all.
    let (head, _) = http1(server.addr, {
        let mut r = grpc_web_post("ScoreHand", &[]);
        *r.body_mut() = Full::new(Bytes::new());
        r
    })
    .await;
    assert_eq!(head.headers["grpc-status"], "3");
    let status = tonic::Status::from_header_map(&head.headers).unwrap();
    assert_eq!(details(&status).info.reason, "MALFORMED_MESSAGE");
}

#[tokio::test]
async fn cors_preflight_allows_grpc_web() {
    let server = spawn_for_kiosk_example().await;
    let preflight = http::Request::builder()
        .method(http::Method::OPTIONS)
        .uri("/mahjong.v1.MahjongService/ScoreHand")
        .header("host", "referee.test")
        .header("origin", "https://kiosk.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type,x-grpc-web,x-user-agent,grpc-timeout",
        )
        .body(Full::new(Bytes::new()))
        .unwrap();
    let (head, _) = http1(server.addr, preflight).await;
    assert!(head.status.is_success(), "{:?}", head.status);
    let header = |name: &str| {
        head.headers
            .get(name)
            .unwrap_or_else(|| panic!("{name} in {:?}", head.headers))
            .to_str()
            .unwrap()
            .to_ascii_lowercase()
    };
    assert_eq!(
        header("access-control-allow-origin"),
        "https://kiosk.example"
    );
    assert!(header("access-control-allow-methods").contains("post"));
    let allowed = header("access-control-allow-headers");
    for h in ["content-type", "x-grpc-web", "x-user-agent", "grpc-timeout"] {
        assert!(allowed.contains(h), "{h} in {allowed}");
    }
    assert!(head.headers.contains_key("access-control-max-age"));
}

/// The headers of a CORS preflight from `origin` to `server`.
async fn preflight_from(addr: std::net::SocketAddr, origin: &str) -> http::HeaderMap {
    let preflight = http::Request::builder()
        .method(http::Method::OPTIONS)
        .uri("/mahjong.v1.MahjongService/ScoreHand")
        .header("host", "referee.test")
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,x-grpc-web")
        .body(Full::new(Bytes::new()))
        .unwrap();
    http1(addr, preflight).await.0.headers
}

/// By default no other origin's page may call the API from a browser (the kiosk page is
/// served from the API's own origin); `--cors-origins` lists the ones that may, or `*`.
#[tokio::test]
async fn cors_allows_only_the_configured_origins() {
    let allowed = "access-control-allow-origin";
    let default = spawn_default().await;
    let headers = preflight_from(default.addr, "https://kiosk.example").await;
    assert!(!headers.contains_key(allowed), "{headers:?}");
    let listed = spawn(Config {
        cors_origins: vec![
            "https://a.example".to_owned(),
            "http://b.example:8080".to_owned(),
        ],
        ..config()
    })
    .await;
    for origin in ["https://a.example", "http://b.example:8080"] {
        let headers = preflight_from(listed.addr, origin).await;
        assert_eq!(headers[allowed], origin);
    }
    for origin in [
        "https://c.example",
        "http://b.example",
        "https://a.example.evil",
    ] {
        let headers = preflight_from(listed.addr, origin).await;
        assert!(!headers.contains_key(allowed), "{origin}: {headers:?}");
    }
    let any = spawn(Config {
        cors_origins: vec!["*".to_owned()],
        ..config()
    })
    .await;
    let headers = preflight_from(any.addr, "https://c.example").await;
    assert_eq!(headers[allowed], "https://c.example");
}

#[tokio::test]
async fn gzip_is_accepted_and_offered() {
    let server = spawn_default().await;
    let mut client = server
        .client()
        .await
        .send_compressed(CompressionEncoding::Gzip)
        .accept_compressed(CompressionEncoding::Gzip);
    let response = client
        .score_hand(score_request(E23, true, pb::Ruleset::Unspecified))
        .await
        .expect("a gzip request is accepted");
    assert_eq!(
        response
            .metadata()
            .get("grpc-encoding")
            .map(|v| v.to_str().unwrap()),
        Some("gzip"),
        "the answer is compressed for a client that accepts gzip"
    );
    assert_eq!(response.into_inner().total, 18);
}

#[tokio::test]
async fn an_oversized_message_is_resource_exhausted() {
    let limit = 1024;
    let server = spawn(Config {
        max_message_bytes: limit,
        ..config()
    })
    .await;
    let huge = score_request(&"1".repeat(4 * limit), false, pb::Ruleset::Unspecified);
    let status = server
        .client()
        .await
        .score_hand(huge.clone())
        .await
        .expect_err("too large");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::ResourceExhausted, "MESSAGE_TOO_LARGE")
    );
    assert_eq!(d.info.metadata["limit"], limit.to_string());
    assert!(d.message.contains("too large"), "{}", d.message);

    // Small on the wire, too large once decompressed.
    let status = server
        .client()
        .await
        .send_compressed(CompressionEncoding::Gzip)
        .score_hand(huge)
        .await
        .expect_err("too large decompressed");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::ResourceExhausted, "MESSAGE_TOO_LARGE")
    );
}

#[tokio::test]
async fn reflection_v1_and_v1alpha_list_the_services() {
    use tokio_stream::StreamExt as _;
    let server = spawn_default().await;
    // Each version lists itself besides the others.
    let expected = |reflection: &str| {
        [
            "grpc.health.v1.Health".to_owned(),
            format!("grpc.reflection.{reflection}.ServerReflection"),
            "mahjong.v1.MahjongService".to_owned(),
        ]
    };

    {
        use tonic_reflection::pb::v1::ServerReflectionRequest;
        use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
        use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
        use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
        let mut client = ServerReflectionClient::new(server.channel().await);
        let requests = [
            MessageRequest::ListServices(String::new()),
            MessageRequest::FileContainingSymbol("mahjong.v1.MahjongService".to_owned()),
            MessageRequest::FileContainingSymbol("grpc.health.v1.Health".to_owned()),
            // The error details of INVALID_ARGUMENT, so that grpcurl can show them decoded.
            MessageRequest::FileContainingSymbol("google.rpc.ErrorInfo".to_owned()),
            MessageRequest::FileContainingSymbol("google.rpc.BadRequest".to_owned()),
        ]
        .map(|m| ServerReflectionRequest {
            host: String::new(),
            message_request: Some(m),
        });
        let mut answers = client
            .server_reflection_info(tokio_stream::iter(requests))
            .await
            .expect("reflection v1")
            .into_inner();
        let Some(MessageResponse::ListServicesResponse(list)) =
            answers.next().await.unwrap().unwrap().message_response
        else {
            panic!("a service list");
        };
        let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
        names.sort();
        assert_eq!(names, expected("v1"));
        for _ in 0..4 {
            let answer = answers.next().await.unwrap().unwrap().message_response;
            let Some(MessageResponse::FileDescriptorResponse(files)) = answer else {
                panic!("file descriptors, not {answer:?}");
            };
            assert!(!files.file_descriptor_proto.is_empty());
        }
    }
    {
        use tonic_reflection::pb::v1alpha::ServerReflectionRequest;
        use tonic_reflection::pb::v1alpha::server_reflection_client::ServerReflectionClient;
        use tonic_reflection::pb::v1alpha::server_reflection_request::MessageRequest;
        use tonic_reflection::pb::v1alpha::server_reflection_response::MessageResponse;
        let mut client = ServerReflectionClient::new(server.channel().await);
        let requests = [
            MessageRequest::ListServices(String::new()),
            MessageRequest::FileContainingSymbol("grpc.health.v1.Health".to_owned()),
            MessageRequest::FileContainingSymbol("google.rpc.ErrorInfo".to_owned()),
        ]
        .map(|m| ServerReflectionRequest {
            host: String::new(),
            message_request: Some(m),
        });
        let mut answers = client
            .server_reflection_info(tokio_stream::iter(requests))
            .await
            .expect("reflection v1alpha (grpcurl 1.8.6)")
            .into_inner();
        let Some(MessageResponse::ListServicesResponse(list)) =
            answers.next().await.unwrap().unwrap().message_response
        else {
            panic!("a service list");
        };
        let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
        names.sort();
        assert_eq!(names, expected("v1alpha"));
        for _ in 0..2 {
            assert!(matches!(
                answers.next().await.unwrap().unwrap().message_response,
                Some(MessageResponse::FileDescriptorResponse(_))
            ));
        }
    }
}

/// PEM files of a test PKI: a CA, a server certificate for `localhost`, a client certificate.
struct Pki {
    dir: std::path::PathBuf,
    ca: String,
    client_cert: String,
    client_key: String,
}

fn pki(name: &str) -> Pki {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pki-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let leaf = |san: &str| {
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(vec![san.to_owned()])
            .unwrap()
            .signed_by(&key, &ca)
            .unwrap();
        (cert.pem(), key.serialize_pem())
    };
    let (server_cert, server_key) = leaf("localhost");
    let (client_cert, client_key) = leaf("kiosk.example");
    std::fs::write(dir.join("server.crt"), server_cert).unwrap();
    std::fs::write(dir.join("server.key"), server_key).unwrap();
    std::fs::write(dir.join("ca.crt"), ca.pem()).unwrap();
    Pki {
        dir,
        ca: ca.pem(),
        client_cert,
        client_key,
    }
}

impl Pki {
    fn config(&self, mutual: bool) -> Config {
        Config {
            tls_cert: Some(self.dir.join("server.crt")),
            tls_key: Some(self.dir.join("server.key")),
            tls_client_ca: mutual.then(|| self.dir.join("ca.crt")),
            ..config()
        }
    }

    fn client_tls(&self, with_identity: bool) -> ClientTlsConfig {
        let tls = ClientTlsConfig::new()
            .ca_certificate(Certificate::from_pem(&self.ca))
            .domain_name("localhost");
        if with_identity {
            tls.identity(Identity::from_pem(&self.client_cert, &self.client_key))
        } else {
            tls
        }
    }
}

async fn score_over(
    endpoint: Endpoint,
) -> Result<pb::ScoreHandResponse, Box<dyn std::error::Error>> {
    let channel = endpoint.connect().await?;
    let mut client = pb::mahjong_service_client::MahjongServiceClient::new(channel);
    Ok(client
        .score_hand(score_request(E23, true, pb::Ruleset::Unspecified))
        .await?
        .into_inner())
}

#[tokio::test]
async fn tls_serves_only_tls() {
    let pki = pki("tls");
    let server = spawn(pki.config(false)).await;
    let tls = Endpoint::from_shared(format!("https://{}", server.addr))
        .unwrap()
        .tls_config(pki.client_tls(false))
        .unwrap();
    assert_eq!(score_over(tls).await.expect("TLS call").total, 18);

    let plaintext = Endpoint::from_shared(server.url()).unwrap();
    assert!(score_over(plaintext).await.is_err(), "plaintext is refused");
}

#[tokio::test]
async fn mutual_tls_requires_a_client_certificate() {
    let pki = pki("mtls");
    let server = spawn(pki.config(true)).await;
    let endpoint = || Endpoint::from_shared(format!("https://{}", server.addr)).unwrap();

    let with_identity = endpoint().tls_config(pki.client_tls(true)).unwrap();
    assert_eq!(
        score_over(with_identity).await.expect("mTLS call").total,
        18
    );

    let anonymous = endpoint().tls_config(pki.client_tls(false)).unwrap();
    assert!(
        score_over(anonymous).await.is_err(),
        "no client certificate, no call"
    );
}

/// What a gRPC call over plain HTTP/2 was answered: the status, the response headers (but
/// `date`, and the error details, which are decoded: their `ErrorInfo` metadata is a map,
/// encoded in no set order), the body's bytes and the trailers, each list sorted.
type Exchange = (
    http::StatusCode,
    Vec<(String, String)>,
    Option<ErrorDetails>,
    Bytes,
    Vec<(String, String)>,
);

/// An error's details, decoded: the `ErrorInfo`'s reason, domain and metadata, and the field
/// violations.
type ErrorDetails = (
    String,
    String,
    std::collections::BTreeMap<String, String>,
    Vec<(String, String)>,
);

/// A `ScoreHand` call of `message` with `headers`, over plain HTTP/2.
async fn exchange(
    sender: &mut hyper::client::conn::http2::SendRequest<Full<Bytes>>,
    message: &[u8],
    headers: &[(&str, &str)],
) -> Exchange {
    let mut request =
        http::Request::post("http://referee.test/mahjong.v1.MahjongService/ScoreHand")
            .header("content-type", "application/grpc")
            .header("te", "trailers");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(Bytes::from(grpc_frame(message))))
        .unwrap();
    let response = sender.send_request(request).await.expect("an answer");
    let (head, body) = response.into_parts();
    let listed = |map: &http::HeaderMap| {
        let mut list: Vec<(String, String)> = map
            .iter()
            .filter(|(name, _)| {
                *name != http::header::DATE && name.as_str() != "grpc-status-details-bin"
            })
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap_or("?").to_owned()))
            .collect();
        list.sort();
        list
    };
    let decoded = head
        .headers
        .contains_key("grpc-status-details-bin")
        .then(|| {
            let status = tonic::Status::from_header_map(&head.headers).expect("a status");
            let details = crate::helpers::details(&status);
            let info = details.info.clone();
            (
                info.reason,
                info.domain,
                info.metadata.into_iter().collect(),
                crate::helpers::fields(&details),
            )
        });
    let collected = body.collect().await.expect("the body");
    let trailers = collected.trailers().map(listed).unwrap_or_default();
    (
        head.status,
        listed(&head.headers),
        decoded,
        collected.to_bytes(),
        trailers,
    )
}

/// A plain `ScoreHand` (uncompressed, no compressed answer asked for), which the server's
/// guard answers itself without tonic's unary machinery, is answered exactly as tonic answers
/// the same call (made not plain by `grpc-accept-encoding: identity`, which tonic answers
/// uncompressed): the same headers, message bytes and trailers, for a score in the full and
/// the basic view and for an invalid hand's error.
#[tokio::test]
async fn a_plain_score_hand_is_answered_as_tonic_answers_it() {
    let server = spawn_default().await;
    let mut sender = crate::helpers::h2_connect(server.addr).await;
    let mut basic = score_request(E23, true, pb::Ruleset::Mil);
    basic.view = pb::ScoreView::Basic as i32;
    let invalid = score_request("123m", true, pb::Ruleset::Mil);
    for request in [score_request(E23, true, pb::Ruleset::Mil), basic, invalid] {
        let message = request.encode_to_vec();
        let direct = exchange(&mut sender, &message, &[]).await;
        let by_tonic = exchange(
            &mut sender,
            &message,
            &[("grpc-accept-encoding", "identity")],
        )
        .await;
        assert_eq!(direct, by_tonic, "{request:?}");
    }
    server.stop().await.expect("stops");
}
