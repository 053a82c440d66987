#!/usr/bin/env bash
# Fails the step named in $FLAKY_STEP once (leaving a marker in
# $FLAKY_DIR), and logs every step it runs to $FLAKY_DIR/calls.
cat >/dev/null
echo "$TASKCTL_STEP" >> "$FLAKY_DIR/calls"
if [ "$TASKCTL_STEP" = "$FLAKY_STEP" ] && [ ! -e "$FLAKY_DIR/failed-once" ]; then
  touch "$FLAKY_DIR/failed-once"
  echo "flaky failure" >&2
  exit 1
fi
echo "done $TASKCTL_STEP"
