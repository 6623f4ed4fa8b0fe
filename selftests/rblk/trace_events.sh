#!/bin/sh
# rblk's tracepoints (kmod/trace.h, Documentation/tracing.rst), enabled
# through tracefs, count exactly what happened: N O_DIRECT writes and M
# reads of one namespace give N + M rblk_setup_cmd events for that disk
# (opcode, nsid, slba and nlb of each block) and as many successful
# rblk_complete_rq events with the same queue/command ids; a user reset is
# three rblk_ctrl_state changes and one rblk_queue_connect per queue, with
# no rblk_error_recovery; a target that drops the association gives one
# rblk_error_recovery and the same three state changes; disconnect
# is one live -> deleting.  The data is checked against the backing file.
# rblk-timeout: 180
# rblk-lockdep: port-disable
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

NW=37		# writes of one 4 KiB block each (namespace 2 has 4 KiB LBAs)
NR=23		# reads
SLBA=1000	# first block written
PAT=/tmp/trace.pat
GOT=/tmp/trace.got
BAK=/tmp/trace.bak
TR=/sys/kernel/tracing
OUT=/tmp/trace.txt

cleanup() {
	[ -d "$TR/events/rblk" ] && echo 0 > "$TR/events/rblk/enable"
	echo > "$TR/trace" 2>/dev/null
	# The defaults, for the tests after this one (connect_opts traces too).
	echo 1 > "$TR/tracing_on" 2>/dev/null
	echo 1408 > "$TR/buffer_size_kb" 2>/dev/null
	nvmet_relink
	rm -f "$PAT" "$GOT" "$BAK" "$OUT"
}
trap cleanup EXIT

grep -q " $TR tracefs" /proc/mounts || mount -t tracefs tracefs "$TR" ||
	fail "cannot mount tracefs"

rblk_load
[ -d "$TR/events/rblk" ] || fail "no rblk events in $TR/events"
for e in rblk_setup_cmd rblk_complete_rq rblk_ctrl_state rblk_queue_connect \
	 rblk_error_recovery rblk_failover rblk_flush_held rblk_no_path; do
	[ -f "$TR/events/rblk/$e/format" ] || fail "no tracepoint $e"
done

dev=$(rblk_connect "$RBLK_NSID_FILE" -c 1 -k 2) || exit 1
n=${dev#/dev/}
ctrl=$(rblk_ctrl_of "$dev")
cidx=${ctrl#rblk-ctrl}
nsid=$(cat "/sys/block/$n/nsid")
[ "$(cat "/sys/block/$n/queue/logical_block_size")" -eq 4096 ] ||
	fail "$n has no 4 KiB blocks"

# trace_start / trace_stop: record only rblk's events, into $OUT.
trace_start() {
	echo 0 > "$TR/tracing_on"
	echo 2048 > "$TR/buffer_size_kb"
	echo > "$TR/trace"
	echo 1 > "$TR/events/rblk/enable"
	echo 1 > "$TR/tracing_on"
}
trace_stop() {
	echo 0 > "$TR/tracing_on"
	grep -v '^#' "$TR/trace" > "$OUT"
	# A full buffer would make every count below wrong.
	grep -q 'LOST' "$OUT" && fail "trace buffer lost events"
	return 0
}
# count EVENT FIELD...: events EVENT of our controller with all the given
# "key=value" words.
count() {
	_e=$1; shift
	grep -E ": $_e: rblk-ctrl$cidx( |\$)" "$OUT" | {
		_c=0
		while IFS= read -r _l; do
			_ok=1
			for _w in "$@"; do
				case " $_l " in *" $_w "*) ;; *) _ok=0 ;; esac
			done
			_c=$((_c + _ok))
		done
		echo "$_c"
	}
}
# ids EVENT: the sorted "qid cmdid" pairs of EVENT for our disk.
ids() {
	grep ": $1: rblk-ctrl$cidx disk=$n " "$OUT" |
		sed -E 's/.* (qid=[0-9]+) (cmdid=0x[0-9a-f]+) .*/\1 \2/' | sort
}
states() {
	grep ": rblk_ctrl_state: rblk-ctrl$cidx " "$OUT" | sed 's/.*rblk_ctrl_state: [^ ]* //'
}

# --- N writes and M reads, one block each ---
pattern_file "$PAT" $((NW * 4096))
trace_start
dd if="$PAT" of="$dev" bs=4096 seek=$SLBA count=$NW oflag=direct conv=notrunc 2>/dev/null ||
	fail "O_DIRECT write failed"
