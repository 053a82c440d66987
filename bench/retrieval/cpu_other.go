//go:build !unix

package main

import "time"

// cpuTime is zero where getrusage is missing.
func cpuTime() time.Duration { return 0 }
