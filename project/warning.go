package project

import "fmt"

// Warning codes. They are stable: callers and scripts match on them.
const (
	CodeOutsideProject = "PATH_OUTSIDE_PROJECT" // the real path lies outside every allowed root
	CodeNotFound       = "PATH_NOT_FOUND"       // no such file (or a component is not a directory)
	CodeInvalid        = "PATH_INVALID"         // empty, NUL, control character, backslash, drive/UNC form, too long, symlink loop
	CodeSensitive      = "PATH_SENSITIVE"       // a sensitive name (.env*, *.pem, id_rsa*, ...) and the policy does not allow them
	CodeSpecialFile    = "PATH_SPECIAL_FILE"    // a FIFO, device or socket: never opened
	CodeIsDir          = "PATH_IS_DIR"          // a directory where a file was needed (ResolveFrom, Read)
	CodeIgnored        = "PATH_IGNORED"         // always excluded (.git/, .taskctl/) or excluded by the policy
	CodeUnreadable     = "PATH_UNREADABLE"      // permission denied or an I/O error
	CodeTooLarge       = "FILE_TOO_LARGE"       // over Policy.MaxFileBytes
	CodeBinary         = "FILE_BINARY"          // listed, content omitted (the caller reports it; see File.Binary)
	CodeNoMatch        = "GLOB_NO_MATCH"        // a glob, or a named directory, yielded no file
	CodeTooManyFiles   = "TOO_MANY_FILES"       // a source matched more than Policy.MaxFiles files
	CodeWalkStopped    = "WALK_STOPPED"         // the context ended the walk; the candidates found so far are returned
)

// A Warning is a path that was refused or a source that was cut short. It is
// reported, not fatal: the run goes on without the path.
//
// Path is absolute where it is known; when the input could not be resolved
// at all (for example it holds a NUL byte) it is the raw input, quoted with
// %q-style escapes in Message.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
}

// Error makes a *Warning usable as an error.
func (w *Warning) Error() string {
	if w.Path != "" {
		return fmt.Sprintf("%s: %s: %s", w.Code, w.Path, w.Message)
	}
	return fmt.Sprintf("%s: %s", w.Code, w.Message)
}

func warnf(code, path, format string, args ...any) *Warning {
	return &Warning{Code: code, Path: path, Message: fmt.Sprintf(format, args...)}
}
