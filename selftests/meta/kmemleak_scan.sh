#!/bin/sh
# Last test of `make check-debug`: unloads rblk (a module's leaks are only
# unreferenced once its own pointers are gone), has kmemleak scan twice and
# fails if it reports any object ("unreferenced object ..."), printing the
# report.  Skips on a kernel without kmemleak (the normal Debian guest).
# rblk-timeout: 900
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

KML=/sys/kernel/debug/kmemleak
[ -e "$KML" ] || skip "no $KML (kernel without CONFIG_DEBUG_KMEMLEAK)"
rblk_loaded && rblk_unload
# kmemleak ignores objects younger than 5 s; two scans catch the stragglers.
sleep 6
must sh -c "echo scan > $KML"
sleep 2
must sh -c "echo scan > $KML"
if grep -q '^unreferenced object' "$KML"; then
	log "kmemleak report:"
	cat "$KML"
	fail "kmemleak: $(grep -c '^unreferenced object' "$KML") unreferenced object(s)"
fi
log "kmemleak: no leaks"
exit 0
