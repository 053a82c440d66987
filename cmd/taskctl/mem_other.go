//go:build !linux

package main

// physicalMemory is the machine's memory in bytes: unknown here, so the
// memory limit is its floor.
func physicalMemory() int64 { return 0 }
