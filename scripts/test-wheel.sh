#!/usr/bin/env bash
# Builds the wheel from the release binary, installs it with pip into a fresh virtual environment
# and lints the corpus with the installed `fcmlint`: its report must be corpus/expected.txt; then
# runs `python -m fcmlint` after `pip install --user`, with decoys where it must not look. Then
# the no-Swift pre-commit hook (fcmlint-py) with the real pre-commit framework, pip taking the
# fcmlint wheel from the one just built. Prints the wheel's size.
#   scripts/test-wheel.sh [BINARY]    (default: the release build's fcmlint)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
binary="${1:-$(swift build -c release --show-bin-path)/fcmlint}"

version="$(sed -nE 's/.*public static let version = "([^"]+)".*/\1/p' Sources/FCMLintCLI/FCMLintCommand.swift)"
grep -q "^version = \"$version\"" pyproject.toml && grep -q "^VERSION = \"$version\"" scripts/pre-commit-shim/fcmlint_hook.py \
  || { echo "wheel test: FAILED: pyproject.toml and scripts/pre-commit-shim/fcmlint_hook.py must say $version (the version in FCMLintCommand.swift)"; exit 1; }

python3 scripts/build-wheel.py --binary "$binary" --out "$work/dist"
wheel="$(ls "$work"/dist/fcmlint-*.whl)"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
[ "$("$work/venv/bin/fcmlint" --version)" = "$version" ] || { echo "wheel test: FAILED: the installed fcmlint is not $version"; exit 1; }
[ "$("$work/venv/bin/python" -m fcmlint --version)" = "$version" ] || { echo "wheel test: FAILED: python -m fcmlint is not $version"; exit 1; }
status=0
(cd "$repo" && "$work/venv/bin/fcmlint" corpus) > "$work/corpus.txt" || status=$?
[ "$status" -eq 1 ] || { echo "wheel test: FAILED: expected exit 1 on the corpus, got $status"; exit 1; }
diff "$work/corpus.txt" corpus/expected.txt || { echo "wheel test: FAILED: the installed fcmlint's corpus report differs from corpus/expected.txt"; exit 1; }
echo "wheel test: pip-installed $(basename "$wheel") lints the corpus as expected: ok"

# `python -m fcmlint` after `pip install --user` runs the binary that install put in the user
# scheme's bin: not one where the interpreter's default scheme puts scripts (the virtual
# environment's bin here), nor one found on the PATH. A decoy fcmlint waits in each.
python3 -m venv --system-site-packages "$work/user-venv"
mkdir -p "$work/decoys"
for decoy in "$work/user-venv/bin/fcmlint" "$work/decoys/fcmlint"; do
  printf '#!/bin/sh\necho "decoy %s"\nexit 3\n' "$decoy" > "$decoy" && chmod +x "$decoy"
done
export PYTHONUSERBASE="$work/user-base"
"$work/user-venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index --user "$wheel"
[ -x "$PYTHONUSERBASE/bin/fcmlint" ] || { echo "wheel test: FAILED: pip install --user put no fcmlint in $PYTHONUSERBASE/bin"; exit 1; }
ran="$(cd "$work" && PATH="$work/decoys:$PATH" "$work/user-venv/bin/python" -m fcmlint --version 2>&1)" \
  || { echo "wheel test: FAILED: python -m fcmlint after pip install --user: $ran"; exit 1; }
[ "$ran" = "$version" ] || { echo "wheel test: FAILED: python -m fcmlint after pip install --user ran something else: $ran"; exit 1; }
unset PYTHONUSERBASE
echo "wheel test: python -m fcmlint after pip install --user runs the binary it installed (decoys left alone): ok"

# The GitHub Action (action.yml) and the documented workflow, against GitHub's schemas
# (SchemaStore's, bundled with check-jsonschema), then the action's steps run as a runner would,
# with the wheel just built standing in for PyPI's.
python3 -m pip install --quiet --disable-pip-version-check check-jsonschema pyyaml >/dev/null 2>&1 || true
if command -v check-jsonschema >/dev/null 2>&1; then
  check-jsonschema --builtin-schema vendor.github-actions action.yml
  check-jsonschema --builtin-schema vendor.github-workflows docs/examples/github-workflow.yml
  python3 - "$repo" <<'PY' || { echo "action test: FAILED: docs/integrations.md must show docs/examples/github-workflow.yml as it is"; exit 1; }
import sys
repo = sys.argv[1]
workflow = open(f"{repo}/docs/examples/github-workflow.yml", encoding="utf-8").read()
sys.exit(0 if "```yaml\n" + workflow + "```" in open(f"{repo}/docs/integrations.md", encoding="utf-8").read() else 1)
PY
else
  echo "action test: schema validation SKIPPED (check-jsonschema could not be installed from PyPI)"
fi
mkdir -p "$work/runner/templates" && cd "$work/runner"
printf '{"message": {"topic": "news", "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Hi"}}}}}\n' > templates/bad.json
: > "$work/github_path" && : > "$work/github_output"
python3 - "$repo/action.yml" "$work/steps" <<'PY'
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]
# The shell steps, numbered in order (a `uses:` step, the build cache, is the runner's to run).
for i, step in enumerate(s for s in steps if "run" in s):
    open(f"{sys.argv[2]}-{i}.sh", "w").write(step["run"])
PY
export GITHUB_ACTION_PATH="$repo" RUNNER_TEMP="$work/runner-temp" GITHUB_PATH="$work/github_path" GITHUB_OUTPUT="$work/github_output"
mkdir -p "$RUNNER_TEMP"
PIP_FIND_LINKS="$work/dist" PIP_NO_INDEX=1 FCMLINT_VERSION="" bash -e "$work/steps-0.sh"
status=0
PATH="$(cat "$GITHUB_PATH"):$PATH" FCMLINT_PATHS="templates" FCMLINT_ARGS="--max-warnings 0" FCMLINT_SARIF="fcmlint.sarif" \
  bash "$work/steps-1.sh" > "$work/action.log" 2>&1 || status=$?
[ "$status" -eq 1 ] || { cat "$work/action.log"; echo "action test: FAILED: expected exit 1, got $status"; exit 1; }
grep -q "^::error file=templates/bad.json,line=1," "$work/action.log" || { cat "$work/action.log"; echo "action test: FAILED: no annotation"; exit 1; }
grep -q '"ruleId":"apns-aps-key"' fcmlint.sarif || { echo "action test: FAILED: no SARIF report"; exit 1; }
grep -q "^sarif=fcmlint.sarif$" "$GITHUB_OUTPUT" || { echo "action test: FAILED: no sarif output"; exit 1; }
echo "action test: action.yml and the workflow validate; the action installs the wheel, annotates and writes SARIF: ok"
# check-urls: true, with the checker CI built standing in for the release's (FCMLINT_URL_CHECK, which
# the install step then neither downloads nor builds); the image's port on 127.0.0.1 is closed.
if [ -n "${FCMLINT_URL_CHECK:-}" ]; then
  mkdir -p images
  printf '{"message": {"topic": "news", "notification": {"title": "Hi", "image": "https://127.0.0.1:9/a.png"}}}\n' > images/sale.json
  : > "$GITHUB_PATH"
  PIP_FIND_LINKS="$work/dist" PIP_NO_INDEX=1 FCMLINT_VERSION="" FCMLINT_CHECK_URLS=true bash -e "$work/steps-0.sh"
  status=0
  PATH="$(cat "$GITHUB_PATH"):$PATH" FCMLINT_PATHS="images" FCMLINT_ARGS="--url-timeout 5" FCMLINT_SARIF="" FCMLINT_CHECK_URLS=true \
    bash "$work/steps-1.sh" > "$work/action-urls.log" 2>&1 || status=$?
  [ "$status" -eq 1 ] || { cat "$work/action-urls.log"; echo "action test: FAILED: check-urls: expected exit 1, got $status"; exit 1; }
  grep -q "^::error file=images/sale.json,line=1,.*title=image-url-unreachable::" "$work/action-urls.log" \
    || { cat "$work/action-urls.log"; echo "action test: FAILED: check-urls: no image-url-unreachable annotation"; exit 1; }
  echo "action test: check-urls: true runs fcmlint --check-urls with the checker: ok"
else
  echo "action test: check-urls SKIPPED (FCMLINT_URL_CHECK names no fcmlint-url-check)"
fi
cd "$repo"

# The no-Swift pre-commit hook, with the wheel just built standing in for PyPI's.
if ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pre-commit >/dev/null 2>&1 || true
fi
if ! command -v pre-commit >/dev/null 2>&1; then
  echo "wheel test: pre-commit hook SKIPPED (pre-commit could not be installed from PyPI)"
  exit 0
fi
export PRE_COMMIT_HOME="$work/cache" PIP_FIND_LINKS="$work/dist"
# No Swift on the PATH while the hooks install and run: they must not need it.
precommit="$(command -v pre-commit)"
PATH="$(tr ':' '\n' <<<"$PATH" | grep -v swift | paste -sd: -)"
! command -v swift >/dev/null 2>&1 || echo "wheel test: note: swift is still on the PATH"
pre-commit() { "$precommit" "$@"; }
cd "$work" && git init -q project && cd project
git config user.email ci@example.invalid && git config user.name ci
printf '{"message": {"topic": "news", "notification": {"title": "Hi"}}}\n' > good.json
printf '{"message": {"topic": "news", "apns": {"payload": {"aps": {"mutable_content": 1, "alert": "Hi"}}}}}\n' > bad.json
git add good.json bad.json
# Without the wheel in its environment, the hook says how to get one (fcmlint is not on PyPI yet).
if pre-commit try-repo "$repo" fcmlint-py --files good.json > "$work/nowheel.log" 2>&1; then
  cat "$work/nowheel.log"; echo "wheel test: FAILED: fcmlint-py passed without the fcmlint wheel"; exit 1
fi
grep -q "the fcmlint wheel is not installed in this hook's environment" "$work/nowheel.log" && grep -q "additional_dependencies" "$work/nowheel.log" \
  || { cat "$work/nowheel.log"; echo "wheel test: FAILED: fcmlint-py without the wheel gave no guidance"; exit 1; }
# As the README says: the wheel file named in additional_dependencies, the hooks at a commit.
# (pre-commit reads the hooks from the commit; uncommitted changes to them are not seen here.)
rev="$(git -C "$repo" rev-parse HEAD)"
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: fcmlint-py
        additional_dependencies: [$wheel]
      - id: fcmlint-fix-py
        additional_dependencies: [$wheel]
YAML
pre-commit run fcmlint-py --files good.json > "$work/good.log" 2>&1 || { cat "$work/good.log"; echo "wheel test: FAILED: fcmlint-py failed a good payload"; exit 1; }
if pre-commit run fcmlint-py --files bad.json > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; echo "wheel test: FAILED: fcmlint-py passed a bad payload"; exit 1
fi
grep -q "apns-aps-key" "$work/bad.log" || { cat "$work/bad.log"; echo "wheel test: FAILED: no apns-aps-key from fcmlint-py"; exit 1; }
# The fix hook rewrites the file and fails the commit so the change can be reviewed.
cp bad.json bad-system.json
pre-commit run fcmlint-fix-py --files bad.json > "$work/fix.log" 2>&1 || true
grep -q '"mutable-content"' bad.json || { cat "$work/fix.log"; echo "wheel test: FAILED: fcmlint-fix-py did not fix the key"; exit 1; }
# The hook that uses the fcmlint on PATH (here the wheel installed above), nothing installed by pre-commit.
if PATH="$work/venv/bin:$PATH" pre-commit try-repo "$repo" fcmlint-system --files bad-system.json > "$work/system.log" 2>&1; then
  cat "$work/system.log"; echo "wheel test: FAILED: fcmlint-system passed a bad payload"; exit 1
fi
grep -q "apns-aps-key" "$work/system.log" || { cat "$work/system.log"; echo "wheel test: FAILED: no apns-aps-key from fcmlint-system"; exit 1; }
echo "wheel test: pre-commit hooks fcmlint-py and fcmlint-fix-py with the wheel in additional_dependencies, guidance without it, fcmlint-system with fcmlint on PATH (no Swift): ok"
