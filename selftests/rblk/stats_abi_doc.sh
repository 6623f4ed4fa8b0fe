#!/bin/sh
# Documentation/ABI/testing/sysfs-class-rblk and sysfs-block-rblk match the
# module: every file in the controller's /sys/class/rblk/rblk-ctrlM/, in
# /sys/block/rblkN/rblk/ and among the identifiers in /sys/block/rblkN/
# (nsid wwid nguid uuid eui) is documented, every documented file exists
# (nguid, uuid and eui only if the namespace reports them), each entry has
# Date/Contact/Description, the modes are the documented ones (0444,
# reset_stats and reset_controller 0200), and the documented formats hold
# (state names, latency_hist with 24 fields, outstanding with one field per
# I/O queue, the controller's counters in the namespace's directory, ctrl,
# wwid made of the identifiers).
# scripts/mkinitramfs.sh installs the documents in /usr/share/doc/rblk/.
# rblk-timeout: 120
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NVMECFG=${RBLK_NVMECFG:-nvmecfg}
CTRL=
CTRL_PREFIX='/sys/class/rblk/rblk-ctrl<M>/'
NS_PREFIX='/sys/block/rblk<N>/'
# The files of /sys/block/rblkN/ that are rblk's (the rest is the block
# layer's), and those of them a namespace has only if it reports the
# identifier.
NS_IDS='nsid wwid nguid uuid eui multipath/ multipath/rblk<N>c<M>/ana_state multipath/rblk<N>c<M>/ana_grpid'
# multipath/ only with rblk.multipath=Y (mpath_head and mpath_ana check it).
NS_IDS_OPTIONAL='nguid uuid eui multipath/ multipath/rblk<N>c<M>/ana_state multipath/rblk<N>c<M>/ana_grpid'

# find_doc NAME: print the path of the ABI document NAME.
find_doc() {
	for _d in "${RBLK_ABI_DIR:-}" /usr/share/doc/rblk \
		  "${RBLK_SELFTESTS:-/selftests}/../Documentation/ABI/testing"; do
		[ -n "$_d" ] && [ -f "$_d/$1" ] && { echo "$_d/$1"; return 0; }
	done
	return 1
}
class_doc=$(find_doc sysfs-class-rblk) ||
	fail "sysfs-class-rblk is not in the guest (scripts/mkinitramfs.sh should install it in /usr/share/doc/rblk/)"
block_doc=$(find_doc sysfs-block-rblk) ||
	fail "sysfs-block-rblk is not in the guest (scripts/mkinitramfs.sh should install it in /usr/share/doc/rblk/)"
command -v "$NVMECFG" >/dev/null 2>&1 || fail "nvmecfg is not in the guest"

cleanup() {
	[ -n "$CTRL" ] && [ -e "/sys/class/rblk/$CTRL" ] &&
		"$NVMECFG" disconnect "$CTRL" >/dev/null 2>&1
	[ -n "$CTRL" ] && wait_for_path "/sys/class/rblk/$CTRL" 15 !
	rmmod rblk 2>/dev/null
}
trap cleanup EXIT

# --- the documents' own format ---
# check_format DOC: each entry is one or more What: lines, then one each of
# Date:, Contact:, Description:.
check_format() {
	_bad=$(awk '
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
		}' "$1")
	[ -z "$_bad" ] || fail "$1 is malformed: $_bad"
}

# doc_paths DOC PREFIX: the What: paths of DOC without PREFIX, sorted; the
# entry of the directory PREFIX itself is left out.  Fails on a path
# outside PREFIX and on a path documented twice.
doc_paths() {
	_paths=$(sed -n 's/^What:[[:space:]]*//p' "$1" | while read -r _w; do
		case $_w in
		"$2") ;;
		"$2"*) echo "${_w#"$2"}" ;;
		*) echo "BADPATH:$_w" ;;
		esac
	done | sort)
	case $_paths in *BADPATH:*)
		fail "What: outside $2 in $1: $(echo "$_paths" | grep BADPATH)" ;;
	esac
	[ -n "$_paths" ] || fail "no attributes documented in $1"
	_dups=$(echo "$_paths" | uniq -d)
	[ -z "$_dups" ] || fail "documented twice in $1: $_dups"
	echo "$_paths"
}

