#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nvmecfg as a program: help, usage errors and their exit codes, and the
# "module not loaded" path against the host kernel (which never has rblk).
# Prints KTAP.
cd "$(dirname "$0")" || exit 1
NVMECFG=../nvmecfg
OUT=${TMPDIR:-/tmp}/nvmecfg-cli.$$
ROOT=${TMPDIR:-/tmp}/nvmecfg-root.$$
trap 'rm -f "$OUT".*; rm -rf "$ROOT"' EXIT
mkdir -p "$ROOT/etc/nvme"
# Hermetic: not this host's /etc/nvme (the cases below say which files).
export NVMECFG_TEST_ROOT="$ROOT/none"
# libnvme's stand-ins for the files: only where a case sets them.
unset LIBNVME_HOSTNQN LIBNVME_HOSTID

n=0
# expect NAME RC PATTERN CMD...: CMD exits RC, and stdout+stderr match the
# extended regex PATTERN.
expect() {
	_name=$1 _rc=$2 _pat=$3
	shift 3
	n=$((n + 1))
	"$@" > "$OUT.out" 2>&1
	_got=$?
	if [ "$_got" -eq "$_rc" ] && grep -qE -- "$_pat" "$OUT.out"; then
		echo "ok $n $_name"
	else
		echo "# $*: exit $_got (want $_rc), output:"
		sed 's/^/# /' "$OUT.out"
		echo "# wanted: $_pat"
		echo "not ok $n $_name"
	fi
}

NQN=nqn.2026-12.io.rblk:test
LONG_NQN=nqn.$(printf '%0220d' 0)

echo "KTAP version 1"
echo "# suite: cli"
echo "1..273"

expect help 0 'Exit status: 0 success' $NVMECFG --help
expect help_command 0 '^Usage: nvmecfg connect ' $NVMECFG help connect
expect help_unknown 2 "unknown command 'bogus'" $NVMECFG help bogus
expect help_duplicate_connect 0 '^  -D, --duplicate-connect ' \
	$NVMECFG connect --help
expect help_names 0 '^Usage: nvmecfg show \[NAME \| -d NAME \| --index N\]' \
	$NVMECFG show --help
for c in connect connect-all disconnect disconnect-all set-iopolicy list show \
	 show-hostnqn show-hostid gen-hostnqn stats discover monitor version; do
	expect "${c}_help" 0 "^Usage: nvmecfg $c" $NVMECFG $c --help
done
expect help_list_verbose 0 '^  -v, --verbose ' $NVMECFG list --help
# -v is list's detail, as nvme-cli's list -v; nowhere else.
expect verbose_not_show 2 "show: unknown option '-v'" $NVMECFG show rblk0 -v
expect no_command 2 '^Usage: nvmecfg COMMAND' $NVMECFG
expect unknown_command 2 "unknown command 'frob'" $NVMECFG frob
expect connect_no_traddr 2 'connect: missing required option --traddr' \
	$NVMECFG connect -n $NQN
expect connect_no_nqn 2 'connect: missing required option --nqn' \
	$NVMECFG connect -a 10.99.0.1
expect connect_bad_queues 2 '0 is out of range 1-128' \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -i 0
expect connect_bad_number 2 "'1k' is not a number" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -Q 1k
expect connect_tcp 2 "'tcp' is not supported, only rdma" \
	$NVMECFG connect -t tcp -a 10.99.0.1 -n $NQN
expect connect_long_nqn 2 'longer than 222 characters' \
	$NVMECFG connect -a 10.99.0.1 -n "$LONG_NQN"
expect connect_unknown_option 2 "unknown option '--frob'" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN --frob
expect usage_hint 2 "Try 'nvmecfg connect --help'" \
	$NVMECFG connect -a 10.99.0.1
expect disconnect_no_device 2 'no device given' $NVMECFG disconnect
expect list_extra_argument 2 "unexpected argument 'rblk0'" \
	$NVMECFG list rblk0
expect show_two_devices 2 'more than one device' \
	$NVMECFG show rblk0 --index 1
expect disconnect_ctrl_and_ns 2 'more than one device' \
	$NVMECFG disconnect rblk-ctrl0 rblk0
expect stats_duplicate_connect 2 "unknown option '-D'" \
	$NVMECFG stats rblk-ctrl0 -D

expect help_help 0 '^Usage: nvmecfg COMMAND' $NVMECFG help help
expect help_two_commands 2 'help: one command only' $NVMECFG help connect list
expect help_dash_h_command 0 '^Usage: nvmecfg connect ' $NVMECFG -h connect
expect help_lists_new_commands 0 'connect-all .*disconnect-all' \
	sh -c "$NVMECFG help | tr '\n' ' '"
expect version 0 '^nvmecfg version .+ \(rblk netlink version [0-9]+\)$' \
	$NVMECFG --version
expect version_command 0 '^nvmecfg version ' $NVMECFG version
expect version_extra 2 "unexpected argument 'x'" $NVMECFG version x
# The loaded module's version on the second line (/sys/module/rblk,
# below the test root), the first line as before; a module of another
# release is said on stderr.
VER=$(cat ../../VERSION)
VR=$ROOT/ver
expect version_module_missing 0 "^nvmecfg version $VER \\(rblk netlink version [0-9]+\\) rblk module not loaded \$" \
	sh -c "NVMECFG_TEST_ROOT=$VR $NVMECFG --version 2>&1 | tr '\n' ' '"
mkdir -p "$VR/sys/module/rblk"
expect version_module_unknown 0 '^rblk module loaded, version unknown \(No such file or directory\)$' \
	env NVMECFG_TEST_ROOT="$VR" $NVMECFG version
echo "$VER" > "$VR/sys/module/rblk/version"
expect version_module 0 "^nvmecfg version $VER \\(rblk netlink version [0-9]+\\) rblk module version $VER \$" \
	sh -c "NVMECFG_TEST_ROOT=$VR $NVMECFG version 2>&1 | tr '\n' ' '"
echo 0.0.1-old > "$VR/sys/module/rblk/version"
expect version_module_other 0 "^nvmecfg: version: warning: the rblk module loaded is version 0.0.1-old, nvmecfg $VER: install both from one release rblk module version 0.0.1-old\$" \
	sh -c "NVMECFG_TEST_ROOT=$VR $NVMECFG version 2>&1 >/dev/null | tr '\n' ' '; NVMECFG_TEST_ROOT=$VR $NVMECFG version 2>/dev/null | tail -n 1"
rm -rf "$VR"

# -h wins over everything else on the line, exit 0 (nvmecfg(8)).
expect help_wins_missing_value 0 '^Usage: nvmecfg connect ' \
	$NVMECFG connect -a -h
expect help_wins_unknown 0 '^Usage: nvmecfg connect ' \
	$NVMECFG connect --frob -n -h
expect help_wins_range 0 '^Usage: nvmecfg disconnect ' \
	$NVMECFG disconnect -n $NQN rblk0 --help

# Bad input, each with its cause.
expect negative_range 2 'nr-io-queues \(-i\): -5 is out of range 1-128' \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -i -5
expect negative_kato 2 'keep-alive-tmo \(-k\): -1 is out of range 0-3600' \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -k -1
expect missing_value_not_swallowed 2 '--traddr \(-a\) needs a value' \
	$NVMECFG connect --traddr -n X
expect missing_value_last 2 '--nqn \(-n\) needs a value' \
	$NVMECFG connect -a 10.99.0.1 --nqn
expect short_f_host_iface 2 "^nvmecfg: connect: --host-iface \\(-f\\): rblk binds by --host-traddr, else by routing\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -f 5
expect tos_range 2 '--tos \(-T\): 256 is out of range 0-255' \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -T 256
expect tos_not_number 2 "--tos \(-T\): 'af41' is not a number" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -T af41
expect host_traddr_empty 2 '--host-traddr \(-w\): empty value' \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -w ''
expect discover_tos_range 2 'out of range 0-255' \
	$NVMECFG discover -a 10.99.0.1 --tos=300
