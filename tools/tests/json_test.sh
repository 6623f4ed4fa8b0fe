#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nvmecfg's JSON output, fed to real parsers: jq checks documents and
# values; python3, when present, parses strictly and checks 64-bit
# integers (jq reads numbers as doubles). Prints KTAP.
cd "$(dirname "$0")" || exit 1
GEN=./jsongen
TMP=${TMPDIR:-/tmp}/nvmecfg-json.$$
trap 'rm -f "$TMP".*' EXIT

n=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }

# jq_check NAME WHAT EXPR [JQ_ARGS...]: jsongen WHAT parses and EXPR holds.
jq_check() {
	_name=$1 _what=$2 _expr=$3
	shift 3
	if [ -z "$JQ" ]; then
		skip "$_name" "no jq"
		return
	fi
	if $GEN "$_what" > "$TMP.json" &&
	   out=$("$JQ" -e "$@" "$_expr" "$TMP.json" 2>&1) && [ "$out" = true ]
	then
		ok "$_name"
	else
		echo "# jq -e '$_expr' said: $out"
		sed 's/^/# /' "$TMP.json"
		not_ok "$_name"
	fi
}

# py_check NAME WHAT PYTHON: python3's json module reads jsongen WHAT as d
# (rejecting NaN and the like) and PYTHON's assertions hold.
py_check() {
	if [ -z "$PY" ]; then
		skip "$1" "no python3"
		return
	fi
	if $GEN "$2" > "$TMP.json" &&
	   out=$("$PY" - "$TMP.json" "$3" 2>&1 <<'PYEOF'
import json, sys

def no_constants(name):
    raise ValueError("non-standard constant " + name)

with open(sys.argv[1], "rb") as f:
    d = json.loads(f.read().decode("utf-8"), parse_constant=no_constants)
exec(sys.argv[2])
PYEOF
); then
		ok "$1"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		not_ok "$1"
	fi
}

JQ=$(command -v jq)
PY=$(command -v python3)

echo "KTAP version 1"
echo "# suite: json"
echo "1..46"

jq_check list_controllers list '.controllers | length == 2'
jq_check list_fields list '.controllers[0] | .index == 0 and
	.name == "rblk-ctrl0" and .state == "live" and .transport == "rdma" and
	.adrfam == "ipv4" and .traddr == "10.99.0.1" and .trsvcid == "4420" and
	.subsysnqn == "nqn.2026-12.io.rblk:test" and
	.hostnqn == "nqn.2014-08.org.nvmexpress:uuid:deadbeef" and
	.hostid == "deadbeef-0001-0203-0405-060708090a0b" and
	.cntlid == 1 and .nr_io_queues == 2 and .queue_size == 128 and
	.kato == 5 and .reconnect_delay == 10 and .ctrl_loss_tmo == 600 and
	.fast_io_fail_tmo == -1 and .model == "Linux" and
	.serial == "0123456789abcdef" and .firmware == "6.1.0-57" and
	(has("nsid") | not) and (.namespaces | length) == 2'
jq_check list_keys list '(.controllers[0] | keys) == ["adrfam", "cntlid",
	"ctrl_loss_tmo", "fast_io_fail_tmo", "firmware", "hostid", "hostnqn",
	"index", "kato", "model", "name", "namespaces", "nr_io_queues",
	"queue_size", "reconnect_delay", "serial", "state", "subsysnqn",
	"traddr", "transport", "trsvcid"]'
jq_check list_namespaces list '.controllers[0].namespaces |
	.[0] == {"index": 0, "name": "rblk0", "nsid": 1, "size": 1073741824,
		"block_size": 512,
		"wwid": "uuid.00112233-4455-6677-8899-aabbccddeeff",
		"nguid": "00112233445566778899aabbccddeeff",
		"uuid": "00112233-4455-6677-8899-aabbccddeeff"} and
	.[1] == {"index": 1, "name": "rblk1", "nsid": 2, "size": 268435456,
		"block_size": 4096, "wwid": "eui.0011223344556677",
		"eui64": "0011223344556677"}'
