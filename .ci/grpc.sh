#!/usr/bin/env bash
# gRPC contract and cross-platform checks, offline apart from PyPI and crates.io:
#   - buf (PyPI buf-bin, pinned) in a venv: `buf lint` (buf.yaml: STANDARD + COMMENTS) and
#     `buf breaking` against the contract of the previous commit (skipped, and said so, only
#     when there is no previous commit or it has no contract);
#   - the release binary, started on a free loopback port until health says SERVING
#     (`mahjong-referee healthcheck`), always stopped on exit;
#   - a Python client generated from proto/ (grpcio-tools, pinned in scripts/requirements.txt)
#     scoring the whole public corpus through ScoreHand and BatchScoreHands
#     (scripts/crosscheck.py): 100% agreement or failure;
#   - the Prometheus endpoint of that server counts what the cross-check sent;
#   - 200 hands of four random bots played through the API alone (examples/table.py: DealHand,
#     NextActions after every event, ArbitrateClaims, ReplayHand with the seed finds nothing).
# Exits non-zero on the first failing section. Env: GRPC_CI_PYTHON (interpreter for the venv),
# GRPC_CI_SKIP_BUILD=1 (use the existing target/release binary, for quick local runs only).
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n=== grpc: %s ===\n' "$*"; }
die() { printf 'grpc: FAILED: %s\n' "$*" >&2; exit 1; }

BUF_VERSION=1.75.0
VENV=.venv-grpc
OUT=target/grpc-ci
BINARY=target/release/mahjong-referee
STARTED=$(date +%s)
mkdir -p "$OUT"

# --- the venv: buf and the Python gRPC client -----------------------------------------------------
section "python venv with buf-bin $BUF_VERSION and scripts/requirements.txt"
PYTHON=${GRPC_CI_PYTHON:-python3}
command -v "$PYTHON" >/dev/null || die "no $PYTHON; set GRPC_CI_PYTHON"
if [[ ! -x $VENV/bin/python ]]; then
  echo "creating $VENV with $("$PYTHON" --version)"
  "$PYTHON" -m venv "$VENV"
  printf '*\n' > "$VENV/.gitignore"   # keep the venv out of git status
fi
PY=$VENV/bin/python
REQ_HASH=$( (cat scripts/requirements.txt; echo "buf-bin==$BUF_VERSION") | sha256sum | cut -d' ' -f1)
if [[ "$(cat "$VENV/.requirements.sha256" 2>/dev/null)" != "$REQ_HASH" ]]; then
  "$PY" -m pip install --quiet --disable-pip-version-check -r scripts/requirements.txt "buf-bin==$BUF_VERSION"
  echo "$REQ_HASH" > "$VENV/.requirements.sha256"
fi
BUF=$VENV/bin/buf
[[ -x $BUF ]] || die "buf-bin did not install $BUF"
"$PY" --version
echo "buf $("$BUF" --version)"
"$PY" -m pip list --disable-pip-version-check --format=freeze 2>/dev/null \
  | grep -Ei '^(buf-bin|grpcio|grpcio-tools|protobuf)=='

# --- buf lint -------------------------------------------------------------------------------------
section "buf lint (buf.yaml)"
[[ -f buf.yaml ]] || die "no buf.yaml at the repository root"
"$BUF" lint
echo "buf lint: clean ($("$BUF" ls-files | wc -l) files)"

# --- buf breaking ---------------------------------------------------------------------------------
section "buf breaking against the previous commit"
if ! BASE=$(git rev-parse --verify --quiet 'HEAD~1^{commit}'); then
  echo "SKIPPED: HEAD has no parent commit (first commit): nothing to compare with"
elif [[ -z "$(git ls-tree -r --name-only "$BASE" -- proto | grep '\.proto$' || true)" ]]; then
  echo "SKIPPED: the previous commit ${BASE:0:12} has no proto/ contract: nothing to compare with"
