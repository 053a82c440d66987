package shellexec_test

import (
	"bytes"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// diffRows run both through shellexec and through bash with GNU tools in
// the same fixture; stdout and the exit status must be identical. Rows
// are compared byte for byte: shellexec's find and grep -r walk in
// readdir order, as GNU find and grep (fts without a comparison) do.
// A row with sorted set compares sorted lines instead.
var diffRows = []struct {
	script string
	sorted bool
}{
	{`find . -name "*.py"`, false},
	{`find ./src -name "*.py" | grep -v __pycache__`, false},
	{`find . -type d`, false},
	{`find . -type f -name '*.md' -o -name '*.txt'`, false},
	{`find . \( -name '*.py' -o -name '*.json' \) -type f`, false},
	{`find . -path ./build -prune -o -type f -print`, false},
	{`find . -maxdepth 1`, false},
	{`find . -mindepth 2 -maxdepth 2 -type f`, false},
	{`find src -empty`, false},
	{`find . -empty`, false},
	{`find . -size +1k`, false},
	{`find . -size -1 -type f`, false},
	{`find . ! -name '*.py' -type f -name 'a*'`, false},
	{`find . -iname 'READ*'`, false},
	{`find . -name '[a-m]*.txt'`, false},
	{`find . -name '*.py' -print0`, false},
	{`find docs data -type f`, false},
	{`find . -type f -path '*pkg*'`, false},
	{`find . -not -path '*/.*' -type f -name '*.go'`, false},
	{`find src/ -type f`, false},
	{`grep -rl TODO .`, false},
	{`grep -rl TODO`, false},
	{`grep -rn TODO`, false},
	{`grep -r --include='*.py' -l import .`, false},
	{`grep -r --exclude='*.log' -l TODO .`, false},
	{`grep -r --exclude-dir=src -l TODO .`, false},
	{`grep -c foo docs/guide.md`, false},
	{`grep -n foo docs/guide.md docs/notes.txt`, false},
	{`grep -i pear data/words.txt`, false},
	{`grep -v apple data/words.txt`, false},
	{`grep -w foo docs/guide.md`, false},
	{`grep -x foo docs/guide.md`, false},
	{`grep -E 'ap+le|cherry' data/words.txt`, false},
	{`grep 'a\(p\)\{2\}' data/words.txt`, false},
	{`grep -F '.' data/nums.txt`, false},
	{`grep -e foo -e bar docs/guide.md`, false},
	{`grep -m 2 foo docs/guide.md`, false},
	{`grep -o 'a[a-z]' data/words.txt`, false},
	{`grep -q banana data/words.txt && echo yes`, false},
	{`grep -L TODO main.go go.mod README.md`, false},
	{`grep nomatch data/words.txt`, false},
	{`grep -c '' data/nolf.txt`, false},
	{`grep -h foo docs/guide.md docs/guide.md`, false},
	{`grep '^[[:upper:]]' data/words.txt`, false},
	{`grep -rlZ TODO src | tr '\0' '\n'`, false},
	{`ls`, false},
	{`ls -a src`, false},
	{`ls -A docs data`, false},
	{`ls -p`, false},
	{`ls -R src`, false},
	{`ls -d src docs`, false},
	{`cat docs/guide.md data/nolf.txt`, false},
	{`cat -n docs/guide.md`, false},
	{`head -n 3 docs/notes.txt`, false},
	{`head -3 docs/notes.txt docs/guide.md`, false},
	{`head -c 10 docs/notes.txt`, false},
	{`head -n -9 docs/notes.txt`, false},
	{`tail -n 2 docs/notes.txt`, false},
	{`tail -n +11 docs/notes.txt`, false},
	{`tail -c 5 data/nolf.txt`, false},
	{`wc -l docs/notes.txt`, false},
	{`wc docs/guide.md`, false},
	{`wc -l docs/*`, false},
	{`cat docs/notes.txt | wc -l`, false},
	{`cat docs/guide.md | wc`, false},
	{`wc -w data/words.txt data/nums.txt`, false},
	{`sort data/words.txt`, false},
	{`sort -r data/words.txt`, false},
	{`sort -n data/nums.txt`, false},
	{`sort -u data/words.txt`, false},
	{`sort -f data/words.txt`, false},
	{`sort -t, -k3 -n data/table.csv`, false},
	{`sort -t, -k2,2 -r data/table.csv`, false},
	{`sort data/words.txt | uniq -c`, false},
	{`sort data/words.txt | uniq -d`, false},
	{`sort data/words.txt | uniq -u`, false},
	{`cut -d, -f2 data/table.csv`, false},
	{`cut -d, -f1,3 data/table.csv`, false},
	{`cut -c 1-3 data/words.txt`, false},
	{`cut -d/ -f2- <<< 'a/b/c/d'`, false},
	{`tr a-z A-Z < data/words.txt`, false},
	{`tr -d aeiou < data/words.txt`, false},
	{`echo 'a  b   c' | tr -s ' '`, false},
	{`tr -cd '[:digit:]\n' < data/table.csv`, false},
	{`basename src/pkg/mod.py`, false},
	{`basename src/pkg/mod.py .py`, false},
	{`basename -a a/b c/d/`, false},
	{`dirname src/pkg/mod.py a /x/ x`, false},
	{`echo hello world`, false},
	{`echo -n hi; echo -e 'a\tb'`, false},
	{`printf '%s\n' a b c`, false},
	{`printf '%5s|%-5s|%03d\n' ab cd 7`, false},
	{`printf '%x %o %c\n' 255 8 hello`, false},
	{`sed -n '2,4p' docs/notes.txt`, false},
	{`sed 's/foo/X/g' docs/guide.md`, false},
	{`sed -e 's/\(a\)\(p\)/\2\1/' data/words.txt`, false},
	{`sed -E 's/(an)+/<&>/' data/words.txt`, false},
	{`sed '/apple/d' data/words.txt`, false},
	{`sed 3q docs/notes.txt`, false},
	{`sed -n '$p' docs/notes.txt`, false},
	{`sed '1!G;h;$!d' docs/notes.txt`, false},
	{`sed -n '/beta/,/delta/p' docs/notes.txt`, false},
	{`sed 'y/abc/xyz/' data/words.txt`, false},
	{`sed = data/words.txt`, false},
	{`find . -name '*.py' | xargs grep -l import`, false},
	{`find . -name '*.py' -print0 | xargs -0 grep -c def`, false},
	{`echo src docs | xargs -n 1 ls`, false},
	{`ls data | xargs -I{} echo file:{}`, false},
	{`for f in data/*.txt; do echo "$f"; done`, false},
	{`if grep -q apple data/words.txt; then echo has; else echo not; fi`, false},
	{`test -d src && echo dir; [ -f go.mod ] && echo file`, false},
	{`cd src && find . -name '*.py' && pwd | wc -l`, false},
	{`grep -l import $(find src -name '*.py')`, false},
	{`echo "$(ls data | head -2)"`, false},
	{`cat data/words.txt | sort | uniq | wc -l`, false},
	{`! grep -q nothing data/words.txt && echo negated`, false},
	{`case main.go in *.go) echo go;; *) echo other;; esac`, false},
	{`grep -rn foo docs 2>&1 | head -1`, false},
	{`ls nonexistent 2>/dev/null; echo $?`, false},
	{`cat "space dir/file one.txt"`, false},
	{`find . -name '*.go' | grep -v _test`, false},
	{`grep 'a.*e$' data/words.txt`, false},
	{`grep -E '^(p|b)' data/words.txt`, false},
	{`grep '\<apple\>' data/words.txt`, false},
	{`grep -E 'p{2}' data/words.txt`, false},
	{`grep '*' data/words.txt`, false},
	{`grep -E 'a|' data/words.txt | wc -l`, false},
	{`grep '[]a]' data/words.txt`, false},
	{`grep -c '^$' docs/empty.txt docs/guide.md`, false},
	{`grep -ow 'foo' docs/guide.md`, false},
	{`grep -n -v '^[0-9]' data/nums.txt`, false},
	{`grep -e apple -f /dev/null data/words.txt`, false},
	{`grep -l . docs/*`, false},
	{`grep -rc TODO src`, false},
	{`grep -r -i --include '*.json' todo .`, false},
	{`sed 's/[aeiou]//2' data/words.txt`, false},
	{`sed -n '/^b/,$p' docs/notes.txt`, false},
	{`sed '2,3d;5q' docs/notes.txt`, false},
	{`sed -E 's/([a-z]+)a/\1A/g' data/words.txt`, false},
	{`sed 's|/|_|g' <<< 'a/b/c'`, false},
	{`sed -n '2{p;p}' docs/notes.txt`, false},
	{`sort -k2 -t, data/table.csv | head -2`, false},
	{`sort -nr data/nums.txt | head -3`, false},
	{`printf 'x  b\ny a\nz   c\n' | sort -k2`, false},
	{`cat docs/notes.txt | head -2`, false},
	{`find . -type f | head -n 3`, false},
	{`printf 'ab\ncd' | head -c 4`, false},
	{`cat data/nolf.txt | head -n 5`, false},
	{`cat docs/notes.txt | head -n 0`, false},
	{`printf 'x  b\ny a\nz   c\n' | sort -b -k2`, false},
	{`printf 'x  b\ny a\nz   c\n' | sort -k2b`, false},
	{`uniq -c data/words.txt`, false},
	{`uniq -i data/words.txt`, false},
	{`head -c -5 data/nolf.txt`, false},
	{`tail -1 data/nolf.txt`, false},
	{`tail -c +5 data/nolf.txt`, false},
	{`wc -c data/nolf.txt`, false},
	{`wc -L docs/notes.txt`, false},
	{`find . -name "*.txt" -type f | sort | xargs wc -l`, false},
	{`find . -type f -name '*.py' | xargs -n 2 echo`, false},
	{`find src -maxdepth 1 -type d`, false},
	{`find . -path './src/*' -name '*.py' -print`, false},
	{`find . -type l`, false},
	{`find data -size -1k`, false},
	{`find . -name '*.md' -prune`, false},
	{`find . -depth -name 'pkg'`, false},
	{`ls -F src`, false},
	{`ls -r data`, false},
	{`ls src/pkg/mod.py src/app.py`, false},
	{`cut -f1 -d' ' docs/guide.md`, false},
	{`cut -s -d, -f2 data/words.txt data/table.csv`, false},
	{`tr -s 'a-z' < data/words.txt`, false},
	{`tr '[:lower:]' '[:upper:]' < data/words.txt`, false},
	{`printf '%s=%s\n' a 1 b`, false},
	{`printf 'no newline'`, false},
	{`printf '%b\n' 'a\tb'`, false},
	{`printf '%5.2f|%-4d|%+d\n' 3.14159 42 7`, false},
	{`echo -e 'x\ny' | sort -r`, false},
	{`echo $(echo a  b) "$(echo a  b)"`, false},
	{`dirname /a/b/ //x a/`, false},
	{`basename /`, false},
	{`cat data/words.txt | head -n 3 | tail -n 1`, false},
	{`for d in src docs; do find $d -maxdepth 1 -type f | sort; done`, false},
	{`grep -q apple data/words.txt || echo none; grep -q zzz data/words.txt || echo none`, false},
	// #22 point 4: no pattern matches nothing (-v: everything); an empty name is no file.
	{`grep -rl -f /dev/null src; echo $?`, false},
	{`grep -rlv -f /dev/null src | sort`, false},
	{`ls "" 2>/dev/null; echo $?`, false},
	{`ls src | while read -r f; do echo "src/$f"; done`, false},
	{`f=$(ls docs | head -n 1); echo "docs/$f"`, false},
}

func TestDifferential(t *testing.T) {
	diffCheck(t, fixtureFiles, diffRows)
	if len(diffRows) < 40 {
		t.Errorf("only %d differential rows", len(diffRows))
	}
}

// largeFiles are files larger than one read of 128 KiB: matches far into
// a file, a line across a 128 KiB boundary, a line longer than 128 KiB, a
// NUL far into a file (grep -l, -L and -q read each whole).
var largeFiles = func() map[string]string {
	filler := strings.Repeat("abcdefghijklmnopqrstuvwxyz 0123456789\n", 8000) // 304,000 bytes
	long := strings.Repeat("x", 300<<10)
	return map[string]string{
		"late.txt":       filler + "late TODO\n",
		"nolf.txt":       filler + "TODO with no newline",
		"boundary.txt":   "short\n" + strings.Repeat("y", 128<<10-9) + "TODO across\n" + filler,
		"longline.txt":   long + "TODO" + long + "\n",
		"longnolf.txt":   long + "TODO" + long,
		"none.txt":       filler + filler,
		"binary.txt":     filler + "\x00 TODO\n",
		"nul/records.z":  strings.Repeat("one\x00", 70000) + "TODO\x00two\x00",
		"nul/other.z":    strings.Repeat("one\x00", 70000),
		"empty.txt":      "",
		"small/TODO.txt": "TODO\n",
	}
}()

func TestDifferentialLargeFiles(t *testing.T) {
	diffCheck(t, largeFiles, []struct {
		script string
		sorted bool
	}{
		{`grep -rl TODO . | sort`, false},
		{`grep -rL TODO . | sort`, false},
		{`grep -rlv abcdefghijklmnopqrstuvwxyz . | sort`, false},
		{`grep -rLv abcdefghijklmnopqrstuvwxyz . | sort`, false},
		{`grep -rlI TODO . | sort`, false},
		{`grep -rl 'TODO across' . | sort`, false},
		{`grep -rlx 'late TODO' . | sort`, false},
		{`grep -rlz '^TODO$' nul | sort`, false},
		{`grep -rLz '^TODO$' nul | sort`, false},
		{`grep -rq 'TODO with' . && echo found`, false},
		{`grep -rq 'not anywhere' . || echo none`, false},
		{`grep -rc TODO . | sort`, false},
	})
}

// diffCheck runs rows in a fixture of files through shellexec and through
// bash with GNU tools and compares their stdout and exit status.
func diffCheck(t *testing.T, files map[string]string, rows []struct {
	script string
	sorted bool
}) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	dir, cfg := project(t, files)
	for _, row := range rows {
		res, err := run(t, row.script, cfg)
		if err != nil {
			t.Errorf("Run(%q): %v (stderr %q)", row.script, err, res.Stderr)
			continue
		}
		c := exec.Command(bash, "-c", row.script)
		c.Dir = dir
		c.Env = []string{"LC_ALL=C", "PATH=" + os.Getenv("PATH")}
		var out bytes.Buffer
		c.Stdout = &out
		runErr := c.Run()
		status := 0
		if ee, ok := runErr.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if runErr != nil {
			t.Fatal(runErr)
		}
		got, want := string(res.Stdout), out.String()
		if row.sorted {
			got, want = sortLines(got), sortLines(want)
		}
		if got != want || res.ExitStatus != status {
			t.Errorf("%s\n shellexec (status %d):\n%s\n bash (status %d):\n%s\n stderr: %s", row.script, res.ExitStatus, got, status, want, res.Stderr)
		}
	}
}

func sortLines(s string) string {
	lines := strings.Split(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