dd if="$dev" of="$GOT" bs=4096 skip=$SLBA count=$NR iflag=direct 2>/dev/null ||
	fail "O_DIRECT read failed"
trace_stop

w=$(count rblk_setup_cmd "disk=$n" opcode=0x1 "nsid=$nsid" nlb=1 bytes=4096)
r=$(count rblk_setup_cmd "disk=$n" opcode=0x2 "nsid=$nsid" nlb=1 bytes=4096)
all=$(count rblk_setup_cmd "disk=$n")
done_ok=$(count rblk_complete_rq "disk=$n" status=0x0 retries=0)
done_all=$(count rblk_complete_rq "disk=$n")
log "setup: $w writes, $r reads ($all in all); completions: $done_ok ok ($done_all in all)"
# One of each, for the log.
grep -m 1 ": rblk_setup_cmd: rblk-ctrl$cidx disk=$n " "$OUT"
grep -m 1 ": rblk_complete_rq: rblk-ctrl$cidx disk=$n " "$OUT"
[ "$w" -eq $NW ] || fail "$w write setup events, expected $NW"
[ "$r" -eq $NR ] || fail "$r read setup events, expected $NR"
[ "$all" -eq $((NW + NR)) ] || fail "$all setup events for $n, expected $((NW + NR))"
[ "$done_all" -eq $((NW + NR)) ] || fail "$done_all completion events for $n, expected $((NW + NR))"
[ "$done_ok" -eq "$done_all" ] || fail "completions with an error status or retries"
[ "$(ids rblk_setup_cmd)" = "$(ids rblk_complete_rq)" ] ||
	fail "completion events do not match the setup events' queue and command ids"
i=0
while [ $i -lt $NW ]; do
	[ "$(count rblk_setup_cmd "disk=$n" opcode=0x1 "slba=$((SLBA + i))")" -eq 1 ] ||
		fail "no single write event for block $((SLBA + i))"
	i=$((i + 1))
done

# The data, too.
dd if="$PAT" of=/tmp/trace.want bs=4096 count=$NR 2>/dev/null
assert_same /tmp/trace.want "$GOT" "read back through $dev"
rm -f /tmp/trace.want
read_region "$RBLK_BACKING" $((SLBA * 4096)) $((NW * 4096)) "$BAK"
assert_same "$PAT" "$BAK" "backing file region"

# --- a user reset ---
nq=$(rblk_attr "$dev" nr_io_queues)
trace_start
echo 1 > "/sys/class/rblk/$ctrl/reset_controller" || fail "reset_controller write failed"
rblk_wait_state "$dev" live 30 || fail "not live 30 s after the reset"
trace_stop
got=$(states | tr '\n' ',')
[ "$got" = "live -> resetting,resetting -> connecting,connecting -> live," ] ||
	fail "state events of a reset: '$got'"
qc=$(count rblk_queue_connect result=0)
[ "$qc" -eq $((nq + 1)) ] || fail "$qc queue connects after the reset, expected $((nq + 1))"
q=0
while [ $q -le "$nq" ]; do
	[ "$(count rblk_queue_connect "qid=$q" result=0)" -eq 1 ] || fail "no connect event for queue $q"
	q=$((q + 1))
done
[ "$(count rblk_error_recovery)" -eq 0 ] || fail "a user reset traced as error recovery"
log "reset: $got $qc queue connects"

# --- the target drops the association ---
trace_start
nvmet_unlink
wait_until 20 sh -c "[ \"\$(cat /sys/class/rblk/$ctrl/state)\" != live ]" ||
	fail "still live 20 s after the target dropped the subsystem"
nvmet_relink
rblk_wait_state "$dev" live 30 || fail "no reconnect within 30 s"
trace_stop
er=$(count rblk_error_recovery)
[ "$er" -eq 1 ] || fail "$er error recovery events, expected 1"
got=$(states | tr '\n' ',')
# Failed reconnect attempts stay in connecting: the chain is always this.
[ "$got" = "live -> resetting,resetting -> connecting,connecting -> live," ] ||
	fail "state events of a recovery: '$got'"
log "recovery: 1 error recovery event, $got live again"

# --- disconnect ---
trace_start
rblk_disconnect "$dev"
trace_stop
got=$(states | tr '\n' ',')
[ "$got" = "live -> deleting," ] || fail "state events of a disconnect: '$got'"
rblk_unload
exit 0
