#!/usr/bin/env bash
# Side by side with the reference calculator, in one run (issue 27, item 5).
#
# Builds the reference C++ calculator (ChineseOfficialMahjongHelper's mahjong-algorithm, from
# the PyPI sdist of pymahjonggb 1.4.0) under target/reference/ with our small driver
# (scripts/reference-driver/driver.cpp), feeds both programs the same corpus hands, checks
# they agree (points; distance and useful tiles), and reports:
#   - instructions a hand under valgrind (difference of two pass counts: load-independent),
#     for scoring (calculate_fan against our score, alone and with validation) and for the
#     distance with useful tiles over the five shapes;
#   - wall-clock throughput, the reference driver alternated with our criterion benches
#     (score/public_corpus, score/score_only, analyze/shanten), and the ratios;
#   - the targets: scoring >= 8x the reference in instructions, shanten >= 150x.
#
# Usage: scripts/compare-reference.sh [--quick] [--rounds N] [--no-timing] [--no-valgrind]
#   --quick        fewer valgrind passes, one short timing round
#   --rounds N     alternated timing rounds (default 3)
#   --no-timing    instructions only (the load-independent figures)
#   --no-valgrind  timing only
# Needs: cargo, g++, python3, pip (only the first time, to download the sdist), valgrind.
# Nothing of the reference is committed or written outside target/reference/.
set -euo pipefail

die() { echo "compare-reference: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

QUICK=0 ROUNDS=3 TIMING=1 VALGRIND=1
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) QUICK=1; ROUNDS=1 ;;
        --rounds) [ $# -ge 2 ] || die "--rounds needs a number"; ROUNDS="$2"; shift ;;
        --no-timing) TIMING=0 ;;
        --no-valgrind) VALGRIND=0 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) die "unknown argument $1 (try --help)" ;;
    esac
    shift
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a positive number, not $ROUNDS"

need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found: $2"; }
need cargo "install Rust"
need python3 "needed to convert the corpus hands"
need "${CXX:-g++}" "set CXX to a C++11 compiler"
[ "$VALGRIND" = 0 ] || need valgrind "install valgrind, or pass --no-valgrind"

WORK="$ROOT/target/reference"
VERSION=1.4.0
SRC="$WORK/PyMahjongGB-$VERSION/MahjongGB/mahjong-algorithm"
DRIVER="$WORK/driver"
SCORE_HANDS="$WORK/score-hands.txt"
SHANTEN_HANDS="$WORK/shanten-hands.txt"
mkdir -p "$WORK"

# --- the reference's sources (downloaded once) ---
if [ ! -f "$SRC/fan_calculator.cpp" ]; then
    SDIST="$WORK/pymahjonggb-$VERSION.tar.gz"
    if [ ! -f "$SDIST" ]; then
        need pip "needed once to download the pymahjonggb $VERSION sdist"
        say "downloading the pymahjonggb $VERSION sdist into $WORK"
        pip download --quiet --no-binary :all: --no-deps "pymahjonggb==$VERSION" -d "$WORK" \
            || die "pip download of pymahjonggb==$VERSION failed (network?)"
        SDIST="$(ls "$WORK"/[Pp]y[Mm]ahjong[Gg][Bb]-"$VERSION".tar.gz 2>/dev/null | head -n1)"
        [ -n "$SDIST" ] || die "the sdist is not where pip was told to put it ($WORK)"
    fi
    tar -xzf "$SDIST" -C "$WORK"
    [ -f "$SRC/fan_calculator.cpp" ] || die "no mahjong-algorithm/ in the sdist (looked in $SRC)"
fi

# --- the driver, compiled against their headers ---
CXXFLAGS="${CXXFLAGS:--O2}"
DRIVER_SRC="$ROOT/scripts/reference-driver/driver.cpp"
if [ ! -x "$DRIVER" ] || [ "$DRIVER_SRC" -nt "$DRIVER" ] \
    || [ "$(cat "$DRIVER.flags" 2>/dev/null)" != "$CXXFLAGS" ]; then
    say "compiling the reference with our driver ($CXXFLAGS -std=c++11)"
    # shellcheck disable=SC2086
    "${CXX:-g++}" $CXXFLAGS -std=c++11 -I"$SRC" -o "$DRIVER" "$DRIVER_SRC" \
        "$SRC/fan_calculator.cpp" "$SRC/shanten.cpp" || die "compiling the reference failed"
    echo "$CXXFLAGS" > "$DRIVER.flags"
