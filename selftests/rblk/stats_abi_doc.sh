#!/bin/sh
# Documentation/ABI/testing/sysfs-block-rblk matches the module: every file in
# /sys/block/rblk0/rblk/ is documented, every documented attribute exists, each
# entry has Date/Contact/Description, the modes are the documented ones (0444,
# reset_stats and reset_controller 0200), and the documented formats hold (state names,
# latency_hist with 24 fields, outstanding with one field per I/O queue).
# scripts/mkinitramfs.sh installs the document in /usr/share/doc/rblk/.
# rblk-timeout: 120
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
DEV=
PREFIX='/sys/block/rblk<N>/rblk/'

doc=
for d in "${RBLK_ABI_DOC:-}" /usr/share/doc/rblk/sysfs-block-rblk \
	 "${RBLK_SELFTESTS:-/selftests}/../Documentation/ABI/testing/sysfs-block-rblk"; do
	[ -n "$d" ] && [ -f "$d" ] && { doc=$d; break; }
done
[ -n "$doc" ] || fail "sysfs-block-rblk is not in the guest (scripts/mkinitramfs.sh should install it in /usr/share/doc/rblk/)"
command -v "$NVMECFG" >/dev/null 2>&1 || fail "nvmecfg is not in the guest"

cleanup() {
	[ -n "$DEV" ] && [ -e "$SYS" ] && "$NVMECFG" disconnect "$DEV" >/dev/null 2>&1
	[ -n "$DEV" ] && wait_for_path "$SYS" 15 !
	rmmod rblk 2>/dev/null
}
trap cleanup EXIT

# --- the document's own format ---
# Each entry: one or more What: lines, then one each of Date:, Contact:,
# Description:.
bad=$(awk '
	/^What:/ { if (!inwhat) { n++; date[n] = contact[n] = desc[n] = 0 }
		   inwhat = 1; next }
	{ inwhat = 0 }
	/^Date:/ { date[n]++ }
	/^Contact:/ { contact[n]++ }
	/^Description:/ { desc[n]++ }
	END {
		for (i = 1; i <= n; i++)
			if (date[i] != 1 || contact[i] != 1 || desc[i] != 1)
				print "entry " i ": Date " date[i] ", Contact " contact[i] ", Description " desc[i]
		if (!n) print "no What: entries"
	}' "$doc")
[ -z "$bad" ] || fail "$doc is malformed: $bad"

documented=$(sed -n 's/^What:[[:space:]]*//p' "$doc" | while read -r w; do
	case $w in
	"$PREFIX") ;;				# the directory itself
	"$PREFIX"*) echo "${w#"$PREFIX"}" ;;
	*) echo "BADPATH:$w" ;;
	esac
done | sort)
case $documented in *BADPATH:*)
	fail "What: outside $PREFIX: $(echo "$documented" | grep BADPATH)" ;;
esac
[ -n "$documented" ] || fail "no attributes documented in $doc"
dups=$(echo "$documented" | uniq -d)
[ -z "$dups" ] || fail "documented twice: $dups"
grep -q "^What:[[:space:]]*$PREFIX\$" "$doc" || fail "the directory $PREFIX itself is not documented"

# --- against the module ---
rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE") || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
SYS=/sys/block/$DEV
ST=$SYS/rblk
[ -d "$ST" ] || fail "$ST missing"

present=$(cd "$ST" && for f in *; do echo "$f"; done | sort)
missing=$(echo "$documented" | while read -r a; do
	echo "$present" | grep -qx "$a" || echo "$a"; done)
undoc=$(echo "$present" | while read -r a; do
	echo "$documented" | grep -qx "$a" || echo "$a"; done)
[ -z "$missing" ] || fail "documented but not in $ST: $(echo "$missing" | tr "\n" " ")"
[ -z "$undoc" ] || fail "in $ST but not documented in $doc: $(echo "$undoc" | tr "\n" " ")"
log "$(echo "$present" | wc -l) attributes, all documented, none missing"

for a in $present; do
	mode=$(stat -c %a "$ST/$a")
	case $a in reset_stats|reset_controller)
		[ "$mode" = 200 ] || fail "$a has mode $mode, documented 0200"
		cat "$ST/$a" >/dev/null 2>&1 && fail "$a is readable"
		continue
	esac
	[ "$mode" = 444 ] || fail "$a has mode $mode, documented 0444"
	v=$(cat "$ST/$a") || fail "reading $a failed"
	[ "$(wc -l < "$ST/$a")" -eq 1 ] || fail "$a is not one line"
	(echo 1 > "$ST/$a") 2>/dev/null && fail "writing $a succeeded"
	[ -n "$v" ] || case $a in model|serial|firmware_rev) ;; *) fail "$a is empty" ;; esac
done

# Documented value formats.
state=$(cat "$ST/state")
[ "$state" = live ] || fail "state is '$state' after connect"
for s in new connecting live resetting deleting dead; do
	grep -qE "^[[:space:]]+${s}[[:space:]]" "$doc" || fail "state '$s' missing from the documented table"
done
[ "$(wc -w < "$ST/latency_hist")" -eq 24 ] || fail "latency_hist has $(wc -w < "$ST/latency_hist") fields, documented 24"
grep -q "24" "$doc" || fail "the document does not give the 24 latency buckets"
nq=$(cat "$ST/nr_io_queues")
[ "$(wc -w < "$ST/outstanding")" -eq "$nq" ] || fail "outstanding '$(cat "$ST/outstanding")' has not $nq fields"
for a in reads writes flushes discards read_bytes write_bytes discard_bytes \
	 inline_writes timeouts reconnects reconnect_attempts errors_generic \
	 errors_cmd_specific errors_media errors_path errors_vendor nsid cntlid \
	 nr_io_queues queue_size kato reconnect_delay; do
	grep -qxE '[0-9]+' "$ST/$a" || fail "$a '$(cat "$ST/$a")' is not an unsigned decimal"
done
for a in ctrl_loss_tmo fast_io_fail_tmo; do
	grep -qxE -- '-1|[0-9]+' "$ST/$a" || fail "$a '$(cat "$ST/$a")' is not -1 or a number"
done
[ "$(cat "$ST/transport")" = rdma ] || fail "transport is not rdma"
log "modes and formats as documented"

rblk_disconnect "$DEV"
exit 0
