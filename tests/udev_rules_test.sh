#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# udev/60-rblk.rules as read on the host (udevd runs it in the guest:
# selftests/rblk/udev_by_id.sh): a namespace's by-id names have nvme's
# shapes with "rblk-" for "nvme-", -partN for partitions too, the
# model_serial_nsid one as 60-persistent-storage.rules builds nvme's; the
# filters at the top let the disks rblkN (heads too) and their partitions
# through and stop a multipath path's hidden disk rblkNcM before any name;
# the vendor I/O policy rule is an example, a comment.  udevadm verify
# (systemd 253 and later) finds nothing to say.  KTAP.
# shellcheck disable=SC2016 # $env{...} and $attr{...} are udev's
# shellcheck disable=SC2317 # the functions run through check
cd "$(dirname "$0")/.." || exit 1
R=udev/60-rblk.rules

# shellcheck source=tests/ktap.sh
. tests/ktap.sh
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }

echo "KTAP version 1"
echo "1..7"

# rules FILE: its rules, comments dropped and continuation lines joined.
rules() {
	sed -e '/^[[:space:]]*#/d' -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' "$1"
}
# has FILE STRING...: a rule of FILE holds every STRING.
has() {
	local f=$1 line s
	shift
	while IFS= read -r line; do
		for s in "$@"; do
			[[ $line == *"$s"* ]] || continue 2
		done
		return 0
	done < <(rules "$f")
	echo "no rule of $f with: $*"
	return 1
}

check "by-id/rblk-<model>_<serial>_<nsid> of a disk" has "$R" \
	'ENV{DEVTYPE}=="disk"' \
	'ENV{ID_SERIAL}="$env{ID_MODEL}_$env{ID_SERIAL_SHORT}_$env{ID_NSID}"'
serial_links() {
	has "$R" 'ENV{DEVTYPE}=="disk"' 'SYMLINK+="disk/by-id/rblk-$env{ID_SERIAL}"' &&
	has "$R" 'ENV{DEVTYPE}=="partition"' \
		'SYMLINK+="disk/by-id/rblk-$env{ID_SERIAL}-part%n"' &&
	has "$R" 'ENV{DEVTYPE}=="partition"' 'IMPORT{parent}="ID_SERIAL*"'
}
check "... linked for disks, and -partN for their partitions" serial_links

# nvme's, where this host has systemd's rules: the same ID_SERIAL.
P=
for p in /usr/lib/udev/rules.d/60-persistent-storage.rules \
	 /lib/udev/rules.d/60-persistent-storage.rules; do
	[ -f "$p" ] && { P=$p; break; }
done
if [ -n "$P" ]; then
	check "the shape of nvme's ($P)" has "$P" 'KERNEL=="nvme*[0-9]n*[0-9]"' \
		'ENV{DEVTYPE}=="disk"' \
		'ENV{ID_SERIAL}="$env{ID_MODEL}_$env{ID_SERIAL_SHORT}_$env{ID_NSID}"' \
		'SYMLINK+="disk/by-id/nvme-$env{ID_SERIAL}"'
else
	skip "the shape of nvme's" "no 60-persistent-storage.rules here"
fi

# names_device NAME: the GOTO="rblk_end" filters on KERNEL at the top of
# the rules (before the first SYMLINK) let a block device NAME through.
# udev matches with fnmatch(), as bash's [[ == ]] does these globs.
names_device() {
	local line pat
	while IFS= read -r line; do
		[[ $line == *SYMLINK* ]] && break
		[[ $line == *'GOTO="rblk_end"'* ]] || continue
		if [[ $line =~ KERNEL!=\"([^\"]*)\" ]]; then
			pat=${BASH_REMATCH[1]}
			# shellcheck disable=SC2053 # a glob on purpose
			[[ $1 == $pat ]] || return 1
		elif [[ $line =~ KERNEL==\"([^\"]*)\" ]]; then
			pat=${BASH_REMATCH[1]}
			# shellcheck disable=SC2053
			[[ $1 == $pat ]] && return 1
		fi
	done < <(rules "$R")
	return 0
}
through=() stopped=()
for d in rblk0 rblk3 rblk12 rblk3p1 rblk12p10; do
	names_device "$d" || stopped+=("$d")
done
for d in rblk3c1 rblk0c0 rblk12c7 rblk-ctrl0; do
	names_device "$d" && through+=("$d")
done
check "disks, heads and partitions named (rblkN, rblkNpM)" \
	test -z "${stopped[*]}"
[ -z "${stopped[*]}" ] || echo "# stopped: ${stopped[*]}"
check "a multipath path's hidden disk (rblkNcM) never named" \
	test -z "${through[*]}"
[ -z "${through[*]}" ] || echo "# named: ${through[*]}"

# The vendor I/O policy rule: an example to copy, not a rule of rblk's.
iopolicy_example() {
	grep -q '^#.*SUBSYSTEM=="rblk-subsystem".*ATTR{model}==.*ATTR{iopolicy}="' "$R" &&
	! rules "$R" | grep iopolicy
}
check "the vendor I/O policy rule is a commented example" iopolicy_example

if udevadm verify --help > /dev/null 2>&1; then
	check "udevadm verify" udevadm verify --resolve-names=never "$R"
else
	skip "udevadm verify" "udevadm $(udevadm --version 2>/dev/null) has no verify"
fi
exit $failed
