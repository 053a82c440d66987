package shellexec_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/shellexec"
)

// Key material of the leak tests: an AWS access key id and a GitHub token
// in a settings file that assembly refuses to show.
const (
	leakAWS    = "AKIAQWERTYUIOPASDFGH"
	leakGitHub = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
)

// quoteAttackScripts take a file's content (or a command's output) as a
// command name, an option or an operand.
var quoteAttackScripts = []string{
	`cd "$(cat settings.py)"`,
	`cd "$(cat one.txt)"`,
	`cd "$(<one.txt)"`,
	`"$(cat settings.py)"`,
	`$(cat one.txt) x`,
	`git "$(cat one.txt)"`,
	`git ls-files "$(cat one.txt)"`,
	`set -o "$(cat one.txt)"`,
	`set "-$(cat one.txt)"`,
	`ls "-$(cat one.txt)"`,
	`grep "--$(cat one.txt)" dir`,
	`find dir "-$(cat one.txt)"`,
	`sed "$(cat one.txt)" dir/a.txt`,
	`xargs "$(cat one.txt)" < one.txt`,
	`sed 's/^/-exec/' one.txt | xargs find dir`,
	`sed 's/^/--/' one.txt | xargs grep x`,
	`exec "$(cat one.txt)"`,
	`builtin "$(cat one.txt)"`,
	`v=$(cat one.txt); $v`,
	`for w in $(cat settings.py); do $w; done`,
	`while read -r l; do "$l"; done < one.txt`,
	`while read -r l; do grep "--$l" dir; done < one.txt`,
	`test "$(cat one.txt)" -eq 1`,
	`[ "$(cat one.txt)" -gt 1 ]`,
	`echo $(( $(cat one.txt) ))`,
	`sort -k "$(cat one.txt)" dir/a.txt`,
	`head -n "$(cat one.txt)" dir/a.txt`,
	`cut -c "$(cat one.txt)" dir/a.txt`,
	`tr "$(cat one.txt)" dir/a.txt`,
}

// TestErrorsQuoteWhatWasWritten: such a command is refused or fails, and
// the refusal (COMMAND_DENIED) quotes the script as written, never the
// value that came from the file. (What the commands write to standard
// error is the caller's to count or quote: cmd/taskctl's
// TestCommandErrorsQuoteNoSecret checks what a user sees.)
func TestErrorsQuoteWhatWasWritten(t *testing.T) {
	_, cfg := project(t, map[string]string{
		"settings.py": "AWS_KEY = \"" + leakAWS + "\"\nGH = \"" + leakGitHub + "\"\n",
		"one.txt":     leakAWS + "\n",
		"dir/a.txt":   "a\n",
	})
	for _, script := range quoteAttackScripts {
		_, err := shellexec.Run(t.Context(), script, cfg)
		var said []string
		if err != nil {
			said = append(said, err.Error(), shellexec.WarningFor(err).Message)
		}
		all := strings.Join(said, "\n")
		for _, secret := range []string{leakAWS, leakGitHub, "QWERTYUIOP"} {
			if strings.Contains(all, secret) {
				t.Errorf("%s: the error quotes the file's content:\n%s", script, all)
				break
			}
		}
	}
}