else
  # The previous commit's module layout: its own buf.yaml, or proto/ as the module root.
  if git cat-file -e "$BASE:buf.yaml" 2>/dev/null; then
    AGAINST=".git#ref=$BASE"
  else
    AGAINST=".git#ref=$BASE,subdir=proto"
  fi
  # Not vacuous: the baseline must build and hold files.
  "$BUF" build "$AGAINST" -o "$OUT/baseline.binpb"
  BASE_FILES=$("$BUF" ls-files "$AGAINST" | wc -l)
  [[ $BASE_FILES -gt 0 ]] || die "the baseline $AGAINST has no proto files"
  echo "against $AGAINST ($BASE_FILES files; $(git log -1 --format='%h %s' "$BASE"))"
  "$BUF" breaking --against "$AGAINST"
  echo "buf breaking: no breaking change"
fi

# --- the release binary ---------------------------------------------------------------------------
section "release build"
if [[ ${GRPC_CI_SKIP_BUILD:-0} == 1 && -x $BINARY ]]; then
  echo "GRPC_CI_SKIP_BUILD=1: using the existing $BINARY"
else
  cargo build --release --locked --bin mahjong-referee
fi
ls -l "$BINARY"

# --- the server -----------------------------------------------------------------------------------
section "server on a free loopback port"
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
METRICS_PORT=$(free_port)
SERVER_LOG=$OUT/server.log
SERVER_PID=
stop_server() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
}
on_exit() {
  local rc=$?
  stop_server
  if [[ $rc -ne 0 && -s $SERVER_LOG ]]; then
    echo "--- last lines of $SERVER_LOG ---"
    tail -n 20 "$SERVER_LOG"
  fi
  printf '\n=== grpc: %s in %ss ===\n' "$([[ $rc -eq 0 ]] && echo passed || echo FAILED)" "$(( $(date +%s) - STARTED ))"
}
trap on_exit EXIT
"$BINARY" serve \
  --listen-addr "127.0.0.1:$PORT" \
  --metrics-addr "127.0.0.1:$METRICS_PORT" \
  --drain-seconds 0 \
  --log-format json \
  > "$SERVER_LOG" 2>&1 &
SERVER_PID=$!
echo "server pid $SERVER_PID on 127.0.0.1:$PORT (metrics 127.0.0.1:$METRICS_PORT), log $SERVER_LOG"
for attempt in $(seq 100); do
  if "$BINARY" healthcheck --addr "http://127.0.0.1:$PORT" --timeout-ms 1000 2>/dev/null; then
    echo "SERVING after $attempt attempt(s)"
    break
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || die "the server exited before serving"
  [[ $attempt -lt 100 ]] || die "the server did not report SERVING within about 30 s"
  sleep 0.3
done

# --- cross-check ----------------------------------------------------------------------------------
section "cross-check: the public corpus through a generated Python client"
"$PY" scripts/crosscheck.py --addr "127.0.0.1:$PORT" --out "$OUT/pyclient"

# --- metrics --------------------------------------------------------------------------------------
section "metrics endpoint counts the cross-check"
"$PY" - "$METRICS_PORT" <<'EOF'
import sys, urllib.request
port = sys.argv[1]
health = urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10)
assert health.status == 200, health.status
text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
def value(sample):
    for line in text.splitlines():
        if line.startswith(sample + " "):
            return float(line.split()[-1])
    return 0.0
service = "mahjong.v1.MahjongService"
checks = {
    "mahjong_hands_scored_total": value("mahjong_hands_scored_total"),
    "ScoreHand OK": value(f'grpc_server_requests_total{{method="{service}/ScoreHand",code="OK"}}'),
    "ScoreHand INVALID_ARGUMENT": value(
        f'grpc_server_errors_total{{method="{service}/ScoreHand",code="INVALID_ARGUMENT"}}'),
    "BatchScoreHands OK": value(
        f'grpc_server_requests_total{{method="{service}/BatchScoreHands",code="OK"}}'),
}
for name, v in checks.items():
    print(f"{name}: {v:.0f}")
assert all(v > 0 for v in checks.values()), "a metric the cross-check must have moved is zero"
# Every well-formed hand was scored three times: alone, in a batch, in a basic-view batch.
assert checks["mahjong_hands_scored_total"] == 3 * checks["ScoreHand OK"], checks
assert "grpc_server_request_duration_seconds_bucket" in text
print("metrics: consistent with the cross-check")
EOF

# --- a table through the API alone ----------------------------------------------------------------
section "a table through the API alone: 200 hands of four random bots (examples/table.py)"
"$PY" examples/table.py --addr "127.0.0.1:$PORT" --hands 200
