#!/usr/bin/env bash
# Debian/Ubuntu system packages, installed when missing if run as root, otherwise the exact apt
# commands are printed.
#
#   tools/system_deps.sh app    what `make run` needs: the libraries Qt needs to open a window
#                               through X11 (xcb) and Wayland (gui/platform_libraries.py names
#                               them; the .deb depends on the same list)
#   tools/system_deps.sh        what `make test` needs: the same, Xvfb and xauth (the real app
#                               is started on a virtual X server), and the Vulkan loader plus
#                               Mesa's lavapipe (version 25, from bookworm-backports on Debian
#                               12) that the GPU tests run the WebGPU plugin on
set -euo pipefail
mode=${1:-test}
case "$mode" in app|test) ;; *) echo "usage: $0 [app|test]" >&2; exit 2 ;; esac
repo=$(cd "$(dirname "$0")/.." && pwd)

command -v dpkg-query >/dev/null 2>&1 || { echo "system_deps: not a Debian-based system; skipping"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "system_deps: python3 is needed (apt-get install python3)"; exit 1; }

library_packages() {  # the Debian packages of gui/platform_libraries.py's groups
  (cd "$repo" && python3 -m gui.platform_libraries "$@")
}
read -r -d '' -a window_packages < <(library_packages gui xcb) || true
read -r -d '' -a wayland_packages < <(library_packages wayland) || true
[ ${#window_packages[@]} -gt 0 ] && [ ${#wayland_packages[@]} -gt 0 ] \
  || { echo "system_deps: could not read the package lists from gui/platform_libraries.py"; exit 1; }
required_packages=("${window_packages[@]}")
optional_packages=()
# Tesseract's script detection and line recogniser data for the scripts PP-OCR cannot read
# (engine/ocr/scripts.py names the same packages; without one, its script's lines are reported
# as unread, with this install command).
script_packages=(tesseract-ocr-osd tesseract-ocr-script-cyrl tesseract-ocr-script-grek
                 tesseract-ocr-script-arab tesseract-ocr-script-hebr tesseract-ocr-script-deva
                 tesseract-ocr-tha tesseract-ocr-script-taml tesseract-ocr-kor
                 tesseract-ocr-script-viet tesseract-ocr-tur)
if [ "$mode" = test ]; then
  required_packages+=("${wayland_packages[@]}" xvfb xauth)
  # util-linux gives `unshare` and `mount`: the GPU tests fake /sys/class/drm, and a window
  # test hides one library, in a private mount namespace.
  optional_packages+=(libvulkan1 util-linux)
  # poppler-utils: pdftotext reads the searchable PDF back. LibreOffice Writer and Math
  # (headless; Math draws Word equations) convert the exported .docx in a test: the -nogui
  # builds, unless the desktop ones are installed already (the two cannot sit side by side).
  required_packages+=(poppler-utils)
  # Handwriting and print fonts the handwriting tests draw their pages with
  # (tools/handwriting/fonts.py; the tests are skipped without them).
  optional_packages+=(fonts-dkg-handwriting fonts-breip fonts-bwht fonts-dancingscript
                      fonts-ecolier-court fonts-femkeklaver fonts-humor-sans fonts-kaushanscript
                      fonts-kristi fonts-rufscript fonts-lobster fonts-levien-typoscript
                      fonts-urw-base35 fonts-liberation fonts-dejavu-core fonts-comic-neue)
  # Noto CJK fonts and the Chinese manual pages (their prose): the generated Chinese pages of
  # tools/structure that tests/engine/test_structure_cjk.py reads.
  required_packages+=(fonts-noto-cjk manpages-zh)
  # The multi-script set (tools/scripts) and its tests: Noto fonts for every script, and
  # Tesseract's language data for the comparison it runs (told each page's language).
  required_packages+=("${script_packages[@]}" fonts-noto-core)
  optional_packages+=(tesseract-ocr-rus tesseract-ocr-bul tesseract-ocr-ell tesseract-ocr-ara
                      tesseract-ocr-fas tesseract-ocr-heb tesseract-ocr-hin tesseract-ocr-tha
                      tesseract-ocr-tam tesseract-ocr-kor tesseract-ocr-vie tesseract-ocr-deu
                      tesseract-ocr-pol tesseract-ocr-tur tesseract-ocr-jpn tesseract-ocr-chi-tra
                      tesseract-ocr-eng)
  # Headless Chromium draws the screenshot set (tools/uishots: `python -m tools.uishots all`);
  # the tests draw their screenshots with PIL and never need it. Tesseract is measured beside
  # Paperlens on that set.
  optional_packages+=(chromium tesseract-ocr)
  # Tesseract's vertical Chinese data, for its row beside Paperlens on tools/structure's
  # vertical pages (the tests do not use it).
  optional_packages+=(tesseract-ocr-chi-sim-vert)
  # Calc and Impress save the Office set's workbooks and presentations again and lay them out
  # as PDFs (tools/officeset); the tests write their Office files without LibreOffice.
  if [ -n "$(dpkg-query -W -f='${Status}' libreoffice-writer 2>/dev/null | grep 'ok installed')" ]; then
    optional_packages+=(libreoffice-math libreoffice-calc libreoffice-impress)
  else
    optional_packages+=(libreoffice-writer-nogui libreoffice-math-nogui libreoffice-calc-nogui
                        libreoffice-impress-nogui)
  fi
else
  # Without these the app still opens its window through X11 (XWayland on a Wayland desktop).
  optional_packages+=("${wayland_packages[@]}")
  # Without these, lines in those scripts are reported as unread (the page is partial).
  optional_packages+=("${script_packages[@]}")
fi
mesa_min_major=25
backports_suite=bookworm-backports
backports_file=/etc/apt/sources.list.d/paperlens-${backports_suite}.sources

installed_version() {
  local status
  status=$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null || true)
  [[ "$status" == "install ok installed "* ]] && echo "${status##* }"
  return 0
}

missing=()
required_missing=0
for pkg in "${required_packages[@]}"; do
  [ -n "$(installed_version "$pkg")" ] || { missing+=("$pkg"); required_missing=1; }
done
for pkg in "${optional_packages[@]}"; do
  [ -n "$(installed_version "$pkg")" ] || missing+=("$pkg")
done

# lavapipe before 25 lacks what Dawn needs for the WebGPU plugin; bookworm itself ships 22.3.
need_mesa=0
if [ "$mode" = test ]; then
  mesa_version=$(installed_version mesa-vulkan-drivers)
  mesa_version=${mesa_version#*:}  # drop an epoch ("1:25.0.7-2")
  if [ -z "$mesa_version" ] || [ "${mesa_version%%.*}" -lt "$mesa_min_major" ]; then
    need_mesa=1
  fi
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
  # Without the optional part only the GPU tests are skipped (or, for the app, Wayland is not
  # used); without the required part nothing runs.
  if [ $required_missing -eq 0 ]; then
    if [ "$mode" = test ]; then
      echo "(until then the GPU tests are skipped)"
    else
      echo "(until then the app opens its window through X11 only)"
    fi
    exit 0
  fi
  exit 1
fi
