#!/bin/sh
# The loop's script step: the project's test command. In taskctl's sandbox
# only the temporary directory, the workspace and the write roots are
# writable: when Go's build cache is not, it goes in the temporary
# directory.
cache=$(go env GOCACHE)
if ! { mkdir -p "$cache" && touch "$cache/.taskctl-probe"; } 2>/dev/null; then
	export GOCACHE="${TMPDIR:-/tmp}/taskctl-gofix-gocache"
fi
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
exec go test ./...
