# Sourced by test.sh and demo.sh: install unob (editable, with the extras in
# $1) into ./.venv.  The install compiles the summarizer's hot modules with
# mypyc (about a minute; see src/unob/native.py), so it is skipped while
# nothing it depends on has changed since the last one.
install_unob() {
    local extras=$1 stamp=.venv/.unob-install want
    if [ ! -x .venv/bin/python ]; then
        "${PYTHON:-python3}" -m venv .venv
    fi
    # The compiled modules' sources: the names listed in unob.native.COMPILED.
    local compiled
    compiled=$(sed -n 's/^    "unob\.\([a-z_.]*\)",$/\1/p' src/unob/native.py | tr . / | sed 's|.*|src/unob/&.py|')
    want="$extras $(cat pyproject.toml setup.py src/unob/native.py $compiled src/unob/*/*.c | sha256sum)"
    # Also after a checkout that left a source newer than its compiled module.
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ "$(UNOB_PURE_PYTHON= .venv/bin/python -W ignore \
        -c 'from unob.native import compiled_state as s; print(s())' 2>/dev/null)" = stale ]; then
        .venv/bin/python -m pip install -q --disable-pip-version-check -U pip
        .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"
        echo "$want" >"$stamp"
    fi
}
