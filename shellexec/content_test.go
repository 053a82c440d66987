package shellexec_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/root"
)

// TestContentPolicyForCommandReads (#29): a file whose content holds a
// secret (not a sensitive name: the name rule already keeps .env out) is
// refused to every command that would read it, whatever the builtin or
// redirection, as the context document refuses it. The refusal names the
// rule and line and lands in Result.Secrets; the secret never comes out.
// On main before #29, `cat keys.txt` printed the key.
func TestContentPolicyForCommandReads(t *testing.T) {
	const key = "AKIAZ7Q3M9X2W4R8T6Y1"
	files := map[string]string{
		"keys.txt":       "prod\t" + key + "\n",
		"sub/notes.md":   "deploy with " + key + "\n",
		"sub/plain.txt":  "harmless\n",
		"list.txt":       "keys.txt\n",
		"utf16/keys.txt": utf16le("aws = " + key + "\n"),
	}
	scripts := []string{
		"cat keys.txt",
		"head -n1 keys.txt",
		"tail -n1 keys.txt",
		"grep AKIA keys.txt",
		"grep -r AKIA .",
		"grep -rl AKIA .",
		"grep -rh . sub",
		"sed 's/^/x/' keys.txt",
		"cut -f2 keys.txt",
		"sort keys.txt | uniq",
		"wc -c keys.txt; tr A-Z a-z < keys.txt",
		`echo "$(<keys.txt)"`,
		"while read -r l; do echo \"$l\"; done < keys.txt",
		"cat list.txt | xargs cat",
		"cat utf16/keys.txt",
	}
	for _, allow := range []bool{false, true} {
		for _, script := range scripts {
			_, cfg := project(t, files)
			cfg = withPolicy(t, cfg, root.Policy{AllowSecrets: allow})
			res, err := run(t, script, cfg)
			if err != nil {
				t.Fatalf("%s: %v", script, err)
			}
			out := string(res.Stdout) + string(res.Stderr)
			if allow {
				if len(res.Secrets) != 0 {
					t.Errorf("%s, secrets allowed: refused %v", script, res.Secrets)
				}
				continue
			}
			if strings.Contains(out, key) || strings.Contains(strings.ToLower(out), strings.ToLower(key)) {
				t.Errorf("%s: the key came out:\n%s", script, out)
			}
			if len(res.Secrets) == 0 {
				t.Errorf("%s: no refusal in Result.Secrets; output:\n%s", script, out)
			}
			for _, r := range res.Secrets {
				if strings.Contains(r.Reason, key) || !strings.Contains(r.Reason, "aws-access-key-id") {
					t.Errorf("%s: refusal %+v: want the rule named, the key not quoted", script, r)
				}
			}
		}
	}
	// A file without a secret is read as before.
	_, cfg := project(t, files)
	res, err := run(t, "cat sub/plain.txt; grep -h harm sub/plain.txt", cfg)
	if err != nil || string(res.Stdout) != "harmless\nharmless\n" || len(res.Secrets) != 0 {
		t.Errorf("plain reads: %v %q %v", err, res.Stdout, res.Secrets)
	}
	// The refusal is said on standard error, naming the rule.
	res, _ = run(t, "cat keys.txt", cfg)
	if !strings.Contains(string(res.Stderr), "keys.txt: not read: its content holds a secret (rule aws-access-key-id at line 1)") {
		t.Errorf("cat keys.txt: stderr %q", res.Stderr)
	}
}

// utf16le encodes ASCII s as UTF-16LE with a byte-order mark.
func utf16le(s string) string {
	b := []byte{0xff, 0xfe}
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return string(b)
}
