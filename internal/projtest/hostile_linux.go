//go:build linux

package projtest

import (
	"net"
	"path/filepath"
	"syscall"
	"testing"
)

// Hostile builds the fixture of deps-security.md §3.6: <base>/proj (the
// project) and its prefix sibling <base>/proj-evil holding Secret. It
// holds links of every kind (out, in, absolute, relative, loops, a chain
// of 45), sensitive names, .git/, .taskctl/, a FIFO, a socket and, when
// run as root, a char device.
func Hostile(t testing.TB) (base, proj string) {
	t.Helper()
	base = RealTemp(t)
	proj = filepath.Join(base, "proj")
	evil := filepath.Join(base, "proj-evil")
	WriteTree(t, evil, "secret = "+Secret+"\n")
	WriteTree(t, proj,
		"src/a.py = print('a')\n",
		"src/sub/",
		"src/abs_link -> /etc/hostname",
		"src/abs_link_secret -> "+filepath.Join(evil, "secret"),
		"src/rel_link_out -> ../../proj-evil/secret",
		"src/dir_link_out -> ../../proj-evil",
		"src/abs_dir_link_out -> "+evil,
		"src/abs_link_inside -> "+filepath.Join(proj, "src/a.py"),
		"src/abs_dir_link_in -> "+filepath.Join(proj, "src"),
		"src/rel_link_inside -> a.py",
		"loop1 -> loop2",
		"loop2 -> loop1",
		"self -> self",
		"proc_link -> /proc/self/root/etc/hostname",
		"zero_link -> /dev/zero",
		"chain_out -> chain_mid",
		"chain_mid -> src/rel_link_out",
		".env = "+Secret+"-ENV\n",
		"config/.Env.local = KEY=1\n",
		"keys/server.PEM = x\n",
		".git/config = [core]\n",
		".taskctl/config.xml = <config/>\n",
		"node_modules/pkg/index.js = module.exports = 1\n",
	)
	WriteTree(t, proj, "src/chain00 -> a.py")
	for i := 1; i <= 44; i++ {
		WriteTree(t, proj, "src/"+chainName(i)+" -> "+chainName(i-1))
	}
	if err := syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A char device (/dev/zero's numbers) works only as root.
	_ = syscall.Mknod(filepath.Join(proj, "zero_dev"), syscall.S_IFCHR|0o644, int(1<<8|5))
	if l, err := net.Listen("unix", filepath.Join(proj, "sock")); err == nil {
		t.Cleanup(func() { l.Close() })
	}
	return base, proj
}

func chainName(i int) string {
	return "chain" + string(rune('0'+i/10)) + string(rune('0'+i%10))
}