check_format "$class_doc"
check_format "$block_doc"

ctrl_documented=$(doc_paths "$class_doc" "$CTRL_PREFIX") ||
	{ echo "$ctrl_documented"; exit "$KSFT_FAIL"; }
sed -n 's/^What:[[:space:]]*//p' "$class_doc" | grep -qxF "$CTRL_PREFIX" ||
	fail "the directory $CTRL_PREFIX itself is not documented in $class_doc"
echo "$ctrl_documented" | grep -qxF 'rblk<N>/' ||
	fail "the namespace subdirectories ${CTRL_PREFIX}rblk<N>/ are not documented in $class_doc"

# sysfs-block-rblk: the identifiers in /sys/block/rblk<N>/ and the
# directory /sys/block/rblk<N>/rblk/.
block_paths=$(doc_paths "$block_doc" "$NS_PREFIX") ||
	{ echo "$block_paths"; exit "$KSFT_FAIL"; }
stat_documented=$(echo "$block_paths" | sed -n 's|^rblk/\(..*\)$|\1|p')
id_documented=$(echo "$block_paths" | grep -v '^rblk/')
echo "$block_paths" | grep -qxF 'rblk/' ||
	fail "the directory ${NS_PREFIX}rblk/ itself is not documented in $block_doc"
[ -n "$stat_documented" ] || fail "no attributes of ${NS_PREFIX}rblk/ documented in $block_doc"
for a in $id_documented; do
	case " $NS_IDS " in *" $a "*) ;; *)
		fail "$block_doc documents $NS_PREFIX$a, not one of rblk's files there ($NS_IDS)" ;;
	esac
done

# --- against the module: a namespace's own device (multipath=N) ---
rblk_load multipath=N
dev=$(rblk_connect "$RBLK_NSID_FILE") || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
CTRL=$(rblk_ctrl_of "$dev") || fail "/sys/block/$DEV/device is not a symlink"
case $CTRL in rblk-ctrl[0-9]*) ;; *) fail "/sys/block/$DEV/device is '$CTRL', not a controller" ;; esac
CD=/sys/class/rblk/$CTRL
SYS=/sys/block/$DEV
ST=$SYS/rblk
[ -d "$CD" ] || fail "$CD missing"
[ -d "$ST" ] || fail "$ST missing"

# The controller's directory: its attributes, and the namespaces' device
# directories as "rblk<N>/".  uevent, subsystem and power are the driver
# core's.
ctrl_present=$(cd "$CD" && for f in *; do
	case $f in
	uevent|subsystem|power) ;;
	rblk[0-9]*)
		if [ -d "$f" ]; then echo 'rblk<N>/'; else echo "$f"; fi ;;
	*) echo "$f" ;;
	esac
done | sort -u)
ctrl_files=$(echo "$ctrl_present" | grep -vxF 'rblk<N>/')
[ -d "$CD/$DEV" ] || fail "$DEV is not a subdirectory of $CD"
[ "$(readlink -f "$CD/$DEV")" = "$(readlink -f "$SYS")" ] ||
	fail "$CD/$DEV is $(readlink -f "$CD/$DEV"), $SYS is $(readlink -f "$SYS")"

stat_present=$(cd "$ST" && for f in *; do echo "$f"; done | sort)

id_present=$(for f in $NS_IDS; do [ -e "$SYS/$f" ] && echo "$f"; done)

