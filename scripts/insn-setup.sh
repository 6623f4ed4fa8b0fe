#!/bin/bash
# What `make bench-insn` needs beyond `make setup`: glib's headers (the TCG
# plugin API is glib's) and QEMU's plugin header, qemu-plugin.h, which no
# Debian binary package ships: it comes from the source package of the
# installed qemu-system-x86, fetched with a private apt configuration
# (deb-src lines of the machine's Debian suites) under BUILD/insn/apt, so
# the machine's own apt sources stay as they are.  Idempotent.
#
# usage: scripts/insn-setup.sh BUILD_DIR      -> BUILD_DIR/insn/include/qemu-plugin.h
set -euo pipefail

BUILD=${1:-build}
BUILD=${BUILD%/}
OUT=$BUILD/insn
HDR=$OUT/include/qemu-plugin.h
export DEBIAN_FRONTEND=noninteractive
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

if ! dpkg-query -W -f='${db:Status-Abbrev}' libglib2.0-dev 2>/dev/null | grep -q '^ii'; then
	echo "insn-setup: installing libglib2.0-dev"
	$SUDO apt-get install -y -qq --no-install-recommends libglib2.0-dev
fi
[ -f "$HDR" ] && { echo "insn-setup: $HDR present"; exit 0; }

# The plugin API of the QEMU that runs the guest: its own source version.
ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	{ echo "insn-setup: ERROR: qemu-system-x86 not installed (make setup)" >&2; exit 1; }
APT=$(cd "$BUILD" && pwd)/insn/apt
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$OUT/src" "$OUT/include"
# The suites this machine's deb lines use, as deb-src lines.
# shellcheck disable=SC2016 # apt's own $(FIELD) syntax, not the shell's
suites=$(apt-get indextargets --format '$(SITE) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
	 sort -u)
[ -n "$suites" ] || { echo "insn-setup: ERROR: no Debian suites in apt's lists" >&2; exit 1; }
printf '%s\n' "$suites" | awk '{ print "deb-src", $1, $2, "main" }' > "$APT/sources.list"
opts=(-o "Dir::Etc::SourceList=$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache")
echo "insn-setup: apt-get update (deb-src, $APT)"
apt-get "${opts[@]}" update -qq
echo "insn-setup: apt-get source --download-only qemu=$ver"
(cd "$OUT/src" && { apt-get "${opts[@]}" source --download-only -q "qemu=$ver" 2>&1 |
	grep -v 'unsandboxed as root'; } ) || true
orig=$(find "$OUT/src" -maxdepth 1 -name 'qemu_*.orig.tar.*' | head -n1)
[ -n "$orig" ] || { echo "insn-setup: ERROR: no qemu source for $ver" >&2; exit 1; }
tar -xf "$orig" -C "$OUT/src" --wildcards '*/include/qemu/qemu-plugin.h'
src=$(find "$OUT/src" -path '*/include/qemu/qemu-plugin.h' | head -n1)
[ -n "$src" ] || { echo "insn-setup: ERROR: no qemu-plugin.h in $orig" >&2; exit 1; }
cp "$src" "$HDR.tmp"
mv "$HDR.tmp" "$HDR"
rm -rf "$OUT/src"
echo "insn-setup: $HDR from qemu $ver"
