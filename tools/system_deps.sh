#!/usr/bin/env bash
# Debian/Ubuntu system libraries Qt needs to start (offscreen included). Installs what is
# missing when run as root; otherwise prints the exact apt command.
set -euo pipefail
packages=(libegl1 libgl1 libxkbcommon0 libfontconfig1 libglib2.0-0 libdbus-1-3)
command -v dpkg-query >/dev/null 2>&1 || { echo "system_deps: not a Debian-based system; skipping"; exit 0; }
missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == *"install ok installed"* ]] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
else
  echo "Missing system packages. Install them with:"
  echo "  sudo apt-get install -y ${missing[*]}"
  exit 1
fi
