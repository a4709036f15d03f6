//! The `mahjong-referee` binary: `healthcheck` exit codes, `serve` configuration and its
//! graceful exit on SIGTERM.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use mahjong_referee::config::{Config, TestHooks};

use crate::helpers::{PATIENCE, config, gate, spawn, spawn_default};

const BIN: &str = env!("CARGO_BIN_EXE_mahjong-referee");

/// Runs the binary with `args` and no `MAHJONG_*` variables but `env`.
async fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = tokio::process::Command::new(BIN);
    command.args(args).kill_on_drop(true);
    for (key, _) in std::env::vars() {
        if key.starts_with("MAHJONG_") {
            command.env_remove(key);
        }
    }
    command.envs(env.iter().copied());
    tokio::time::timeout(PATIENCE, command.output())
        .await
        .expect("the binary exits in time")
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn healthcheck_exits_0_when_serving() {
    let server = spawn_default().await;
    let mut health = server.health().await;
    crate::helpers::wait_for_health(
        &mut health,
        "",
        tonic_health::pb::health_check_response::ServingStatus::Serving,
    )
    .await;
    for extra in [&[][..], &["--service", "mahjong.v1.MahjongService"][..]] {
        let url = server.url();
        let mut args = vec!["healthcheck", "--addr", url.as_str()];
        args.extend_from_slice(extra);
        let out = run(&args, &[]).await;
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "SERVING\n");
    }
}

#[tokio::test]
async fn healthcheck_exits_1_when_not_serving_unknown_or_unreachable() {
    let (hook, mut gate) = gate();
    let warming = spawn(Config {
        test_hooks: TestHooks {
            before_serving: Some(hook),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    gate.arrivals(1).await;
    let url = warming.url();
    let out = run(&["healthcheck", "--addr", &url], &[]).await;
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "mahjong-referee healthcheck: NOT_SERVING\n"
    );

    let out = run(&["healthcheck", "--addr", &url, "--service", "nope"], &[]).await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("NotFound"),
        "{}",
        text(&out.stderr)
    );
    gate.release();

    // A port nobody listens on (bound, then released).
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let started = Instant::now();
    let out = run(
        &[
            "healthcheck",
            "--addr",
            &format!("http://{free}"),
            "--timeout-ms",
            "2000",
        ],
        &[],
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("mahjong-referee healthcheck: cannot connect to "));
    // A refused connection fails at once; 5 s (the probe's own timeout is 2 s) leaves a loaded
    // machine room and still fails a probe that would wait on and on.
    assert!(started.elapsed() < Duration::from_secs(5));

    let out = run(&["healthcheck", "--addr", "not a url"], &[]).await;
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["healthcheck", "--bogus"], &[]).await;
    assert_eq!(out.status.code(), Some(2));
}

