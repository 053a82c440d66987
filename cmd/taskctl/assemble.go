package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/taskctl/taskctl/engine"
)

func assembleFlags(fs *pflag.FlagSet, o *opts) {
	fs.StringVar(&o.task, "task", "", "assemble the task (or workflow step) named `NAME`")
	fs.StringArrayVar(&o.vars, "var", nil, "set input `KEY=VALUE` (repeatable, once per KEY)")
	fs.StringVar(&o.style, "style", "xml", "document style: xml, markdown or plain")
	fs.BoolVar(&o.paths, "paths", false, "print only the absolute paths, one per line")
	fs.BoolVar(&o.strict, "strict", false, "fail (exit 3) on any warning")
	fs.IntVar(&o.maxFiles, "max-files", 0, "per-source file cap for this run (default 1000)")
	fs.IntVar(&o.maxTokens, "max-tokens", 0, "token budget for the whole document, markup included: leave out whole files that do not fit")
	fs.Int64Var(&o.maxFileBytes, "max-file-bytes", 0, "cut each file's content at `N` bytes, with a marker")
	fs.StringVar(&o.tokenizer, "tokenizer", "o200k_base", "count tokens with o200k_base, cl100k_base or none")
	fs.BoolVar(&o.redactSecrets, "redact-secrets", false, "replace detected secrets instead of leaving the file out")
	fs.StringVar(&o.runID, "run", "", "bind inputs from the outputs recorded in run `ID` (workflows)")
	fs.StringArrayVar(&o.pathArgs, "path", nil, "without a template: select the files of path or glob `GLOB`, from the working dir (repeatable)")
	fs.StringArrayVar(&o.exclude, "exclude", nil, "without a template: leave out the files matching `GLOB`, from the project or the working dir (repeatable; --path '!GLOB' too)")
	fs.IntVar(&o.limit, "limit", 0, "without a template: at most `N` matches for each --describe (default 10)")
	fs.StringArrayVar(&o.commandArgs, "command", nil, "without a template: select the paths command `CMD` prints, run in the working dir as by exec (repeatable)")
	fs.StringArrayVar(&o.describeArgs, "describe", nil, "without a template: select the files the index matches to `TEXT`, which is also the task's description (repeatable)")
	fs.BoolVar(&o.stdinPaths, "stdin", false, "without a template: read paths from standard input, one a line (as FILE \"-\")")
	fs.BoolVar(&o.relative, "relative", false, "paths relative to the project dir, in listings (--paths) too, and no root in the document's header (json keeps absolute paths)")
	fs.BoolVar(&o.absolute, "absolute", false, "name the document's files by absolute path, not relative to the root its header names")
	fs.StringVar(&o.outFile, "out", "", "write the document (or the listing) to `FILE` instead of standard output")
	fs.BoolVar(&o.sizes, "sizes", false, "with --paths: each file's bytes and tokens before its path (reads the files)")
	fs.StringVar(&o.sortBy, "sort", "", "with --paths --sizes: sort by `KEY` (size: the most tokens first)")
	// For the shell completions: the task names of the project's library.
	fs.BoolVar(&o.listTasks, "list-tasks", false, "print the task names of the project's library, one a line")
	_ = fs.MarkHidden("list-tasks")
}

func assembleCmd() *command {
	return &command{
		name:  "assemble",
		usage: "FILE|TASKNAME|- [--task NAME] [--var K=V]... [--path GLOB]... [--command CMD]... [--describe TEXT [--limit N]]... [--exclude GLOB]... [--style xml|markdown|plain] [--paths [--sizes] [--relative]] [--absolute] [--out FILE] [--strict]",
		short: "resolve a task's file sources and print its context document",
		long: `Resolves the task's literal paths and globs, command sources and description
sources, reads each file through the path resolver, and prints the context
document. The document names its files relative to the project root, which
its header names once (--absolute for absolute paths); listings (--paths)
and the json envelope give absolute paths. Files that were considered and left out are
reported as warnings with a stable code. A TASKNAME is looked up in
<project>/.taskctl/tasks/*.xml. Without a template, --path, --command,
--describe and paths on stdin ("-" or --stdin) select the files of a one-off
context. The document starts with the task's description and instructions
and a tree of its files.`,
		examples: []string{
			"taskctl assemble review.xml",
			"taskctl assemble review --var area=src/api --style markdown",
			"taskctl assemble review.xml --paths",
			"taskctl assemble review.xml --max-tokens 50000 --output json",
			"taskctl assemble flow.xml --task plan --run 20261122-104500-ab12",
			"taskctl assemble --path 'src/**/*.go' --command 'git ls-files -m' --out ctx.xml",
			"git diff --name-only | taskctl assemble - --style markdown",
			"taskctl assemble review --paths --sizes --sort size",
		},
		flags: assembleFlags,
		run:   runAssemble,
	}
}

