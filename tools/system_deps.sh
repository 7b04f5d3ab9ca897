#!/usr/bin/env bash
# Debian/Ubuntu system packages the tests need: the libraries Qt needs to start (offscreen
# included), and the Vulkan loader plus Mesa's lavapipe (version 25, from bookworm-backports on
# Debian 12) that the GPU tests run the WebGPU plugin on. Installs what is missing when run as
# root; otherwise prints the exact apt commands.
set -euo pipefail
qt_packages=(libegl1 libgl1 libxkbcommon0 libfontconfig1 libglib2.0-0 libdbus-1-3)
# util-linux gives `unshare` and `mount`: the GPU tests fake /sys/class/drm in a private mount
# namespace so that ONNX Runtime lists a GPU on a machine without one.
vulkan_packages=(libvulkan1 util-linux)
mesa_min_major=25
backports_suite=bookworm-backports
backports_file=/etc/apt/sources.list.d/paperlens-${backports_suite}.sources

command -v dpkg-query >/dev/null 2>&1 || { echo "system_deps: not a Debian-based system; skipping"; exit 0; }

installed_version() {
  local status
  status=$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null || true)
  [[ "$status" == "install ok installed "* ]] && echo "${status##* }"
  return 0
}

missing=()
qt_missing=0
for pkg in "${qt_packages[@]}"; do
  [ -n "$(installed_version "$pkg")" ] || { missing+=("$pkg"); qt_missing=1; }
done
for pkg in "${vulkan_packages[@]}"; do
  [ -n "$(installed_version "$pkg")" ] || missing+=("$pkg")
done

# lavapipe before 25 lacks what Dawn needs for the WebGPU plugin; bookworm itself ships 22.3.
need_mesa=0
mesa_version=$(installed_version mesa-vulkan-drivers)
mesa_version=${mesa_version#*:}  # drop an epoch ("1:25.0.7-2")
if [ -z "$mesa_version" ] || [ "${mesa_version%%.*}" -lt "$mesa_min_major" ]; then
  need_mesa=1
fi

[ ${#missing[@]} -eq 0 ] && [ $need_mesa -eq 0 ] && exit 0

codename=$( . /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}" )
mesa_cmd="apt-get install -y mesa-vulkan-drivers"
if [ "$codename" = "bookworm" ]; then
  mesa_cmd="apt-get install -y -t ${backports_suite} mesa-vulkan-drivers"
fi

has_backports() {
  grep -rqs "${backports_suite}" /etc/apt/sources.list /etc/apt/sources.list.d/
}

if [ "$(id -u)" -eq 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if [ $need_mesa -eq 1 ] && [ "$codename" = "bookworm" ] && ! has_backports; then
    cat >"$backports_file" <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: ${backports_suite}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  apt-get update -qq
  [ ${#missing[@]} -eq 0 ] || apt-get install -y -qq "${missing[@]}"
  [ $need_mesa -eq 0 ] || $mesa_cmd -qq
else
  echo "Missing system packages. Install them with:"
  if [ $need_mesa -eq 1 ] && [ "$codename" = "bookworm" ] && ! has_backports; then
    echo "  echo 'deb http://deb.debian.org/debian ${backports_suite} main' | sudo tee /etc/apt/sources.list.d/${backports_suite}.list"
  fi
  echo "  sudo apt-get update"
  [ ${#missing[@]} -eq 0 ] || echo "  sudo apt-get install -y ${missing[*]}"
  [ $need_mesa -eq 0 ] || echo "  sudo $mesa_cmd"
  # Without the Vulkan part only the GPU tests are skipped; without Qt's libraries nothing runs.
  if [ $qt_missing -eq 0 ]; then
    echo "(until then the GPU tests are skipped)"
    exit 0
  fi
  exit 1
fi
