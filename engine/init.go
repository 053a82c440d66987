package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/state"
)

const initConfig = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  Project configuration for taskctl. Every element is optional; see
  'taskctl schema config' for all of them and 'taskctl config' for the
  effective values and where each came from.
-->
<config>
  <policy>
    <!-- Globs (relative to the project dir) never put in a context. -->
    <!-- <exclude>vendor/**</exclude> -->
    <!-- <max_files>1000</max_files> -->
  </policy>
  <assemble>
    <style>xml</style>
    <tokenizer>o200k_base</tokenizer>
    <!-- <max_tokens>100000</max_tokens> -->
  </assemble>
  <command>
    <timeout>10</timeout>
  </command>
  <!-- Log every file read to .taskctl/audit.jsonl. -->
  <audit>false</audit>
</config>
`

const initTask = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  An example task library. Run it with "taskctl assemble example", set its
  input with the var flag (var area=src), and list the files it selects with
  the paths flag. "taskctl schema" prints every element and attribute a
  template may use.
-->
<tasks>
  <task name="example">
    <description>Review the code under {{area}} for error handling</description>
    <instructions>Point out errors that are ignored or lose context.</instructions>
    <inputs>
      <input name="area" default=".">directory to review, relative to the project</input>
    </inputs>
    <!-- Literal paths and globs: globs like src/**/*{{EXT}} are relative to the project dir;
         ./x and ../x are relative to where you run taskctl. -->
    <file_paths>
      <path>README*</path>
    </file_paths>
    <!-- A read-only shell command that prints paths. Inputs are shell variables. -->
    <file_paths source="command">
      <command>{{COMMAND}}</command>
    </file_paths>
    <!-- Files that match a natural-language description in the lexical index. -->
    <file_paths source="description" limit="5">
      <description>error handling and wrapping</description>
    </file_paths>
  </task>
