package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/taskctl/taskctl/internal/sandbox"
)

// tiocstiArg makes this test binary the hostile executor of
// TestExecutorCannotTypeIntoTheTerminal (TestMain dispatches on it).
const tiocstiArg = "__test-tiocsti"

// testRole returns the main of a role this test binary plays for a test
// (a hostile executor), if arg names one.
func testRole(arg string) (func() int, bool) {
	if arg == tiocstiArg {
		return tiocstiAttack, true
	}
	return nil, false
}

// tiocstiPayload is what the hostile executor types into the user's
// terminal: the user's shell would run it after taskctl exits.
const tiocstiPayload = "echo ESCAPED\n"

// tiocstiAttack is the hostile executor: it pushes tiocstiPayload into
// the input of every terminal it can reach that is the test's own pseudo-
// terminal (TASKCTL_TEST_PTY names its device number; nothing else is
// touched, so a developer's real terminal never receives anything): its
// controlling terminal /dev/tty, and the standard descriptors of itself
// and of its ancestors through /proc, opened without O_NOCTTY so that a
// session leader without a terminal would take it as its own. It prints
// one line per attempt.
func tiocstiAttack() int {
	want, err := strconv.ParseUint(os.Getenv("TASKCTL_TEST_PTY"), 10, 64)
	if err != nil {
		fmt.Println("no TASKCTL_TEST_PTY")
		return 2
	}
	paths := []string{"/dev/tty"}
	for pid := os.Getpid(); pid > 1; pid = parentOf(pid) {
		for fd := 0; fd < 3; fd++ {
			paths = append(paths, fmt.Sprintf("/proc/%d/fd/%d", pid, fd))
		}
	}
	for _, p := range paths {
		fd, err := unix.Open(p, unix.O_RDONLY, 0)
		if err != nil {
			fmt.Printf("%s: open: %v\n", p, err)
			continue
		}
		var st unix.Stat_t
		if p == "/dev/tty" {
			// (/dev/tty stands for the controlling terminal, which
			// /proc/self/stat names)
			st.Mode, st.Rdev = unix.S_IFCHR, uint64(statField(os.Getpid(), 4))
		} else if unix.Fstat(fd, &st) != nil {
			st.Mode = 0
		}
		if st.Mode&unix.S_IFMT != unix.S_IFCHR || st.Rdev != want {
			unix.Close(fd)
			continue
		}
		err = nil
		for i := 0; i < len(tiocstiPayload) && err == nil; i++ {
			c := tiocstiPayload[i]
			_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.TIOCSTI, uintptr(unsafe.Pointer(&c)))
			if errno != 0 {
				err = errno
			}
		}
		fmt.Printf("%s: TIOCSTI: %v\n", p, err)
		unix.Close(fd)
	}
	return 0
}

// parentOf is the parent of process pid, 0 if it cannot be read.
func parentOf(pid int) int { return statField(pid, 1) }

// statField is field i after the command name of /proc/PID/stat (1 the
// parent, 4 the controlling terminal's device number), 0 if it cannot be
// read.
func statField(pid, i int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// pid (comm) state ppid pgrp session tty_nr ...: comm may hold spaces
	// and parentheses.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) <= i {
		return 0
	}
	v, _ := strconv.Atoi(fields[i])
	return v
}

// openPTY makes a pseudo-terminal for a test: its master and its slave,
// neither of them the test's controlling terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("SKIP, not a pass: no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// TestExecutorCannotTypeIntoTheTerminal runs taskctl as a user does, in a
// terminal (a pseudo-terminal the test owns, taskctl's controlling
// terminal), with an executor that pushes a command into that terminal's
// input with TIOCSTI; the user's shell would run it after taskctl exits,
// outside any sandbox. In every sandbox mode nothing may reach the
// terminal's input: the executor runs in a session of its own, with no
// controlling terminal, and a seccomp filter refuses TIOCSTI and TIOCLINUX
// (which root could use on any terminal it opens).
func TestExecutorCannotTypeIntoTheTerminal(t *testing.T) {
	if b, err := os.ReadFile("/proc/sys/dev/tty/legacy_tiocsti"); err == nil && strings.TrimSpace(string(b)) == "0" {
		t.Skip("SKIP, not a pass: this kernel refuses TIOCSTI to everyone without CAP_SYS_ADMIN (dev.tty.legacy_tiocsti=0), so the attack cannot be shown")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "taskctl") // TestMain runs Main under this name
	if err := os.Symlink(self, bin); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []sandbox.Mode{sandbox.ReadOnlyProject, sandbox.Strict, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			if err := sandbox.Check(mode); err != nil {
				t.Skipf("SKIP, not a pass: %v", err)
			}
			proj := t.TempDir()
			writeFiles(t, proj, map[string]string{
				"go.mod": "module x\n",
				"t.xml":  "<task name=\"t\"><description>d</description></task>\n",
			})
			master, slave := openPTY(t)
			var st unix.Stat_t
			if err := unix.Fstat(int(slave.Fd()), &st); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var screen bytes.Buffer
			go func() {
				buf := make([]byte, 4096)
				for {
					n, err := master.Read(buf)
					mu.Lock()
					screen.Write(buf[:n])
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
			cmd := exec.Command(bin, "--project-dir", proj, "run", "t.xml", "--sandbox", string(mode),
				"--executor", self+" "+tiocstiArg)
			cmd.Dir = proj
			cmd.Env = append(os.Environ(), "TASKCTL_TEST_PTY="+strconv.FormatUint(st.Rdev, 10),
				"XDG_CONFIG_HOME="+filepath.Join(proj, ".xdg"), "NO_COLOR=1")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			runErr := cmd.Run()
			// What was typed is in the terminal's input queue now: TIOCSTI
			// is done when the executor, long gone, returned from it.
			queued, err := unix.IoctlGetInt(int(slave.Fd()), unix.TIOCINQ)
			if err != nil {
				t.Fatal(err)
			}
			if testing.Verbose() {
				mu.Lock()
				t.Logf("%s", screen.String())
				mu.Unlock()
			}
			if queued > 0 {
				typed := make([]byte, queued)
				unix.SetNonblock(int(slave.Fd()), true)
				n, _ := io.ReadAtLeast(slave, typed, 1)
				mu.Lock()
				defer mu.Unlock()
				t.Errorf("the executor typed %q into the user's terminal (taskctl: %v); the terminal showed:\n%s",
					typed[:n], runErr, screen.String())
			}
			if runErr != nil {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("taskctl run: %v\n%s", runErr, screen.String())
			}
		})
	}
}
