#!/usr/bin/env bash
# Fuzz smoke: every cargo-fuzz target of fuzz/ runs ~30 s (FUZZ_SECONDS) from the committed
# seed corpus (fuzz/seeds/<target>), two at a time; any crash, failed assertion, leak,
# timeout or out-of-memory fails the run. Installs what it needs: the nightly toolchain
# (minimal profile) and cargo-fuzz, when absent. The corpus libFuzzer grows goes to
# target/fuzz-ci/corpus (thrown away); a crashing input is kept in fuzz/artifacts/<target>/.
# Ends with the line `fuzz: N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${FUZZ_SECONDS:-30}
JOBS=${FUZZ_JOBS:-2}
OUT=target/fuzz-ci
STARTED=$(date +%s)

section() { printf '\n=== fuzz: %s ===\n' "$*"; }

section "tools"
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
rustup run nightly rustc --version
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
cargo fuzz --version

section "format of the fuzz crate (its own workspace: not in the root cargo fmt)"
(cd fuzz && cargo fmt --check)

section "build (nightly, AddressSanitizer)"
# The lock file fuzz/Cargo.lock is committed; cargo-fuzz has no --locked, so check it stays.
(cd fuzz && cargo +nightly fuzz build)
git diff --exit-code -- fuzz/Cargo.lock

mapfile -t TARGETS < <(cd fuzz && cargo +nightly fuzz list)
rm -rf "$OUT"
mkdir -p "$OUT/corpus" "$OUT/logs"

run_target() {
  local t=$1
  mkdir -p "$OUT/corpus/$t"
  # The same options as the build, so nothing is rebuilt; the grown corpus goes to the first directory.
  (cd fuzz && cargo +nightly fuzz run "$t" "../$OUT/corpus/$t" "seeds/$t" -- \
    -max_total_time="$SECONDS_EACH" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1) \
    >"$OUT/logs/$t.log" 2>&1
}

section "run: ${#TARGETS[@]} targets, ${SECONDS_EACH}s each, $JOBS at a time"
declare -A PIDS=()
passed=0
failed=0
failures=()
finish() {
  local t=$1
  if wait "${PIDS[$t]}"; then
    passed=$((passed + 1))
    printf '%-16s ok   %s\n' "$t" "$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/logs/$t.log" | grep -o '[0-9]*$' || echo '?') executions"
  else
    failed=$((failed + 1))
    failures+=("$t")
    printf '%-16s FAILED (log: %s)\n' "$t" "$OUT/logs/$t.log"
  fi
  unset "PIDS[$t]"
}
running=()
for t in "${TARGETS[@]}"; do
  if ((${#running[@]} >= JOBS)); then
    finish "${running[0]}"
    running=("${running[@]:1}")
  fi
  run_target "$t" &
  PIDS[$t]=$!
  running+=("$t")
done
for t in "${running[@]}"; do
  finish "$t"
done

for t in "${failures[@]}"; do
  section "log of $t (last 40 lines)"
  tail -n 40 "$OUT/logs/$t.log"
done
printf '\nfuzz: wall time %ss\n' "$(( $(date +%s) - STARTED ))"
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
