#!/bin/sh
# Netlink fuzz: thousands of requests with random commands and attributes
# (wrong types, lying lengths, over-long strings, stray nesting flags). Every
# one must get an error or a well-formed answer, the kernel must not splat,
# and the module must still work and unload afterwards.
# rblk-timeout: 600
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v nlfuzz >/dev/null || fail "nlfuzz missing from the guest"
rblk_load
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
must nlfuzz -n 3000 -s "$seed"
# The family still serves real requests.
dev=$(rblk_connect "$RBLK_NSID_NULL" -i 1) || exit 1
must nvmecfg list >/dev/null
rblk_disconnect "$dev"
rblk_unload
exit 0