fi

# --- the same hands for both ---
python3 scripts/reference-driver/hands.py score tests/data/public.jsonl > "$SCORE_HANDS"
python3 scripts/reference-driver/hands.py shanten tests/data/analysis-public.jsonl > "$SHANTEN_HANDS"

say "building our examples (release)"
cargo build --quiet --release -p mcr --example score_corpus --example shanten_corpus \
    || die "building the score_corpus and shanten_corpus examples failed"
SCORE_EX="$ROOT/target/release/examples/score_corpus"
SHANTEN_EX="$ROOT/target/release/examples/shanten_corpus"

# field NAME LINE: the value after NAME in a "name value ..." line.
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$2"; }

# --- agreement: same hands, same answers ---
ref_score="$("$DRIVER" score "$SCORE_HANDS" 1)"
our_score="$("$SCORE_EX" 1 score)"
SCORE_N="$(field hands "$ref_score")"
our_n="$(awk '{ print $1 }' <<<"$our_score")"
[ "$SCORE_N" = "$our_n" ] || die "hand counts differ: reference $SCORE_N, ours $our_n"
ref_points="$(field checksum "$ref_score")"
our_points="$(awk '{ print $NF }' <<<"$our_score")"
[ "$ref_points" = "$our_points" ] \
    || die "scoring disagrees on the corpus: reference $ref_points points, ours $our_points"
ref_shanten="$("$DRIVER" shanten "$SHANTEN_HANDS" 1)"
our_shanten="$("$SHANTEN_EX" 1)"
SHANTEN_N="$(field hands "$ref_shanten")"
[ "$SHANTEN_N" = "$(field hands "$our_shanten")" ] || die "shanten hand counts differ"
[ "$(field checksum "$ref_shanten")" = "$(field checksum "$our_shanten")" ] \
    || die "distances or useful tiles disagree: $ref_shanten / $our_shanten"
say "agreement: $SCORE_N scored hands ($ref_points points), $SHANTEN_N waiting hands"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }
meets() { awk -v r="$1" -v t="$2" 'BEGIN { print (r + 0 >= t) ? "met" : "MISSED" }'; }

