package root

import (
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openBeneathOnly reads path by the open readBeneath makes alone: no
// lstat before it, no fstat after.
func (r *Root) openBeneathOnly(path string) ([]byte, error) {
	_, d, rel, w := r.target(path)
	if w != nil {
		return nil, w
	}
	fd, err := openat2(d.fd, rel, readFlags)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	return readFD(fd, 0, 1<<20, nil)
}

// hostile builds the fixture of deps-security.md §3.6: <base>/proj (the
// project) and its prefix sibling <base>/proj-evil holding the secret
// (project's hostile tests build the same).
func hostile(t testing.TB) (base, proj string) {
	t.Helper()
	base = realTemp(t)
	proj = filepath.Join(base, "proj")
	evil := filepath.Join(base, "proj-evil")
	writeTree(t, evil, "secret = "+secret+"\n")
	writeTree(t, proj,
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
		".env = "+secret+"-ENV\n",
		"config/.Env.local = KEY=1\n",
		"keys/server.PEM = x\n",
		".git/config = [core]\n",
		".taskctl/config.xml = <config/>\n",
		"node_modules/pkg/index.js = module.exports = 1\n",
	)
	writeTree(t, proj, "src/chain00 -> a.py")
	for i := 1; i <= 44; i++ {
		writeTree(t, proj, "src/"+chainName(i)+" -> "+chainName(i-1))
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