jq_check list_second list '.controllers[1] | .index == 7 and
	.name == "rblk-ctrl7" and .state == "connecting" and
	.adrfam == "ipv6" and .traddr == "fd00::1" and .ctrl_loss_tmo == -1 and
	.nsid == 3 and .namespaces == [{"index": 9, "name": "rblk9",
		"nsid": 3, "size": 67108864, "block_size": 512,
		"wwid": "nvme.0000-3031-4c696e7578-00000003"}]'
jq_check list_empty list-empty '. == {"Devices": [], "controllers": []}'

# nvme-cli 2.x's keys, in its order, as its nvme-print-json.c prints them
# (json_list_item, json_detail_list, json_print_nvme_subsystem_list,
# json_connect_msg): a renamed or reordered key fails here.  rblk has
# nothing for UsedBytes (the namespace's utilization), GenericPath and
# Generic (the char device) and a controller's Paths: left out, as
# nvmecfg(8) says; rblk's own keys come after nvme-cli's.
CLI_LIST='["NameSpace", "DevicePath", "GenericPath", "Firmware",
	"ModelNumber", "SerialNumber", "UsedBytes", "MaximumLBA", "PhysicalSize",
	"SectorSize"]'
CLI_HOST='["HostNQN", "HostID", "Subsystems"]'
CLI_SUBSYS='["Subsystem", "SubsystemNQN", "Controllers", "Namespaces"]'
CLI_CTRL='["Controller", "SerialNumber", "ModelNumber", "Firmware",
	"Transport", "Address", "Namespaces", "Paths"]'
CLI_NS='["NameSpace", "Generic", "NSID", "UsedBytes", "MaximumLBA",
	"PhysicalSize", "SectorSize"]'
