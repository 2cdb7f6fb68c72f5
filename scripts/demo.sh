#!/usr/bin/env bash
# Install unob into ./.venv and run the main job end to end on a demo site
# that unob serves itself on 127.0.0.1: crawl -> summarize -> export -> search.
# Everything lands in ./demo-output (SQLite databases and the exports).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_install.sh
install_unob ""
exec .venv/bin/unob demo --output demo-output "$@"
