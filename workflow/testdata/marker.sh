#!/usr/bin/env bash
# Proves it ran by creating $MARKER.
cat >/dev/null
touch "$MARKER"