</tasks>
`

// InitFile is one file init wrote, or kept: "created", "overwritten",
// "updated" (a catch-all .gitignore replaced) or "kept".
type InitFile struct {
	Path   string `json:"path"`
	Status string `json:"status"`
}

// InitResult is what [Engine.Init] did, in the workspace.
type InitResult struct {
	Files     []InitFile `json:"files"`
	Workspace string     `json:"workspace"`
}

// Init makes the project's .taskctl/ with a config.xml, an example task
// library and a .gitignore for taskctl's state. Existing files are kept
// unless force. Nothing is written outside .taskctl/, and never through a
// symlink.
func (e *Engine) Init(force bool) (*InitResult, error) {
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	root, err := state.Open(p.Dir())
	if err != nil {
		return nil, err
	}
	defer root.Close()
	ws, err := initDir(root, ".taskctl")
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	tasks, err := initDir(ws, "tasks")
	if err != nil {
		return nil, err
	}
	defer tasks.Close()
	lang := exampleLanguage(p)
	files := []struct {
		dir        *state.Dir
		name, body string
	}{
		{ws, ".gitignore", WorkspaceGitignore},
		{ws, "config.xml", initConfig},
		{tasks, "example.xml", strings.NewReplacer("{{EXT}}", lang.ext, "{{COMMAND}}", lang.command).Replace(initTask)},
	}
	var out []InitFile
	for _, f := range files {
		abs := filepath.Join(f.dir.Path(), f.name)
		replace, status := force, "created"
		if f.dir.Exists(f.name) && force {
			status = "overwritten"
		}
		if f.name == ".gitignore" && !force {
			// A workspace made before init (by assemble, index or
			// run) ignores everything in it, config.xml and tasks/
			// too; init replaces that catch-all so they can be
			// committed. Any other .gitignore is the user's.
			if old, err := f.dir.ReadFile(f.name, 1<<20); err == nil && strings.TrimSpace(string(old)) == "*" {
				replace, status = true, "updated"
			}
		}
		// Replaced by a new file renamed over it, or made new: never
		// written through a symlink or into a file that shares its data
		// with another (state.Dir).
		if replace {
			err = f.dir.WriteFile(f.name, []byte(f.body), 0o644)
		} else if err = f.dir.WriteNew(f.name, []byte(f.body), 0o644); errors.Is(err, fs.ErrExist) {
			out = append(out, InitFile{abs, "kept"})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("init: %w", err)
		}
		out = append(out, InitFile{abs, status})
	}
	return &InitResult{Files: out, Workspace: p.Workspace()}, nil
}

// initDir opens the directory name of dir, making it (without a
// .gitignore: init's are the user's to commit) if it is missing.
func initDir(dir *state.Dir, name string) (*state.Dir, error) {
	if err := dir.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("init: %w", err)
	}
	d, err := dir.Dir(name)
	if err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	return d, nil
}

// language is what the example task's command source looks for: the
// files of one language, its tests left out.
type language struct {
	ext     string // the main extension, for the comment's glob
	command string // the command source: find "$area" ... | head -n 20
}

// languages are the example's command for each language by extension,
// in the order a tie is broken.
var languages = []struct {
	exts []string
	language
}{
	{[]string{".go"}, language{".go", `find "$area" -type f -name '*.go' | grep -v _test.go | head -n 20`}},
	{[]string{".py"}, language{".py", `find "$area" -type f -name '*.py' | grep -v -e '/tests/' -e '/test_' | head -n 20`}},
	{[]string{".ts", ".tsx"}, language{".ts", `find "$area" -type f -name '*.ts' | grep -v -e node_modules -e /test/ -e '\.test\.' -e '\.spec\.' | head -n 20`}},
	{[]string{".js", ".jsx", ".mjs"}, language{".js", `find "$area" -type f -name '*.js' | grep -v -e node_modules -e /test/ -e '\.test\.' -e '\.min\.' | head -n 20`}},
	{[]string{".rs"}, language{".rs", `find "$area" -type f -name '*.rs' | grep -v /tests/ | head -n 20`}},
	{[]string{".java"}, language{".java", `find "$area" -type f -name '*.java' | grep -v /test/ | head -n 20`}},
	{[]string{".rb"}, language{".rb", `find "$area" -type f -name '*.rb' | grep -v -e /spec/ -e /test/ | head -n 20`}},
	{[]string{".c", ".h"}, language{".c", `find "$area" -type f -name '*.[ch]' | grep -v /tests\?/ | head -n 20`}},
	{[]string{".cpp", ".cc", ".hpp"}, language{".cpp", `find "$area" -type f -name '*.cpp' | grep -v /tests\?/ | head -n 20`}},
	{[]string{".php"}, language{".php", `find "$area" -type f -name '*.php' | grep -v -e /vendor/ -e /tests/ | head -n 20`}},
	{[]string{".cs"}, language{".cs", `find "$area" -type f -name '*.cs' | grep -v Tests | head -n 20`}},
}

// exampleLanguage is the language whose files the project holds most of
// (up to 20,000 files looked at): a Python repository's example finds
// *.py, not *.go (whose command found nothing: COMMAND_NO_MATCH on the
// first run). With no known language, the command lists the docs.
func exampleLanguage(p *project.Project) language {
	cands, _ := p.Expand(context.Background(), []string{"**"})
	counts := make([]int, len(languages))
	for i, c := range cands {
		if i == 20000 {
			break
		}
		ext := strings.ToLower(path.Ext(c.Rel))
		for j, l := range languages {
			if slices.Contains(l.exts, ext) {
				counts[j]++
				break
			}
		}
	}
	best := -1
	for j, n := range counts {
		if n > 0 && (best < 0 || n > counts[best]) {
			best = j
		}
	}
	if best < 0 {
		return language{".md", `find "$area" -type f -name '*.md' | head -n 20`}
	}
	return languages[best].language
}