# compare WHERE DOC DOCUMENTED PRESENT [OPTIONAL]: the files PRESENT in
# WHERE are the DOCUMENTED ones; a documented file named in OPTIONAL may be
# absent.
compare() {
	_missing=$(echo "$3" | while read -r _a; do
		[ -n "$_a" ] || continue
		echo "$4" | grep -qxF "$_a" && continue
		case " ${5:-} " in *" $_a "*) continue ;; esac
		echo "$_a"
	done)
	_undoc=$(echo "$4" | while read -r _a; do
		[ -n "$_a" ] || continue
		echo "$3" | grep -qxF "$_a" || echo "$_a"
	done)
	[ -z "$_missing" ] || fail "documented in $2 but not in $1: $(echo "$_missing" | tr "\n" " ")"
	[ -z "$_undoc" ] || fail "in $1 but not documented in $2: $(echo "$_undoc" | tr "\n" " ")"
	log "$1: $(echo "$4" | grep -c .) entries, all documented, none missing"
}
compare "$CD/" "$class_doc" "$ctrl_documented" "$ctrl_present"
# A multipath head's own counters: mpath_failover and mpath_ana check them.
compare "$ST/" "$block_doc" "$stat_documented" "$stat_present" \
	"failovers no_path_requeues no_path_errors"
compare "$SYS/ ($NS_IDS)" "$block_doc" "$id_documented" "$id_present" "$NS_IDS_OPTIONAL"

# check_modes DIR FILES: 0444, one line, not writable; reset_stats and
# the *_controller controls 0200 and not readable.
check_modes() {
	for _a in $2; do
		_f=$1/$_a
		_mode=$(stat -c %a "$_f")
		case $_a in reset_stats|reset_controller|delete_controller|rescan_controller)
			[ "$_mode" = 200 ] || fail "$_f has mode $_mode, documented 0200"
			cat "$_f" >/dev/null 2>&1 && fail "$_f is readable"
			continue
		esac
		[ "$_mode" = 444 ] || fail "$_f has mode $_mode, documented 0444"
		_v=$(cat "$_f") || fail "reading $_f failed"
		[ "$(wc -l < "$_f")" -eq 1 ] || fail "$_f is not one line"
		(echo 1 > "$_f") 2>/dev/null && fail "writing $_f succeeded"
		[ -n "$_v" ] || case $_a in model|serial|firmware_rev|host_traddr) ;; *) fail "$_f is empty" ;; esac
	done
}
check_modes "$CD" "$ctrl_files"
check_modes "$ST" "$stat_present"
check_modes "$SYS" "$id_present"

# --- documented value formats ---
# unsigned DIR FILES: each holds an unsigned decimal.
unsigned() {
	for _a in $2; do
		grep -qxE '[0-9]+' "$1/$_a" || fail "$1/$_a '$(cat "$1/$_a")' is not an unsigned decimal"
	done
}

# The controller (sysfs-class-rblk).
state=$(cat "$CD/state")
[ "$state" = live ] || fail "$CD/state is '$state' after connect"
for s in new connecting live resetting deleting dead; do
	grep -qE "^[[:space:]]+${s}[[:space:]]" "$class_doc" ||
		fail "state '$s' missing from the documented table in $class_doc"
done
unsigned "$CD" "timeouts reconnects reconnect_attempts nsid cntlid nr_io_queues
	queue_size kato reconnect_delay doorbells commands_posted nr_poll_queues nr_write_queues
	poll_completions"
for a in ctrl_loss_tmo fast_io_fail_tmo; do
	grep -qxE -- '-1|[0-9]+' "$CD/$a" || fail "$CD/$a '$(cat "$CD/$a")' is not -1 or a number"
done
[ "$(cat "$CD/transport")" = rdma ] || fail "$CD/transport is not rdma"
grep -qxE '[1-9][0-9]*' "$CD/trsvcid" || fail "$CD/trsvcid '$(cat "$CD/trsvcid")' is not a decimal port"
uuid_re='[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
grep -qxE "$uuid_re" "$CD/hostid" || fail "$CD/hostid '$(cat "$CD/hostid")' is not a lower-case UUID"
# Connected without -N: every namespace.
[ "$(cat "$CD/nsid")" = 0 ] || fail "$CD/nsid is '$(cat "$CD/nsid")' after a connect without -N, documented 0"
nq=$(cat "$CD/nr_io_queues")
[ "$nq" -ge 1 ] || fail "$CD/nr_io_queues is $nq"
[ "$(wc -w < "$CD/outstanding")" -eq "$nq" ] ||
	fail "$CD/outstanding '$(cat "$CD/outstanding")' has not $nq fields"
