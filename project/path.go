package project

import (
	"io/fs"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
)

// The confined file system is root's (#29 point 1): the input checks, the
// symlink evaluation, the name and content policy and the confined reads.
// What project keeps are the walks, globs and the resolution of specs and
// command output; these are the names it uses the root's by.

// Policy is the root's policy (see root.Policy).
type Policy = root.Policy

// DefaultPolicy returns the default policy (see root.DefaultPolicy).
func DefaultPolicy() Policy { return root.DefaultPolicy() }

// A File is a file read through the project's root (see root.File).
type File = root.File

// Content is the content policy's verdict on one file's bytes (see
// root.Content).
type Content = root.Content

// A Window is the part of a file a ranged read returns (see root.Window).
type Window = root.Window

// WindowMargin is how far around a range its bytes are read for the
// content policy (see root.WindowMargin).
const WindowMargin = root.WindowMargin

// JudgeContent applies the content policy to data (see root.JudgeContent).
func JudgeContent(data []byte, allowSecrets bool) Content {
	return root.JudgeContent(data, allowSecrets)
}

// IsBinary reports whether data looks binary (see root.IsBinary).
func IsBinary(data []byte) bool { return root.IsBinary(data) }

// AlwaysExcludedDir returns the part of rel up to its first .git or
// .taskctl directory, or "" (see root.AlwaysExcludedDir).
func AlwaysExcludedDir(rel string) string { return root.AlwaysExcludedDir(rel) }

var errNotDir = root.ErrNotDir

const openFlags = root.OpenFlags

func checkInput(s string) string                 { return root.CheckInput(s) }
func checkWalkedName(name string) string         { return root.CheckWalkedName(name) }
func quote(s string) string                      { return root.Quote(s) }
func within(dir, p string) bool                  { return root.Within(dir, p) }
func classifyErr(err error) (diag.Code, string)  { return root.ClassifyErr(err) }
func isEscape(err error) bool                    { return root.IsEscape(err) }
func alwaysExcluded(name string) bool            { return root.AlwaysExcluded(name) }
func isNodeModules(name string) bool             { return name == "node_modules" }
func lstatType(path string) (fs.FileMode, error) { return root.LstatType(path) }

func listTypes(dir string, buf *[]byte) (map[string]fs.FileMode, error) {
	return root.ListTypes(dir, buf)
}

// where says how an absolute clean path stands to the allowed roots (see
// root.Root.Where).
func (p *Project) where(path string) int { return p.fsys.Where(path) }

// evalPath resolves every symlink of the absolute path as the kernel
// would, looking at nothing outside the allowed roots (see root.Root.Eval).
func (p *Project) evalPath(path string) (string, error) { return p.fsys.Eval(path) }

// sensitiveNames matches the policy's sensitive names.
type sensitiveNames struct{ r *root.Root }

func (s sensitiveNames) match(rel, name string) string { return s.r.SensitiveMatch(rel, name) }
func kindName(m fs.FileMode) string                    { return root.KindName(m) }
func sensitiveWarning(path, pat string) *diag.Warning  { return root.SensitiveWarning(path, pat) }