# -s is a port number, checked before anything reaches the kernel.
expect trsvcid_not_number 2 "^nvmecfg: connect: --trsvcid \\(-s\\): 'abc' is not a number\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -s abc
expect trsvcid_range 2 '^nvmecfg: discover: --trsvcid \(-s\): 99999 is out of range 1-65535$' \
	$NVMECFG discover -a 10.99.0.1 -s 99999
expect empty_nqn 2 '--nqn \(-n\): empty value' \
	$NVMECFG connect -a 10.99.0.1 -n ''
expect disconnect_nqn_no_value 2 '--nqn \(-n\) needs a value' \
	$NVMECFG disconnect -n
expect disconnect_nqn_and_device 2 'more than one device' \
	$NVMECFG disconnect -n $NQN rblk0
expect disconnect_nothing 2 'no device given .*--nqn\)' $NVMECFG disconnect
# --force: disconnect by a namespace's name; long only (nvme-cli's -f is
# --host-iface), disconnect only.
expect disconnect_force_help 0 "^      --force +also by a namespace's name \\(rblkN, --index\\): its controller\$" \
	$NVMECFG disconnect --help
expect disconnect_force_no_short 2 "disconnect: unknown option '-f'" \
	$NVMECFG disconnect -f rblk0
expect disconnect_force_no_value 2 'disconnect: --force takes no value' \
	$NVMECFG disconnect --force=1 rblk0
expect connect_force 2 "connect: unknown option '--force'" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN --force
expect disconnect_all_extra 2 "unexpected argument 'rblk0'" \
	$NVMECFG disconnect-all rblk0
expect connect_all_nsid 2 "unknown option '-N'" \
	$NVMECFG connect-all -a 10.99.0.1 -N 1
expect show_hostnqn_with_device 2 'hostnqn and --hostid only without a device' \
	$NVMECFG show rblk0 -q nqn.x

# set-iopolicy: the names of RBLK_IOPOLICY_NAMES, checked before netlink.
expect set_iopolicy_help_names 0 '^      --iopolicy POLICY +I/O policy of the subsystem \{numa\|round-robin\|queue-depth\}$' \
	$NVMECFG set-iopolicy --help
expect set_iopolicy_bad_name 2 "^nvmecfg: set-iopolicy: --iopolicy: 'rr' is not numa, round-robin or queue-depth$" \
	$NVMECFG set-iopolicy rblk0 --iopolicy rr
expect set_iopolicy_case 2 "--iopolicy: 'NUMA' is not numa, round-robin or queue-depth" \
	$NVMECFG set-iopolicy -d rblk-ctrl0 --iopolicy=NUMA
expect set_iopolicy_no_policy 2 'set-iopolicy: missing required option --iopolicy' \
	$NVMECFG set-iopolicy rblk-ctrl0
expect set_iopolicy_no_device 2 'set-iopolicy: no device given \(rblk-ctrlM, rblkN, --device or --index\)' \
	$NVMECFG set-iopolicy --iopolicy numa
expect set_iopolicy_no_value 2 '--iopolicy needs a value' \
	$NVMECFG set-iopolicy --iopolicy -d rblk0
expect set_iopolicy_no_nqn 2 "unknown option '-n'" \
	$NVMECFG set-iopolicy -n $NQN --iopolicy numa

# Host identity from fake /etc/nvme files ($NVMECFG_TEST_ROOT, tests only).
R="env NVMECFG_TEST_ROOT=$ROOT"
UUID_A=12345678-9abc-def0-0123-456789abcdef
UUID_B=fedcba98-7654-3210-fedc-ba9876543210
expect show_host_no_files 0 'hostnqn +-.*from +module.*hostid +-.*from +module.*module +not loaded' \
	sh -c "$R $NVMECFG show | tr '\n' ' '"
printf ' nqn.2014-08.org.nvmexpress:uuid:%s \nignored\n' $UUID_A \
	> "$ROOT/etc/nvme/hostnqn"
expect show_host_file 0 "^hostnqn +nqn.2014-08.org.nvmexpress:uuid:$UUID_A\$" \
	$R $NVMECFG show
expect show_host_file_source 0 "from +file $ROOT/etc/nvme/hostnqn\$" \
	$R $NVMECFG show
expect show_host_id_from_nqn 0 "hostid +$UUID_A from +hostnqn" \
	sh -c "$R $NVMECFG show | tr '\n' ' ' | tr -s ' '"
echo "$UUID_B" > "$ROOT/etc/nvme/hostid"
expect show_host_id_file 0 "hostid +$UUID_B from +file " \
	sh -c "$R $NVMECFG show | tr '\n' ' ' | tr -s ' '"
expect show_host_options 0 "hostnqn +nqn.opt from +option hostid +$UUID_A from +option" \
	sh -c "$R $NVMECFG show -q nqn.opt -I $UUID_A | tr '\n' ' ' | tr -s ' '"
expect show_host_json 0 '"hostnqn_source": "file",' \
	$R $NVMECFG show -o json
expect show_hostnqn_file 0 "^nqn.2014-08.org.nvmexpress:uuid:$UUID_A\$" \
	$R $NVMECFG show-hostnqn
echo "not-a-uuid" > "$ROOT/etc/nvme/hostid"
expect bad_hostid_file 2 "show: $ROOT/etc/nvme/hostid: 'not-a-uuid' is not a UUID" \
	$R $NVMECFG show
expect bad_hostid_file_connect 2 "connect: $ROOT/etc/nvme/hostid: 'not-a-uuid' is not a UUID" \
	$R $NVMECFG connect -a 10.99.0.1 -n $NQN
expect bad_hostid_file_overridden 0 "from +option" \
	$R $NVMECFG show -I $UUID_A
printf 'nqn.%0219d\n' 0 > "$ROOT/etc/nvme/hostnqn"
expect bad_hostnqn_file 2 "discover: $ROOT/etc/nvme/hostnqn: not a host NQN \\(1 to 222 characters\\)" \
	$R $NVMECFG discover -a 10.99.0.1 -I $UUID_A
# Empty (0 bytes): no file, as libnvme takes it.
: > "$ROOT/etc/nvme/hostnqn"
: > "$ROOT/etc/nvme/hostid"
expect blank_host_files 0 'hostnqn +- +from +module.*hostid +- +from +module' \
	sh -c "$R $NVMECFG show 2>/dev/null | tr '\n' ' '"
expect blank_hostnqn_file 3 'show-hostnqn: no .*/etc/nvme/hostnqn, no machine UUID and the rblk module is not loaded' \
	$R $NVMECFG show-hostnqn
expect blank_hostid_file 3 'show-hostid: no .*/etc/nvme/hostid, ' \
	$R $NVMECFG show-hostid
rm -f "$ROOT/etc/nvme/hostnqn" "$ROOT/etc/nvme/hostid"
expect show_hostnqn_nothing 3 'no .*/etc/nvme/hostnqn, no machine UUID and the rblk module is not loaded' \
	$R $NVMECFG show-hostnqn
mkdir -p "$ROOT/sys/module/rblk/parameters"
echo "nqn.2014-08.org.nvmexpress:uuid:$UUID_B" > "$ROOT/sys/module/rblk/parameters/hostnqn"
echo "$UUID_B" > "$ROOT/sys/module/rblk/parameters/hostid"
expect show_host_module 0 "hostnqn +nqn.2014-08.org.nvmexpress:uuid:$UUID_B from +module \(not persistent\) hostid +$UUID_B from +module \(not persistent\) module +loaded" \
	sh -c "$R $NVMECFG show 2>/dev/null | tr '\n' ' ' | tr -s ' '"
expect show_hostnqn_module 0 "^nqn.2014-08.org.nvmexpress:uuid:$UUID_B\$" \
	$R $NVMECFG show-hostnqn
rm -rf "$ROOT/sys"

