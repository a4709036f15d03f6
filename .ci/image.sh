#!/usr/bin/env bash
# The container image, built and run as the Helm chart runs it (issue #34). Offline apart from
# Debian's packages, PyPI and crates.io; every connection goes to 127.0.0.1.
#   - podman, runc, buildah, skopeo from Debian's packages when absent; a containers.conf of its
#     own (runc: crun fails on this machine's hybrid cgroups; rlimits within the machine's own);
#   - the static binary, built with the Dockerfile's own command (a no-op when it is up to date),
#     and the CycloneDX SBOM of its crates with the Dockerfile's own `cargo cyclonedx` command
#     (cargo-cyclonedx installed once into ~/.cargo/bin);
#   - an offline runtime base, a distroless/static equivalent FROM nothing: /etc/passwd and
#     /etc/group with 65532 nonroot, the CA certificates and tzdata of Debian's packages;
#   - the Dockerfile's runtime stage built with podman (--format docker: the OCI format drops
#     HEALTHCHECK), the base passed as RUNTIME_BASE, the binary and the SBOM as the build contexts
#     `builder` and `sbom` in place of the builder stages; tagged localhost/mahjong-referee:ci;
#   - the image: config (user, entrypoint, health check, ports, labels), files and modes, size
#     within 25 MB, saved as a docker-archive under target/packaging/ with the SBOM beside it;
#   - containers run as the chart's pod spec runs them (values.yaml: its user, read-only root,
#     every capability dropped, no-new-privileges, its memory limit, its MAHJONG_* settings) plus
#     a pids limit, on the host network with their own ports (MAHJONG_LISTEN_ADDR,
#     MAHJONG_METRICS_ADDR): health SERVING from the host, `podman healthcheck run`, /healthz and
#     /metrics, the whole public corpus (scripts/crosscheck.py), `podman stop -t <grace>` with
#     NOT_SERVING while draining, the calls in flight answered and exit 0 in time, and a rolling
#     replacement of two containers under a round-robin load (.ci/image-client.py): 0 failed calls.
# Removes its containers and the images it made (all but localhost/mahjong-referee:ci) on exit,
# on failure too; it creates no network (host network only). A failure names the check and prints the
# containers' logs. Exits non-zero on the first failing check. Podman writes "unable to get
# systemd connection" lines without systemd: only exit codes count.
set -euo pipefail
cd "$(dirname "$0")/.."
STARTED=$SECONDS
# One run at a time on a machine: the container names, their label and podman's store are shared.
# (Long-lived children, the containers' conmon, are started without fd 9: `9>&-`.)
exec 9> "${TMPDIR:-/tmp}/mahjong-referee-image.lock"
flock --wait 900 9 || { echo "image: FAILED: another .ci/image.sh still runs after 15 min" >&2; exit 1; }

IMAGE=localhost/mahjong-referee:ci
BASE_IMAGE=localhost/mahjong-referee-base:ci
OUT=target/packaging
WORK=$OUT/image
ARCHIVE=$OUT/mahjong-referee-ci.docker.tar
SBOM=$OUT/mahjong-referee.cdx.json
BINARY=target/x86_64-unknown-linux-gnu/release/mahjong-referee
VALUES=helm/mahjong-referee/values.yaml
IMAGE_BUDGET_BYTES=25000000
PIDS_LIMIT=128
CONTAINER_LABEL=io.mahjong-referee.ci=image-sh   # on every container started here
VENV=.venv-grpc                                     # shared with .ci/grpc.sh
CLIENT_PID=
IMAGES_BEFORE=

section() { printf '\n=== image: %s (%d s) ===\n' "$*" $((SECONDS - STARTED)); }
die() { printf 'image: FAILED: %s\n' "$*" >&2; exit 1; }
ok() { echo "  ok   $*"; }

our_containers() { podman ps -a -q --filter "label=$CONTAINER_LABEL" 2>/dev/null || true; }

