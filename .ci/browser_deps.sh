#!/usr/bin/env bash
# Install Debian's chromium + chromium-driver for the insight_app browser tests (tests marked `browser`).
# Idempotent: does nothing when both binaries are already present. Needs root and access to Debian's mirror.
set -euo pipefail

if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
    echo "browser_deps: chromium and chromedriver already installed"
    exit 0
fi

if [[ "$(id -u)" != "0" ]]; then
    SUDO="sudo"
else
    SUDO=""
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-dejavu-core

/usr/bin/chromium --version
/usr/bin/chromedriver --version
