package sandbox

import (
	"encoding/binary"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ioctlNumbers are the numbers of the ioctl system call under each
// audit architecture a program of this GOARCH can call the kernel with
// (its own and the 32-bit compatibility one).
var ioctlNumbers = map[string]map[uint32][]uint32{
	// x32 programs call with the x86-64 architecture and bit 30 set.
	"amd64":   {unix.AUDIT_ARCH_X86_64: {16, 0x40000000 | 16, 0x40000000 | 514}, unix.AUDIT_ARCH_I386: {54}},
	"386":     {unix.AUDIT_ARCH_I386: {54}},
	"arm64":   {unix.AUDIT_ARCH_AARCH64: {29}, unix.AUDIT_ARCH_ARM: {54}},
	"arm":     {unix.AUDIT_ARCH_ARM: {54}},
	"riscv64": {unix.AUDIT_ARCH_RISCV64: {29}},
	"loong64": {unix.AUDIT_ARCH_LOONGARCH64: {29}},
	"ppc64le": {unix.AUDIT_ARCH_PPC64LE: {54}},
	"s390x":   {unix.AUDIT_ARCH_S390X: {54}},
}

// refusedIoctls are the requests the filter refuses: TIOCSTI pushes bytes
// into a terminal's input (a program could type a command for the user's
// shell to run after taskctl exits) and TIOCLINUX can paste a virtual
// console's selection into it, the two bubblewrap refuses.
var refusedIoctls = []uint32{unix.TIOCSTI, unix.TIOCLINUX}

// RefuseTerminalInput installs, on the calling thread (which the caller
// keeps locked until it has started or executed the program), a seccomp
// filter that makes ioctl TIOCSTI and TIOCLINUX fail with EPERM, for it
// and every program started from it; a system call made under an
// architecture the filter does not know fails with EPERM too. The thread
// needs no_new_privs or CAP_SYS_ADMIN (EACCES otherwise). On an
// architecture whose system call numbers are not in ioctlNumbers (mips,
// big-endian ppc64) it installs nothing and returns nil: there the session
// without a terminal is the only guard.
func RefuseTerminalInput() error {
	if _, ok := ioctlNumbers[runtime.GOARCH]; !ok {
		return nil
	}
	prog, err := terminalFilter(runtime.GOARCH)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp filter: %w", err)
	}
	runtime.KeepAlive(prog)
	return nil
}

// seccomp_data offsets: the system call's number, its architecture and
// the low 32 bits of its second argument (an ioctl's request, which the
// kernel takes as an unsigned int).
const (
	offNr   = 0
	offArch = 4
)

func offArg1Low() uint32 {
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		return 16 + 8
	}
	return 16 + 8 + 4
}

// bpf is a classic BPF program being written, with jumps to labels.
type bpf struct {
	ins    []unix.SockFilter
	labels map[string]int
	jumps  map[int][2]string // instruction -> labels of its true and false branches ("" = next)
}

func (b *bpf) stmt(code uint16, k uint32) {
	b.ins = append(b.ins, unix.SockFilter{Code: code, K: k})
}

func (b *bpf) jeq(k uint32, yes, no string) {
	b.jumps[len(b.ins)] = [2]string{yes, no}
	b.stmt(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, k)
}

func (b *bpf) label(name string) { b.labels[name] = len(b.ins) }

// resolve turns the labels of the jumps into offsets.
func (b *bpf) resolve() ([]unix.SockFilter, error) {
	for i, to := range b.jumps {
		for j, name := range to {
			if name == "" {
				continue
			}
			at, ok := b.labels[name]
			if !ok || at <= i || at-i-1 > 255 {
				return nil, fmt.Errorf("seccomp filter: bad jump to %q", name)
			}
			if j == 0 {
				b.ins[i].Jt = uint8(at - i - 1)
			} else {
				b.ins[i].Jf = uint8(at - i - 1)
			}
		}
	}
	return b.ins, nil
}

// terminalFilter is the filter of RefuseTerminalInput for goarch.
func terminalFilter(goarch string) ([]unix.SockFilter, error) {
	arches, ok := ioctlNumbers[goarch]
	if !ok {
		return nil, fmt.Errorf("seccomp filter: no system call table for %s", goarch)
	}
	const (
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	b := &bpf{labels: map[string]int{}, jumps: map[int][2]string{}}
	b.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArch)
	for _, arch := range slices.Sorted(maps.Keys(arches)) {
		b.jeq(arch, "", fmt.Sprintf("not-%x", arch))
		b.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offNr)
		for _, nr := range arches[arch] {
			b.jeq(nr, "request", "")
		}
		b.stmt(unix.BPF_RET|unix.BPF_K, allow)
		b.label(fmt.Sprintf("not-%x", arch))
	}
	b.stmt(unix.BPF_RET|unix.BPF_K, deny) // an architecture not known here
	b.label("request")
	b.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArg1Low())
	for _, req := range refusedIoctls {
		b.jeq(req, "deny", "")
	}
	b.stmt(unix.BPF_RET|unix.BPF_K, allow)
	b.label("deny")
	b.stmt(unix.BPF_RET|unix.BPF_K, deny)
	return b.resolve()
}
