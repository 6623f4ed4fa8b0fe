#!/bin/bash
# Fetch scripts/checkpatch.pl (and the data files it reads) from Debian's
# linux-source package of the pinned kernel, into BUILD/checkpatch/.
# The headers package does not ship it. Idempotent.
#
# usage: scripts/get-checkpatch.sh BUILD_DIR
set -euo pipefail
BUILD=${1:-build}
BUILD=${BUILD%/}
OUT=$BUILD/checkpatch
[ -x "$OUT/scripts/checkpatch.pl" ] && exit 0

src=$(apt-cache depends linux-source 2>/dev/null | awk '/Depends: linux-source-/ {print $2; exit}')
src=${src:-linux-source-6.1}
mkdir -p "$BUILD/dl" "$OUT"
(cd "$BUILD/dl" && { ls "$src"_*.deb >/dev/null 2>&1 || apt-get download "$src"; })
deb=$(ls "$BUILD/dl/$src"_*.deb | head -n1)
rm -rf "$BUILD/dl/src"
dpkg -x "$deb" "$BUILD/dl/src"
tarball=$(ls "$BUILD"/dl/src/usr/src/linux-source-*.tar.xz | head -n1)
top=$(basename "$tarball" .tar.xz)
tar -xf "$tarball" -C "$OUT" --strip-components=1 \
	"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
	"$top/scripts/const_structs.checkpatch"
rm -rf "$BUILD/dl/src"
echo "get-checkpatch: $OUT/scripts/checkpatch.pl"