# Without /etc/nvme/hostnqn: derived from the machine's UUID as nvme-cli
# 2.x does (DMI product_uuid, lowercase), else the module's with a warning
# on stderr.  gen-hostnqn: the machine's, else random.
DMI=$ROOT/sys/class/dmi/id
UUID_DMI=4C4C4544-0042-3510-8052-B4C04F4E4B31
UUID_DMI_LOW=4c4c4544-0042-3510-8052-b4c04f4e4b31
NQN_DMI=nqn.2014-08.org.nvmexpress:uuid:$UUID_DMI_LOW
UUID_RE='[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
V4_RE='[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'
expect show_host_warning 0 "show: warning: no $ROOT/etc/nvme/hostnqn and no machine UUID .*not persistent.*Persist one with: nvmecfg gen-hostnqn > $ROOT/etc/nvme/hostnqn" \
	sh -c "$R $NVMECFG show 2>&1 >/dev/null | tr '\n' ' '"
expect show_host_not_persistent 0 'hostnqn +- +from +module \(not persistent\)' \
	sh -c "$R $NVMECFG show 2>/dev/null | tr '\n' ' ' | tr -s ' '"
# The warning is not in the JSON: stdout stays one valid document.
expect show_host_json_warning_apart 0 '^\{.*"persistent": false *\} *$' \
	sh -c "$R $NVMECFG show -o json 2>/dev/null | tr '\n' ' '"
expect gen_hostnqn_random 0 "^nqn\.2014-08\.org\.nvmexpress:uuid:$V4_RE \$" \
	sh -c "$R $NVMECFG gen-hostnqn 2>/dev/null | tr '\n' ' '"
expect gen_hostnqn_random_note 0 '^nvmecfg: gen-hostnqn: no machine UUID \(DMI, device tree\): a random host NQN$' \
	sh -c "$R $NVMECFG gen-hostnqn 2>&1 >/dev/null"
expect gen_hostnqn_random_differs 0 '^differ$' \
	sh -c "a=\$($R $NVMECFG gen-hostnqn 2>/dev/null); b=\$($R $NVMECFG gen-hostnqn 2>/dev/null); [ \"\$a\" != \"\$b\" ] && echo differ"
expect gen_hostnqn_extra 2 "unexpected argument 'x'" $NVMECFG gen-hostnqn x
expect show_hostid_nothing 3 'show-hostid: no .*/etc/nvme/hostid, .*rblk module is not loaded' \
	$R $NVMECFG show-hostid
mkdir -p "$DMI"
echo "$UUID_DMI" > "$DMI/product_uuid"
expect gen_hostnqn_dmi 0 "^$NQN_DMI \$" \
	sh -c "$R $NVMECFG gen-hostnqn 2>&1 | tr '\n' ' '"
expect show_host_dmi 0 "^hostnqn $NQN_DMI from dmi $DMI/product_uuid \(derived from DMI product UUID\) hostid $UUID_DMI_LOW from hostnqn module not loaded \$" \
	sh -c "$R $NVMECFG show 2>&1 | tr '\n' ' ' | tr -s ' '"
expect show_host_dmi_json 0 '"hostnqn_source": "dmi", .*"hostnqn_derived_from": ".*/sys/class/dmi/id/product_uuid", .*"persistent": true' \
	sh -c "$R $NVMECFG show -o json | tr '\n' ' '"
expect show_hostnqn_dmi 0 "^$NQN_DMI\$" $R $NVMECFG show-hostnqn
expect show_hostid_dmi 0 "^$UUID_DMI_LOW\$" $R $NVMECFG show-hostid
# The file wins over the machine's UUID; gen-hostnqn does not read it.
printf 'nqn.2014-08.org.nvmexpress:uuid:%s\n' $UUID_A > "$ROOT/etc/nvme/hostnqn"
expect show_host_file_over_dmi 0 "^hostnqn nqn.2014-08.org.nvmexpress:uuid:$UUID_A from file $ROOT/etc/nvme/hostnqn hostid $UUID_A from hostnqn " \
	sh -c "$R $NVMECFG show 2>&1 | tr '\n' ' ' | tr -s ' '"
expect gen_hostnqn_not_the_file 0 "^$NQN_DMI\$" $R $NVMECFG gen-hostnqn
echo "$UUID_B" > "$ROOT/etc/nvme/hostid"
expect show_hostid_file 0 "^$UUID_B\$" $R $NVMECFG show-hostid
# An NQN of another form: the host id from the machine, as libnvme.
echo nqn.2014-08.org.example:host > "$ROOT/etc/nvme/hostnqn"
rm -f "$ROOT/etc/nvme/hostid"
expect show_hostid_dmi_other_nqn 0 "hostid $UUID_DMI_LOW from dmi $DMI/product_uuid " \
	sh -c "$R $NVMECFG show | tr '\n' ' ' | tr -s ' '"
rm -f "$ROOT/etc/nvme/hostnqn"
# QEMU without -uuid: all zeros, which libnvme does not take.
echo 00000000-0000-0000-0000-000000000000 > "$DMI/product_uuid"
expect show_host_zero_dmi 0 '^hostnqn +- +from +module \(not persistent\)' \
	sh -c "$R $NVMECFG show 2>/dev/null | tr '\n' ' ' | tr -s ' '"
expect show_host_zero_dmi_warning 0 'show: warning: no .*hostnqn and no machine UUID' \
	sh -c "$R $NVMECFG show 2>&1 >/dev/null"
expect gen_hostnqn_zero_dmi 0 "^nqn\.2014-08\.org\.nvmexpress:uuid:$V4_RE\$" \
	sh -c "$R $NVMECFG gen-hostnqn 2>/dev/null"
mkdir -p "$ROOT/sys/module/rblk/parameters"
echo "$UUID_B" > "$ROOT/sys/module/rblk/parameters/hostid"
expect show_hostid_module 0 "^$UUID_B\$" $R $NVMECFG show-hostid
rm -rf "$ROOT/sys"

# The default DH-HMAC-CHAP host key, /etc/nvme/hostkey: read by connect,
# connect-all and discover when -S is not given; a bad one is a usage
# error naming the file, never the key.
KEY=$ROOT/etc/nvme/hostkey
KEY_A=DHHC-1:00:ia6zGodOr4SEG0Zzaw398rpY0wqipUWj4jWjUh4HWUz6aQ2n:
printf 'DHHC-1:09:SeKrEt:\n' > "$KEY"
# (connect-all reads it after opening netlink: the guest tests it.)
for c in "connect -a 10.99.0.1 -n $NQN" "discover -a 10.99.0.1"; do
	expect "hostkey_malformed_${c%% *}" 2 "^nvmecfg: ${c%% *}: $KEY: not a DH-HMAC-CHAP key \\(DHHC-1:NN:<base64>:, NN 00-03\\)\$" \
		$R $NVMECFG $c
done
expect hostkey_malformed_not_shown 0 '^not shown$' \
	sh -c "$R $NVMECFG connect -a 10.99.0.1 -n $NQN 2>&1 | grep -q SeKrEt || echo not shown"
# Not the first line: only that one counts.
printf 'SeKrEt\n%s\n' "$KEY_A" > "$KEY"
expect hostkey_first_line 2 "connect: $KEY: not a DH-HMAC-CHAP key" \
	$R $NVMECFG connect -a 10.99.0.1 -n $NQN
# Root's (chmod 600), read by another user: permission denied, exit 4.
printf '%s\n' "$KEY_A" > "$KEY" && chmod 600 "$KEY"
if [ "$(id -u)" -ne 0 ]; then
	# Not root: a file of one's own, unreadable.
	AS_USER=
	chmod 000 "$KEY"
elif command -v setpriv >/dev/null &&
     setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$ROOT" "$ROOT/etc" "$ROOT/etc/nvme"
else
	AS_USER=none
fi
for c in connect discover; do
	if [ "$AS_USER" = none ]; then
		n=$((n + 1))
		echo "ok $n hostkey_denied_$c # SKIP root without setpriv"
		continue
	fi
	expect "hostkey_denied_$c" 4 "^nvmecfg: $c: $KEY: Permission denied\$" \
		$AS_USER env NVMECFG_TEST_ROOT="$ROOT" $NVMECFG $c -a 10.99.0.1 -n $NQN