# unsigned_fields FILE: unsigned decimals separated by single spaces.
unsigned_fields() {
	grep -qxE '[0-9]+( [0-9]+)*' "$1" ||
		fail "$1 '$(cat "$1")' is not unsigned decimals separated by single spaces"
}
unsigned_fields "$CD/outstanding"

# The namespace's statistics directory (sysfs-block-rblk).
[ "$(cat "$ST/state")" = "$(cat "$CD/state")" ] ||
	fail "$ST/state '$(cat "$ST/state")' is not the controller's '$(cat "$CD/state")'"
[ "$(cat "$ST/ctrl")" = "$CTRL" ] || fail "$ST/ctrl is '$(cat "$ST/ctrl")', the controller is $CTRL"
[ "$(wc -w < "$ST/latency_hist")" -eq 24 ] ||
	fail "$ST/latency_hist has $(wc -w < "$ST/latency_hist") fields, documented 24"
unsigned_fields "$ST/latency_hist"
grep -q "24" "$block_doc" || fail "$block_doc does not give the 24 latency buckets"
[ "$(wc -w < "$ST/outstanding")" -eq "$nq" ] ||
	fail "$ST/outstanding '$(cat "$ST/outstanding")' has not $nq fields (nr_io_queues of $CTRL)"
unsigned_fields "$ST/outstanding"
unsigned "$ST" "reads writes flushes discards read_bytes write_bytes discard_bytes
	inline_writes timeouts reconnects reconnect_attempts errors errors_generic
	errors_cmd_specific errors_media errors_path errors_vendor doorbells
	commands_posted poll_completions"
sum=0
for a in errors_generic errors_cmd_specific errors_media errors_path errors_vendor; do
	sum=$((sum + $(cat "$ST/$a")))
done
[ "$(cat "$ST/errors")" -eq "$sum" ] || fail "$ST/errors is $(cat "$ST/errors"), the errors_* sum $sum"
for d in "$CD" "$ST"; do
	grep -qxE '[0-9]+\.[0-9]{2}' "$d/commands_per_doorbell" ||
		fail "$d/commands_per_doorbell '$(cat "$d/commands_per_doorbell")' is not a decimal with two places"
done
# The controller is idle here: its counters do not move between reads.
for a in reconnects reconnect_attempts doorbells commands_posted \
	 commands_per_doorbell poll_completions; do
	[ "$(cat "$ST/$a")" = "$(cat "$CD/$a")" ] ||
		fail "$ST/$a is $(cat "$ST/$a"), the controller's $(cat "$CD/$a")"
done
[ "$(cat "$ST/timeouts")" -le "$(cat "$CD/timeouts")" ] ||
	fail "$ST/timeouts $(cat "$ST/timeouts") exceeds the controller's $(cat "$CD/timeouts")"

# The identifiers in /sys/block/rblkN/ (sysfs-block-rblk).
[ "$(cat "$SYS/nsid")" = "$RBLK_NSID_FILE" ] || fail "$SYS/nsid is '$(cat "$SYS/nsid")', want $RBLK_NSID_FILE"
[ -e "$SYS/uuid" ] || fail "$SYS/uuid missing: nvmet reports a namespace UUID"
for a in uuid nguid; do
	[ -e "$SYS/$a" ] || continue
	grep -qxE "$uuid_re" "$SYS/$a" || fail "$SYS/$a '$(cat "$SYS/$a")' is not formatted as a lower-case UUID"
