#!/usr/bin/env bash
# The Python package mahjong-mcr (crates/mcr-py), from the package registries only:
#   - its own cargo workspace: rustfmt and clippy (-D warnings);
#   - `maturin build --release` of the abi3 wheel, installed into a fresh venv with the
#     pinned test tools (crates/mcr-py/requirements-ci.txt, pymahjonggb 1.4.0 among them,
#     built from its sdist with g++);
#   - pytest (the corpora, the table, the compat differential test, the command line's bytes
#     through MAHJONG_REFEREE_BIN), `mypy --strict` on the tests, the bench, the examples and
#     the package, and `python -m mypy.stubtest` of the extension module against its stub;
#   - `pip install ./crates/mcr-py` as the README says, then examples/random_table.py (1,000
#     random hands replayed legal) and the speed figures of docs/performance.md.
# Env: MAHJONG_REFEREE_BIN (the release binary; built when absent), PYTHON_CI_PYTHON.
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n=== python: %s ===\n' "$*"; }
die() { printf 'python: FAILED: %s\n' "$*" >&2; exit 1; }

CRATE=crates/mcr-py
VENV=.venv-python
DIST=target/python-dist
PYTHON=${PYTHON_CI_PYTHON:-python3}
command -v "$PYTHON" >/dev/null || die "no $PYTHON; set PYTHON_CI_PYTHON"

section "fresh venv with $CRATE/requirements-ci.txt"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
printf '*\n' > "$VENV/.gitignore"
PY=$PWD/$VENV/bin/python
"$PY" -m pip install --quiet --disable-pip-version-check -r "$CRATE/requirements-ci.txt"
"$PY" --version
"$PY" -m pip list --disable-pip-version-check --format=freeze 2>/dev/null \
  | grep -Ei '^(maturin|pytest|mypy|pymahjonggb)=='

section "rustfmt and clippy of the binding (its own workspace)"
(cd "$CRATE" && cargo fmt --check && PYO3_PYTHON=$PY cargo clippy --locked --all-targets -- -D warnings)

section "maturin build --release (abi3 wheel)"
rm -rf "$DIST"
(cd "$CRATE" && PATH=$PWD/../../$VENV/bin:$PATH "$PY" -m maturin build --release --locked -o "$PWD/../../$DIST")
WHEEL=$(ls "$DIST"/mahjong_mcr-*.whl)
echo "$WHEEL ($(du -h "$WHEEL" | cut -f1))"
"$PY" -m pip install --quiet --disable-pip-version-check "$WHEEL"

section "pytest"
if [[ -z ${MAHJONG_REFEREE_BIN:-} ]]; then
  cargo build --release --locked --bin mahjong-referee
  MAHJONG_REFEREE_BIN=$PWD/target/release/mahjong-referee
fi
export MAHJONG_REFEREE_BIN
# From a folder outside the source tree: the installed wheel is what is tested.
(cd "$CRATE/tests" && "$PY" -m pytest -q -p no:cacheprovider .)

section "mypy --strict and stubtest"
(cd "$CRATE" && "$PY" -m mypy --strict --no-incremental tests bench python/mahjong_mcr ../../examples/random_table.py)
(cd /tmp && "$PY" -m mypy.stubtest mahjong_mcr)

section "pip install ./$CRATE (the README's line)"
"$PY" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "./$CRATE"
"$PY" -c 'import mahjong_mcr; print("installed from source:", mahjong_mcr.score("[123m][789m][123p]55s89p7p"))'

section "examples/random_table.py: 1,000 random hands, each log replayed legal"
"$PY" examples/random_table.py --hands 1000

section "speed beside PyMahjongGB (docs/performance.md, From Python)"
"$PY" "$CRATE/bench/speed.py" --rounds 3 --cli "$MAHJONG_REFEREE_BIN"