# --- instructions a hand ---
# irefs CMD...: the instructions valgrind counts for one run.
irefs() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
}
# per_hand HANDS LO HI CMD-WITH-@PASSES@: (I(HI) - I(LO)) / ((HI - LO) * HANDS).
per_hand() {
    local hands="$1" lo="$2" hi="$3"; shift 3
    local a b
    a="$(irefs "${@//@PASSES@/$lo}")"; b="$(irefs "${@//@PASSES@/$hi}")"
    [ -n "$a" ] && [ -n "$b" ] || die "no instruction count from valgrind for $*"
    awk -v a="$a" -v b="$b" -v n="$hands" -v d="$((hi - lo))" 'BEGIN { printf "%.0f", (b - a) / (d * n) }'
}

if [ "$VALGRIND" = 1 ]; then
    if [ "$QUICK" = 1 ]; then S_LO=2 S_HI=6 SH_LO=1 SH_HI=2; else S_LO=10 S_HI=30 SH_LO=1 SH_HI=3; fi
    say "valgrind: scoring ($S_LO and $S_HI passes of $SCORE_N hands)"
    I_REF="$(per_hand "$SCORE_N" "$S_LO" "$S_HI" "$DRIVER" score "$SCORE_HANDS" @PASSES@)"
    I_OURS="$(per_hand "$SCORE_N" "$S_LO" "$S_HI" "$SCORE_EX" @PASSES@ score)"
    I_OURS_V="$(per_hand "$SCORE_N" "$S_LO" "$S_HI" "$SCORE_EX" @PASSES@ validate)"
    say "valgrind: shanten with useful tiles ($SH_LO and $SH_HI passes of $SHANTEN_N hands; the reference's take a while)"
    I_REF_SH="$(per_hand "$SHANTEN_N" "$SH_LO" "$SH_HI" "$DRIVER" shanten "$SHANTEN_HANDS" @PASSES@)"
    I_OURS_SH="$(per_hand "$SHANTEN_N" "$SH_LO" "$SH_HI" "$SHANTEN_EX" @PASSES@)"
    R_SCORE="$(ratio "$I_REF" "$I_OURS")"
    R_SHANTEN="$(ratio "$I_REF_SH" "$I_OURS_SH")"
    echo
    echo "Instructions a hand (valgrind, load-independent)"
    printf '  %-36s %12s %12s %8s  %s\n' "" reference ours ratio target
    printf '  %-36s %12s %12s %7sx  %s\n' "scoring, score only (calculate_fan)" "$I_REF" "$I_OURS" "$R_SCORE" \
        ">= 8x: $(meets "$R_SCORE" 8)"
    printf '  %-36s %12s %12s %7sx\n' "scoring, validate + score" "$I_REF" "$I_OURS_V" "$(ratio "$I_REF" "$I_OURS_V")"
    printf '  %-36s %12s %12s %7sx  %s\n' "shanten + useful tiles, five shapes" "$I_REF_SH" "$I_OURS_SH" "$R_SHANTEN" \
        ">= 150x: $(meets "$R_SHANTEN" 150)"
fi

# --- wall clock, alternated ---
# criterion_rate OUTPUT ID: the middle throughput estimate of ID, in hands a second.
criterion_rate() {
    awk -v id="$2" '
        $1 == id { found = 1 }
        found && /thrpt:/ {
            sub(/.*thrpt: *\[/, ""); v = $3; u = $4
            m = (u ~ /^G/) ? 1e9 : (u ~ /^M/) ? 1e6 : (u ~ /^K/) ? 1e3 : 1
            printf "%.0f", v * m; exit
        }' <<<"$1"
}
ns_rate() { awk -v ns="$1" 'BEGIN { printf "%.0f", 1e9 / ns }'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if [ "$TIMING" = 1 ]; then
    if [ "$QUICK" = 1 ]; then CRIT=(--warm-up-time 1 --measurement-time 2); else CRIT=(--warm-up-time 2 --measurement-time 5); fi
    say "building our benches"
    cargo bench --quiet --bench score --no-run || die "building benches/score.rs failed"
    cargo bench --quiet -p mcr --bench analyze --no-run || die "building the analyze bench failed"
    # Passes sized for about two seconds of the reference each.
    REF_SCORE_PASSES=$((QUICK ? 100 : 250)) REF_SHANTEN_PASSES=$((QUICK ? 2 : 6))
    rs="" os="" ov="" rsh="" osh=""
    for round in $(seq 1 "$ROUNDS"); do
        say "timing round $round of $ROUNDS (reference, ours, alternated)"
        out="$("$DRIVER" score "$SCORE_HANDS" "$REF_SCORE_PASSES")"
        rs="$rs $(ns_rate "$(field ns_per_hand "$out")")"
        out="$(cargo bench --quiet --bench score -- score/ "${CRIT[@]}" 2>/dev/null)" \
            || die "cargo bench --bench score failed"
        ov="$ov $(criterion_rate "$out" score/public_corpus)"
        os="$os $(criterion_rate "$out" score/score_only)"
        out="$("$DRIVER" shanten "$SHANTEN_HANDS" "$REF_SHANTEN_PASSES")"
        rsh="$rsh $(ns_rate "$(field ns_per_hand "$out")")"
        out="$(cargo bench --quiet -p mcr --bench analyze -- analyze/shanten "${CRIT[@]}" 2>/dev/null)" \
            || die "cargo bench --bench analyze failed"
        osh="$osh $(criterion_rate "$out" analyze/shanten)"
    done
    m_rs="$(median <<<"$rs")" m_os="$(median <<<"$os")" m_ov="$(median <<<"$ov")"
    m_rsh="$(median <<<"$rsh")" m_osh="$(median <<<"$osh")"
    [ -n "$m_os" ] && [ -n "$m_ov" ] && [ -n "$m_osh" ] || die "could not read criterion's throughput"
    echo
    echo "Throughput, hands a second (median of $ROUNDS alternated rounds; swings with machine load)"
    printf '  %-36s %12s %12s %8s\n' "" reference ours ratio
    printf '  %-36s %12s %12s %7sx   rounds: ref%s / ours%s\n' "scoring, score only" "$m_rs" "$m_os" "$(ratio "$m_os" "$m_rs")" "$rs" "$os"
    printf '  %-36s %12s %12s %7sx   rounds: ours%s (score/public_corpus, target >= 4000000)\n' "scoring, validate + score" "$m_rs" "$m_ov" "$(ratio "$m_ov" "$m_rs")" "$ov"
    printf '  %-36s %12s %12s %7sx   rounds: ref%s / ours%s\n' "shanten + useful tiles, five shapes" "$m_rsh" "$m_osh" "$(ratio "$m_osh" "$m_rsh")" "$rsh" "$osh"
fi
