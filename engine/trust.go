package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/workflow"
)

// The trust store is a file in the user's config dir: one line a trusted
// project config, "SHA256<TAB>ABSOLUTE PATH", followed by a
// "<TAB>SHA256<TAB>FILE" pair for each file of the project the config's
// executor names (its script, or the script an interpreter is given). A
// project's config is trusted while its content hashes to what 'taskctl
// trust' recorded for its path and each such file still hashes to what was
// recorded for it: an edit of either (a pull that changes the config or
// the script it runs) makes it untrusted again, as direnv pins the file it
// runs.
const trustStoreName = "trusted"

// trustRecord is one line of the trust store.
type trustRecord struct {
	sum, path string
	pins      []pin
}

// pin is a file of the project a trusted config's executor names, and
// its sha256 when it was trusted.
type pin struct{ sum, path string }

func parseTrustLine(l string) (trustRecord, bool) {
	f := strings.Split(l, "\t")
	if len(f) < 2 || len(f)%2 != 0 {
		return trustRecord{}, false
	}
	r := trustRecord{sum: f[0], path: f[1]}
	for i := 2; i < len(f); i += 2 {
		r.pins = append(r.pins, pin{sum: f[i], path: f[i+1]})
	}
	return r, true
}

func (r trustRecord) String() string {
	var b strings.Builder
	b.WriteString(r.sum + "\t" + r.path)
	for _, p := range r.pins {
		b.WriteString("\t" + p.sum + "\t" + p.path)
	}
	return b.String()
}

// executorPins returns the files of the project that the executor of the
// config data names (its program, and any argument that is a file of the
// project, as "sh agent.sh" names agent.sh), with their sha256, for the
// config at path (PROJECT/.taskctl/config.xml, which names them from the
// project dir). A program looked up in PATH or a file outside the project
// is not the repository's and is not pinned; a file of the project that
// cannot be read is pinned as unreadable, so that it cannot come to be
// read later without a new trust.
func executorPins(path string, data []byte) []pin {
	values, err := readConfigValues(data)
	if err != nil || len(values["run.executor"]) == 0 {
		return nil
	}
	argv, err := workflow.SplitCommand(strings.TrimSpace(values["run.executor"][len(values["run.executor"])-1].text))
	if err != nil {
		return nil
	}
	proj := filepath.Dir(filepath.Dir(path))
	var pins []pin
	for i, a := range argv {
		if a == "" || strings.HasPrefix(a, "-") || i == 0 && !strings.Contains(a, "/") {
			continue
		}
		file := a
		if !filepath.IsAbs(file) {
			file = filepath.Join(proj, file)
		}
		file = filepath.Clean(file)
		if !lexicallyWithin(file, proj) {
			continue
		}
		fi, err := os.Lstat(file)
		if err != nil || fi.IsDir() {
			continue
		}
		pins = append(pins, pin{sum: fileSum(proj, file), path: file})
	}
	return pins
}

// fileSum is the sha256 of the file at path in the project proj, read
// through the project ("unreadable" if it cannot be: a link out, a FIFO).
func fileSum(proj, path string) string {
	f, err := root.OpenIn(proj, path)
	if err != nil {
		if target, lerr := os.Readlink(path); lerr == nil {
			sum := sha256.Sum256([]byte("symlink:" + target))
			return hex.EncodeToString(sum[:])
		}
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// trusted reports whether the project config at path with content data is
// trusted, and if not, why.
func (e *Engine) trusted(path string, data []byte) (bool, string) {
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	var rec trustRecord
	found := false
	for _, l := range e.trustLines() {
		if r, ok := parseTrustLine(l); ok && r.path == path {
			rec, found = r, true
		}
	}
	switch {
	case !found:
		return false, "the project's config is not trusted"
	case rec.sum != want:
		return false, "the project's config changed since 'taskctl trust'"
	}
	recorded := map[string]string{}
	for _, p := range rec.pins {
		recorded[p.path] = p.sum
	}
	for _, p := range executorPins(path, data) {
		if recorded[p.path] != p.sum {
			return false, fmt.Sprintf("%s, which the config's executor runs, changed since 'taskctl trust'", p.path)
		}
	}
	return true, ""
}

// trustLines returns the lines of the trust store (none if it cannot be
// read).
func (e *Engine) trustLines() []string {
	dir := e.userConfigDir()
	if dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, trustStoreName))
	if err != nil {
		return nil
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TrustResult is the project config 'taskctl trust' recorded and its
// hash, and the files its executor names, pinned with theirs.
type TrustResult struct {
	Path   string       `json:"path"`
	SHA256 string       `json:"sha256"`
	Pinned []PinnedFile `json:"pinned,omitempty"`
}

// PinnedFile is a file of the project a trusted config's executor names.
type PinnedFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Trust records the project's .taskctl/config.xml, as it is now, as
// trusted: its settings then apply in full. The file must exist and be a
// valid config. The record (its sha256 and path) goes to the trust store
// in the user's config dir, written to a temporary file and renamed.
func (e *Engine) Trust() (*TrustResult, error) {
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(p.Dir(), ".taskctl", "config.xml")
	data, err := readIn(p.Dir(), path)
	if errors.Is(err, root.ErrLeavesRoot) {
		return nil, codedErr(diag.ArgInvalid, ClassUsage, "trust: %s is a symbolic link leading outside the project: not followed, nothing trusted", path)
	}
	if pr, ok := InputProblem(path, err); ok {
		return nil, configInvalid(path, []diag.Problem{pr})
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, codedErr(diag.ArgInvalid, ClassUsage, "trust: %s: no such file (nothing to trust)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	if probs := CheckConfig(path, data); probs != nil {
		return nil, configInvalid(path, probs)
	}
	sum := sha256.Sum256(data)
	res := &TrustResult{Path: path, SHA256: hex.EncodeToString(sum[:])}
	rec := trustRecord{sum: res.SHA256, path: path, pins: executorPins(path, data)}
	for _, p := range rec.pins {
		res.Pinned = append(res.Pinned, PinnedFile{Path: p.path, SHA256: p.sum})
	}
	dir := e.userConfigDir()
	if dir == "" {
		return nil, errors.New("trust: no user config dir (set HOME or XDG_CONFIG_HOME)")
	}
	var buf bytes.Buffer
	for _, l := range e.trustLines() {
		if r, ok := parseTrustLine(l); ok && r.path != path {
			buf.WriteString(l + "\n")
		}
	}
	buf.WriteString(rec.String() + "\n")
	if err := writeReplacing(dir, trustStoreName, buf.Bytes()); err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	// What opening the project said of the file before it was trusted no
	// longer holds.
	var kept warnings
	for _, w := range e.configWarns {
		if w.Code != diag.ConfigUntrusted || w.Path != path {
			kept = append(kept, w)
		}
	}
	e.configWarns = kept
	return res, nil
}

// writeReplacing writes data to dir/name through a temporary file renamed
// over it, so that a reader sees the old store or the new one.
func writeReplacing(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+name+"-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
