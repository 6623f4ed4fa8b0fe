# Kernel log filter: replace the reports that selftests/known-splats lists
# (lock-order reports and warnings inside other subsystems, not rblk) by
# one line that names them; everything else passes through unchanged.  Used on the
# guest's dmesg (selftests/run.sh, lib.sh) and on the console (vm-run.sh).
#
# usage: awk -v known=selftests/known-splats -f known-splats.awk [LOG]
#
# known-splats lines: "LOCK_A LOCK_B description"; a circular-dependency
# report matches when the lock it was acquiring and the lock it held are
# LOCK_A and LOCK_B, in either order.  Or "warn FUNCTION MODULE
# description": a WARNING in FUNCTION whose call trace has frames of
# MODULE and none of rblk.  A report that also holds a KASAN, BUG or Oops
# line is never hidden.

function lockname(s) {
	# "ffff888003a1c0d8 (&id_priv->handler_mutex){+.+.}-{3:3}, at: ..."
	if (!match(s, /\(.*\)\{/))
		return ""
	return substr(s, RSTART + 1, RLENGTH - 3)
}

function flush(   key, what) {
	if (inrep == 2) {
		if (wfunc in W && wmod && !wrblk && !severe)
			print prefix "rblk-known-splat: WARNING in " wfunc \
				" under " W[wfunc] " (" WD[wfunc] ")"
		else
			printf "%s", buf
	} else {
		key = acquire "|" held
		what = (key in K) ? K[key] : ""
		if (what != "" && !severe) {
			print prefix "rblk-known-splat: lockdep circular dependency " \
				acquire " / " held " (" what "); lockdep is off from here"
		} else {
			printf "%s", buf
		}
	}
	inrep = 0; buf = ""; acquire = ""; held = ""; severe = 0; want = ""
	wfunc = ""; wmod = 0; wrblk = 0
}

# A report of @kind (1 lockdep, 2 WARN) starts at @line; the rule above
# it ("=====", or "cut here") belongs to it.
function start(kind, line) {
	inrep = kind
	prefix = ""
	if (match(line, /^\[ *[0-9]+\.[0-9]+\] /))
		prefix = substr(line, 1, RLENGTH)
	buf = held_sep line "\n"
	held_sep = ""
}

# The function a WARN report names: "WARNING: CPU: 1 PID: 21 at
# block/bio.c:744 bio_put+0x8f/0xe0".
function warnfunc(s) {
	if (!match(s, / at [^ ]+ [A-Za-z0-9_.]+\+0x/))
		return ""
	s = substr(s, RSTART, RLENGTH - 3)
	sub(/^ at [^ ]+ /, "", s)
	return s
}

BEGIN {
	if (known != "") {
		while ((getline l < known) > 0) {
			if (l ~ /^[ \t]*(#|$)/)
				continue
			n = split(l, f, /[ \t]+/)
			if (n < 2)
				continue
			d = l
			if (f[1] == "warn") {
				if (n < 3)
					continue
				sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]*/, "", d)
				W[f[2]] = f[3]
				WD[f[2]] = d
				continue
			}
			sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]*/, "", d)
			K[f[1] "|" f[2]] = d
			K[f[2] "|" f[1]] = d
		}
		close(known)
	}
	inrep = 0; held_sep = ""
}

{
	line = $0
	if (!inrep) {
		if (line ~ /WARNING: CPU: [0-9]+ PID: [0-9]+ at / &&
		    warnfunc(line) in W) {
			wfunc = warnfunc(line)
			start(2, line)
			next
		}
		if (line ~ /WARNING: possible circular locking dependency detected/) {
			start(1, line)
			next
		}
		# Not a report after all: the rule is an ordinary line.
		if (held_sep != "")
			printf "%s", held_sep
		held_sep = ""
		if (line ~ /\] =+$/ || line ~ /-+\[ cut here \]-+$/) {
			held_sep = line "\n"
			next
		}
		print line
		next
	}
	buf = buf line "\n"
	if (line ~ /BUG:|Oops|KASAN|general protection fault/)
		severe = 1
	if (inrep == 2) {
		if (index(line, "[" W[wfunc] "]"))
			wmod = 1
		if (index(line, "[rblk]"))
			wrblk = 1
		if (line ~ /---\[ end trace [0-9a-f]+ \]---/)
			flush()
		next
	}
	if (want != "") {
		n = lockname(line)
		if (n != "") {
			if (want == "acquire")
				acquire = n
			else
				held = n
			want = ""
		}
	}
	if (line ~ /is trying to acquire lock:/ && acquire == "")
		want = "acquire"
	else if (line ~ /but task is already holding lock:/ && held == "")
		want = "held"
	if (line ~ /<\/TASK>/)
		flush()
}

END {
	if (held_sep != "")
		printf "%s", held_sep
	if (inrep)
		printf "%s", buf
}
