#!/usr/bin/env bash
# Takes a moment over each step, then prints its name.
cat >/dev/null
sleep 0.05
echo "done $TASKCTL_STEP"
