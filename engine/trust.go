package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
)

// The trust store is a file in the user's config dir: one line a trusted
// project config, "SHA256<TAB>ABSOLUTE PATH". A project's config is
// trusted while its content hashes to what 'taskctl trust' recorded for
// its path: an edit (a pull that changes it) makes it untrusted again.
const trustStoreName = "trusted"

// trusted reports whether the project config at path with content data is
// trusted, and if not, why.
func (e *Engine) trusted(path string, data []byte) (bool, string) {
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	recorded := ""
	for _, l := range e.trustLines() {
		if h, p, ok := strings.Cut(l, "\t"); ok && p == path {
			recorded = h
		}
	}
	switch recorded {
	case want:
		return true, ""
	case "":
		return false, "the project's config is not trusted"
	}
	return false, "the project's config changed since 'taskctl trust'"
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

// TrustResult is the project config 'taskctl trust' recorded and its hash.
type TrustResult struct {
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
	if errors.Is(err, project.ErrLeavesRoot) {
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
	dir := e.userConfigDir()
	if dir == "" {
		return nil, errors.New("trust: no user config dir (set HOME or XDG_CONFIG_HOME)")
	}
	var buf bytes.Buffer
	for _, l := range e.trustLines() {
		if _, p, ok := strings.Cut(l, "\t"); ok && p != path {
			buf.WriteString(l + "\n")
		}
	}
	buf.WriteString(res.SHA256 + "\t" + path + "\n")
	if err := writeReplacing(dir, trustStoreName, buf.Bytes()); err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	// What opening the project said of the file before it was trusted no
	// longer holds.
	kept := e.warnings[:0]
	for _, w := range e.warnings {
		if w.Code != diag.ConfigUntrusted || w.Path != path {
			kept = append(kept, w)
		}
	}
	e.warnings = kept
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
