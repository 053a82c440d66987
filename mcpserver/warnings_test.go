package mcpserver_test

import (
	"strings"
	"sync"
	"testing"
)

// TestCallsKeepTheirOwnWarnings (#29 point 3): calls made side by side on
// one session each report their own warnings and no other's: an assemble
// with an input its task does not declare says UNKNOWN_VAR, a read of a
// binary file FILE_BINARY; a read of a text file and the task list beside
// them say nothing.
func TestCallsKeepTheirOwnWarnings(t *testing.T) {
	f := newFixture(t)
	write(t, f.proj, map[string]string{"blob.bin": "\x00\x01\x02binary\x00"})
	cs := connect(t, f)
	calls := []struct {
		tool string
		args map[string]any
		want string // the one warning code of its result, "" for none
	}{
		{"assemble", map[string]any{"task": "review", "vars": map[string]any{"area": "src", "nope": "1"}}, "UNKNOWN_VAR"},
		{"read_file", map[string]any{"path": "blob.bin"}, "FILE_BINARY"},
		{"read_file", map[string]any{"path": "README.md"}, ""},
		{"list_tasks", map[string]any{}, ""},
		{"list_directory", map[string]any{"path": "src"}, ""},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := map[string]bool{}
	for round := 0; round < 10; round++ {
		for _, c := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := callTool(t, cs, c.tool, c.args)
				got := warningCodes(res.Meta["taskctl/warnings"])
				if res.IsError || strings.Join(got, ",") != c.want {
					mu.Lock()
					defer mu.Unlock()
					key := c.tool + " " + strings.Join(got, ",")
					if !bad[key] {
						bad[key] = true
						t.Errorf("%s %v: error %t, warnings %v, want [%s]", c.tool, c.args, res.IsError, got, c.want)
					}
				}
			}()
		}
	}
	wg.Wait()
}

// warningCodes are the codes of a result's _meta warnings.
func warningCodes(meta any) []string {
	var codes []string
	list, _ := meta.([]any)
	for _, w := range list {
		if m, ok := w.(map[string]any); ok {
			codes = append(codes, m["code"].(string))
		}
	}
	return codes
}