NONE='["GenericPath", "Generic", "UsedBytes", "Paths"]'
jq_check list_nvme_cli_keys list "(.Devices | map(keys_unsorted)) ==
	[$CLI_LIST - $NONE + [\"Index\", \"WWID\", \"NGUID\", \"UUID\"],
	 $CLI_LIST - $NONE + [\"Index\", \"WWID\", \"EUI64\"],
	 $CLI_LIST - $NONE + [\"Index\", \"WWID\"]] and keys_unsorted == [\"Devices\", \"controllers\"]"
jq_check list_devices list '.Devices[1] == {"NameSpace": 2,
	"DevicePath": "/dev/rblk1", "Firmware": "6.1.0-57",
	"ModelNumber": "Linux", "SerialNumber": "0123456789abcdef",
	"MaximumLBA": 65536, "PhysicalSize": 268435456, "SectorSize": 4096,
	"Index": 1, "WWID": "eui.0011223344556677", "EUI64": "0011223344556677"}
	and (.Devices | map(.DevicePath)) == ["/dev/rblk0", "/dev/rblk1", "/dev/rblk9"]'
# Multipath: a device once, however many controllers (paths) reach it.
jq_check list_mpath_devices list-mpath '(.Devices | map(.DevicePath)) ==
	["/dev/rblk0", "/dev/rblk1"] and (.controllers | length) == 2'
jq_check list_verbose_nvme_cli_keys list-verbose-mpath "
	(.Devices[0] | keys_unsorted) == $CLI_HOST and
	(.Devices[0].Subsystems[0] | keys_unsorted) ==
		(${CLI_SUBSYS} | .[0:2] + [\"IOPolicy\"] + .[2:]) and
	(.Devices[0].Subsystems[0].Controllers | map(keys_unsorted) | unique) ==
		[$CLI_CTRL - $NONE - [\"Namespaces\"] + [\"State\", \"Namespaces\"]] and
	(.Devices[0].Subsystems[0].Namespaces[0] | keys_unsorted) ==
		$CLI_NS - $NONE + [\"Index\", \"WWID\", \"NGUID\", \"UUID\"] and
	keys == [\"Devices\"]"
jq_check list_verbose_mpath list-verbose-mpath '.Devices == [{
	"HostNQN": "nqn.2014-08.org.nvmexpress:uuid:deadbeef",
	"HostID": "deadbeef-0001-0203-0405-060708090a0b",
	"Subsystems": [.Devices[0].Subsystems[0]]}] and
	.Devices[0].Subsystems[0] as $s | $s.Subsystem == "rblk-subsys0" and
	$s.SubsystemNQN == "nqn.2026-12.io.rblk:test" and
	$s.IOPolicy == "round-robin" and
	($s.Controllers | map([.Controller, .Address, .State, .Namespaces])) == [
		["rblk-ctrl0", "traddr=10.99.0.1,trsvcid=4420", "live", []],
		["rblk-ctrl2", "traddr=10.99.0.2,trsvcid=4420,host_traddr=10.99.0.100",
		 "connecting", []]] and
	($s.Namespaces | map([.NameSpace, .NSID, .MaximumLBA, .PhysicalSize,
		.SectorSize, .Index])) == [["rblk0", 1, 2097152, 1073741824, 512, 0],
		["rblk1", 2, 65536, 268435456, 4096, 1]]'
# Without multipath the devices are the controllers'; without sysfs, the
# subsystem has no name.
jq_check list_verbose_plain list-verbose '(.Devices | length) == 1 and
	(.Devices[0].Subsystems | length) == 1 and
	.Devices[0].Subsystems[0] as $s | ($s | has("Subsystem") or has("IOPolicy") | not) and
	$s.Namespaces == [] and
	($s.Controllers | map([.Controller, (.Namespaces | map(.NameSpace))])) ==
		[["rblk-ctrl0", ["rblk0", "rblk1"]], ["rblk-ctrl7", ["rblk9"]]]'
jq_check list_verbose_empty list-verbose-empty '. == {"Devices": []}'
jq_check show_object show '.name == "rblk-ctrl7" and .nsid == 3 and
	(.namespaces | map(.name)) == ["rblk9"]'
# show prints the very object list has for the controller.
$GEN list > "$TMP.list"
$GEN list-iopolicy > "$TMP.list-iopolicy"
jq_check show_is_list_entry show '. == $l[0].controllers[1]' \
	--slurpfile l "$TMP.list"
# With multipath: the subsystem's policy, by name, where the kernel gave one.
jq_check list_iopolicy list-iopolicy '.controllers[0].iopolicy == "round-robin" and
	(.controllers[1] | has("iopolicy") | not) and
	(.controllers[0] | del(.iopolicy)) == $l[0].controllers[0]' \
	--slurpfile l "$TMP.list"
jq_check show_iopolicy show-iopolicy '.iopolicy == "round-robin" and
	. == $l[0].controllers[0]' --slurpfile l "$TMP.list-iopolicy"
jq_check no_iopolicy list '[.controllers[] | has("iopolicy")] == [false, false]'
# DH-HMAC-CHAP: names and a boolean, only for a controller that
# authenticated; show's object is list's.
jq_check show_dhchap show-dhchap '.dhchap_hash == "hmac(sha384)" and
	.dhchap_dhgroup == "ffdhe2048" and .dhchap_bidirectional == true'
jq_check list_dhchap list-dhchap '(.controllers[1] |
	has("dhchap_hash") or has("dhchap_dhgroup") or
	has("dhchap_bidirectional") | not) and
	(.controllers[0] | del(.dhchap_hash, .dhchap_dhgroup,
	.dhchap_bidirectional)) == $l[0].controllers[0]' \
	--slurpfile l "$TMP.list"
$GEN list-dhchap > "$TMP.list-dhchap"
jq_check show_dhchap_is_list_entry show-dhchap '. == $l[0].controllers[0]' \
	--slurpfile l "$TMP.list-dhchap"
jq_check no_dhchap list '[.controllers[] | has("dhchap_hash")] == [false, false]'
# list-subsys: nvme-cli 2.x's keys, in its order; IOPolicy, Model, ...
# with -v; ANAState on each path with a device.
jq_check subsys_nvme_cli_keys subsys '(map(keys_unsorted) | unique) ==
	[["HostNQN", "HostID", "Subsystems"]] and
	([.[].Subsystems[].Paths[] | keys_unsorted] | unique) ==
	[["Name", "Transport", "Address", "State"]]'
jq_check subsys_names subsys 'length == 1 and
	.[0].HostNQN == "nqn.2014-08.org.nvmexpress:uuid:deadbeef" and
	.[0].HostID == "deadbeef-0001-0203-0405-060708090a0b" and
	(.[0].Subsystems | map(.Name)) == ["rblk-subsys0", "rblk-subsys1"] and
	(.[0].Subsystems[0] | keys_unsorted) == ["Name", "NQN", "Paths"]'
jq_check subsys_verbose subsys-verbose '(.[0].Subsystems[0] | keys_unsorted) ==
	["Name", "NQN", "Model", "Serial", "Firmware", "IOPolicy", "Type", "Paths"] and
	.[0].Subsystems[0].IOPolicy == "round-robin" and
	.[0].Subsystems[0].Type == "nvm" and
	(.[0].Subsystems[1] | keys_unsorted) ==
	["Name", "NQN", "Model", "Serial", "Firmware", "Type", "Paths"]'
jq_check subsys_paths subsys '.[0].Subsystems[0].Paths[1] == {"Name": "rblk-ctrl2",
	"Transport": "rdma", "Address": "traddr=10.99.0.2,trsvcid=4420",
	"State": "connecting"}'
jq_check subsys_dev_ana subsys-dev '(.[0].Subsystems | map(.Name)) == ["rblk-subsys0"] and
	([.[0].Subsystems[0].Paths[] | keys_unsorted] | unique) ==
	[["Name", "Transport", "Address", "State", "ANAState"]] and
	(.[0].Subsystems[0].Paths | map(.ANAState)) == ["inaccessible", "non-optimized"]'
# show-topology: nvme-cli 2.x's Namespaces, every path with its ANAState;
# without multipath each namespace's Controller.
jq_check topology_keys topology '(map(keys_unsorted) | unique) ==
	[["HostNQN", "HostID", "Subsystems"]] and
	([.[].Subsystems[] | keys_unsorted] | unique) == [["Name", "NQN", "Namespaces"]] and
	([.[].Subsystems[].Namespaces[] | select(has("Paths")) | .Paths[] |
	  keys_unsorted] | unique) == [["Name", "Transport", "Address", "State", "ANAState"]]'
jq_check topology_mpath topology '.[0].Subsystems[0].Namespaces ==
	[{"NSID": 1, "Name": "rblk3", "Paths": [
	  {"Name": "rblk-ctrl0", "Transport": "rdma",
	   "Address": "traddr=10.99.0.1,trsvcid=4420", "State": "live",
	   "ANAState": "inaccessible"},
	  {"Name": "rblk-ctrl2", "Transport": "rdma",
	   "Address": "traddr=10.99.0.2,trsvcid=4420", "State": "connecting",
	   "ANAState": "non-optimized"}]}]'
jq_check topology_plain topology '(.[0].Subsystems[1].Namespaces | map(.NSID)) == [1, 2] and
	([.[0].Subsystems[1].Namespaces[] | keys_unsorted] | unique) ==
	[["NSID", "Name", "Controller"]] and
	.[0].Subsystems[1].Namespaces[0].Controller[0].Name == "rblk-ctrl1"'
jq_check event_iopolicy event-iopolicy '. == {"event": "iopolicy-changed",
	"subsystem": "rblk-subsys0", "subsysnqn": "nqn.2026-12.io.rblk:test",
	"iopolicy": "queue-depth"}'
jq_check stats_counters stats '.name == "rblk0" and .index == 0 and
	.controller == "rblk-ctrl0" and .ctrl_index == 0 and .reads == 1001 and
	.writes == 1002 and .flushes == 1003 and .discards == 1004 and
	.errors == 1008 and .timeouts == 1009 and .reconnects == 1010 and
	.reconnect_attempts == 1011 and .inline_writes == 1012 and
	.errors_generic == 1014 and .errors_cmd_specific == 1015 and
	.errors_vendor == 1018 and .doorbells == 1020 and
	.commands_posted == 1021 and .commands_per_doorbell == 1'
jq_check stats_histogram stats '(.latency_hist_us | length) == 24 and
	.latency_hist_us[0] == 3 and .latency_hist_us[4] == 40 and
	.latency_hist_us[23] == 1 and (.latency_hist_us | add) == 44'
jq_check stats_keys stats 'keys == ["commands_per_doorbell",
	"commands_posted", "controller", "ctrl_index",
	"discard_bytes", "discards", "doorbells", "errors", "errors_cmd_specific",
	"errors_generic", "errors_media", "errors_path", "errors_vendor",
	"flushes", "index", "inline_writes", "latency_hist_us", "name",
	"poll_completions", "read_bytes", "reads", "reconnect_attempts", "reconnects", "timeouts",
	"write_bytes", "writes"]'
jq_check stats_ctrl_keys stats-ctrl '.controller == "rblk-ctrl0" and
	.ctrl_index == 0 and (has("name") or has("index") | not) and
	.reads == 1001'
jq_check discover_records discover '.records | length == 2 and
	.[0].trtype == "rdma" and .[0].adrfam == "ipv4" and
	.[0].subtype == "current discovery subsystem" and
	.[0].subnqn == "nqn.2014-08.org.nvmexpress.discovery" and
	.[0].portid == 1 and .[0].cntlid == 65535 and .[0].asqsz == 32 and
	.[1].subtype == "nvme subsystem" and .[1].traddr == "10.99.0.1" and
	.[1].trsvcid == "4420" and .[1].subnqn == "nqn.2026-12.io.rblk:test" and
	.[1].treq == "not required, sq flow control disable supported"'
# nvme-cli 2.x's keys (nvme discover -o json), and rblk's cntlid and asqsz.
jq_check discover_nvme_cli_keys discover '.genctr == 42 and .numrec == 2 and
	(keys == ["genctr", "numrec", "records"]) and
	(.records | map(keys) | unique) == [["adrfam", "asqsz", "cntlid",
		"eflags", "portid", "rdma_cms", "rdma_pkey", "rdma_prtype",
		"rdma_qptype", "subnqn", "subtype", "traddr", "treq", "trsvcid",
		"trtype"]]'
jq_check discover_nvme_cli_values discover '
	.records[0].eflags == "explicit discovery connections, duplicate discovery information" and
	.records[0].rdma_prtype == "not specified" and
	.records[1].eflags == "none" and .records[1].rdma_prtype == "roce-v2" and
	.records[1].rdma_qptype == "connected" and
	.records[1].rdma_cms == "rdma-cm" and .records[1].rdma_pkey == 65535 and
	.records[1].portid == 1'
jq_check host_json host '. == {"hostnqn": "nqn.2014-08.org.nvmexpress:uuid:deadbeef",
	"hostnqn_source": "option", "hostnqn_file": "/etc/nvme/hostnqn",
	"hostid": "deadbeef-0001-0203-0405-060708090a0b",
	"hostid_source": "file", "hostid_file": "/etc/nvme/hostid",
	"persistent": true,
	"module": {"hostnqn": "nqn.2014-08.org.nvmexpress:uuid:module",
		"hostid": "00000000-0000-0000-0000-000000000001"}}'
jq_check host_kernel_json host-kernel '. == {"hostnqn_source": "module",
	"hostnqn_file": "/etc/nvme/hostnqn", "hostid_source": "module",
	"hostid_file": "/etc/nvme/hostid", "persistent": false}'
jq_check host_dmi_json host-dmi '.hostnqn_source == "dmi" and
	.hostnqn_derived_from == "/sys/class/dmi/id/product_uuid" and
	.hostid_source == "hostnqn" and (has("hostid_derived_from") | not) and
	.persistent == true'
# nvme-cli 2.x's {"device": ...} first, rblk's keys after it.
jq_check connect_ref connect '.device == "rblk-ctrl0" and
	.index == 0 and .name == "rblk-ctrl0" and
	(keys_unsorted == ["device", "index", "name", "namespaces"]) and
	(.namespaces | map(.name)) == ["rblk0", "rblk1"] and
	.namespaces[0].size == 1073741824 and .namespaces[1].block_size == 4096'
jq_check event_line event '. == {"event": "removed", "index": 0,
	"name": "rblk-ctrl0", "state": "deleting"}'