#[tokio::test]
async fn serve_help_names_every_flag_and_variable_with_its_default() {
    let out = run(&["serve", "--help"], &[]).await;
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for (flag, env, default) in [
        (
            "--listen-addr",
            "MAHJONG_LISTEN_ADDR",
            Some("0.0.0.0:50051"),
        ),
        (
            "--metrics-addr",
            "MAHJONG_METRICS_ADDR",
            Some("0.0.0.0:9464"),
        ),
        ("--log-format", "MAHJONG_LOG_FORMAT", Some("json")),
        ("--log-level", "MAHJONG_LOG_LEVEL", Some("info")),
        ("--otlp-endpoint", "MAHJONG_OTLP_ENDPOINT", None),
        (
            "--max-message-bytes",
            "MAHJONG_MAX_MESSAGE_BYTES",
            Some("4194304"),
        ),
        (
            "--request-timeout-ms",
            "MAHJONG_REQUEST_TIMEOUT_MS",
            Some("5000"),
        ),
        (
            "--max-concurrent-requests",
            "MAHJONG_MAX_CONCURRENT_REQUESTS",
            Some("1024"),
        ),
        (
            "--max-batch-hands",
            "MAHJONG_MAX_BATCH_HANDS",
            Some("10000"),
        ),
        (
            "--max-buffered-bytes",
            "MAHJONG_MAX_BUFFERED_BYTES",
            Some("67108864"),
        ),
        ("--max-connections", "MAHJONG_MAX_CONNECTIONS", Some("1024")),
        (
            "--max-streams-per-connection",
            "MAHJONG_MAX_STREAMS_PER_CONNECTION",
            Some("100"),
        ),
        (
            "--max-connection-age-seconds",
            "MAHJONG_MAX_CONNECTION_AGE_SECONDS",
            Some("0"),
        ),
        (
            "--keepalive-seconds",
            "MAHJONG_KEEPALIVE_SECONDS",
            Some("30"),
        ),
        (
            "--keepalive-timeout-seconds",
            "MAHJONG_KEEPALIVE_TIMEOUT_SECONDS",
            Some("10"),
        ),
        ("--cors-origins", "MAHJONG_CORS_ORIGINS", None),
        ("--drain-seconds", "MAHJONG_DRAIN_SECONDS", Some("5")),
        ("--tls-cert", "MAHJONG_TLS_CERT_FILE", None),
        ("--tls-key", "MAHJONG_TLS_KEY_FILE", None),
        ("--tls-client-ca", "MAHJONG_TLS_CLIENT_CA_FILE", None),
        ("--kiosk", "MAHJONG_KIOSK", Some("true")),
    ] {
        let start = help
            .find(flag)
            .unwrap_or_else(|| panic!("{flag} in {help}"));
        let entry = &help[start..];
        let entry = &entry[..entry[2..].find("\n  -").map_or(entry.len(), |e| e + 2)];
        assert!(entry.contains(&format!("[env: {env}=")), "{env} in {entry}");
        if let Some(default) = default {
            assert!(
                entry.contains(&format!("[default: {default}]")),
                "{default} in {entry}"
            );
        }
    }
}

#[tokio::test]
async fn the_defaults_are_the_documented_ones() {
    if std::env::vars().any(|(k, _)| k.starts_with("MAHJONG_")) {
        return; // the environment would override the defaults
    }
    let from_env = Config::from_env().expect("the defaults parse");
    assert_eq!(format!("{from_env:?}"), format!("{:?}", Config::default()));
}

#[tokio::test]
async fn serve_refuses_a_bad_configuration_with_exit_2() {
    for (args, env, message) in [
        (
            &["serve", "--tls-cert", "cert.pem"][..],
            &[][..],
            "--tls-cert (MAHJONG_TLS_CERT_FILE) and --tls-key (MAHJONG_TLS_KEY_FILE) must be set together",
        ),
        (
            &["serve"][..],
            &[("MAHJONG_TLS_CLIENT_CA_FILE", "ca.pem")][..],
            "requires TLS",
        ),
        (
            &["serve", "--max-batch-hands", "0"][..],
            &[][..],
            "must be at least 1",
        ),
        (
            &[][..],
            &[("MAHJONG_MAX_CONCURRENT_REQUESTS", "lots")][..],
            "not a whole number",
        ),
        (&[][..], &[("MAHJONG_LOG_FORMAT", "xml")][..], "xml"),
        (
            &["serve", "--otlp-endpoint", "collector:4317"][..],
            &[][..],
            "expected an http:// or https:// URL",
        ),
        (
            &["serve", "--listen-addr", "localhost"][..],
            &[][..],
            "invalid socket address",
        ),
        (
            &["serve", "--max-buffered-bytes", "10000000"][..],
            &[][..],
            "--max-buffered-bytes (10000000) must be at least 41943040",
        ),
        (
            &["serve", "--keepalive-seconds", "0"][..],
            &[][..],
            "must be at least 1",
        ),
        (
            &[][..],
            &[(
                "MAHJONG_CORS_ORIGINS",
                "https://ok.example,https://bad.example/path",
            )][..],
            "is not an origin",
        ),
    ] {
        let out = run(args, env).await;
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?} {env:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(message),
            "{message} in {}",
            text(&out.stderr)
        );
    }
}

