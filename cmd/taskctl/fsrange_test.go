package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRangeDoors: `taskctl fs read --head [--from-line]/--tail/--offset --length`
// and MCP read_file's head/tail/offset/length read parts of a 12 MiB file
// (over the 10 MiB whole-file cap, which still refuses the whole read); a
// range holding the key is SECRET_DETECTED at both doors; a file outside
// the project is refused as before.
func TestReadRangeDoors(t *testing.T) {
	dir := t.TempDir()
	proj, outside, xdg := filepath.Join(dir, "proj"), filepath.Join(dir, "outside"), filepath.Join(dir, "xdg")
	var b strings.Builder
	n := (12<<20)/13 + 1
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line %07d\n", i)
	}
	keyAt := b.Len()
	b.WriteString("aws_access_key_id = " + awsKey + "\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "end %04d\n", i)
	}
	for name, content := range map[string]string{
		"proj/.git/HEAD": "ref: refs/heads/main\n", "proj/big.txt": b.String(),
		"outside/o.txt": "outside\n", "xdg/.keep": "",
	} {
		p := filepath.Join(dir, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	cs := doorsMCP(t, proj, xdg)
	mid := fmt.Sprint(13 * 500000)

	for _, c := range []struct {
		cli  []string
		mcp  map[string]any
		want string
	}{
		{[]string{"--head", "2"}, map[string]any{"head": 2}, "line 0000000\nline 0000001\n"},
		{[]string{"--tail", "2"}, map[string]any{"tail": 2}, "end 2998\nend 2999\n"},
		{[]string{"--head", "1", "--from-line", "500001"}, map[string]any{"head": 1, "from_line": 500001}, "line 0500000\n"},
		{[]string{"--offset", mid, "--length", "13"}, map[string]any{"offset": 13 * 500000, "length": 13}, "line 0500000\n"},
	} {
		env := doorCLI(t, proj, append([]string{"fs", "read", "big.txt"}, c.cli...)...)
		var got struct {
			Content string
			Size    int64
		}
		if !env.OK || json.Unmarshal(env.Data, &got) != nil || got.Content != c.want || got.Size != int64(b.Len()) {
			t.Errorf("fs read %v = %+v %s; want %q", c.cli, env.Error, env.Data, c.want)
		}
		args := map[string]any{"path": "big.txt"}
		for k, v := range c.mcp {
			args[k] = v
		}
		if res, text := mcpCall(t, cs, "read_file", args); res.IsError || text != c.want {
			t.Errorf("read_file %v = %q (error %v); want %q", c.mcp, text, res.IsError, c.want)
		}
	}
	if env := doorCLI(t, proj, "fs", "read", "big.txt"); env.OK || env.Error.Code != "FILE_TOO_LARGE" {
		t.Errorf("fs read of the whole 12 MiB = %+v, want FILE_TOO_LARGE", env.Error)
	}
	key := fmt.Sprint(keyAt)
	if env := doorCLI(t, proj, "fs", "read", "big.txt", "--offset", key, "--length", "60"); env.OK || env.Error.Code != "SECRET_DETECTED" {
		t.Errorf("fs read of the key's range = %+v %s, want SECRET_DETECTED", env.Error, env.Data)
	}
	if res, text := mcpCall(t, cs, "read_file", map[string]any{"path": "big.txt", "offset": keyAt + 20, "length": 10}); !res.IsError ||
		!strings.HasPrefix(text, "SECRET_DETECTED") || strings.Contains(text, awsKey[:10]) {
		t.Errorf("read_file of a piece of the key = %q, want SECRET_DETECTED", text)
	}
	if env := doorCLI(t, proj, "fs", "read", filepath.Join(outside, "o.txt"), "--head", "1"); env.OK || env.Error.Code != "PATH_OUTSIDE_PROJECT" {
		t.Errorf("fs read --head outside = %+v, want PATH_OUTSIDE_PROJECT", env.Error)
	}
	if res, text := mcpCall(t, cs, "read_file", map[string]any{"path": "../outside/o.txt", "tail": 1}); !res.IsError || !strings.HasPrefix(text, "PATH_OUTSIDE_PROJECT") {
		t.Errorf("read_file tail outside = %q, want PATH_OUTSIDE_PROJECT", text)
	}
}
