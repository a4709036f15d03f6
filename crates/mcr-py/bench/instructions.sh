#!/usr/bin/env bash
# Instructions a call, by valgrind (load-independent): PyMahjongGB's MahjongFanCalculator,
# mahjong_mcr.compat's, and mahjong_mcr.score() (reading .fans), on the 2,314 winning hands
# of the public corpus, verbose=True. Each is (I(3 passes) - I(1 pass)) / (2 x 2314).
#   bash crates/mcr-py/bench/instructions.sh [python]
set -euo pipefail
PY=${1:-python3}
# Python hashes strings with a random key each run: fixed, the counts repeat.
export PYTHONHASHSEED=0
SPEED="$(dirname "$0")/speed.py"
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$PY" "$SPEED" --count "$1" --passes "$2" 2>&1 | awk '/I *refs/ {gsub(",", "", $4); print $4}'
}
for name in pymahjonggb compat score; do
  one=$(instructions "$name" 1)
  three=$(instructions "$name" 3)
  echo "$name: $(( (three - one) / (2 * 2314) )) instructions a call"
done
