// Command secrets measures the precision of taskctl's secret scanner on
// real repositories beside gitleaks v8's default rules: for each tree it
// walks every text file (docs and sources; binary files, and what
// .git/ holds, skipped), and reports the files each scanner flags, those
// both flag, and, with -list, which files and rules.
//
//	go run . -list ~/src/flask ~/src/caddy ...
//
// It is a module of its own (bench/secrets/go.mod) so that gitleaks and
// its dependencies never enter taskctl's go.mod; taskctl's scanner comes
// from the checkout through a replace directive. Figures and how they
// were made: docs/benchmarks.md ("Secret scanning: precision").
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/taskctl/taskctl/content/secrets"
)

func main() {
	list := flag.Bool("list", false, "list each flagged file with the rules that flagged it")
	flag.Parse()
	det, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gitleaks:", err)
		os.Exit(1)
	}
	fmt.Printf("%-12s %6s %8s %9s %6s\n", "tree", "files", "taskctl", "gitleaks", "both")
	for _, root := range flag.Args() {
		r, err := scanTree(root, det)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		both := 0
		for f := range r.taskctl {
			if r.gitleaks[f] != nil {
				both++
			}
		}
		fmt.Printf("%-12s %6d %8d %9d %6d\n", filepath.Base(root), r.files, len(r.taskctl), len(r.gitleaks), both)
		if *list {
			r.print()
		}
	}
}

// result is one tree's flagged files, each with the rules that flagged it.
type result struct {
	files             int
	taskctl, gitleaks map[string][]string
}

// scanTree runs both scanners over every text file under root.
func scanTree(root string, det *detect.Detector) (*result, error) {
	r := &result{taskctl: map[string][]string{}, gitleaks: map[string][]string{}}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return nil // binary: taskctl never scans it either
		}
		rel, _ := filepath.Rel(root, path)
		r.files++
		for _, f := range secrets.Scan(data) {
			r.taskctl[rel] = appendOnce(r.taskctl[rel], fmt.Sprintf("%s:%d", f.Rule, f.Line))
		}
		//lint:ignore SA1019 v8's Detect takes only this type; v9 replaces it
		for _, f := range det.Detect(detect.Fragment{Raw: string(data), FilePath: rel}) {
			r.gitleaks[rel] = appendOnce(r.gitleaks[rel], fmt.Sprintf("%s:%d", f.RuleID, f.StartLine+1))
		}
		return nil
	})
	return r, err
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// print lists the flagged files: T for taskctl, G for gitleaks.
func (r *result) print() {
	seen := map[string]bool{}
	for f := range r.taskctl {
		seen[f] = true
	}
	for f := range r.gitleaks {
		seen[f] = true
	}
	var files []string
	for f := range seen {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		mark := ""
		if r.taskctl[f] != nil {
			mark += "T"
		} else {
			mark += "-"
		}
		if r.gitleaks[f] != nil {
			mark += "G"
		} else {
			mark += "-"
		}
		fmt.Printf("  %s %s  taskctl[%s] gitleaks[%s]\n", mark, f, strings.Join(r.taskctl[f], " "), strings.Join(r.gitleaks[f], " "))
	}
}
