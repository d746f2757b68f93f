#!/usr/bin/env bash
# What one document costs as the rule pack grows: callgrind's instructions per document with the
# built-in pack, with half of it turned off, and with it doubled (every rule file copied under a
# new id, through --rules). A document's cost should follow its parts and the checks that apply
# there, not the number of rules: roughly flat across the three, the doubled pack's copies
# sharing the checks they repeat. A last row turns every rule but json-syntax off: reading,
# parsing and walking a document alone, the floor under the rules.
#
# Usage: scripts/rules-scaling.sh [N]     N generated send requests (default 200)
# Environment: FCMLINT=/path/to/fcmlint uses that binary instead of building one;
#              FCMLINT_SCRATCH=DIR is the build's --scratch-path (default .build).
#
# Per document = (instructions for N files - instructions for the first file alone) / (N - 1),
# so what a start costs (the pack, the user rules read from YAML) cancels out. Each run is
# `fcmlint --jobs 1 --format json`, in a folder of its own with the config it needs. Needs
# valgrind (callgrind) and binutils (objcopy: valgrind cannot read this toolchain's DWARF 5, so
# the binary is run without its debug information).
set -euo pipefail

N=${1:-200}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fcmlint-rules-scaling.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
log() { echo "rules-scaling.sh: $*" >&2; }
command -v valgrind > /dev/null || { log "needs valgrind"; exit 2; }

if [[ -n ${FCMLINT:-} ]]; then
  BIN=$FCMLINT
else
  SCRATCH=${FCMLINT_SCRATCH:-.build}
  log "building fcmlint (release, --scratch-path $SCRATCH)"
  (cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" >&2)
  BIN=$(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/fcmlint
fi
objcopy --strip-debug "$BIN" "$WORK/fcmlint"

# The documents: N valid requests, and the first of them alone.
python3 "$ROOT/scripts/generate-requests.py" --seed 20251121 "$N" "$WORK/set" > /dev/null 2>&1
mkdir -p "$WORK/docs" "$WORK/one"
find "$WORK/set" -name '*.json' | sort | xargs cp -t "$WORK/docs"
cp "$(find "$WORK/docs" -name '*.json' | sort | head -1)" "$WORK/one/"

# The packs: each a folder with its .fcmlint.yml (and rule copies).
IDS=$(find "$ROOT/rules" -name '*.yml' ! -name aliases.yml -exec sed -n 's/^id: *//p' {} + | sort)
COUNT=$(echo "$IDS" | wc -l)
mkdir -p "$WORK/full" "$WORK/half" "$WORK/double/copies" "$WORK/none"
echo "root: true" > "$WORK/full/.fcmlint.yml"
{
  echo "root: true"
  echo "rules:"
  echo "$IDS" | awk 'NR % 2 == 0 { print "  " $0 ": off" }'
} > "$WORK/half/.fcmlint.yml"
echo "root: true" > "$WORK/double/.fcmlint.yml"
{
  echo "root: true"
  echo "rules:"
  echo "$IDS" | awk '$0 != "json-syntax" { print "  " $0 ": off" }'
} > "$WORK/none/.fcmlint.yml"
# Rules that fcmlint reports itself (`reportedByFcmlint`: elided-sample, unused-suppression) have
# no checks to copy and refuse another id, so the doubled pack repeats every other rule.
COPIED=0
for file in $(find "$ROOT/rules" -name '*.yml' ! -name aliases.yml | sort); do
  grep -q 'function: *reportedByFcmlint' "$file" && continue
  sed -E 's/^id: (.*)$/id: \1-copy/' "$file" > "$WORK/double/copies/$(basename "$file")"
  COPIED=$((COPIED + 1))
done

count() { # count PACK TARGET EXTRA...: callgrind's instruction count of one run
  local pack=$1 target=$2
  shift 2
  (cd "$WORK/$pack" && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WORK/fcmlint" --jobs 1 --format json "$@" "$target" \
    > "$WORK/out.json" 2> "$WORK/valgrind.txt") || true
  python3 - "$WORK/out.json" <<'EOF' || { log "the run failed (see $WORK/valgrind.txt)"; cat "$WORK/valgrind.txt" >&2; exit 1; }
import json, sys
report = json.load(open(sys.argv[1]))
if report["diagnostics"]:
    sys.exit("rules-scaling.sh: diagnostics in the generated set: %s" % report["diagnostics"][:3])
EOF
  sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$WORK/valgrind.txt"
}

printf '| pack | rules | instructions, %d files | one file | per document |\n|---|---:|---:|---:|---:|\n' "$N"
for pack in full half double none; do
  extra=()
  rules=$COUNT
  [[ $pack == half ]] && rules=$(( COUNT - COUNT / 2 ))
  [[ $pack == none ]] && rules=1
  if [[ $pack == double ]]; then extra=(--rules copies); rules=$(( COUNT + COPIED )); fi
  all=$(count $pack "$WORK/docs" "${extra[@]}")
  one=$(count $pack "$WORK/one" "${extra[@]}")
  per=$(( (all - one) / (N - 1) ))
  printf '| %s | %d | %s | %s | %s |\n' "$pack" "$rules" \
    "$(printf "%'.0f" "$all" 2> /dev/null || echo "$all")" "$(printf "%'.0f" "$one" 2> /dev/null || echo "$one")" "$per"
done
echo
echo "fcmlint $(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo unknown), $(date -u '+%Y-%m-%d %H:%M UTC'), $N documents of scripts/generate-requests.py --seed 20251121"
