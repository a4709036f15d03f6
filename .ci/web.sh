#!/usr/bin/env bash
# The TypeScript client and the scoring kiosk, against the release binary:
#   - npm ci (package-lock.json at the root: the workspaces clients/typescript and web/kiosk);
#   - Debian's chromium and a CJK font (the names) through apt-get; no Mahjong tile font: the
#     kiosk draws its own tiles, and the browser test runs under a fontconfig that has none
#     (any font covering U+1F000 that the machine has is rejected, and fc-list must agree);
#   - the client regenerated from proto/ (buf generate with protoc-gen-es, both pinned in the
#     lock) and the kiosk bundle rebuilt (esbuild): any difference from the committed files
#     fails (git diff --exit-code), as does an untracked generated file;
#   - tsc (the client, its tests, the kiosk);
#   - the Node tests (node --test): every RPC over gRPC and gRPC-Web, error details, the
#     3,026-hand corpus through BatchScoreHands;
#   - the kiosk's tests (web/kiosk/test/*.test.mjs): the score card's logic in Node, and
#     headless Chromium (playwright-core) against /kiosk/ on the binary with no font for the
#     Mahjong tiles block, with screenshots in target/web-ci/screenshots.
# The binary: target/release/mahjong-referee (built by .ci/run before this), or
# $MAHJONG_REFEREE_BIN. Env: WEB_CI_SKIP_APT=1 when chromium and the fonts are installed.
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n=== web: %s ===\n' "$*"; }
die() { printf 'web: FAILED: %s\n' "$*" >&2; exit 1; }

STARTED=$(date +%s)
OUT=target/web-ci
export MAHJONG_REFEREE_BIN=${MAHJONG_REFEREE_BIN:-target/release/mahjong-referee}
export KIOSK_SCREENSHOTS=$PWD/$OUT/screenshots
MAHJONG_REFEREE_BIN=$(realpath "$MAHJONG_REFEREE_BIN")
mkdir -p "$OUT"
on_exit() {
  local rc=$?
  [[ $rc -eq 0 ]] || printf '\n=== web: FAILED after %ss ===\n' "$(( $(date +%s) - STARTED ))"
}
trap on_exit EXIT

section "tools"
[[ -x $MAHJONG_REFEREE_BIN ]] || die "no binary at $MAHJONG_REFEREE_BIN"
echo "binary $MAHJONG_REFEREE_BIN"
command -v node >/dev/null || die "no node on PATH"
echo "node $(node --version), npm $(npm --version)"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
[[ $NODE_MAJOR -ge 20 ]] || die "node 20 or newer is needed, found $(node --version)"

section "npm ci"
npm ci --no-audit --no-fund
echo "buf $(npx --no-install buf --version), esbuild $(npx --no-install esbuild --version), tsc $(npx --no-install tsc --version)"

section "chromium and fonts (apt-get)"
if [[ ${WEB_CI_SKIP_APT:-0} == 1 ]]; then
  echo "WEB_CI_SKIP_APT=1: using what is installed"
elif [[ -x /usr/bin/chromium ]] && [[ -n "$(fc-list :lang=zh family 2>/dev/null)" ]]; then
  echo "already installed"
else
  SUDO=
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-wqy-microhei >/dev/null
fi
/usr/bin/chromium --version

section "fonts: none for the Mahjong tiles block"
# The tiles must draw without a font for U+1F000–U+1F02B, as on many tablets and phones. A
# fontconfig that includes the system's and rejects every font file covering U+1F000 (none
# on CI; fonts-symbola or the like on a developer's machine) is used for the browser test.
export FONTCONFIG_FILE=$PWD/$OUT/fonts-no-mahjong.conf
{
  echo '<?xml version="1.0"?>'
  echo '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">'
  echo '<fontconfig>'
  echo '  <include ignore_missing="no">/etc/fonts/fonts.conf</include>'
  echo '  <selectfont><rejectfont>'
  FONTCONFIG_FILE=/etc/fonts/fonts.conf fc-list :charset=1f000 file | sed -e 's/: *$//' -e 's/^/    <glob>/' -e 's|$|</glob>|'
  echo '  </rejectfont></selectfont>'
  echo '</fontconfig>'
} >"$FONTCONFIG_FILE"
TILE_FONTS=$(fc-list :charset=1f000)
[[ -z $TILE_FONTS ]] || die "a font for the Mahjong tiles block is still visible: $TILE_FONTS"
echo "fc-list :charset=1f000 under $FONTCONFIG_FILE: nothing"

section "generated client and kiosk bundle are up to date"
npm run --workspace clients/typescript generate
npm run --workspace web/kiosk build
if ! git diff --exit-code --stat -- clients/typescript/src/gen web/kiosk/dist; then
  git diff -- clients/typescript/src/gen web/kiosk/dist | head -n 40 || true
  die "the committed client or bundle differs from what proto/ and web/kiosk/ build: run npm run generate / npm run build and commit"
fi
UNTRACKED=$(git ls-files --others --exclude-standard -- clients/typescript/src/gen web/kiosk/dist)
[[ -z $UNTRACKED ]] || die "generated files not committed: $UNTRACKED"
echo "clients/typescript/src/gen and web/kiosk/dist: no drift"

section "type checks"
npm run --workspace clients/typescript build
npm run --workspace web/kiosk typecheck
echo "tsc: clean"

section "node tests: every RPC over gRPC and gRPC-Web, error details, the corpus"
(cd clients/typescript && node --test --test-concurrency=1 --test-reporter=spec build/test/*.test.js) \
  | tee "$OUT/node-tests.txt"

section "browser test: the kiosk in headless Chromium"
(cd web/kiosk && node --test --test-concurrency=1 --test-reporter=spec test/*.test.mjs) \
  | tee "$OUT/browser-tests.txt"
ls -l "$KIOSK_SCREENSHOTS"

section "summary"
summary() { # the pass and fail counts of a spec report
  local pass fail
  pass=$(grep -E '^ℹ pass [0-9]+' "$1" | awk '{print $3}')
  fail=$(grep -E '^ℹ fail [0-9]+' "$1" | awk '{print $3}')
  echo "${pass:-0} ${fail:-0}"
}
read -r NODE_PASS NODE_FAIL < <(summary "$OUT/node-tests.txt")
read -r BROWSER_PASS BROWSER_FAIL < <(summary "$OUT/browser-tests.txt")
echo "node tests: $NODE_PASS passed, $NODE_FAIL failed"
echo "browser tests: $BROWSER_PASS passed, $BROWSER_FAIL failed"
[[ $((NODE_FAIL + BROWSER_FAIL)) -eq 0 && $((NODE_PASS + BROWSER_PASS)) -gt 0 ]] || die "tests failed"
echo "the web section took $(( $(date +%s) - STARTED ))s"
echo "web: $((NODE_PASS + BROWSER_PASS)) passed, $((NODE_FAIL + BROWSER_FAIL)) failed"
