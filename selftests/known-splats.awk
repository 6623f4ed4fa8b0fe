# Kernel log filter: replace lockdep reports that selftests/known-splats
# lists (lock-order reports inside other subsystems, not rblk) by one line
# that names them; everything else passes through unchanged.  Used on the
# guest's dmesg (selftests/run.sh, lib.sh) and on the console (vm-run.sh).
#
# usage: awk -v known=selftests/known-splats -f known-splats.awk [LOG]
#
# known-splats lines: "LOCK_A LOCK_B description"; a circular-dependency
# report matches when the lock it was acquiring and the lock it held are
# LOCK_A and LOCK_B, in either order.  A report that also holds a KASAN,
# BUG or Oops line is never hidden.

function lockname(s) {
	# "ffff888003a1c0d8 (&id_priv->handler_mutex){+.+.}-{3:3}, at: ..."
	if (!match(s, /\(.*\)\{/))
		return ""
	return substr(s, RSTART + 1, RLENGTH - 3)
}

function flush(   key, what) {
	key = acquire "|" held
	what = (key in K) ? K[key] : ""
	if (what != "" && !severe) {
		print prefix "rblk-known-splat: lockdep circular dependency " \
			acquire " / " held " (" what "); lockdep is off from here"
	} else {
		printf "%s", buf
	}
	inrep = 0; buf = ""; acquire = ""; held = ""; severe = 0; want = ""
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
		if (line ~ /WARNING: possible circular locking dependency detected/) {
			inrep = 1
			prefix = ""
			if (match(line, /^\[ *[0-9]+\.[0-9]+\] /))
				prefix = substr(line, 1, RLENGTH)
			buf = held_sep line "\n"
			held_sep = ""
			next
		}
		# The "=====" rule above a report belongs to it.
		if (held_sep != "")
			printf "%s", held_sep
		held_sep = ""
		if (line ~ /\] =+$/) {
			held_sep = line "\n"
			next
		}
		print line
		next
	}
	buf = buf line "\n"
	if (line ~ /BUG:|Oops|KASAN|general protection fault/)
		severe = 1
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
