#!/usr/bin/env bash
# Install what the end-to-end browser tests (tests/test_browser_*.py) need: Debian's chromium.
# Playwright drives it from /usr/bin/chromium (no `playwright install`). Idempotent: when chromium is
# already there this only prints its version.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
