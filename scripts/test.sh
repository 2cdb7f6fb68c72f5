#!/usr/bin/env bash
# Install unob with its development tools into ./.venv, then lint, type-check
# and run the whole test suite.  This is the README's test command and what
# .ci/run runs on a clean clone.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -U pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
echo "== ruff"
.venv/bin/ruff check src tests bench scripts
.venv/bin/ruff format --check src tests bench scripts
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 "$@"
