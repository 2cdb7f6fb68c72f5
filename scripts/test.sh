#!/usr/bin/env bash
# Install unob with its development tools into ./.venv, then lint, type-check
# and run the whole test suite.  This is the README's test command and what
# .ci/run runs on a clean clone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_install.sh
install_unob "[dev]"
# "compiled", or "absent" when there was no C compiler (unob then runs its sources).
.venv/bin/python -c "from unob.native import compiled_state as s; print('== derivation:', s())"
echo "== ruff"
.venv/bin/ruff check src tests bench scripts setup.py
.venv/bin/ruff format --check src tests bench scripts setup.py
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 "$@"
