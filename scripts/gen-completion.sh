#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write bash completion for nvmecfg from what the built tool says about
# itself: the commands of `nvmecfg help` and the options of each
# `nvmecfg COMMAND --help`, so that it never lags behind the tool.
#
# usage: scripts/gen-completion.sh tools/nvmecfg > build/nvmecfg.bash
set -euo pipefail

NVMECFG=${1:?usage: gen-completion.sh NVMECFG}

# The command names: "  NAME  description" lines under "Commands:".
cmds=$("$NVMECFG" help | awk '/^Commands:/ { on = 1; next }
	on && /^$/ { exit }
	on && /^  [a-z]/ { print $1 }')
[ -n "$cmds" ] || { echo "gen-completion: no commands in '$NVMECFG help'" >&2; exit 1; }

cat <<'HEAD'
# bash completion for nvmecfg(8), the rblk configuration tool.
# Generated from `nvmecfg help` by scripts/gen-completion.sh: do not edit.

# Controller and namespace names, for NAME arguments.
_nvmecfg_names()
{
	local d
	for d in /sys/class/rblk/rblk-ctrl* /sys/block/rblk*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

HEAD
printf '_nvmecfg_cmds="%s"\n\n' "$(echo $cmds)"

# Per command: every option, the ones that take a value (with the value's
# metavariable, which picks what to complete), and whether it takes a
# positional NAME.
echo '_nvmecfg_opts()'
echo '{'
echo '	case $1 in'
for c in $cmds; do
	[ "$c" = help ] && continue
	help=$("$NVMECFG" "$c" --help 2>&1) || true
	opts=$(printf '%s\n' "$help" | awk '/^Options:/ { on = 1; next }
		on && /^$/ { exit }
		on { for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w)
			if (w ~ /^--?[A-Za-z]/) print w; else break } }' | tr '\n' ' ')
	printf '\t%s) echo "%s" ;;\n' "$c" "${opts% }"
done
echo '	esac'
echo '}'
echo
echo '# _nvmecfg_arg CMD OPTION: the metavariable of an option that takes a value.'
echo '_nvmecfg_arg()'
echo '{'
echo '	case "$1 $2" in'
for c in $cmds; do
	[ "$c" = help ] && continue
	"$NVMECFG" "$c" --help 2>&1 | awk -v c="$c" '/^Options:/ { on = 1; next }
		on && /^$/ { exit }
		on { n = 0; arg = ""
		     for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w)
			if (w ~ /^--?[A-Za-z]/) o[++n] = w
			else { if (w ~ /^[A-Z][A-Z0-9_]*$/) arg = w; break } }
		     if (arg != "") for (j = 1; j <= n; j++) printf "\t\"%s %s\") echo %s ;;\n", c, o[j], arg }'
done
echo '	esac'
echo '}'
echo
echo '# _nvmecfg_values CMD OPTION: the values of an option whose help lists'
echo '# them as {a|b|c} (--iopolicy: the names of RBLK_IOPOLICY_NAMES).'
echo '_nvmecfg_values()'
echo '{'
echo '	case "$1 $2" in'
for c in $cmds; do
	[ "$c" = help ] && continue
	"$NVMECFG" "$c" --help 2>&1 | awk -v c="$c" '/^Options:/ { on = 1; next }
		on && /^$/ { exit }
		on && match($0, /\{[A-Za-z0-9_.|-]+\}/) {
		     vals = substr($0, RSTART + 1, RLENGTH - 2); gsub(/\|/, " ", vals)
		     for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w)
			if (w ~ /^--?[A-Za-z]/) printf "\t\"%s %s\") echo \"%s\" ;;\n", c, w, vals
			else break } }'
done
echo '	esac'
echo '}'
echo
echo '# Commands that take a controller or namespace NAME as their argument.'
printf '_nvmecfg_named="'
for c in $cmds; do
	[ "$c" = help ] && continue
	"$NVMECFG" "$c" --help 2>&1 | head -n 1 | grep -qw NAME && printf ' %s' "$c"
done
printf ' "\n\n'

cat <<'TAIL'
_nvmecfg()
{
	local cur prev cmd arg vals
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$_nvmecfg_cmds --help" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] &&
			COMPREPLY=($(compgen -W "$_nvmecfg_cmds" -- "$cur"))
		return
	fi

	arg=$(_nvmecfg_arg "$cmd" "$prev")
	vals=$(_nvmecfg_values "$cmd" "$prev")
	if [ -n "$vals" ]; then
		COMPREPLY=($(compgen -W "$vals" -- "$cur"))
		return
	fi
	if [ -n "$arg" ]; then
		case $arg in
		TRTYPE)		COMPREPLY=($(compgen -W "rdma" -- "$cur")) ;;
		FMT|FORMAT)	COMPREPLY=($(compgen -W "normal json" -- "$cur")) ;;
		NAME)		COMPREPLY=($(compgen -W "$(_nvmecfg_names)" -- "$cur")) ;;
		FILE|PATH)	COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac
		return
	fi

	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(_nvmecfg_opts "$cmd")" -- "$cur"))
		;;
	*)
		case " $_nvmecfg_named " in
		*" $cmd "*)
			COMPREPLY=($(compgen -W "$(_nvmecfg_names)" -- "$cur")) ;;
		esac
		;;
	esac
}
complete -F _nvmecfg nvmecfg
TAIL