done
mkdir -p "$ROOT/dir" && rm -f "$KEY" && ln -s "$ROOT/dir" "$KEY"
expect hostkey_unreadable 2 "^nvmecfg: connect: $KEY: " \
	$R $NVMECFG connect -a 10.99.0.1 -n $NQN
rm -f "$KEY"

# connect-all without -a: the lines of discovery.conf.
CONF=$ROOT/etc/nvme/discovery.conf
expect conf_missing 2 "connect-all: no -a given and no $CONF" \
	$R $NVMECFG connect-all
printf '# only comments\n\n   \n\t# indented comment\n' > "$CONF"
expect conf_empty 0 "connect-all: no targets in $CONF" $R $NVMECFG connect-all
printf '# c\n-t rdma -a 10.99.0.1 -s 4420\n--frob 1\n\n-a 10.99.0.2 -i 0\n' > "$CONF"
expect conf_bad_option 2 "connect-all: $CONF:3: unknown option '--frob'" \
	$R $NVMECFG connect-all
expect conf_bad_range 2 "connect-all: $CONF:5: --nr-io-queues \(-i\): 0 is out of range 1-128" \
	$R $NVMECFG connect-all
printf -- '-a 10.99.0.1 --trsvcid=99999\n' > "$CONF"
expect conf_bad_trsvcid 2 "^nvmecfg: connect-all: $CONF:1: --trsvcid \\(-s\\): 99999 is out of range 1-65535; line skipped\$" \
	$R $NVMECFG connect-all
printf -- '-t rdma -s 4420\n' > "$CONF"
expect conf_no_traddr 2 "connect-all: $CONF:1: missing required option --traddr" \
	$R $NVMECFG connect-all
printf -- '-a 10.99.0.1 -a 10.99.0.2\n' > "$CONF"
expect conf_duplicate 2 "$CONF:1: --traddr \(-a\) given more than once" \
	$R $NVMECFG connect-all
printf -- '-a 10.99.0.1 -h\n' > "$CONF"
expect conf_help_in_line 2 "$CONF:1: unknown option '-h'" \
	$R $NVMECFG connect-all
printf -- '-a 10.99.0.1 -D=1\n' > "$CONF"
# '=' separates as a blank does, as in nvme-cli.
expect conf_flag_value 2 "$CONF:1: unexpected argument '1'" \
	$R $NVMECFG connect-all
# nvme-cli's options rblk has not: a warning naming each and the line;
# a bad line is skipped and fails the run (exit 2), after the others.  A
# DH-HMAC-CHAP key anywhere but after -S or -C makes a bad line, and so
# does a malformed one, neither said.
printf -- '-a 10.99.0.1 --host-iface=eth0 -i 0\n-a 10.99.0.2 -q DHHC-1:00:SeKrEt:\n-a 10.99.0.3 -C DHHC-1:05:SeKrEt:\n' > "$CONF"
expect conf_nvme_cli_option 2 "$CONF:1: --nr-io-queues \\(-i\\): 0 is out of range 1-128; line skipped" \
	$R $NVMECFG connect-all
expect conf_nvme_cli_option_warnings 0 "^nvmecfg: connect-all: $CONF:1: warning: ignoring --host-iface \\(-f\\): rblk binds by --host-traddr, else by routing nvmecfg: connect-all: $CONF:1: --nr-io-queues \\(-i\\): 0 is out of range 1-128; line skipped nvmecfg: connect-all: $CONF:2: a DH-HMAC-CHAP key not given with -S or -C; line skipped nvmecfg: connect-all: $CONF:3: --dhchap-ctrl-secret \\(-C\\): not a DH-HMAC-CHAP key \\(DHHC-1:NN:<base64>:, NN 00-03\\); line skipped \$" \
	sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '"
expect conf_secret_not_shown 0 '^not shown$' \
	sh -c "$R $NVMECFG connect-all 2>&1 | grep -q SeKrEt || echo not shown"
expect connect_all_bad_key 2 "^nvmecfg: connect-all: --dhchap-secret \\(-S\\): not a DH-HMAC-CHAP key" \
	$NVMECFG connect-all -a 10.99.0.1 -S DHHC-1:00:SeKrEt
expect connect_all_bad_key_not_shown 0 '^not shown$' \
	sh -c "$NVMECFG connect-all -a 10.99.0.1 -S DHHC-1:00:SeKrEt 2>&1 | grep -q SeKrEt || echo not shown"
# A key quoted in no error: a stray one, a misspelt option's, another
# option's value, a command.
expect key_stray_not_quoted 2 "^nvmecfg: connect: unexpected argument '<DH-HMAC-CHAP key>'\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -S "$KEY_A" "$KEY_A"
expect key_misspelt_not_quoted 2 "^nvmecfg: connect: unknown option '<DH-HMAC-CHAP key>'\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN --dhchap-secert="$KEY_A"
expect key_hostid_not_quoted 2 "^nvmecfg: connect: --hostid \\(-I\\): '<DH-HMAC-CHAP key>' is not a UUID\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -I "$KEY_A"
expect key_command_not_quoted 2 "^nvmecfg: unknown command '<DH-HMAC-CHAP key>'\$" \
	$NVMECFG "$KEY_A"
expect key_args_not_shown 0 '^not shown$' \
	sh -c "{ $NVMECFG connect -a 10.99.0.1 -n $NQN -S $KEY_A $KEY_A
		 $NVMECFG connect -a 10.99.0.1 -n $NQN --dhchap-secert=$KEY_A
		 $NVMECFG connect -a 10.99.0.1 -n $NQN -I $KEY_A
		 $NVMECFG help $KEY_A; $NVMECFG $KEY_A; } 2>&1 |
		grep -q ia6zGodOr4SEG0Zz || echo not shown"

# config.json (-J FILE, else /etc/nvme/config.json): nvme-cli's schema.
JSON=$ROOT/etc/nvme/config.json
rm -f "$CONF"
expect conf_none 2 "connect-all: no -a given and no $CONF or $JSON\$" \
	$R $NVMECFG connect-all
expect json_missing 2 "connect-all: $ROOT/x.json: No such file or directory\$" \
	$R $NVMECFG connect-all -J "$ROOT/x.json"
expect json_none 2 "connect-all: no -a given and no $CONF\$" \
	$R $NVMECFG connect-all -J none
expect json_and_traddr 2 'connect-all: --config \(-J\) names targets: not with --traddr \(-a\)' \
	$R $NVMECFG connect-all -J "$JSON" -a 10.99.0.1
expect json_help 0 "^  -J, --config FILE +targets in nvme-cli's JSON config, 'none' for none \\(default: /etc/nvme/config.json\\)\$" \
	$NVMECFG connect-all --help
printf ' \n' > "$JSON"
expect json_empty 0 "connect-all: no targets in $JSON\$" $R $NVMECFG connect-all
printf '[\n  {"hostnqn": "h",\n   "subsystems": [1,,]}\n]\n' > "$JSON"
expect json_syntax 2 "connect-all: $JSON: not valid JSON: line 3, column 21: unexpected character ','\$" \
	$R $NVMECFG connect-all
# Parsed as json-c parses without JSON_TOKENER_STRICT (libnvme 1.0, 1.1):
# comments and trailing commas are taken, the lines after them right.
cat > "$JSON" <<'EOF_JSON'
[
  // a host, "h" [ {
  {"hostnqn": "h", /* a "b",
  c */ "subsystems": [{"nqn": "n",
    "ports": [{"transport": "tcp", "traddr": "10.99.0.1",},],},],},
]
EOF_JSON
expect json_comment 0 "^nvmecfg: connect-all: $JSON:5: warning: skipping transport tcp \\(only rdma\\) nvmecfg: connect-all: no targets in $JSON \$" \
	sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '"
