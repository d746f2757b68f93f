#!/usr/bin/env bash
# Tests .pre-commit-hooks.yaml with the real pre-commit framework: in a temporary git repository,
# `pre-commit try-repo` on this repository must fail on a bad payload and pass on a good one, and
# files named like options must be linted as files.
# Installs pre-commit from PyPI when it is missing; skips, saying why, only where it cannot.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

if ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pre-commit >/dev/null 2>&1 || true
fi
if ! command -v pre-commit >/dev/null 2>&1 && ! python3 -m pre_commit --version >/dev/null 2>&1; then
  echo "pre-commit test: SKIPPED (pre-commit could not be installed from PyPI)"
  exit 0
fi
precommit() { if command -v pre-commit >/dev/null 2>&1; then pre-commit "$@"; else python3 -m pre_commit "$@"; fi; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
cd "$work"
git init -q project && cd project
git config user.email ci@example.invalid && git config user.name ci
printf '{"message": {"topic": "news", "notification": {"title": "Hi"}}}\n' > good.json
printf '{"message": {"topic": "news", "notification": {"title": "Hi",}}}\n' > bad.json
git add good.json bad.json

echo "pre-commit test: building the hook (swift build -c release inside pre-commit)..."
if precommit try-repo "$repo" fcmlint --files good.json > "$work/good.log" 2>&1; then
  echo "pre-commit test: good payload passes"
else
  cat "$work/good.log"; echo "pre-commit test: FAILED: the good payload did not pass"; exit 1
fi
if precommit try-repo "$repo" fcmlint --files bad.json > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; echo "pre-commit test: FAILED: the bad payload passed"; exit 1
fi
grep -q "json-syntax" "$work/bad.log" || { cat "$work/bad.log"; echo "pre-commit test: FAILED: no json-syntax diagnostic"; exit 1; }
echo "pre-commit test: bad payload fails with json-syntax: ok"

# An app's repository, as users have them (issue 14): ordinary JSON files of every common tool,
# templates with placeholders in several syntaxes, and a folder of fragments whose sender adds
# the token. Its first commit must pass; a template with one real mistake must fail it.
cd "$work"
git init -q app && cd app
git config user.email ci@example.invalid && git config user.name ci
mkdir -p .vscode templates fragments src
printf '{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}, "dependencies": {"firebase-admin": "^12.0.0"}}\n' > package.json
printf '{"name": "app", "lockfileVersion": 3, "requires": true, "packages": {}}\n' > package-lock.json
printf '{\n  // strict mode\n  "compilerOptions": {"strict": true, "target": "es2022",},\n  "include": ["src"],\n}\n' > tsconfig.json
printf '{"hosting": {"public": "dist"}, "functions": {"source": "functions"}}\n' > firebase.json
printf '{\n  "editor.formatOnSave": true, // on save\n  "files.exclude": {"**/.git": true},\n}\n' > .vscode/settings.json
printf '{"name": "acme/app", "require": {"php": ">=8.1"}}\n' > composer.json
# The sender adds the target to every fragment.
printf 'fragment: true\n' > .fcmlint.yml
cat > templates/order-shipped.mustache.json <<'JSON'
{
  "message": {
    "token": "{{deviceToken}}",
    "notification": {
      "title": "Your order {{orderId}} has shipped",
      "image": "https://cdn.example.com/orders/{{orderId}}/map.png"
    },
    "android": {"ttl": "{{ttl}}", "notification": {"color": "{{brandColor}}", "image": "https://cdn.example.com/orders/{{orderId}}/map.png"}},
    "apns": {
      "headers": {"apns-priority": "{{apnsPriority}}"},
      "payload": {"aps": {"mutable-content": 1, "badge": {{badge}}}},
      "fcm_options": {"image": "https://cdn.example.com/orders/{{orderId}}/map.png"}
    }
  }
}
JSON
cat > templates/sale.gotmpl.json <<'JSON'
{
  "message": {
    "topic": "{{.Topic}}",
    "notification": {"title": "{{.Title}}", "body": "{{ .Body }}"},
    "android": {"priority": "{{.Priority}}"}
  }
}
JSON
cat > templates/news.jinja.json <<'JSON'
{
  "message": {
    "condition": "'{{ region }}' in topics && 'news' in topics",
    "notification": {"title": "{{ headline }}"},
    "webpush": {"headers": {"Urgency": "{{ urgency }}", "TTL": "${TTL_SECONDS}"}}
  }
}
JSON
printf '{"notification": {"title": "Sale", "body": "Today only"}, "android": {"priority": "high"}}\n' > fragments/sale.json
printf '{"data": {"kind": "sync"}, "apns": {"payload": {"aps": {"content-available": 1}}, "headers": {"apns-priority": "5", "apns-push-type": "background"}}}\n' > fragments/sync.json
git add -A

echo "pre-commit test: an app's repository (package.json, tsconfig.json, templates, fragments)..."
if precommit try-repo "$repo" fcmlint --all-files > "$work/app.log" 2>&1; then
  echo "pre-commit test: the app's first commit passes"
else
  cat "$work/app.log"; echo "pre-commit test: FAILED: the app's first commit did not pass"; exit 1
fi
# One real mistake in a template's literal part: Apple's key misspelled.
sed 's/"mutable-content"/"mutable_content"/' templates/order-shipped.mustache.json > templates/broken.json
git add templates/broken.json
if precommit try-repo "$repo" fcmlint --files templates/broken.json > "$work/app-bad.log" 2>&1; then
  cat "$work/app-bad.log"; echo "pre-commit test: FAILED: the template with a mistake passed"; exit 1
fi
grep -q "apns-aps-key" "$work/app-bad.log" || { cat "$work/app-bad.log"; echo "pre-commit test: FAILED: no apns-aps-key diagnostic"; exit 1; }
echo "pre-commit test: the template with a mistake fails with apns-aps-key: ok"

# Documentation pages (issue 19): a README whose samples are fine passes, one with a broken sample
# fails at the page's own line.
cat > README.md <<'MD'
# App

```json
{"message": {"topic": "news", "notification": {"title": "Hi"}}}
```

```sh
npm test
```
MD
printf '# Runbook\n\n```json\n{"message": {"topic": "news",}}\n```\n' > RUNBOOK.md
git add README.md RUNBOOK.md
if precommit try-repo "$repo" fcmlint-docs --files README.md > "$work/docs.log" 2>&1; then
  echo "pre-commit test: a README with good samples passes"
else
  cat "$work/docs.log"; echo "pre-commit test: FAILED: the README with good samples did not pass"; exit 1
fi
if precommit try-repo "$repo" fcmlint-docs --files RUNBOOK.md > "$work/docs-bad.log" 2>&1; then
  cat "$work/docs-bad.log"; echo "pre-commit test: FAILED: the page with a broken sample passed"; exit 1
fi
grep -q "RUNBOOK.md:4:29: error: trailing comma" "$work/docs-bad.log" || { cat "$work/docs-bad.log"; echo "pre-commit test: FAILED: no json-syntax at the page's line"; exit 1; }
echo "pre-commit test: a page with a broken sample fails at its own line: ok"

# Files named like options (issue 27): pre-commit passes staged names after the hook's args, so
# without the hooks' `--` these would overwrite package.json with a baseline, write the report over
# NOTES.md, or turn the lint hook into a fixer. Each must be linted as a file, and nothing written.
cd "$work"
git init -q names && cd names
git config user.email ci@example.invalid && git config user.name ci
printf '{"name": "app", "version": "1.0.0"}\n' > package.json
printf '# Notes\n' > NOTES.md
printf '{"message": {"topic": "news", "notification": {"title": "Hi",}}}\n' > ./--write-baseline=package.json
printf '{"message": {"topic": "news", "notification": {"title": "Hi",}}}\n' > ./--fix.json
printf '# Page\n\n```json\n{"message": {"topic": "news",}}\n```\n' > ./--output=NOTES.md
git add -- package.json NOTES.md --write-baseline=package.json --fix.json --output=NOTES.md
cp package.json "$work/package.json.before"; cp NOTES.md "$work/NOTES.md.before"; cp -- --fix.json "$work/fix.json.before"
unchanged() {
  cmp -s package.json "$work/package.json.before" && cmp -s NOTES.md "$work/NOTES.md.before" && cmp -s -- --fix.json "$work/fix.json.before"
}
if precommit try-repo "$repo" fcmlint --all-files > "$work/names.log" 2>&1; then
  cat "$work/names.log"; echo "pre-commit test: FAILED: files named like options passed"; exit 1
fi
unchanged || { cat "$work/names.log"; git diff; echo "pre-commit test: FAILED: a file named like an option wrote a file"; exit 1; }
grep -q -- "--write-baseline=package.json:1:61: error: trailing comma" "$work/names.log" \
  && grep -q -- "--fix.json:1:61: error: trailing comma" "$work/names.log" \
  || { cat "$work/names.log"; echo "pre-commit test: FAILED: the files named like options were not linted as files"; exit 1; }
echo "pre-commit test: files named --write-baseline=package.json and --fix.json are linted as files, nothing written: ok"
if precommit try-repo "$repo" fcmlint-docs --all-files > "$work/names-docs.log" 2>&1; then
  cat "$work/names-docs.log"; echo "pre-commit test: FAILED: a page named like an option passed"; exit 1
fi
unchanged || { cat "$work/names-docs.log"; git diff; echo "pre-commit test: FAILED: a page named like an option wrote a file"; exit 1; }
grep -q -- "--output=NOTES.md:4:29: error: trailing comma" "$work/names-docs.log" \
  || { cat "$work/names-docs.log"; echo "pre-commit test: FAILED: the page named --output=NOTES.md was not linted as a page"; exit 1; }
echo "pre-commit test: a page named --output=NOTES.md is linted as a page, NOTES.md unchanged: ok"
