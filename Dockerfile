# syntax=docker/dockerfile:1
#
# mahjong-referee: a static release binary on distroless/static, run as a numeric non-root user.
#
#   docker build -t mahjong-referee:0.1.0 .
#   docker run --rm -p 50051:50051 -p 9464:9464 mahjong-referee:0.1.0
#
# The release build below is the exact command .ci/packaging.sh runs (and checks is written here),
# and the SBOM stage the exact `cargo cyclonedx` command of .ci/image.sh. The protos are compiled
# by build.rs and crates/mcr-api/build.rs with protox (pure Rust): no protoc is installed in
# any stage.
#
# CI cannot pull base images, so .ci/image.sh builds the runtime stage with podman from this file
# without the builder stages: RUNTIME_BASE is a base it assembles offline, and the binary and
# SBOM it built come in as the build contexts `builder` and `sbom` (docs/kubernetes.md).

ARG RUST_VERSION=1.95.0
ARG CARGO_CHEF_VERSION=0.1.78
ARG CARGO_CYCLONEDX_VERSION=0.5.9
# The runtime base: distroless/static (CA certificates, tzdata, /etc/passwd with 65532 nonroot).
ARG RUNTIME_BASE=gcr.io/distroless/static-debian12:nonroot

# --- toolchain + cargo-chef ----------------------------------------------------------------------
FROM rust:${RUST_VERSION}-slim-bookworm AS chef
ARG CARGO_CHEF_VERSION
RUN cargo install cargo-chef --version "${CARGO_CHEF_VERSION}" --locked
WORKDIR /src

# --- dependency recipe: changes only when a manifest or Cargo.lock changes -----------------------
FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

# --- build: dependencies first (cached layer), then the service ----------------------------------
FROM chef AS builder
COPY --from=planner /src/recipe.json recipe.json
# Same RUSTFLAGS and target as the final build, or cargo would rebuild every dependency.
RUN RUSTFLAGS='-C target-feature=+crt-static' cargo chef cook --release --locked --target x86_64-unknown-linux-gnu --bin mahjong-referee --recipe-path recipe.json
COPY . .
RUN RUSTFLAGS='-C target-feature=+crt-static' cargo build --release --locked --target x86_64-unknown-linux-gnu --bin mahjong-referee

# --- SBOM: CycloneDX of the crates the binary is built from (Cargo.lock, no build) ---------------
FROM chef AS sbom
ARG CARGO_CYCLONEDX_VERSION
RUN cargo install cargo-cyclonedx --version "${CARGO_CYCLONEDX_VERSION}" --locked
COPY . .
RUN cargo cyclonedx --format json --spec-version 1.5 --target x86_64-unknown-linux-gnu --no-build-deps

# --- runtime: no shell, no package manager, CA certificates and /etc/passwd only ----------------
FROM ${RUNTIME_BASE}

ARG RUNTIME_BASE
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="mahjong-referee" \
      org.opencontainers.image.description="Chinese Official Mahjong (MCR) referee over gRPC: hand validation, fan scoring, payments and penalties" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0" \
      org.opencontainers.image.source="https://example.invalid/mahjong-referee" \
      org.opencontainers.image.base.name="${RUNTIME_BASE}" \
      io.mahjong-referee.sbom="/usr/share/doc/mahjong-referee/sbom.cdx.json"

COPY --from=builder --chown=0:0 --chmod=0555 \
     /src/target/x86_64-unknown-linux-gnu/release/mahjong-referee /usr/local/bin/mahjong-referee
COPY --from=sbom --chown=0:0 --chmod=0444 /src/mahjong-referee.cdx.json /usr/share/doc/mahjong-referee/sbom.cdx.json

# 65532 is distroless's "nonroot"; numeric so that Kubernetes' runAsNonRoot can check it.
USER 65532:65532

# gRPC (MAHJONG_LISTEN_ADDR) and Prometheus metrics (MAHJONG_METRICS_ADDR).
EXPOSE 50051/tcp 9464/tcp

# The server drains on SIGTERM: NOT_SERVING for MAHJONG_DRAIN_SECONDS, then finishes in-flight calls.
STOPSIGNAL SIGTERM

# Exits 0 only when grpc.health.v1 reports SERVING (not during warm-up or drain). Asks
# 127.0.0.1 on the port of MAHJONG_LISTEN_ADDR, so a moved gRPC port is followed.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/usr/local/bin/mahjong-referee", "healthcheck"]

ENTRYPOINT ["/usr/local/bin/mahjong-referee"]
CMD ["serve"]
