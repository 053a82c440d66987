//go:build !linux

package sandbox

import (
	"fmt"
	"os"
)

// ABI is 0: only Linux has Landlock.
func ABI() int { return 0 }

// Exec fails: nothing can be confined off Linux (Check says so before a
// helper is ever started).
func Exec(args []string) int {
	fmt.Fprintln(os.Stderr, "taskctl sandbox: Landlock is Linux's; this system cannot confine a program")
	return 126
}