func runAssemble(ctx context.Context, e *env, args []string) (any, error) {
	if e.opts.listTasks {
		return e.listTaskNames()
	}
	req, err := e.assembleRequest(args)
	if err != nil {
		return nil, err
	}
	if e.flags.Changed("max-files") && e.opts.maxFiles == 0 {
		// As <max_files> in config: a cap of none would keep no file, and
		// 0 fell back to the default 1000 without a word, over a smaller
		// configured cap.
		return nil, usageErr("--max-files must be positive, not 0")
	}
	style := e.opts.style
	if !e.flags.Changed("style") {
		style = "" // the settings' assemble.style
	}
	req.Style, req.Paths, req.Hashes, req.Rendered = style, e.opts.paths && !e.opts.sizes, e.json(), !e.json()
	req.Relative, req.OmitRoot, req.OutFile = !e.opts.absolute && !e.json(), e.opts.relative, e.opts.outFile
	if req.OutFile == "" && !e.json() {
		req.OutFile = stdoutFile(e.stdout) // "> context.xml" is --out too
	}
	res, err := e.eng.Assemble(ctx, req)
	if err != nil {
		return nil, err
	}
	e.warn(res.Warnings)
	if err := e.strictCheck(); err != nil {
		return nil, err
	}
	if !e.json() {
		if err := e.writeAssembled(res); err != nil {
			return nil, err
		}
		e.summary(res)
		return nil, nil // the data is the json envelope's
	}
	if res.Listing != nil {
		// --paths (with --sizes the files were read: data.files carry
		// their bytes and tokens).
		return engine.PathList(res.Listing), nil
	}
	return res.Document, nil
}

// summary puts the pack's totals on stderr, and the files that take the
// most tokens, as repomix does, after assemble's warnings when stderr is a terminal
// or the document went to a file (--out): never into the document, never
// into a pipe's stderr unasked. A listing (--paths) read nothing, so it
// gives no bytes or tokens.
func (e *env) summary(res *engine.AssembleResult) {
	f, ok := e.stderr.(*os.File)
	terminal := ok && term.IsTerminal(int(f.Fd()))
	if !terminal && e.opts.outFile == "" {
		return
	}
	var msg string
	if l := res.Listing; l != nil {
		msg = fmt.Sprintf("%s (content not read)", count(len(l.Files), "path"))
	} else {
		doc := res.Document
		msg = fmt.Sprintf("%s, %s", count(doc.Totals.Files, "file"), count(int(doc.Totals.Bytes), "byte"))
		if doc.Totals.Tokens != nil {
			msg += fmt.Sprintf(", %s (%s)", count(*doc.Totals.Tokens, "token"), doc.Tokenizer)
		}
	}
	msg += fmt.Sprintf(", %s, %s", count(len(e.warnings()), "warning"), time.Since(e.start).Round(time.Millisecond))
	if res.Document != nil {
		msg += topFiles(res.Document, 5)
	}
	if e.color() {
		msg = "\x1b[2m" + msg + "\x1b[0m"
	}
	e.trailer = msg // after the warnings, as repomix ends with its summary
}

// topFiles is the summary's list of the n files of doc that take the most
// tokens, with their share of the content's tokens: where a budget would
// go first. Nothing for fewer than two counted files.
func topFiles(doc *engine.Document, n int) string {
	var counted []*engine.File
	total := 0
	for _, f := range doc.Files {
		if f.Tokens != nil {
			counted = append(counted, f)
			total += *f.Tokens
		}
	}
	if len(counted) < 2 || total == 0 {
		return ""
	}
	slices.SortStableFunc(counted, func(a, b *engine.File) int { return *b.Tokens - *a.Tokens })
	var b strings.Builder
	b.WriteString("\ntop files by tokens:")
	for _, f := range counted[:min(n, len(counted))] {
		fmt.Fprintf(&b, "\n%10d  %3.0f%%  %s", *f.Tokens, 100*float64(*f.Tokens)/float64(total), f.Rel)
	}
	return b.String()
}

// count writes n and noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// color reports whether stderr may be colored: a terminal, and NO_COLOR unset.
func (e *env) color() bool {
	if e.getenv("NO_COLOR") != "" || e.getenv("TERM") == "dumb" {
		return false
	}
	f, ok := e.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// printPaths writes the path of each file, one a line, through one buffer:
// a write(2) per path would cost more than the walk that found them when
// the output goes into a pipe. The first write error stops it and is
// returned (the sticky stdout records it too).
func printPaths(w io.Writer, files []engine.ListedFile) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, f := range files {
		bw.WriteString(f.Path)
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// stdoutFile is the path of the regular file standard output is
// redirected to ("taskctl assemble x > context.xml"), or "" when it is
// not one or its path cannot be known: the shell created the file before
// taskctl ran, and a glob or a description would pack it into itself.
func stdoutFile(w io.Writer) string {
	if sw, ok := w.(*stickyWriter); ok {
		w = sw.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return ""
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
	if err != nil || !filepath.IsAbs(p) {
		return ""
	}
	return p
}