cat > "$JSON" <<'EOF_JSON'
[
  {
    "hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
    "subsystems": [
      {
        "nqn": "nqn.2026-12.io.rblk:test",
        "ports": [
          { "transport": "tcp", "traddr": "10.99.0.1", "host_iface": "eth0" },
          { "transport": "rdma", "traddr": "10.99.0.1", "queue_size": "64k" }
        ]
      }
    ]
  }
]
EOF_JSON
expect json_bad_port 2 "$JSON:9: \"queue_size\": '64k' is not a whole number; port skipped\$" \
	$R $NVMECFG connect-all
expect json_bad_port_messages 0 "^nvmecfg: connect-all: $JSON:8: warning: skipping transport tcp \\(only rdma\\) nvmecfg: connect-all: $JSON:9: [^ ]+ '64k' is not a whole number; port skipped \$" \
	sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '"
# A controller key of a host: refused, exit 2, the key not shown.
cat > "$JSON" <<'EOF_JSON'
[{"hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
  "dhchap_ctrl_key": "DHHC-1:00:SeKrEt:",
  "subsystems": [{"nqn": "nqn.2026-12.io.rblk:test",
    "ports": [{"transport": "rdma", "traddr": "10.99.0.1"}]}]}]
EOF_JSON
expect json_ctrl_key_refused 2 "^nvmecfg: connect-all: $JSON:2: \"dhchap_ctrl_key\": a port's key only \\(where libnvme reads it\\); host skipped\$" \
	$R $NVMECFG connect-all
expect json_ctrl_key_not_shown 0 '^not shown$' \
	sh -c "$R $NVMECFG connect-all 2>&1 | grep -q SeKrEt || echo not shown"
cat > "$JSON" <<'EOF_JSON'
[{"hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
  "subsystems": [{"nqn": "nqn.2026-12.io.rblk:test",
    "ports": [{"transport": "rdma", "traddr": "10.99.0.1",
      "trsvcid": "abc"}]}]}]
EOF_JSON
expect json_bad_trsvcid 2 "^nvmecfg: connect-all: $JSON:4: \"trsvcid\": 'abc' is not a number; port skipped\$" \
	$R $NVMECFG connect-all
rm -f "$JSON"

# list-subsys and show-topology ask the kernel (netlink), never sysfs: the
# output itself is output_test's and json_test's, the kernel's side the
# guest's (mpath_topology).  What nvmecfg refuses itself:
expect list_subsys_ctrl 2 'list-subsys: rblk-ctrl0 is a controller: name a namespace device' \
	$NVMECFG list-subsys rblk-ctrl0
expect list_subsys_two_devices 2 'more than one device given' \
	$NVMECFG list-subsys rblk0 rblk1
expect show_topology_ranking 2 "show-topology: --ranking \\(-r\\): 'frob' is not namespace or ctrl" \
	$NVMECFG show-topology -r frob
expect show_topology_device 2 "show-topology: unexpected argument 'rblk0'" \
	$NVMECFG show-topology rblk0
expect stats_r_is_reset 2 "stats: --reset \\(-r\\) takes no value" \
	$NVMECFG stats rblk0 -rctrl
expect show_topology_no_module 3 'rblk module not loaded' $NVMECFG show-topology -r ctrl
expect list_subsys_dev_no_module 3 'rblk module not loaded' $NVMECFG list-subsys -v /dev/rblk0
expect list_subsys_no_module 3 'rblk module not loaded' $NVMECFG list-subsys

# --conf-dir DIR: rblk-autoconnect.service's files (/etc/rblk), not
# /etc/nvme's; --record FILE: what connect-all made, and all that
# disconnect-all --record FILE disconnects.  Neither needs the module
# where there is nothing to connect or disconnect.
CD=$ROOT/etc/rblk
mkdir -p "$CD"
expect conf_dir_none 2 "connect-all: no -a given and no $CD/discovery.conf or $CD/config.json\$" \
	$NVMECFG connect-all --conf-dir "$CD"
printf -- '--traddr=10.99.0.1 --frob\n' > "$CD/discovery.conf"
expect conf_dir_read 2 "connect-all: $CD/discovery.conf:1: unknown option '--frob'" \
	$NVMECFG connect-all --conf-dir "$CD"
expect conf_dir_json_too 2 "connect-all: $CD/config.json: not valid JSON" \
	sh -c "echo '[,' > '$CD/config.json'; $NVMECFG connect-all --conf-dir '$CD'"
expect conf_dir_json_override 2 "connect-all: $ROOT/x.json: No such file or directory\$" \
	$NVMECFG connect-all --conf-dir "$CD" -J "$ROOT/x.json"
rm -f "$CD/config.json"
expect conf_dir_and_traddr 2 'connect-all: --conf-dir names targets: not with --traddr \(-a\)' \
	$NVMECFG connect-all --conf-dir "$CD" -a 10.99.0.1
expect conf_dir_empty 2 'conf-dir: empty value' $NVMECFG connect-all --conf-dir ''
# discover reads the same files as connect-all with --conf-dir.
expect conf_dir_discover_none 2 "discover: no -a given and no $CD/discovery.conf or $CD/config.json\$" \
	sh -c "rm -f '$CD/discovery.conf'; $NVMECFG discover --conf-dir '$CD'"
expect conf_dir_discover_read 2 "discover: $CD/discovery.conf:1: unknown option '--frob'" \
	sh -c "printf -- '--traddr=10.99.0.1 --frob\\n' > '$CD/discovery.conf'; $NVMECFG discover --conf-dir '$CD'"
expect conf_dir_discover_traddr 2 'discover: --conf-dir names targets: not with --traddr \(-a\)' \
	$NVMECFG discover --conf-dir "$CD" -a 10.99.0.1
: > "$CD/discovery.conf"
REC=$ROOT/run/autoconnect
mkdir -p "$ROOT/run"
expect record_created 0 "^created, empty\$" \
	sh -c "$NVMECFG connect-all --conf-dir '$CD' --record '$REC' 2>/dev/null;
		[ -f '$REC' ] && [ ! -s '$REC' ] && echo created, empty"
expect record_unwritable 2 "connect-all: --record $ROOT/no/such: No such file or directory\$" \
	$NVMECFG connect-all --conf-dir "$CD" --record "$ROOT/no/such"
expect record_empty_value 2 'record: empty value' $NVMECFG connect-all --record ''
expect record_not_connect 2 "connect: unknown option '--record'" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN --record "$REC"
expect record_not_disconnect 2 "disconnect: unknown option '--record'" \
	$NVMECFG disconnect rblk-ctrl0 --record "$REC"
expect conf_dir_not_disconnect_all 2 "disconnect-all: unknown option '--conf-dir'" \
	$NVMECFG disconnect-all --conf-dir "$CD"
expect disconnect_all_record_none 0 '^disconnected 0 controller\(s\)$' \
	$NVMECFG disconnect-all --record "$ROOT/no/such"
expect disconnect_all_record_empty 0 '^disconnected 0 controller\(s\)$' \
	$NVMECFG disconnect-all --record "$REC"
expect disconnect_all_record_removed 0 '^removed$' \
	sh -c "[ -e '$REC' ] || echo removed"
# Lines to disconnect need the module: exit 3, and the record is kept.
expect disconnect_all_record_kept 3 'rblk module not loaded' \
	sh -c "echo 'rblk-ctrl0 10.99.0.1 4420 $NQN' > '$REC'; $NVMECFG disconnect-all --record '$REC'; rc=\$?; [ -s '$REC' ] && echo kept; exit \$rc"

# The man page describes every command and every option of each.
MAN=${NVMECFG_MAN:-../../Documentation/nvmecfg.8}
n=$((n + 1))
missing=
if [ -r "$MAN" ]; then
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MAN" > "$OUT.man"
	for c in $($NVMECFG help | sed -n 's/^  \([a-z-]*\)  .*/\1/p'); do
		grep -q -- "^\.B.* $c\b\|^\.B $c\b\|^\.BR $c\b" "$OUT.man" ||
			missing="$missing $c"
		for o in $($NVMECFG "$c" --help | grep -o -- '--[a-z_-]*'); do
			grep -q -- "$o" "$OUT.man" || missing="$missing $c:$o"
		done
	done
	if [ -z "$missing" ]; then
		echo "ok $n man_page_complete"
	else
		echo "# not in nvmecfg.8:$missing"
		echo "not ok $n man_page_complete"
	fi
