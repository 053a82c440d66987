package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/taskctl/taskctl/engine"
)

// assembleRequest turns assemble's arguments and flags into a request: a
// FILE or TASKNAME, or the sources of a one-off context (--path,
// --command, --describe, paths on stdin with "-" or --stdin).
func (e *env) assembleRequest(args []string) (engine.AssembleRequest, error) {
	o := &e.opts
	req := engine.AssembleRequest{Task: o.task, Vars: o.vars, RunID: o.runID,
		Commands: o.commandArgs, Describe: o.describeArgs, Exclude: o.exclude, Limit: o.limit}
	// --path '!GLOB' leaves out, as in a .gitignore or rg -g '!GLOB'.
	for _, p := range o.pathArgs {
		if g, ok := strings.CutPrefix(p, "!"); ok && g != "" {
			req.Exclude = append(req.Exclude, g)
		} else {
			req.PathArgs = append(req.PathArgs, p)
		}
	}
	switch {
	case len(args) > 1:
		return req, usageErr("assemble needs exactly one FILE or TASKNAME (or - for paths on stdin), not %d", len(args))
	case len(args) == 1 && args[0] == "-":
		o.stdinPaths = true
	case len(args) == 1:
		if len(o.pathArgs)+len(o.commandArgs)+len(o.describeArgs)+len(o.exclude) > 0 || o.stdinPaths || o.limit != 0 {
			return req, usageErr("--path, --command, --describe, --exclude, --limit and --stdin make a one-off context: give them without a FILE or TASKNAME")
		}
		req.Template = args[0]
	}
	if o.stdinPaths {
		paths, err := readPathLines(e.stdin)
		if err != nil {
			return req, err
		}
		req.StdinPaths = paths
		if len(req.PathArgs)+len(req.StdinPaths)+len(req.Commands)+len(req.Describe) == 0 {
			return req, usageErr("no paths on standard input")
		}
	}
	if o.outFile != "" && e.json() {
		return req, usageErr("--out writes the document; with --output json the envelope goes to standard output (redirect it)")
	}
	if o.absolute && o.relative {
		return req, usageErr("--absolute and --relative say opposite things: give one")
	}
	if (o.sizes || o.sortBy != "") && !o.paths {
		return req, usageErr("--sizes and --sort go with --paths")
	}
	if o.sortBy != "" && (o.sortBy != "size" || !o.sizes) {
		return req, usageErr(`--sort takes "size", with --paths --sizes`)
	}
	return req, nil
}

// readPathLines reads paths one a line (files-to-prompt's and xargs's
// input: find, git diff --name-only); blank lines are skipped.
func readPathLines(r io.Reader) ([]string, error) {
	if r == nil {
		return nil, nil
	}
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if line := strings.TrimRight(sc.Text(), "\r"); strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read paths from standard input: %w", err)
	}
	return out, nil
}

// writeAssembled writes the document or the listing of assemble, to
// standard output or --out FILE, paths relative to the project with
// --relative.
func (e *env) writeAssembled(res *engine.AssembleResult) (err error) {
	w := e.stdout
	if e.opts.outFile != "" {
		path := e.eng.ArgPath(e.opts.outFile)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return usageErr("--out %s: %v", path, pathErrText(err))
		}
		defer func() {
			if cerr := f.Close(); err == nil && cerr != nil {
				err = cerr
			}
			if err == nil {
				fmt.Fprintf(e.stderr, "taskctl: wrote %s\n", path)
			}
		}()
		w = f
	}
	if l := res.Listing; l != nil {
		if e.opts.relative {
			for i := range l.Files {
				l.Files[i].Path = l.Files[i].Rel
			}
		}
		return printPaths(w, l.Files)
	}
	doc := res.Document
	if e.opts.paths { // with --sizes: the files were read
		if e.opts.relative {
			for _, f := range doc.Files {
				f.Path = f.Rel
			}
		}
		return printSizes(w, e.stderr, doc.Files, e.opts.sortBy == "size")
	}
	return doc.Render(w, res.Style)
}

// pathErrText is err's text without the path, which the caller prints.
func pathErrText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// printSizes writes each file's bytes and tokens before its path, one a
// line, on w; with bySize the files that cost the most tokens first (what
// a model is sent: a PNG's bytes are never sent, so it comes after every
// text file, by bytes). The header and the totals go to hw (stderr), so
// that w stays one file a line for sort, awk and xargs.
func printSizes(w, hw io.Writer, files []*engine.File, bySize bool) error {
	list := slices.Clone(files)
	if bySize {
		slices.SortStableFunc(list, func(a, b *engine.File) int {
			switch {
			case a.Tokens != nil && b.Tokens == nil:
				return -1
			case a.Tokens == nil && b.Tokens != nil:
				return 1
			case a.Tokens != nil && *a.Tokens != *b.Tokens:
				return *b.Tokens - *a.Tokens
			}
			return int(b.Bytes - a.Bytes)
		})
	}
	fmt.Fprintf(hw, "%10s %8s  %s\n", "bytes", "tokens", "path")
	bw := bufio.NewWriterSize(w, 64<<10)
	var bytes int64
	tokens, counted := 0, false
	for _, f := range list {
		tok := "-"
		if f.Tokens != nil {
			tok = fmt.Sprint(*f.Tokens)
			tokens, counted = tokens+*f.Tokens, true
		}
		bytes += f.Bytes
		fmt.Fprintf(bw, "%10d %8s  %s\n", f.Bytes, tok, f.Path)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	tok := "-"
	if counted {
		tok = fmt.Sprint(tokens)
	}
	fmt.Fprintf(hw, "%10d %8s  total (%s)\n", bytes, tok, count(len(list), "file"))
	return nil
}

// listTaskNames prints the names of the library's tasks (and their
// steps), one a line, for the shell completions.
func (e *env) listTaskNames() (any, error) {
	res, err := e.eng.ListTasks()
	if err != nil {
		return nil, err
	}
	e.warn(res.Warnings)
	if !e.json() {
		for _, t := range res.Tasks {
			fmt.Fprintln(e.stdout, t.Name)
		}
	}
	return res, nil
}
