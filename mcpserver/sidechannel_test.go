package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPromptCannotSpellASecret (#30 point 4): a task's command prints
// k/<position><character> for each character of an AWS key that
// settings.py holds, and the repository commits the 720 empty files
// k/1A … k/20Z, k/10 … k/209, so the files the prompt's context lists would
// spell the key. The content policy (#29) keeps the command from reading
// settings.py, which the document refuses: the prompt lists no more of the
// key than the "AKIA" every key starts with.
func TestPromptCannotSpellASecret(t *testing.T) {
	const key = "AKIA2E0A8F3B244C9986"
	f := newFixture(t)
	files := map[string]string{
		"proj/settings.py": "AWS_ACCESS_KEY_ID = \"" + key + "\"\n",
		"proj/.taskctl/tasks/spell.xml": `<task name="spell"><description>spell</description><file_paths source="command"><command>` +
			`for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo k/$i$(grep -o 'AKIA[A-Z0-9]*' settings.py | cut -c$i); done` +
			`</command></file_paths></task>`,
	}
	for pos := 1; pos <= 20; pos++ {
		for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" {
			files[fmt.Sprintf("proj/k/%d%c", pos, c)] = ""
		}
	}
	write(t, f.dir, files)
	if err := os.Remove(filepath.Join(f.proj, ".taskctl", "tasks", "t.xml")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, f)
	got, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "spell"})
	if err != nil {
		t.Fatal(err)
	}
	var msg string
	for _, m := range got.Messages {
		if tc, ok := m.Content.(*mcp.TextContent); ok {
			msg += tc.Text
		}
	}
	at := map[int]byte{}
	for _, m := range regexp.MustCompile(`k/([0-9]+)([A-Z0-9])\b`).FindAllStringSubmatch(msg, -1) {
		if pos, err := strconv.Atoi(m[1]); err == nil {
			at[pos] = m[2][0]
		}
	}
	right := 0
	for pos := 1; pos <= len(key); pos++ {
		if at[pos] == key[pos-1] {
			right++
		}
	}
	if right > 4 {
		t.Errorf("the prompt's files spell %d of the key's %d characters:\n%s", right, len(key), msg)
	}
}

// TestValidateLinkOut (#30 point 8): validate of a task file the
// repository commits as a symbolic link to a file outside says neither
// where the link leads nor what the file outside holds.
func TestValidateLinkOut(t *testing.T) {
	f := newFixture(t)
	write(t, f.dir, map[string]string{"outside/private.xml": "<payroll><OUTSIDE-ELEMENT-MARK/></payroll>\n"})
	if err := os.Symlink(filepath.Join(f.outside, "private.xml"), filepath.Join(f.proj, ".taskctl", "tasks", "evil.xml")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, f)
	for _, path := range []string{".taskctl/tasks/evil.xml", filepath.Join(f.proj, ".taskctl", "tasks", "evil.xml")} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "validate", Arguments: map[string]any{"path": path}})
		if err != nil {
			t.Fatal(err)
		}
		said := text(res) + string(mustJSON(t, res.StructuredContent)) + string(mustJSON(t, res.Meta))
		for _, leak := range []string{f.outside, "private.xml", "payroll", "OUTSIDE-ELEMENT-MARK"} {
			if strings.Contains(said, leak) {
				t.Errorf("validate %s says %q of the file outside:\n%s", path, leak, said)
				break
			}
		}
	}
}

// TestListDirectorySecretNames (#30 point 9): list_directory does not
// print a name that is a secret, in its text or its structured content.
func TestListDirectorySecretNames(t *testing.T) {
	f := newFixture(t)
	secrets := []string{"AKIA2E0A8F3B244C9986", "ghp_R8x2kQ9mZ4vT7nW1pL6yH3sJ5dF0gA8cB2eK", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"}
	write(t, f.dir, map[string]string{
		"proj/d/ok.txt":                   "ok\n",
		"proj/d/" + secrets[0] + ".txt":   "",
		"proj/d/" + secrets[1]:            "",
		"proj/d/" + secrets[2] + "/f.txt": "",
	})
	cs := connect(t, f)
	res := callTool(t, cs, "list_directory", map[string]any{"path": "d"})
	said := text(res) + string(mustJSON(t, res.StructuredContent))
	if !strings.Contains(said, "ok.txt") {
		t.Fatalf("list_directory d lacks ok.txt:\n%s", said)
	}
	for _, s := range secrets {
		if strings.Contains(said, s) {
			t.Errorf("list_directory prints the secret name %s:\n%s", s, said)
		}
	}
}
