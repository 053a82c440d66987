#!/usr/bin/env bash
# Fails: a line on stderr, exit status 3.
cat >/dev/null
echo "boom in step $TASKCTL_STEP" >&2
exit 3
