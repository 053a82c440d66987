#!/usr/bin/env bash
# Hangs past any test's timeout, with a child in its process group. It writes
# its own pid and the child's to $HANG_PIDFILE (one per line) once both run.
cat >/dev/null
sleep 30 &
printf '%s\n%s\n' "$$" "$!" > "$HANG_PIDFILE.tmp"
mv "$HANG_PIDFILE.tmp" "$HANG_PIDFILE"
wait