jq_check event_ns_line event-ns '.event == "ns-added" and .index == 0 and
	.name == "rblk-ctrl0" and .state == "live" and
	.namespace == {"index": 1, "name": "rblk1", "nsid": 2,
		"size": 268435456, "block_size": 4096,
		"wwid": "eui.0011223344556677", "eui64": "0011223344556677"}'

# One event, one line: monitor -o json is read line by line.
if [ "$($GEN event | wc -l)" -eq 1 ] && [ "$($GEN event-ns | wc -l)" -eq 1 ]
then
	ok event_one_line
else
	not_ok event_one_line
fi

# The escaping fixture must come back byte for byte.
if [ -z "$JQ" ]; then
	skip escaping_roundtrip "no jq"
else
	printf 'Q"B\\N\nT\tC\001U\303\251X\357\277\275' > "$TMP.want"
	$GEN list | "$JQ" -j '.controllers[1].model' > "$TMP.got"
	if cmp -s "$TMP.want" "$TMP.got"; then
		ok escaping_roundtrip
	else
		od -c "$TMP.got" | sed 's/^/# got: /'
		not_ok escaping_roundtrip
	fi
fi

py_check python_list list 'assert d["controllers"][1]["model"] == "Q\"B\\N\nT\tC\x01U\u00e9X\ufffd"'
py_check python_u64 stats 'assert d["read_bytes"] == 18446744073709551615'
py_check python_stats_ctrl stats-ctrl 'assert d["read_bytes"] == 18446744073709551615 and "name" not in d'
py_check python_event_ns event-ns 'assert d["namespace"]["name"] == "rblk1"'
py_check python_discover discover 'assert [r["subnqn"] for r in d["records"]] == ["nqn.2014-08.org.nvmexpress.discovery", "nqn.2026-12.io.rblk:test"]'

# Every document jsongen makes, strictly parsed (monitor's line by line).
if [ -z "$PY" ]; then
	skip python_all_documents "no python3"
else
	bad=
	for w in list list-empty list-mpath list-verbose list-verbose-mpath \
		 list-verbose-empty list-iopolicy list-dhchap show show-iopolicy \
		 show-dhchap subsys stats stats-ctrl discover connect event \
		 event-ns host host-kernel; do
		$GEN "$w" | "$PY" -c '
import json, sys
for line in ([sys.stdin.read()] if sys.argv[1] != "lines" else sys.stdin):
    json.loads(line, parse_constant=lambda c: 1 / 0)
' "$(case $w in event*) echo lines ;; *) echo doc ;; esac)" 2>/dev/null ||
			bad="$bad $w"
	done
	if [ -z "$bad" ]; then
		ok python_all_documents
	else
		echo "# not JSON:$bad"
		not_ok python_all_documents
	fi
fi