/// Starts the binary with `args` on a free loopback port (no drain, metrics on a free port);
/// returns the process and its gRPC address.
pub(crate) fn spawn_serve(args: &[&str]) -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let child = tokio::process::Command::new(BIN)
        .args(args)
        .env("MAHJONG_LISTEN_ADDR", &addr)
        .env("MAHJONG_DRAIN_SECONDS", "0")
        .env("MAHJONG_METRICS_ADDR", "127.0.0.1:0")
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("serve starts");
    (child, addr)
}

/// [`spawn_serve`], once it answers health checks `SERVING`: the server, its address and a
/// channel to it.
pub(crate) async fn spawn_serving(
    args: &[&str],
) -> (
    tokio::process::Child,
    std::net::SocketAddr,
    tonic::transport::Channel,
) {
    let (child, addr) = spawn_serve(args);
    let addr = addr.parse().expect("an address");
    let channel = crate::hostile::serving(addr).await;
    (child, addr, channel)
}

/// `serve` (and a bare `mahjong-referee`) answer health checks, and exit 0 on SIGTERM or
/// SIGINT after the drain.
#[tokio::test]
async fn serve_runs_until_a_signal_and_exits_0() {
    for (args, signal) in [(&["serve"][..], "-TERM"), (&[][..], "-INT")] {
        let (mut child, addr) = spawn_serve(args);
        // Up when the health check says so.
        let deadline = Instant::now() + PATIENCE;
        loop {
            // Without --addr, healthcheck asks the port of the same MAHJONG_LISTEN_ADDR.
            let listen = [("MAHJONG_LISTEN_ADDR", addr.as_str())];
            let out = run(&["healthcheck", "--timeout-ms", "500"], &listen).await;
            if out.status.success() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "never SERVING: {}",
                text(&out.stderr)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let pid = child.id().unwrap().to_string();
        let killed = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(killed.success());
        let status = tokio::time::timeout(PATIENCE, child.wait())
            .await
            .expect("exits after the signal")
            .unwrap();
        assert_eq!(status.code(), Some(0), "{args:?} {signal}");
    }
}

/// A SIGTERM that arrives as soon as the port is open (before or during the warm-up) drains
/// and exits 0: the signal listeners are installed before the port is bound.
#[tokio::test]
async fn a_signal_right_after_the_port_opens_still_exits_0() {
    let (mut child, addr) = spawn_serve(&["serve"]);
    let deadline = Instant::now() + PATIENCE;
    while tokio::net::TcpStream::connect(&addr).await.is_err() {
        assert!(Instant::now() < deadline, "the port never opened");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let pid = child.id().unwrap().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = tokio::time::timeout(PATIENCE, child.wait())
        .await
        .expect("exits after the signal")
        .unwrap();
    assert_eq!(status.code(), Some(0));
}

/// A TLS file that cannot be read, holds no PEM of its kind, or a key that is not the
/// certificate's: exit 2 with a message naming the file (before, the mismatch was exit 1
/// with "transport error").
#[tokio::test]
async fn serve_refuses_unusable_tls_files_with_exit_2_naming_them() {
    use rcgen::{CertificateParams, KeyPair};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tls-unusable");
    std::fs::create_dir_all(&dir).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    let file = |name: &str, contents: &str| {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let cert_file = file("server.crt", &cert.pem());
    let other_key = file("other.key", &KeyPair::generate().unwrap().serialize_pem());
    let garbage = file("garbage.pem", "not a PEM file\n");
    let missing = dir.join("missing.key").to_str().unwrap().to_owned();
    for (cert, key, named) in [
        (&cert_file, &other_key, &other_key),
        (&cert_file, &garbage, &garbage),
        (&garbage, &other_key, &garbage),
        (&cert_file, &missing, &missing),
    ] {
        let args = [
            "serve",
            "--listen-addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "127.0.0.1:0",
            "--tls-cert",
            cert,
            "--tls-key",
            key,
        ];
        let out = run(&args, &[]).await;
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cert} {key}: {stderr}");
        assert!(stderr.contains(named.as_str()), "{named} in {stderr}");
    }
}
