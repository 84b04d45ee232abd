#!/usr/bin/env bash
# Build the release artefacts and prove they work before a tag is made (docs/releasing.md):
#   1. the version in src/writing_rules/__init__.py and CHANGELOG.md's newest heading agree;
#   2. `python -m build` makes an sdist and a wheel in dist/ that carry that version;
#   3. `twine check` accepts both (metadata and README render as PyPI would);
#   4. the wheel installs into a fresh virtual environment and scans the examples there,
#      from outside the checkout, so nothing is imported from src/ by accident.
# Usage: scripts/release-check.sh [--allow-unreleased]
#   --allow-unreleased  accept a CHANGELOG heading that still says "Unreleased" (a dry run
#                       before the release date is set; the real release must not use it).
# Needs python3 with venv; `build` and `twine` are installed into a throw-away environment.
set -euo pipefail
cd "$(dirname "$0")/.."

allow_unreleased=0
if [[ "${1:-}" == "--allow-unreleased" ]]; then
    allow_unreleased=1
fi

python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

version=$("$python" -c 'import ast, sys
tree = ast.parse(open("src/writing_rules/__init__.py", encoding="utf-8").read())
for node in tree.body:
    if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__version__" for t in node.targets):
        print(node.value.value)
        break
else:
    sys.exit("no __version__ in src/writing_rules/__init__.py")')
heading=$(grep -m1 -E '^## \[[0-9]' CHANGELOG.md || true)
echo "release-check: version $version; CHANGELOG: ${heading:-no release heading}"
if [[ "$heading" != "## [$version]"* ]]; then
    echo "release-check: CHANGELOG.md's newest heading does not name $version" >&2
    exit 1
fi
if [[ "$heading" == *Unreleased* && $allow_unreleased -eq 0 ]]; then
    echo "release-check: CHANGELOG.md still says 'Unreleased' for $version: put the release date" \
        "(YYYY-MM-DD) in its heading and commit, or pass --allow-unreleased for a dry run" >&2
    exit 1
fi

# The build tools live in their own environment: the release does not depend on a developer's venv.
"$python" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --upgrade pip
"$work/tools/bin/python" -m pip install --quiet build twine

rm -rf dist
"$work/tools/bin/python" -m build --outdir dist .
sdist="dist/writing_rules-$version.tar.gz"
wheel="dist/writing_rules-$version-py3-none-any.whl"
for artefact in "$sdist" "$wheel"; do
    if [[ ! -f "$artefact" ]]; then
        echo "release-check: expected $artefact; dist/ holds: $(ls dist)" >&2
        exit 1
    fi
done
"$work/tools/bin/twine" check --strict "$sdist" "$wheel"

# A fresh environment with nothing but the wheel (and what it declares), run from an empty folder.
"$python" -m venv "$work/try"
"$work/try/bin/python" -m pip install --quiet "$wheel"
cp examples/getting-started.md "$work/page.md"
(
    cd "$work"
    installed=$("$work/try/bin/python" -c 'import importlib.metadata as m, writing_rules as w
print(m.version("writing-rules"), w.__version__)')
    if [[ "$installed" != "$version $version" ]]; then
        echo "release-check: the installed wheel reports '$installed', expected '$version $version'" >&2
        exit 1
    fi
    # Signals are expected in the example (exit 1); 2 would be a broken install.
    status=0
    "$work/try/bin/writing-rules" scan --no-cache page.md >scan.txt 2>scan.err || status=$?
    if [[ $status -ne 1 ]] || ! grep -q 'page.md:' scan.txt; then
        echo "release-check: scanning with the installed wheel failed (exit $status):" >&2
        cat scan.txt scan.err >&2
        exit 1
    fi
    echo "release-check: the wheel scans in a fresh venv: $(wc -l <scan.txt) signals on the example"
)
echo "release-check: OK: $sdist and $wheel are ready; tag with: git tag -a v$version -m 'writing-rules $version'"