else
	echo "ok $n man_page_complete # SKIP no $MAN"
fi

# The man page names every counter stats prints (in bold, as its JSON
# OUTPUT lists them): the UAPI's RBLK_STAT_NAMES and what nvmecfg adds.
UAPI=../../include/uapi/linux/rblk.h
n=$((n + 1))
missing=
if [ -r "$MAN" ] && [ -r "$UAPI" ]; then
	for c in $(sed -n '/#define RBLK_STAT_NAMES {/,/^}/p' "$UAPI" |
		   grep -o '"[a-z_]*"' | tr -d '"') \
		 commands_per_doorbell latency_hist_us; do
		grep -qE "^\.BR? $c( |,|\$)" "$OUT.man" || missing="$missing $c"
	done
	if [ -z "$missing" ]; then
		echo "ok $n man_page_stats_counters"
	else
		echo "# counters not in nvmecfg.8:$missing"
		echo "not ok $n man_page_stats_counters"
	fi
else
	echo "ok $n man_page_stats_counters # SKIP no $MAN or $UAPI"
fi

# The bash completion generated from this nvmecfg, driven as bash drives
# it: the values of --iopolicy come from its help line.
GEN_COMP=../../scripts/gen-completion.sh
# ccheck NAME WANT WORDS...: completing the last of WORDS offers WANT.
ccheck() {
	_name=$1 _want=$2
	shift 2
	n=$((n + 1))
	if ! command -v bash > /dev/null || [ ! -r "$GEN_COMP" ]; then
		echo "ok $n $_name # SKIP no bash or no $GEN_COMP"
		return
	fi
	_got=$(bash -c '. "$1"; shift; COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _nvmecfg
		echo "${COMPREPLY[*]}"' sh "$OUT.comp" "$@" 2>&1)
	if [ "$_got" = "$_want" ]; then
		echo "ok $n $_name"
	else
		echo "# completing '$*': '$_got', want '$_want'"
		echo "not ok $n $_name"
	fi
}
[ -r "$GEN_COMP" ] && bash "$GEN_COMP" $NVMECFG > "$OUT.comp"
ccheck completion_command set-iopolicy nvmecfg set-io
ccheck completion_iopolicy_option --iopolicy nvmecfg set-iopolicy rblk0 --io
ccheck completion_iopolicy_values "numa round-robin queue-depth" \
	nvmecfg set-iopolicy rblk0 --iopolicy ''
ccheck completion_iopolicy_prefix round-robin \
	nvmecfg set-iopolicy -d rblk-ctrl0 --iopolicy r
# The keys' options on the three commands that take them; no value offered.
for c in connect connect-all discover; do
	ccheck "completion_dhchap_$c" "--dhchap-secret --dhchap-ctrl-secret" \
		nvmecfg "$c" --dhchap
done
ccheck completion_dhchap_no_values "" nvmecfg connect-all -S ''


# nvme-cli 2.x's options that rblk has not: the command line refuses each
# with the reason discovery.conf's warning gives for it (one table).
# FOREIGN: "nvme-cli command|argument as given|name in the messages".
CONF=$ROOT/etc/nvme/discovery.conf
for f in "connect-all|-f eth0|--host-iface (-f)" \
	 "connect-all|--keyring=kr|--keyring" \
	 "connect-all|--tls-key x|--tls-key" \
	 "connect-all|--tls_key 1|--tls-key" \
	 "connect-all|--tls-key-identity x|--tls-key-identity" \
	 "connect-all|--tls|--tls" \
	 "connect-all|--concat|--concat" \
	 "connect-all|-g|--hdr-digest (-g)" \
	 "connect-all|--data-digest|--data-digest (-G)" \
	 "connect-all|--disable-sqflow|--disable-sqflow" \
	 "connect-all|--force|--force" \
	 "connect-all|-r /tmp/x|--raw (-r)" \
	 "connect-all|--nbft|--nbft" \
	 "connect-all|--no-nbft|--no-nbft" \
	 "connect-all|--nbft-path /x|--nbft-path" \
	 "connect-all|--context ctx|--context" \
	 "connect-all|-v|--verbose (-v)"; do
	o=$(echo "$f" | cut -d'|' -f2)
	name=$(echo "$f" | cut -d'|' -f3)
	printf -- '-a 10.99.0.1 %s\n' "$o" > "$CONF"
	why=$($R $NVMECFG connect-all -J none 2>&1 | sed -n "s/^nvmecfg: connect-all: .*:1: warning: ignoring [^:]*: //p")
	# shellcheck disable=SC2086 # $o is words
	expect "refused_$(echo "$o" | tr -c 'a-z\n' _ | sed 's/^_*//')" 2 \
		"^nvmecfg: connect-all: $(echo "$name: $why" | sed 's/[()]/\\&/g')\$" \
		$NVMECFG connect-all -a 10.99.0.1 $o
done
rm -f "$CONF"
expect refused_why_same_discover 2 "^nvmecfg: discover: --hdr-digest \\(-g\\): digests are NVMe/TCP's\$" \
	$NVMECFG discover -a 10.99.0.1 -g
# Per command, as nvme-cli's: -d is discover's --device, connect's old
# --disable-sqflow; -J of connect connects without discovery.
expect refused_discover_device 2 "^nvmecfg: discover: --device \\(-d\\): rblk asks a discovery controller of its own \\(kept with -p, --persistent\\)\$" \
	$NVMECFG discover -a 10.99.0.1 -d nvme0
# -p (--persistent) is discover's and connect-all's, on the command line:
# parsed, then the missing module stops them; a discovery.conf line's is
# ignored with a warning (below); connect and monitor have none.
expect persistent_connect_all 3 'rblk module not loaded' \
	$NVMECFG connect-all -a 10.99.0.1 -p
expect persistent_connect_all_long 3 'rblk module not loaded' \
	$NVMECFG connect-all -a 10.99.0.1 --persistent
expect persistent_discover 3 'rblk module not loaded' \
	$NVMECFG discover -a 10.99.0.1 -p
expect persistent_value 2 "^nvmecfg: discover: --persistent \\(-p\\) takes no value" \
	$NVMECFG discover -a 10.99.0.1 --persistent=1
expect persistent_monitor 2 "^nvmecfg: monitor: unknown option '-p'" \
	$NVMECFG monitor -p
expect autoconnect_monitor 3 'rblk module not loaded' \
	$NVMECFG monitor --autoconnect --timeout 1
expect autoconnect_connect_all 2 "^nvmecfg: connect-all: unknown option '--autoconnect'" \
	$NVMECFG connect-all -a 10.99.0.1 --autoconnect
expect persistent_help 0 '-p, --persistent +keep the discovery controller connected' \
	$NVMECFG connect-all --help
expect refused_connect_sqflow 2 "^nvmecfg: connect: --disable-sqflow \\(-d\\): rblk keeps SQ flow control\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -d
expect refused_connect_config 2 "^nvmecfg: connect: --config \\(-J\\): connect-all reads config.json \\(-J\\)\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -J /etc/nvme/config.json
expect refused_connect_tls 2 "^nvmecfg: connect: --tls: TLS is NVMe/TCP's\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN --tls
expect refused_disconnect_verbose 2 "^nvmecfg: disconnect: --verbose \\(-v\\): nvme-cli's log level: rblk logs to the kernel log\$" \
	$NVMECFG disconnect rblk-ctrl0 -v
# Not nvme-cli's for that command: unknown, as before.
expect connect_persistent_unknown 2 "connect: unknown option '-p'" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -p
expect show_host_iface_unknown 2 "show: unknown option '-f'" \
	$NVMECFG show -f eth0
# Its tuning options shape a discovery controller discover does not keep.
expect discover_tuning_refused 2 "^nvmecfg: discover: --nr-io-queues \\(-i\\): discover keeps no controller" \
	$NVMECFG discover -a 10.99.0.1 -i 4
expect discover_tuning_not_in_help 0 '^absent$' \
	sh -c "$NVMECFG discover --help | grep -q -- --nr-io-queues || echo absent"
expect fast_io_fail_short 2 "^nvmecfg: connect: --fast_io_fail_tmo \\(-F\\): 'x' is not a number\$" \
	$NVMECFG connect -a 10.99.0.1 -n $NQN -F x
expect help_dump_config 0 '^  -O, --dump-config ' $NVMECFG connect-all --help
expect help_quiet 0 '^      --quiet ' $NVMECFG connect-all --help
expect help_wait_default 0 "^--wait-timeout's default: 30 \\(connect then returns" \
	$NVMECFG connect --help
expect help_wait_default_disconnect 0 "^--wait-timeout's default: no limit" \
	$NVMECFG disconnect --help
expect dump_config_not_list 2 "list: unknown option '-O'" $NVMECFG list -O
# disconnect -d NAME,NAME (nvme-cli's): each name checked; one device
# elsewhere.
expect disconnect_list_empty 2 "disconnect: empty device name" \
	$NVMECFG disconnect -d rblk-ctrl0,,rblk-ctrl1
expect disconnect_list_long_name 2 "device name 'rblk-ctrl0123456789012345678901234' too long" \
	$NVMECFG disconnect -d rblk-ctrl0,rblk-ctrl0123456789012345678901234
expect show_one_device 2 "^nvmecfg: show: one device only, not 'rblk0,rblk1'\$" \
	$NVMECFG show rblk0,rblk1
expect reset_one_device 2 "reset: one device only" $NVMECFG reset -d rblk-ctrl0,rblk-ctrl1
# discover without -a reads the files, as connect-all.
JSON=$ROOT/etc/nvme/config.json
rm -f "$CONF" "$JSON"
expect discover_no_files 2 "^nvmecfg: discover: no -a given and no $CONF or $JSON\$" \
	$R $NVMECFG discover
printf -- '-a 10.99.0.1 --frob\n' > "$CONF"
expect discover_conf_bad_line 2 "^nvmecfg: discover: $CONF:1: unknown option '--frob'; line skipped\$" \
	$R $NVMECFG discover
printf -- '-a 10.99.0.1 -g\n' > "$CONF"
expect discover_conf_warning 0 "^nvmecfg: discover: $CONF:1: warning: ignoring --hdr-digest \\(-g\\): digests are NVMe/TCP's\$" \
	sh -c "$R $NVMECFG discover 2>&1; true"
expect discover_config_and_traddr 2 "discover: --config \\(-J\\) names targets: not with --traddr \\(-a\\)" \
	$NVMECFG discover -a 10.99.0.1 -J "$JSON"
rm -f "$CONF"
# LIBNVME_HOSTNQN and LIBNVME_HOSTID stand for the files, as in libnvme;
# set but empty, for no file.
printf 'nqn.2014-08.org.nvmexpress:uuid:%s\n' $UUID_A > "$ROOT/etc/nvme/hostnqn"
expect env_hostnqn 0 "^hostnqn nqn.env from env LIBNVME_HOSTNQN hostid $UUID_A from env LIBNVME_HOSTID " \
	sh -c "LIBNVME_HOSTNQN=nqn.env LIBNVME_HOSTID=$UUID_A $R $NVMECFG show 2>/dev/null | tr -s ' \n' '  '"
expect env_hostnqn_json 0 '"hostnqn_source": "env",' \
	env LIBNVME_HOSTNQN=nqn.env $R $NVMECFG show -o json
expect env_hostnqn_empty 0 "^hostnqn - from module \\(not persistent\\) " \
	sh -c "LIBNVME_HOSTNQN= $R $NVMECFG show 2>/dev/null | tr -s ' \n' '  '"
expect env_hostnqn_option_wins 0 "^hostnqn nqn.opt from option " \
	sh -c "LIBNVME_HOSTNQN=nqn.env $R $NVMECFG show -q nqn.opt 2>/dev/null | tr -s ' \n' '  '"
expect env_hostid_bad 2 "^nvmecfg: connect: LIBNVME_HOSTID: 'xyz' is not a UUID\$" \
	env LIBNVME_HOSTID=xyz $R $NVMECFG connect -a 10.99.0.1 -n $NQN
expect env_hostnqn_long 2 "^nvmecfg: discover: LIBNVME_HOSTNQN: not a host NQN" \
	env LIBNVME_HOSTNQN="$LONG_NQN" $R $NVMECFG discover -a 10.99.0.1
rm -f "$ROOT/etc/nvme/hostnqn"

# Beyond the command line: the host kernel has no rblk family.
if [ -d /sys/module/rblk ]; then
	n=$((n + 1)); echo "ok $n module_missing # SKIP rblk loaded on the host"
	n=$((n + 1)); echo "ok $n module_missing_json # SKIP rblk loaded"
	n=$((n + 1)); echo "ok $n module_missing_ctrl # SKIP rblk loaded"
	for t in module_missing_hint ipv6_scope_id host_traddr disconnect_nqn \
		 disconnect_all disconnect_force hostkey_absent hostkey_empty hostkey_valid \
		 hostkey_overridden conf_valid conf_only_tcp connect_all_cmdline \
		 conf_bad_line_others_tried json_valid json_valid_warnings \
		 json_coerced json_coerced_quiet json_lax json_lax_quiet \
		 json_key_taken json_key_not_shown \
		 discover_dump set_iopolicy_module_missing list_verbose \
		 netns_other netns_unknown nvme_cli_connect_options \
		 nvme_cli_discover_options connect_all_json connect_all_json_valid \
		 discover_files disconnect_list disconnect_nqn_list \
		 connect_dump_config; do
		n=$((n + 1)); echo "ok $n $t # SKIP rblk loaded"
	done
else
	expect module_missing 3 'rblk module not loaded' $NVMECFG list
	# Every nvme-cli option rblk has, accepted (then: no module).
	KEYH=DHHC-1:00:MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDHeCBmH:
	expect nvme_cli_connect_options 3 'rblk module not loaded' \
		$NVMECFG connect -t rdma -n $NQN -a 10.99.0.1 -s 4420 \
		-w 10.99.0.2 -q nqn.host -I $UUID_A -S $KEYH -C $KEYH \
		-i 2 -W 1 -P 1 -Q 64 -k 5 -c 2 -l 60 -F 5 -T 8 -D -O \
		-o json
	expect nvme_cli_discover_options 3 'rblk module not loaded' \
		$NVMECFG discover -t rdma -n nqn.2014-08.org.nvmexpress.discovery \
		-a 10.99.0.1 -s 8009 -w 10.99.0.2 -q nqn.host -I $UUID_A \
		-S $KEYH -O -o json --quiet
	expect connect_all_json 3 '^\{ *"connected": *\[ *\] *\}$' \
		sh -c "$NVMECFG connect-all -a 10.99.0.1 -o json --quiet 2>/dev/null | tr -d ' \n'; exit 3"
	expect connect_all_json_valid 0 '^valid$' \
		sh -c "$NVMECFG connect-all -a 10.99.0.1 -o json 2>/dev/null | python3 -m json.tool >/dev/null && echo valid"
	printf -- '-a 10.99.0.1\n' > "$CONF"
	expect discover_files 3 'rblk module not loaded' $R $NVMECFG discover
	rm -f "$CONF"
	expect disconnect_list 3 'rblk module not loaded' \
		$NVMECFG disconnect -d /dev/rblk-ctrl0,rblk-ctrl1,rblk-ctrl2,rblk-ctrl3
	expect disconnect_nqn_list 3 'rblk module not loaded' \
		$NVMECFG disconnect -n $NQN,nqn.2026-12.io.rblk:other
	expect connect_dump_config 3 'rblk module not loaded' \
		$NVMECFG connect -a 10.99.0.1 -n $NQN --dump-config
	expect module_missing_json 3 'rblk module not loaded' \
		$NVMECFG connect -a 10.99.0.1 -n $NQN -D -o json
	expect module_missing_ctrl 3 'rblk module not loaded' \
		$NVMECFG show rblk-ctrl0
	expect module_missing_hint 3 "Load it with 'modprobe rblk' \(or 'insmod rblk.ko'\)" \
		$NVMECFG list
	# Past every check of the tool: only the kernel can say more.
	expect ipv6_scope_id 3 'rblk module not loaded' \
		$NVMECFG connect -a fe80::1%dummy0 -n blktests-subsystem-1
	expect host_traddr 3 'rblk module not loaded' \
		$NVMECFG connect -a 10.99.0.1 -n $NQN -w fe80::2%dummy0 -T 0
	expect disconnect_nqn 3 'rblk module not loaded' \
		$NVMECFG disconnect -n $NQN
	expect disconnect_all 3 'rblk module not loaded' $NVMECFG disconnect-all
	expect disconnect_force 3 'rblk module not loaded' \
		$NVMECFG disconnect --force /dev/rblk0
	# Past the default key file: absent, empty, a key, or a bad one
	# with -S given (not read then).
	expect hostkey_absent 3 'rblk module not loaded' \
		$R $NVMECFG connect -a 10.99.0.1 -n $NQN
	printf ' \n' > "$KEY"
	expect hostkey_empty 3 'rblk module not loaded' \
		$R $NVMECFG connect -a 10.99.0.1 -n $NQN
	printf '%s\n' "$KEY_A" > "$KEY"
	expect hostkey_valid 3 'rblk module not loaded' \
		$R $NVMECFG discover -a 10.99.0.1
	printf 'DHHC-1:09:SeKrEt:\n' > "$KEY"
	expect hostkey_overridden 3 'rblk module not loaded' \
		$R $NVMECFG connect -a 10.99.0.1 -n $NQN -S "$KEY_A"
	rm -f "$KEY"
	# Comments, blanks, '=' separators and other transports are fine.
	printf '# c\n\n-t rdma -a 10.99.0.1 -s 4420\n--transport=tcp -a 10.99.0.3\n--traddr=10.99.0.2 -q host-x --keep-alive-tmo=3\n' > "$CONF"
	expect conf_valid 3 "$CONF:4: warning: skipping transport tcp \(only rdma\)" \
		$R $NVMECFG connect-all
	printf -- '-t tcp -a 10.99.0.3\n' > "$CONF"
	expect conf_only_tcp 0 "$CONF:1: warning: skipping transport tcp" \
		$R $NVMECFG connect-all
	expect connect_all_cmdline 3 'rblk module not loaded' \
		$R $NVMECFG connect-all -a 10.99.0.1 -s 4420 -q host-x -k 3
	# A bad line fails the run, and the good ones are still tried.
	printf -- '-a 10.99.0.1 --frob\n-a 10.99.0.2\n' > "$CONF"
	expect conf_bad_line_others_tried 0 "$CONF:1: unknown option '--frob'; line skipped nvmecfg: rblk module not loaded .* exit 2\$" \
		sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '; $R $NVMECFG connect-all >/dev/null 2>&1; echo exit \$?"
	rm -f "$CONF"
	# A config.json nvme-cli wrote, with what rblk ignores: past the
	# files, the kernel's turn.
	cat > "$JSON" <<'EOF_JSON'
[
  {
    "hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
    "hostid": "12345678-9abc-def0-0123-456789abcdef",
    "subsystems": [
      {
        "nqn": "nqn.2026-12.io.rblk:test",
        "ports": [
          {
            "transport": "rdma",
            "traddr": "10.99.0.1",
            "trsvcid": "4420",
            "host_iface": "eth0",
            "nr_io_queues": 2,
            "ctrl_loss_tmo": -1,
            "persistent": true
          }
        ]
      }
    ]
  }
]
EOF_JSON
	expect json_valid 3 'rblk module not loaded' \
		$R $NVMECFG connect-all -J "$JSON"
	expect json_valid_warnings 0 "^nvmecfg: connect-all: $JSON:13: warning: ignoring \"host_iface\": rblk binds by host_traddr, else by routing nvmecfg: rblk module not loaded" \
		sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '"
	# libnvme's coercions: a number where a string is taken, a string
	# where a number is; nothing said, the kernel's turn.
	cat > "$JSON" <<'EOF_JSON'
[{"hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
  "subsystems": [{"nqn": "nqn.2026-12.io.rblk:test",
    "ports": [{"transport": "rdma", "traddr": "10.99.0.1",
      "trsvcid": 4420, "nr_io_queues": "4", "dhchap_key": "none"}]}]}]
EOF_JSON
	expect json_coerced 3 'rblk module not loaded' \
		$R $NVMECFG connect-all
	expect json_coerced_quiet 0 '^nvmecfg: rblk module not loaded' \
		sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '"
	# The issue's four cases in one file: a trailing comma, a comment,
	# "trsvcid": 4420 and "nr_io_queues": "4"; the port read, no error.
	cat > "$JSON" <<'EOF_JSON'
[
  {
    "hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
    // the array's target
    "subsystems": [
      {
        "nqn": "nqn.2026-12.io.rblk:test",
        "ports": [
          {
            "transport": "rdma",
            "traddr": "10.99.0.1",
            "trsvcid": 4420,
            "nr_io_queues": "4",
          }
        ]
      }
    ]
  }
]
EOF_JSON
	expect json_lax 3 'rblk module not loaded' \
		$R $NVMECFG connect-all
	expect json_lax_quiet 0 '^nvmecfg: rblk module not loaded [^:]*$' \
		sh -c "$R $NVMECFG connect-all 2>&1 | tr '\n' ' '"
	# DH-HMAC-CHAP keys of a port: taken, past the file, never shown.
	cat > "$JSON" <<'EOF_JSON'
[{"hostnqn": "nqn.2014-08.org.nvmexpress:uuid:12345678-9abc-def0-0123-456789abcdef",
  "dhchap_key": "DHHC-1:00:SeKrEt:",
  "subsystems": [{"nqn": "nqn.2026-12.io.rblk:test",
    "ports": [{"transport": "rdma", "traddr": "10.99.0.1",
      "dhchap_ctrl_key": "DHHC-1:00:SeKrEt:"}]}]}]
EOF_JSON
	expect json_key_taken 3 'rblk module not loaded' \
		$R $NVMECFG connect-all
	expect json_key_not_shown 0 '^not shown$' \
		sh -c "$R $NVMECFG connect-all 2>&1 | grep -q SeKrEt || echo not shown"
	rm -f "$JSON"
	expect discover_dump 3 'rblk module not loaded' \
		$NVMECFG discover -a 10.99.0.1 -o json
	expect set_iopolicy_module_missing 3 'rblk module not loaded' \
		$NVMECFG set-iopolicy --index 0 --iopolicy queue-depth
	expect list_verbose 3 'rblk module not loaded' $NVMECFG list -v -o json
	# Loaded, but the family is init's only: say so, not "not loaded".
	NS=$OUT.netns
	mkdir -p "$NS/sys/module/rblk" "$NS/proc/self/ns" "$NS/proc/1/ns"
	ln -sf 'net:[4026531840]' "$NS/proc/1/ns/net"
	ln -sf 'net:[4026532999]' "$NS/proc/self/ns/net"
	expect netns_other 3 'loaded, but its "rblk" generic netlink family serves only the initial network namespace, not this one' \
		env NVMECFG_TEST_ROOT="$NS" $NVMECFG list
	# Not root: init's namespace cannot be read.
	rm "$NS/proc/1/ns/net"
	expect netns_unknown 3 "nsenter --net=/proc/1/ns/net nvmecfg" \
		env NVMECFG_TEST_ROOT="$NS" $NVMECFG show rblk-ctrl0
	rm -r "$NS"
fi
