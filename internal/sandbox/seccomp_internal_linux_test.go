package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestTerminalFilterEveryArch: the filter of every architecture taskctl
// carries system call numbers for assembles (its jumps land inside the
// program), checks each of its architectures, and ends in returns.
func TestTerminalFilterEveryArch(t *testing.T) {
	for goarch, arches := range ioctlNumbers {
		prog, err := terminalFilter(goarch)
		if err != nil {
			t.Fatalf("%s: %v", goarch, err)
		}
		seen := map[uint32]bool{}
		for i, in := range prog {
			if in.Code == unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K {
				if i+1+int(in.Jt) >= len(prog) || i+1+int(in.Jf) >= len(prog) {
					t.Errorf("%s: jump %d leaves the program", goarch, i)
				}
				seen[in.K] = true
			}
		}
		for arch := range arches {
			if !seen[arch] {
				t.Errorf("%s: architecture %#x is not checked", goarch, arch)
			}
		}
		for _, req := range refusedIoctls {
			if !seen[req] {
				t.Errorf("%s: request %#x is not refused", goarch, req)
			}
		}
		if last := prog[len(prog)-1]; last.Code != unix.BPF_RET|unix.BPF_K {
			t.Errorf("%s: the program does not end in a return", goarch)
		}
	}
}
