package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// ABI returns the Landlock ABI version of the running kernel, 0 if it has
// none (or Landlock is disabled).
func ABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// Exec is the helper's main: args are what Plan.Command put after the
// helper. It confines this process as the plan says and executes the
// program in its place; it returns only on failure, with the exit status
// to exit with (126, as a shell's for a program it cannot run), after
// saying why on stderr.
func Exec(args []string) int {
	p, argv, err := parseArgs(args)
	if err == nil {
		err = p.restrict()
	}
	if err == nil {
		err = syscall.Exec(argv[0], argv, os.Environ())
		err = fmt.Errorf("%s: %w", argv[0], err)
	}
	fmt.Fprintf(os.Stderr, "taskctl sandbox: %v\n", err)
	return 126
}

// restrict confines the calling thread, which is then locked to its
// goroutine for good: the program is executed from it, and execve keeps
// the thread's Landlock domain (and no_new_privs), whatever the other
// threads of this process.
func (p *Plan) restrict() error {
	cfg := landlock.V11.BestEffort()
	if p.Mode == ReadOnlyProject {
		// The network, pathname UNIX sockets and IPC stay open.
		cfg.HandledAccessNet = 0
		cfg.Scoped = 0
		cfg.HandledAccessFS &^= ll.AccessFSResolveUnix
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWFiles(p.Files...).WithIoctlDev().IgnoreIfMissing(),
	}
	if len(p.Write) > 0 {
		// (Refer: moving a file from one writable directory to another,
		// as tools that write a temporary file and rename it do.)
		rules = append(rules, landlock.RWDirs(p.Write...).WithRefer())
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock ruleset: %w", err)
	}
	if fd < 0 {
		return errors.New("landlock: this kernel has none")
	}
	defer syscall.Close(fd)
	runtime.LockOSThread() // never unlocked: the thread ends in execve
	// (Landlock needs no_new_privs of an unprivileged thread; it is set
	// for root too, so that a set-user-ID program gains nothing.)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	// No typing into a terminal: the program has none (the caller started
	// this helper in a session of its own), and whatever terminal it
	// opens, it may not push input into it.
	if err := RefuseTerminalInput(); err != nil {
		return err
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return nil
}