done
if [ -e "$SYS/eui" ]; then
	grep -qxE '([0-9a-f]{2} ){7}[0-9a-f]{2}' "$SYS/eui" ||
		fail "$SYS/eui '$(cat "$SYS/eui")' is not 8 hex bytes separated by spaces"
fi
wwid=$(cat "$SYS/wwid")
case $wwid in uuid.*|eui.*|nvme.*) ;; *) fail "$SYS/wwid '$wwid' starts with none of uuid. eui. nvme." ;; esac
if [ -e "$SYS/uuid" ]; then
	want="uuid.$(cat "$SYS/uuid")"
elif [ -e "$SYS/nguid" ]; then
	want="eui.$(sed 's/-//g' "$SYS/nguid")"
elif [ -e "$SYS/eui" ]; then
	want="eui.$(sed 's/ //g' "$SYS/eui")"
else
	want=$(echo "$wwid" | grep -xE "nvme\.[0-9a-f]{4}-([0-9a-f]{2})*-([0-9a-f]{2})*-$(printf %08x "$RBLK_NSID_FILE")")
fi
[ "$wwid" = "$want" ] || fail "$SYS/wwid is '$wwid', documented '${want:-nvme.<vid>-<serial>-<model>-<nsid>}'"
log "modes and formats as documented"

rblk_disconnect "$dev"
wait_for_path "$CD" 15 ! || fail "$CD still present after disconnect"

# --- a multipath head (the default): the same counters, summed over its
# paths, and no per-path files (ctrl, outstanding, commands_per_doorbell) ---
rmmod rblk || fail "rmmod rblk failed"
rblk_load
dev=$(rblk_connect "$RBLK_NSID_FILE") || { echo "$dev"; exit "$KSFT_FAIL"; }
DEV=${dev#/dev/}
SYS=/sys/block/$DEV
ST=$SYS/rblk
[ -d "$SYS/multipath" ] || fail "$DEV is no multipath head with the default parameters"
path=$(rblk_first_path "$DEV") || fail "$DEV has no path"
PST=$SYS/multipath/$path/rblk
CTRL=$(basename "$(readlink "$SYS/multipath/$path/device")")
stat_present=$(cd "$ST" && for f in *; do echo "$f"; done | sort)
head_documented=$(echo "$stat_documented" | grep -vxE 'ctrl|outstanding|commands_per_doorbell')
compare "$ST/ (head)" "$block_doc" "$head_documented" "$stat_present"
check_modes "$ST" "$stat_present"
[ "$(cat "$ST/state")" = live ] || fail "$ST/state is '$(cat "$ST/state")' with a live path"
[ "$(wc -w < "$ST/latency_hist")" -eq 24 ] || fail "$ST/latency_hist has not 24 fields"
pattern_file /tmp/abi.p 65536
write_direct /tmp/abi.p "$dev" 0
dd if="$dev" of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null || fail "read of $dev failed"
for a in reads writes read_bytes write_bytes errors timeouts reconnects; do
	[ "$(cat "$ST/$a")" = "$(cat "$PST/$a")" ] ||
		fail "$ST/$a is $(cat "$ST/$a"), its one path's $(cat "$PST/$a")"
done
[ "$(cat "$ST/writes")" -ge 1 ] || fail "$ST counted no write"
[ "$(cat "$ST/reads")" -ge 1 ] ||
	fail "$ST counted no I/O: reads $(cat "$ST/reads"), writes $(cat "$ST/writes")"
echo 1 > "$ST/reset_stats" || fail "writing $ST/reset_stats failed"
[ "$(cat "$ST/reads") $(cat "$PST/reads")" = "0 0" ] ||
	fail "reset_stats of the head left reads $(cat "$ST/reads") (path $(cat "$PST/reads"))"
log "head $DEV: $(echo "$stat_present" | grep -c .) entries as documented, sums its path's"
must nvmecfg disconnect "$CTRL" >/dev/null
wait_for_path "$SYS" 15 ! || fail "$SYS still present after disconnect"
exit 0
