#!/usr/bin/env bash
# Brings the tree to `npm run lint`: ESLint's automatic fixes, then the formatter over everything,
# then a count of what is left to fix by hand. Run it on merged main, when nobody else is editing
# (it touches most files), and commit the result as one formatting commit.
set -euo pipefail
cd "$(dirname "$0")/.."
npx eslint . --fix || true # what --fix cannot repair is counted below
npx prettier --write . >/dev/null
git diff --shortstat
npx tsx scripts/lint-report.ts
