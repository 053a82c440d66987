package shellexec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/shellexec"
)

// TestStaticRefusalParity: what a command refuses when it runs, Vet refuses
// before anything runs, with the same construct and position (#22 point 2:
// validate said ok, assemble dropped the command as COMMAND_DENIED). What
// runs is not refused by either.
func TestStaticRefusalParity(t *testing.T) {
	_, cfg := project(t, fixtureFiles)
	for _, tt := range []struct {
		script string
		denied bool
	}{
		{`find . -name "*.go" | xargs rm`, true},
		{`find . -name "*.go" | xargs -n1 rm -f`, true},
		{`ls | xargs sh -c "rm x"`, true},
		{`ls | xargs xargs cat`, true},
		{`ls | xargs sed -i s/a/b/`, true},
		{`ls | xargs -0 grep -l x`, false},
		{`find . -delete`, true},
		{`find . -type f -exec cat {} \;`, true},
		{`find -L .`, true},
		{`find . -name -delete`, false},
		{`sed -i s/a/b/ a.txt`, true},
		{`sed -n 'w out' a.txt`, true},
		{`sed -e 's/a/b/w out' a.txt`, true},
		{`sed -n 1p a.txt`, false},
		{`sort -o out a.txt`, true},
		{`sort --output=out a.txt`, true},
		{`sort -k2 a.txt`, false},
		{`tail -f a.txt`, true},
		{`head -n 3 a.txt`, false},
		{`printf -v x hi`, true},
		{`grep -R x .`, true},
		{`grep -rl x .`, false},
		{`git commit -m x`, true},
		{`git push`, true},
		{`git diff --output=out.txt --name-only`, true},
		{`git diff --name-only --cached`, false},
		{`git status --porcelain --ignored`, true},
		{`git status --porcelain -z`, false},
	} {
		verr := shellexec.Vet(tt.script)
		_, rerr := run(t, tt.script, cfg)
		vd, vok := errors.AsType[*shellexec.DeniedError](verr)
		rd, rok := errors.AsType[*shellexec.DeniedError](rerr)
		if vok != tt.denied || rok != tt.denied {
			t.Errorf("%q: Vet = %v, Run = %v; want denied=%v from both", tt.script, verr, rerr, tt.denied)
			continue
		}
		if tt.denied && vd.Error() != rd.Error() {
			t.Errorf("%q: Vet says %q, Run says %q", tt.script, vd.Error(), rd.Error())
		}
	}
}

// TestWhileReadAndCapture: while read loops and NAME=$(command) run as in
// bash; other loops and assignments stay refused (#22 point 3).
func TestWhileReadAndCapture(t *testing.T) {
	_, cfg := project(t, fixtureFiles)
	cfg.Vars = map[string]string{"area": "src"}
	for _, tt := range []struct{ script, want string }{
		{`ls src | while read -r f; do echo "src/$f"; done`, "src/__pycache__\nsrc/app.py\nsrc/pkg\nsrc/util.py\n"},
		{`find docs -name '*.md' | while read f; do grep -l foo "$f"; done`, "docs/guide.md\n"},
		{`f=$(ls src | head -n 1); echo "$f"`, "__pycache__\n"},
		{`n="$(grep -c foo docs/guide.md)"; echo "$n matches"`, "3 matches\n"},
		{`ls "$area" | while read -r a b; do echo "$a"; done | head -n 1`, "__pycache__\n"},
	} {
		res, err := run(t, tt.script, cfg)
		if err != nil || string(res.Stdout) != tt.want {
			t.Errorf("Run(%q) = %q, %v; want %q", tt.script, res.Stdout, err, tt.want)
		}
	}
	for _, tt := range []struct{ script, want string }{
		{`while true; do ls; done`, "1:1: while loop is not allowed"},
		{`while read -r area; do echo "$area"; done`, "1:7: read area is not allowed"},
		{`while read -u 3 x; do ls; done`, "1:7: read -u is not allowed"},
		{`read x`, "1:1: read is not allowed"},
		{`x=rm; $x y`, "1:1: assignment is not allowed"},
		{`area=$(echo /etc)`, "1:1: assignment to area is not allowed"},
		{`IFS=$(echo /)`, "1:1: assignment to IFS is not allowed"},
		{`x=$(echo a) ls`, "1:1: assignment is not allowed"},
		{`x=$(rm -rf src)`, "1:5: command rm is not allowed"},
		{`ls | while read f; do rm "$f"; done`, "1:23: command rm is not allowed"},
	} {
		_, err := run(t, tt.script, cfg)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Run(%q) = %v, want an error starting %q", tt.script, err, tt.want)
		}
	}
}
