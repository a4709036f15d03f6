//! Health through warm-up and drain, load shedding, deadlines and graceful shutdown.

use std::time::Duration;

use mahjong_referee::config::{Config, TestHooks};
use mahjong_referee::pb;
use mahjong_referee::server::SERVICE_NAME;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

use prost::Message as _;

use crate::helpers::{
    E23, config, details, forever, gate, h2_connect, health_of, raw_grpc, score_request, spawn,
    wait_for_health,
};

const SCORE_HAND: &str = "/mahjong.v1.MahjongService/ScoreHand";
const LIST_FANS: &str = "/mahjong.v1.MahjongService/ListFans";

#[tokio::test]
async fn health_is_not_serving_until_warmed_up() {
    let (hook, mut gate) = gate();
    let server = spawn(Config {
        test_hooks: TestHooks {
            before_serving: Some(hook),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let mut health = server.health().await;
    gate.arrivals(1).await;
    for service in ["", SERVICE_NAME] {
        assert_eq!(
            health_of(&mut health, service).await,
            ServingStatus::NotServing
        );
    }
    gate.release();
    for service in ["", SERVICE_NAME] {
        wait_for_health(&mut health, service, ServingStatus::Serving).await;
        assert_eq!(
            health_of(&mut health, service).await,
            ServingStatus::Serving
        );
    }
    let unknown = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "no.such.Service".to_owned(),
        })
        .await
        .expect_err("unknown service");
    assert_eq!(unknown.code(), Code::NotFound);
}

#[tokio::test]
async fn draining_reports_not_serving_keeps_serving_then_finishes_calls_in_flight() {
    let (hook, mut gate) = gate();
    let mut server = spawn(Config {
        drain: Duration::from_millis(300),
        test_hooks: TestHooks {
            before_call: Some(hook),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let mut health = server.health().await;
    wait_for_health(&mut health, "", ServingStatus::Serving).await;

    // A call in flight, held at the hook.
    let mut client = server.client().await;
    let in_flight = tokio::spawn({
        let mut client = client.clone();
        async move {
            client
                .score_hand(score_request(E23, true, pb::Ruleset::Unspecified))
                .await
        }
    });
    gate.arrivals(1).await;

    server.begin_shutdown();
    for service in ["", SERVICE_NAME] {
        wait_for_health(&mut health, service, ServingStatus::NotServing).await;
    }
    // Still serving while draining: a new call is admitted too.
    let during_drain = tokio::spawn(async move {
        client
            .score_hand(score_request(E23, true, pb::Ruleset::Unspecified))
            .await
    });
    gate.arrivals(1).await;

    // After the drain the listener closes: new connections are refused.
    let addr = server.addr;
    tokio::time::timeout(crate::helpers::PATIENCE, async {
        while tokio::net::TcpStream::connect(addr).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the listener closes after the drain");

    // The calls in flight still complete, and the server stops cleanly.
    gate.release();
    for call in [in_flight, during_drain] {
        let response = call.await.unwrap().expect("a call in flight completes");
        assert_eq!(response.into_inner().total, 18);
    }
    server.finished().await.expect("a clean stop");
}

#[tokio::test]
async fn load_is_shed_at_the_limit_while_health_answers() {
    let (hook, mut gate) = gate();
    let server = spawn(Config {
        max_concurrent_requests: 2,
        test_hooks: TestHooks {
            before_call: Some(hook),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let mut health = server.health().await;
    wait_for_health(&mut health, SERVICE_NAME, ServingStatus::Serving).await;
    // Two clients (connections): one alone may hold only half of the slots.
    let client = server.client().await;
    let other = server.client().await;
    let held: Vec<_> = [&client, &other]
        .into_iter()
        .map(|client| {
            let mut client = client.clone();
            tokio::spawn(async move {
                client
                    .score_hand(score_request(E23, true, pb::Ruleset::Unspecified))
                    .await
            })
        })
        .collect();
    gate.arrivals(2).await;

    let status = client
        .clone()
        .list_fans(pb::ListFansRequest::default())
        .await
        .expect_err("the third call is shed");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::ResourceExhausted, "OVERLOADED")
    );
    assert_eq!(d.info.metadata["limit"], "2");
    // Health is never limited.
    for service in ["", SERVICE_NAME] {
        assert_eq!(
            health_of(&mut health, service).await,
            ServingStatus::Serving
        );
    }

    gate.release();
    for call in held {
        assert_eq!(
            call.await
                .unwrap()
                .expect("held calls complete")
                .into_inner()
                .total,
            18
        );
    }
    // Slots are given back.
    client
        .clone()
        .list_fans(pb::ListFansRequest::default())
        .await
        .expect("admitted again");
}

#[tokio::test]
async fn the_client_deadline_gives_deadline_exceeded() {
    let server = spawn(Config {
        test_hooks: TestHooks {
            before_call: Some(forever()),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let mut h2 = h2_connect(server.addr).await;
    let request = score_request(E23, true, pb::Ruleset::Unspecified).encode_to_vec();
    let started = std::time::Instant::now();
    let status = raw_grpc(&mut h2, SCORE_HAND, &request, &[("grpc-timeout", "100m")]).await;
    assert!(started.elapsed() >= Duration::from_millis(100));
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::DeadlineExceeded, "DEADLINE_EXCEEDED")
    );
    assert_eq!(d.info.metadata["timeoutMs"], "100");
}

#[tokio::test]
async fn the_server_timeout_gives_deadline_exceeded() {
    let server = spawn(Config {
        request_timeout: Duration::from_millis(50),
        test_hooks: TestHooks {
            before_call: Some(forever()),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let mut client = server.client().await;
    // Without a client deadline, and with a longer one: the server's 50 ms win.
    let mut longer = tonic::Request::new(pb::ListFansRequest::default());
    longer.set_timeout(Duration::from_secs(30));
    for request in [tonic::Request::new(pb::ListFansRequest::default()), longer] {
        let status = client.list_fans(request).await.expect_err("timed out");
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::DeadlineExceeded, "DEADLINE_EXCEEDED")
        );
        assert_eq!(d.info.metadata["timeoutMs"], "50");
    }
}

#[tokio::test]
async fn the_deadline_wins_over_tonic_many_times() {
    // tonic's server races its own CANCELLED timer on the client's deadline; ours must win
    // every time, whatever the deadline.
    let server = spawn(Config {
        test_hooks: TestHooks {
            before_call: Some(forever()),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let h2 = h2_connect(server.addr).await;
    let request = pb::ListFansRequest::default().encode_to_vec();
    let calls: Vec<_> = (0..60)
        .map(|i| {
            let (mut h2, request) = (h2.clone(), request.clone());
            tokio::spawn(async move {
                let timeout = ["1m", "2m", "3m", "5m", "8m", "500u", "1000000n"][i % 7];
                raw_grpc(&mut h2, LIST_FANS, &request, &[("grpc-timeout", timeout)])
                    .await
                    .code()
            })
        })
        .collect();
    for call in calls {
        assert_eq!(call.await.unwrap(), Code::DeadlineExceeded);
    }
}

#[tokio::test]
async fn a_bad_configuration_is_refused_at_start() {
    use mahjong_referee::server::{ServeError, Server};
    let cases = [
        (
            Config {
                tls_cert: Some("cert.pem".into()),
                ..config()
            },
            "--tls-cert (MAHJONG_TLS_CERT_FILE) and --tls-key (MAHJONG_TLS_KEY_FILE) must be set together",
        ),
        (
            Config {
                tls_client_ca: Some("ca.pem".into()),
                ..config()
            },
            "--tls-client-ca (MAHJONG_TLS_CLIENT_CA_FILE) requires TLS: set --tls-cert and --tls-key too",
        ),
        (
            Config {
                max_batch_hands: 0,
                ..config()
            },
            "--max-batch-hands must be at least 1",
        ),
    ];
    for (config, message) in cases {
        let error = Server::bind(config).await.expect_err("refused");
        assert!(matches!(error, ServeError::Config(_)), "{error:?}");
        assert_eq!(
            error.to_string(),
            format!("invalid configuration: {message}")
        );
    }
    let missing = Server::bind(Config {
        tls_cert: Some("/nonexistent/cert.pem".into()),
        tls_key: Some("/nonexistent/key.pem".into()),
        ..config()
    })
    .await
    .expect_err("unreadable certificate");
    assert!(
        missing
            .to_string()
            .starts_with("cannot read TLS certificate /nonexistent/cert.pem: "),
        "{missing}"
    );
    let taken = spawn(config()).await;
    let busy = Server::bind(Config {
        listen_addr: taken.addr,
        ..config()
    })
    .await
    .expect_err("address in use");
    assert!(
        busy.to_string()
            .starts_with(&format!("cannot listen on {}: ", taken.addr))
    );
}
