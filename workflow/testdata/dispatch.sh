#!/usr/bin/env bash
# Picks a behaviour by the step's name: fail* fails, hang* hangs, anything
# else prints notes.
here=$(dirname "$0")
case "$TASKCTL_STEP" in
  fail*) exec "$here/fail.sh" ;;
  hang*) exec "$here/hang.sh" ;;
  *) exec "$here/notes.sh" ;;
esac
