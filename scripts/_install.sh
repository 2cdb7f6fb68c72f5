# Sourced by test.sh and demo.sh: install unob (editable, with the extras in
# $1) into ./.venv.  The install compiles the summarizer's hot modules with
# mypyc (about a minute; see src/unob/native.py), so it is skipped while
# nothing it depends on has changed since the last one.
install_unob() {
    local extras=$1 stamp=.venv/.unob-install want
    if [ ! -x .venv/bin/python ]; then
        "${PYTHON:-python3}" -m venv .venv
    fi
    want="$extras $(cat pyproject.toml setup.py src/unob/native.py src/unob/summarizer/*.py | sha256sum)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        .venv/bin/python -m pip install -q --disable-pip-version-check -U pip
        .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"
        echo "$want" >"$stamp"
    fi
}