cleanup() {
  local rc=$?
  set +e
  if [[ -n $CLIENT_PID ]]; then kill "$CLIENT_PID" 2>/dev/null; wait "$CLIENT_PID" 2>/dev/null; fi
  if command -v podman >/dev/null; then
    if ((rc != 0)); then
      for id in $(our_containers); do
        printf '\n--- logs of container %s ---\n' "$(podman inspect --format '{{.Name}}' "$id" 2>/dev/null)"
        podman logs "$id" 2>&1 | tail -n 40
      done
    fi
    local ids
    mapfile -t ids < <(our_containers)
    ((${#ids[@]} == 0)) || podman rm -f -t 0 "${ids[@]}" >/dev/null 2>&1
    # Every image but localhost/mahjong-referee:ci that this run made (the base, the build's
    # intermediate images), the untagged ones (the previous :ci) and the leftovers of a killed run.
    local keep id
    keep=$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null)
    for id in $( (podman images -a -q --no-trunc | grep -vxF -f <(printf '%s\n' "$IMAGES_BEFORE")
                  podman images -a -q --no-trunc --filter dangling=true
                  podman images -q --no-trunc --filter reference='localhost/mahjong-referee-*') 2>/dev/null | sort -u); do
      [[ -n $keep && $id == *"$keep" ]] || podman rmi -f "$id" >/dev/null 2>&1
    done
    echo "left in podman's store: $(podman images --format '{{.Repository}}:{{.Tag}}' 2>/dev/null | tr '\n' ' ')"
  fi
  printf '\n=== image: %s in %d s ===\n' "$( ((rc == 0)) && echo passed || echo FAILED)" $((SECONDS - STARTED))
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the container engine -------------------------------------------------------------------------
section "podman, runc, buildah, skopeo (Debian)"
missing=()
for tool in podman runc buildah skopeo curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
for pkg in ca-certificates tzdata; do dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg"); done
if ((${#missing[@]})); then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
mkdir -p "$WORK"
# A configuration of its own: the machine's files stay as they are.
cat > "$WORK/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF=$PWD/$WORK/containers.conf
podman --version
runc_version="$(runc --version)"; echo "${runc_version%%$'\n'*}"
IMAGES_BEFORE=$(podman images -a -q --no-trunc)
# A container left by a killed run would hold its name and its ports.
mapfile -t ids < <(our_containers)
((${#ids[@]} == 0)) || podman rm -f -t 0 "${ids[@]}" >/dev/null

# --- the binary and its SBOM ----------------------------------------------------------------------
section "the static binary (the Dockerfile's build command)"
build_cmd=$(sed -n 's/^RUN \(RUSTFLAGS=.* cargo build --release .*\)$/\1/p' Dockerfile)
[[ -n $build_cmd ]] || die "Dockerfile: no 'RUN RUSTFLAGS=... cargo build --release ...' line"
echo "$build_cmd"
eval "$build_cmd"
ls -l "$BINARY"

section "SBOM (the Dockerfile's cargo cyclonedx command)"
cyclonedx_version=$(sed -n 's/^ARG CARGO_CYCLONEDX_VERSION=//p' Dockerfile)
sbom_cmd=$(sed -n 's/^RUN \(cargo cyclonedx .*\)$/\1/p' Dockerfile)
[[ -n $cyclonedx_version && -n $sbom_cmd ]] || die "Dockerfile: no CARGO_CYCLONEDX_VERSION or 'RUN cargo cyclonedx' line"
# Listed into a variable, not piped: under pipefail grep -q leaving early can SIGPIPE the writer.
installed_crates="$(cargo install --list)"
if ! grep -qxF "cargo-cyclonedx v$cyclonedx_version:" <<<"$installed_crates"; then
  cargo install cargo-cyclonedx --version "$cyclonedx_version" --locked
fi
echo "$sbom_cmd"
# Its timestamp from the commit (SOURCE_DATE_EPOCH), as the image's.
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)
SOURCE_DATE_EPOCH=$epoch eval "$sbom_cmd"
# It writes <package>.cdx.json beside each manifest of the workspace; the image takes the root's.
mv mahjong-referee.cdx.json "$SBOM"
find crates -name '*.cdx.json' -delete
sbom_components=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d["components"]))' "$SBOM")
[[ $sbom_components -gt 50 ]] || die "SBOM: only $sbom_components components in $SBOM"
echo "$SBOM: CycloneDX, $sbom_components components"

# --- the offline base -----------------------------------------------------------------------------
section "offline runtime base (distroless/static equivalent) as $BASE_IMAGE"
rootfs=$WORK/base/rootfs
rm -rf "$WORK/base"
mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/home/nonroot" "$rootfs/tmp"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin' \
  'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' > "$rootfs/etc/passwd"
printf '%s\n' 'root:x:0:' 'nobody:x:65534:' 'nonroot:x:65532:' > "$rootfs/etc/group"
# The bundle of the package's own certificates (not the machine's bundle, which may hold local CAs).
dpkg -L ca-certificates | grep -E '^/usr/share/ca-certificates/.+\.crt$' | LC_ALL=C sort | xargs cat \
  > "$rootfs/etc/ssl/certs/ca-certificates.crt"
certs=$(grep -c 'BEGIN CERTIFICATE' "$rootfs/etc/ssl/certs/ca-certificates.crt")
((certs > 100)) || die "base: only $certs CA certificates from the ca-certificates package"
dpkg -L tzdata | grep '^/usr/share/zoneinfo' | sed 's|^/||' \
  | tar -C / --no-recursion -cf - -T - | tar -C "$rootfs" -xf -
[[ -f $rootfs/usr/share/zoneinfo/Asia/Shanghai ]] || die "base: tzdata has no Asia/Shanghai"
chmod 0755 "$rootfs" "$rootfs/etc" "$rootfs/etc/ssl" "$rootfs/etc/ssl/certs"
chmod 0644 "$rootfs/etc/passwd" "$rootfs/etc/group" "$rootfs/etc/ssl/certs/ca-certificates.crt"
chmod 1777 "$rootfs/tmp"
chmod 0700 "$rootfs/home/nonroot"
chown 65532:65532 "$rootfs/home/nonroot"
# One layer, from a tar of fixed order, owners and times.
mkdir -p "$WORK/base/context"
tar -C "$rootfs" --sort=name --numeric-owner --mtime="@$epoch" -cf "$WORK/base/context/rootfs.tar" .
versions="ca-certificates=$(dpkg-query -W -f '${Version}' ca-certificates),tzdata=$(dpkg-query -W -f '${Version}' tzdata)"
cat > "$WORK/base/context/Containerfile" <<EOF
FROM scratch
ADD rootfs.tar /
USER 65532:65532
WORKDIR /home/nonroot
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
LABEL io.mahjong-referee.base.debian-packages="$versions"
EOF
podman build --quiet --format docker --timestamp "$epoch" --tag "$BASE_IMAGE" "$WORK/base/context" >/dev/null \
  || die "podman build of the base failed"
echo "$BASE_IMAGE: $certs CA certificates, $(find "$rootfs/usr/share/zoneinfo" -type f | wc -l) zoneinfo files ($versions)," \
  "$(podman image inspect --format '{{.Size}}' "$BASE_IMAGE") bytes"

# --- the build ------------------------------------------------------------------------------------
section "podman build of the Dockerfile's runtime stage"
# The build contexts stand in for the stages of the same names, at the paths the COPYs read.
context=$WORK/context
rm -rf "$context"
install -D -m 0555 "$BINARY" "$context/builder/src/$BINARY"
install -D -m 0444 "$SBOM" "$context/sbom/src/mahjong-referee.cdx.json"
version=$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' helm/mahjong-referee/Chart.yaml)
build_started=$SECONDS
podman build --quiet --format docker --pull=never --timestamp "$epoch" \
  --build-arg RUNTIME_BASE="$BASE_IMAGE" \
  --build-arg VERSION="$version" \
  --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  --build-arg CREATED="$(date -u -d "@$epoch" +%FT%TZ)" \
  --build-context builder="$context/builder" \
  --build-context sbom="$context/sbom" \
  --tag "$IMAGE" --file Dockerfile . >/dev/null || die "podman build failed"
echo "built $IMAGE in $((SECONDS - build_started)) s"

# --- the image ------------------------------------------------------------------------------------
section "the image: config, files, size, archive"
inspect() { podman image inspect --format "$1" "$IMAGE"; }
expect() { # expect WHAT ACTUAL WANTED
  [[ $2 == "$3" ]] || die "$1 is '$2', expected '$3'"
  ok "$1: $2"
}
expect "user" "$(inspect '{{.Config.User}}')" "65532:65532"
expect "entrypoint" "$(inspect '{{json .Config.Entrypoint}}')" '["/usr/local/bin/mahjong-referee"]'
expect "cmd" "$(inspect '{{json .Config.Cmd}}')" '["serve"]'
expect "health check" "$(inspect '{{json .HealthCheck.Test}}')" '["CMD","/usr/local/bin/mahjong-referee","healthcheck"]'
# shellcheck disable=SC2016  # a Go template, not a shell expansion
expect "exposed ports" "$(inspect '{{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}')" "50051/tcp 9464/tcp "
expect "stop signal" "$(inspect '{{.Config.StopSignal}}')" "SIGTERM"
expect "label base.name" "$(inspect '{{index .Labels "org.opencontainers.image.base.name"}}')" "$BASE_IMAGE"
expect "label version" "$(inspect '{{index .Labels "org.opencontainers.image.version"}}')" "$version"
sbom_path=$(inspect '{{index .Labels "io.mahjong-referee.sbom"}}')
expect "layers (base, binary, SBOM)" "$(inspect '{{len .RootFS.Layers}}')" 3

# Files and modes, read from the image's mounted root filesystem.
root=$(podman image mount "$IMAGE")
files=$(cd "$root" && find . -print -path ./usr/share/zoneinfo -prune | LC_ALL=C sort | tr '\n' ' ')
binary_stat=$(stat -c '%a %u:%g' "$root/usr/local/bin/mahjong-referee")
sbom_stat=$(stat -c '%a %u:%g' "$root$sbom_path" 2>/dev/null || echo missing)
same_binary=$(cmp -s "$root/usr/local/bin/mahjong-referee" "$BINARY" && echo yes || echo no)
same_sbom=$(cmp -s "$root$sbom_path" "$SBOM" && echo yes || echo no)
podman image unmount "$IMAGE" >/dev/null
expect "binary mode and owner" "$binary_stat" "555 0:0"
expect "binary is the one built here" "$same_binary" yes
expect "SBOM at $sbom_path" "$sbom_stat" "444 0:0"
expect "SBOM is the one kept beside the archive" "$same_sbom" yes
expected_files=". ./etc ./etc/group ./etc/passwd ./etc/ssl ./etc/ssl/certs ./etc/ssl/certs/ca-certificates.crt ./home ./home/nonroot ./tmp ./usr ./usr/local ./usr/local/bin ./usr/local/bin/mahjong-referee ./usr/share ./usr/share/doc ./usr/share/doc/mahjong-referee ./usr/share/doc/mahjong-referee/sbom.cdx.json ./usr/share/zoneinfo "
expect "files (zoneinfo aside)" "$files" "$expected_files"

size=$(inspect '{{.Size}}')
((size <= IMAGE_BUDGET_BYTES)) || die "image size: $size bytes, over the budget of $IMAGE_BUDGET_BYTES"
ok "size: $size bytes uncompressed (budget $IMAGE_BUDGET_BYTES)"

rm -f "$ARCHIVE"
podman save --quiet --format docker-archive --output "$ARCHIVE" "$IMAGE"
# skopeo reads the archive back; its config (Docker's, not skopeo's OCI view) keeps HEALTHCHECK.
archive_layers=$(skopeo inspect --format '{{len .Layers}}' "docker-archive:$ARCHIVE") \
  || die "skopeo cannot read the docker-archive $ARCHIVE"
expect "layers in the docker-archive" "$archive_layers" 3
archive_health=$(python3 - "$ARCHIVE" <<'EOF'
import json, sys, tarfile
with tarfile.open(sys.argv[1]) as archive:
    (manifest,) = json.load(archive.extractfile("manifest.json"))
    config = json.load(archive.extractfile(manifest["Config"]))
print(" ".join(config["config"].get("Healthcheck", {}).get("Test", [])))
EOF
)
expect "health check in the docker-archive" "$archive_health" "CMD /usr/local/bin/mahjong-referee healthcheck"
ok "docker-archive $ARCHIVE: $(stat -c %s "$ARCHIVE") bytes"
digest=$(inspect '{{.Digest}}')
image_id=$(inspect '{{.Id}}')
printf 'image %s\nid %s\ndigest %s\nsize %s\narchive %s\nsbom %s\n' \
  "$IMAGE" "$image_id" "$digest" "$size" "$ARCHIVE" "$SBOM" > "$OUT/image.txt"
echo "image $IMAGE: $size bytes, digest $digest (written to $OUT/image.txt)"

# --- running it as the chart does -----------------------------------------------------------------
section "the pod spec of $VALUES"
# chart_value a.b.c: the scalar at that path of values.yaml (two-space indentation).
chart_value() {
  awk -v want="$1" '
    /^[[:space:]]*(#|-|$)/ { next }
    {
      match($0, /^ */); depth = RLENGTH / 2
      key = $1; sub(/:$/, "", key); path[depth] = key
      p = path[0]; for (i = 1; i <= depth; i++) p = p "." path[i]
      if (p == want) { sub(/^[^:]*:[[:space:]]*/, ""); sub(/[[:space:]]+#.*$/, ""); gsub(/"/, ""); print; exit }
    }' "$VALUES"
}
need_value() { # need_value PATH WANTED: the pod spec CI reproduces
  [[ "$(chart_value "$1")" == "$2" ]] || die "$VALUES: $1 is '$(chart_value "$1")'; this script runs the pod as '$2'"
}
need_value securityContext.readOnlyRootFilesystem true
need_value securityContext.allowPrivilegeEscalation false
need_value securityContext.privileged false
need_value securityContext.runAsNonRoot true
need_value securityContext.seccompProfile.type RuntimeDefault   # podman's default seccomp profile
awk '/^securityContext:/ { s = 1 } s && /^    drop:/ { d = 1; next } d { print; exit }' "$VALUES" | grep -qx ' *- ALL' \
  || die "$VALUES: securityContext.capabilities.drop is not [ALL]"
user="$(chart_value securityContext.runAsUser):$(chart_value securityContext.runAsGroup)"
memory=$(chart_value resources.limits.memory)
[[ $memory =~ ^([0-9]+)Mi$ ]] || die "$VALUES: resources.limits.memory '$memory' is not in Mi"
memory_mib=${BASH_REMATCH[1]}
drain=$(chart_value config.drainSeconds)
timeout_ms=$(chart_value config.requestTimeoutMs)
grace=$(chart_value terminationGracePeriodSeconds)
[[ $grace == null || -z $grace ]] && grace=$((drain + (timeout_ms + 999) / 1000 + $(chart_value terminationGraceExtraSeconds)))
# The MAHJONG_* settings the Deployment passes (the addresses are set per container below).
chart_env=(--env "MAHJONG_KIOSK=$(chart_value kiosk.enabled)")
for key in logFormat logLevel maxMessageBytes requestTimeoutMs maxConcurrentRequests maxBatchHands \
    maxBufferedBytes maxConnections maxStreamsPerConnection maxConnectionAgeSeconds \
    keepaliveSeconds keepaliveTimeoutSeconds drainSeconds; do
  name=MAHJONG_$(sed 's/\([A-Z]\)/_\1/g' <<< "$key" | tr '[:lower:]' '[:upper:]')   # logFormat: LOG_FORMAT
  chart_env+=(--env "$name=$(chart_value "config.$key")")
done
echo "user $user, read-only root, cap-drop ALL, no-new-privileges, memory ${memory_mib} MiB, pids $PIDS_LIMIT," \
  "grace $grace s (drain $drain s); ${chart_env[*]//--env /}"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# run_pod NAME GRPC_PORT METRICS_PORT: the container as the Deployment's pod runs it.
run_pod() {
  podman run --detach --name "$1" --label "$CONTAINER_LABEL" \
    --network host \
    --user "$user" --read-only --read-only-tmpfs=false \
    --cap-drop ALL --security-opt no-new-privileges \
    --memory "${memory_mib}m" --memory-swap "${memory_mib}m" --pids-limit "$PIDS_LIMIT" \
    "${chart_env[@]}" \
    --env "MAHJONG_LISTEN_ADDR=127.0.0.1:$2" --env "MAHJONG_METRICS_ADDR=127.0.0.1:$3" \
    "$IMAGE" serve 9>&- >/dev/null 2> "$WORK/run-$1.err" || { cat "$WORK/run-$1.err"; die "podman run $1 failed"; }
}
state() { podman inspect --format "$2" "$1"; }
serving() { "$BINARY" healthcheck --addr "http://127.0.0.1:$1" --timeout-ms 1000 >/dev/null 2>&1; }
# health PORT: SERVING, NOT_SERVING (the server answers so: it drains), or why there is no answer.
health() {
  local said
  if said=$("$BINARY" healthcheck --addr "http://127.0.0.1:$1" --timeout-ms 1000 2>&1); then echo SERVING
  elif [[ $said == *NOT_SERVING* ]]; then echo NOT_SERVING
  else echo "no answer: $said"
  fi
}
wait_serving() { # wait_serving NAME GRPC_PORT
  local started=$SECONDS
  until serving "$2"; do
    [[ $(state "$1" '{{.State.Running}}') == true ]] || die "$1 exited before reporting SERVING"
    ((SECONDS - started < 30)) || die "$1 did not report SERVING on 127.0.0.1:$2 within 30 s"
    sleep 0.2
  done
}

section "a pod: health, the process as the pod spec runs it, /healthz, /metrics"
grpc_port=$(free_port)
metrics_port=$(free_port)
run_pod referee "$grpc_port" "$metrics_port"
wait_serving referee "$grpc_port"
ok "health SERVING from the host on 127.0.0.1:$grpc_port (MAHJONG_LISTEN_ADDR)"
podman healthcheck run referee >/dev/null || die "podman healthcheck run: exit $?"
ok "podman healthcheck run: exit 0 (the image's HEALTHCHECK)"
pid=$(state referee '{{.State.Pid}}')
expect "PID 1 of the container" "$(tr '\0' ' ' < "/proc/$pid/cmdline")" "/usr/local/bin/mahjong-referee serve "
expect "uid and gid" "$(awk '/^Uid:/ { u = $2 } /^Gid:/ { g = $2 } END { print u ":" g }' "/proc/$pid/status")" "$user"
expect "effective capabilities" "$(awk '/^CapEff:/ { print $2 }' "/proc/$pid/status")" 0000000000000000
expect "no_new_privs" "$(awk '/^NoNewPrivs:/ { print $2 }' "/proc/$pid/status")" 1
expect "seccomp" "$(awk '/^Seccomp:/ { print $2 }' "/proc/$pid/status")" 2
expect "root filesystem read-only" "$(awk '$5 == "/" { split($6, o, ","); print o[1] }' "/proc/$pid/mountinfo")" ro
expect "memory limit" "$(state referee '{{.HostConfig.Memory}}')" $((memory_mib * 1024 * 1024))
expect "pids limit" "$(state referee '{{.HostConfig.PidsLimit}}')" "$PIDS_LIMIT"
curl -fsS -o /dev/null "http://127.0.0.1:$metrics_port/healthz" || die "/healthz on 127.0.0.1:$metrics_port did not answer 200"
ok "/healthz 200 on 127.0.0.1:$metrics_port (MAHJONG_METRICS_ADDR)"

section "the public corpus through the container (scripts/crosscheck.py)"
if ! "$VENV/bin/python" -c 'import grpc, grpc_tools' 2>/dev/null; then
  python3 -m venv "$VENV"
  printf '*\n' > "$VENV/.gitignore"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
fi
PY=$VENV/bin/python
"$PY" scripts/crosscheck.py --addr "127.0.0.1:$grpc_port" --out "$WORK/pyclient" > "$WORK/crosscheck.txt" 2>&1 \
  || { cat "$WORK/crosscheck.txt"; die "crosscheck: the corpus through the container (ScoreHand, BatchScoreHands, basic view) did not agree"; }
grep -E '^(corpus:|ScoreHand:|BatchScoreHands( BASIC)?:|100%)' "$WORK/crosscheck.txt"
ok "ScoreHand, BatchScoreHands and the basic view agree with tests/data/public.jsonl"
curl -fsS -o "$WORK/metrics.txt" "http://127.0.0.1:$metrics_port/metrics" || die "/metrics on 127.0.0.1:$metrics_port did not answer"
scored=$(awk '$1 == "mahjong_hands_scored_total" { print $2 }' "$WORK/metrics.txt")
[[ -n $scored && $scored != 0 ]] || die "/metrics: mahjong_hands_scored_total is '$scored' after the corpus"
ok "/metrics on 127.0.0.1:$metrics_port: mahjong_hands_scored_total $scored"
cgroup=$(awk -F: '$2 == "memory" { print $3 }' "/proc/$pid/cgroup")
peak=$(cat "/sys/fs/cgroup/memory$cgroup/memory.max_usage_in_bytes" 2>/dev/null || echo 0)
[[ $(state referee '{{.State.OOMKilled}}') == false ]] || die "the container was OOM-killed"
echo "peak memory $((peak / 1024 / 1024)) MiB of the ${memory_mib} MiB limit; $(podman stats --no-stream --format '{{.PIDs}}' referee 2>/dev/null) pids of $PIDS_LIMIT"

# The load client: ScoreHand round-robin over its backends, each left while NOT_SERVING.
start_client() { # start_client NAME PORT...
  local name=$1 port
  shift
  local args=(--ready-file "$WORK/$name.ready" --stop-file "$WORK/$name.stop" --out "$WORK/pyclient-$name")
  for port in "$@"; do args+=(--backend "127.0.0.1:$port"); done
  rm -f "$WORK/$name.ready" "$WORK/$name.stop"
  "$PY" .ci/image-client.py "${args[@]}" 9>&- > "$WORK/$name.json" 2> "$WORK/$name.err" &
  CLIENT_PID=$!
  local started=$SECONDS
  until [[ -f $WORK/$name.ready ]]; do
    kill -0 "$CLIENT_PID" 2>/dev/null || { cat "$WORK/$name.err" "$WORK/$name.json"; die "load client $name exited before every backend answered"; }
    ((SECONDS - started < 60)) || die "load client $name: not every backend answered within 60 s"
    sleep 0.1
  done
}
stop_client() { # stop_client NAME: 0 failed calls, or the check fails
  touch "$WORK/$1.stop"
  local rc=0
  wait "$CLIENT_PID" || rc=$?
  CLIENT_PID=
  "$PY" - "$WORK/$1.json" <<'EOF' || true
import json, sys
r = json.load(open(sys.argv[1]))
print(f"  load client: {r['seconds']} s, answered {r['answered']}, answered while NOT_SERVING "
      f"{r['drained']}, failed {r['failed']}")
for backend, states in r["health"].items():
    print(f"    {backend}: " + ", ".join(f"{s} at {t} s" for t, s in states))
EOF
  ((rc == 0)) || { cat "$WORK/$1.err" "$WORK/$1.json"; die "load client $1: failed calls (exit $rc)"; }
}
ms() { echo $((${EPOCHREALTIME/./} / 1000)); }   # milliseconds, for the stop timings
seconds_since() { awk -v ms=$(($(ms) - $1)) 'BEGIN { printf "%.1f", ms / 1000 }'; }
# stop_pod NAME PORT: podman stop -t <grace>, NOT_SERVING while draining, exit 0 within the grace.
stop_pod() {
  local started stopper rc=0 not_serving="" took code
  started=$(ms)
  podman stop --time "$grace" "$1" >/dev/null 2> "$WORK/stop-$1.err" &
  stopper=$!
  while kill -0 "$stopper" 2>/dev/null; do
    if [[ -z $not_serving && $(health "$2") == NOT_SERVING ]]; then not_serving=$(seconds_since "$started"); fi
    sleep 0.1
  done
  wait "$stopper" || rc=$?
  took=$(seconds_since "$started")
  code=$(state "$1" '{{.State.ExitCode}}')
  ((rc == 0)) || { cat "$WORK/stop-$1.err"; die "podman stop $1: exit $rc"; }
  [[ -n $not_serving ]] || die "$1: health never answered NOT_SERVING while it drained"
  ((code == 0)) || die "$1 exited with status $code after SIGTERM (137: killed at the grace period)"
  ((${took%.*} < grace)) || die "$1 took $took s to stop, over the grace period of $grace s"
  [[ $(state "$1" '{{.State.OOMKilled}}') == false ]] || die "$1 was OOM-killed"
  ok "podman stop -t $grace $1: NOT_SERVING at $not_serving s, exit 0 at $took s (drain $drain s, grace $grace s)"
}

section "SIGTERM: podman stop -t $grace under load"
start_client drain "$grpc_port"
sleep 1   # under load
stop_pod referee "$grpc_port"
stop_client drain
drained=$("$PY" -c 'import json, sys; print(sum(json.load(open(sys.argv[1]))["drained"].values()))' "$WORK/drain.json")
((drained > 0)) || die "no call was answered while the container drained"
ok "$drained calls answered while NOT_SERVING (in flight as the drain began), 0 failed"

section "rolling replacement of two pods under a round-robin load"
ports_a=("$(free_port)" "$(free_port)")
ports_b=("$(free_port)" "$(free_port)")
run_pod pod-a "${ports_a[@]}"
run_pod pod-b "${ports_b[@]}"
wait_serving pod-a "${ports_a[0]}"
wait_serving pod-b "${ports_b[0]}"
start_client rolling "${ports_a[0]}" "${ports_b[0]}"
replace_pod() { # replace_pod NAME GRPC_PORT METRICS_PORT: one at a time, on the same ports
  stop_pod "$1" "$2"
  run_pod "$1-2" "$2" "$3"
  wait_serving "$1-2" "$2"
  ok "$1-2 SERVING on 127.0.0.1:$2"
  sleep 1   # the client takes the new pod up before the next one goes
}
replace_pod pod-a "${ports_a[@]}"
replace_pod pod-b "${ports_b[@]}"
stop_client rolling
ok "rolling replacement: 0 failed calls"
for pod in pod-a-2 pod-b-2; do [[ $(state "$pod" '{{.State.OOMKilled}}') == false ]] || die "$pod was OOM-killed"; done

section "done"
echo "image $IMAGE: $size bytes, digest $digest"
echo "archive $ARCHIVE, SBOM $SBOM"
