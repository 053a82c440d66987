package workflow

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/state"
)

// sandboxPlan decides how the run's executors are confined: the plan (nil
// when they are not), or a SANDBOX_UNAVAILABLE warning when the default
// mode cannot be applied, or an error when a mode asked for by name
// cannot be, or a writable directory is refused. The plan's first
// writable directory is RunsDir, which is checked here and stands for the
// run's directory until the store has made it (see runDirPlan).
func (r *runner) sandboxPlan() (*sandbox.Plan, *diag.Warning, error) {
	mode := r.opt.Sandbox
	if mode == sandbox.Off {
		return nil, nil, nil
	}
	named := mode != ""
	if !named {
		mode = sandbox.ReadOnlyProject
	} else if _, err := sandbox.ParseMode(string(mode)); err != nil {
		return nil, nil, err
	}
	why := sandbox.Check(mode)
	if why == nil && len(r.opt.SandboxHelper) == 0 {
		why = fmt.Errorf("%w: no sandbox helper was given", sandbox.ErrUnavailable)
	}
	if why != nil {
		if named {
			return nil, nil, fmt.Errorf("sandbox %s: %w", mode, why)
		}
		return nil, &diag.Warning{Code: diag.SandboxUnavailable,
			Message: fmt.Sprintf("executors run unconfined, with all your rights: %v", why)}, nil
	}
	// The runs directory is taskctl's state: what stands in its way is
	// refused as such (STATE_UNSAFE) before the plan looks at it.
	if _, err := os.Lstat(r.opt.RunsDir); err == nil {
		d, err := state.Open(r.opt.RunsDir)
		if err != nil {
			return nil, nil, err
		}
		d.Close()
	}
	write := []string{r.opt.RunsDir}
	if r.opt.Workspace != "" {
		write = append(write, r.opt.Workspace)
	}
	plan, err := sandbox.NewPlan(mode, r.opt.ProjectDir, append(write, r.opt.WriteRoots...))
	return plan, nil, err
}

// runDirPlan puts the run's directory in place of RunsDir in the plan,
// and makes its tmp directory when the plan wants a private TMPDIR.
func (r *runner) runDirPlan() error {
	if r.plan == nil {
		return nil
	}
	r.plan.Write[0] = r.rec.Dir
	if r.plan.PrivateTemp {
		if err := r.st.dir.Mkdir("tmp", 0o700); err != nil {
			return fmt.Errorf("the executors' TMPDIR: %w", err)
		}
	}
	return nil
}

// ensureWorkspace makes the workspace if it is missing, in a parent that
// is its own real path (so that a symbolic link on the way cannot put it
// elsewhere), and checks that it is a directory.
func ensureWorkspace(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("workspace %s: not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if real, err := filepath.EvalSymlinks(parent); err != nil {
		return fmt.Errorf("workspace: %w", err)
	} else if real != parent {
		return fmt.Errorf("workspace %s: a symbolic link is on its way (its parent is %s)", dir, real)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("workspace: %w", err)
	}
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("workspace: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("workspace %s: a symbolic link is on its way (it is one)", dir)
	case !fi.IsDir():
		return fmt.Errorf("workspace %s: not a directory", dir)
	}
	return nil
}

// confine makes cmd run its command line through the sandbox helper.
func confine(cmd *exec.Cmd, plan *sandbox.Plan, helper []string) {
	argv := plan.Command(helper, append([]string{cmd.Path}, cmd.Args[1:]...))
	cmd.Path, cmd.Args = argv[0], argv
	cmd.Err = nil
}

// sandboxEnv is what the executor's environment says of its sandbox.
func (r *runner) sandboxEnv() []string {
	env := []string{"TASKCTL_SANDBOX=" + r.rec.Sandbox}
	if r.opt.Workspace != "" {
		env = append(env, "TASKCTL_WORKSPACE="+r.opt.Workspace)
	}
	if r.plan != nil && r.plan.PrivateTemp {
		env = append(env, "TMPDIR="+filepath.Join(r.rec.Dir, "tmp"))
	}
	return env
}
