package contextgen

import (
	"bufio"
	"slices"
	"strings"
)

// The header of a rendered document (Options.Header): the task's
// description and instructions, then a tree of the selected files, before
// the first file, as a reader (or a model) wants to meet them. It is part
// of the frame a budget counts.

// Tree returns the selected files as an indented tree of their paths
// relative to the project, directories first at each level and each
// directory once ("src/", then its entries two spaces in).
func (d *Document) Tree() string {
	rels := make([]string, 0, len(d.Files))
	for _, f := range d.Files {
		rels = append(rels, f.Rel)
	}
	return tree(rels)
}

func tree(rels []string) string {
	// Each path is split once: a comparison that split its two paths
	// would allocate on every call of the sort.
	paths := make([][]string, len(rels))
	for i, rel := range rels {
		paths[i] = strings.Split(rel, "/")
	}
	slices.SortFunc(paths, treeOrder)
	var b strings.Builder
	var open []string // the directories of the previous path
	for _, parts := range paths {
		dirs := parts[:len(parts)-1]
		same := 0
		for same < len(open) && same < len(dirs) && open[same] == dirs[same] {
			same++
		}
		for i := same; i < len(dirs); i++ {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString(dirs[i])
			b.WriteString("/\n")
		}
		b.WriteString(strings.Repeat("  ", len(dirs)))
		b.WriteString(parts[len(parts)-1])
		b.WriteByte('\n')
		open = dirs
	}
	return b.String()
}

// treeOrder sorts paths, split at their slashes, so that a directory's
// files come together, its subdirectories before its own files (as
// tree(1) with --dirsfirst).
func treeOrder(pa, pb []string) int {
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] == pb[i] {
			continue
		}
		aDir, bDir := i < len(pa)-1, i < len(pb)-1
		if aDir != bDir {
			if aDir {
				return -1
			}
			return 1
		}
		return strings.Compare(pa[i], pb[i])
	}
	return len(pa) - len(pb)
}

// xmlPreamble writes the header in the XML style, after <context>.
func (d *Document) xmlPreamble(w *bufio.Writer) {
	if !d.header {
		return
	}
	xmlElement(w, "description", d.Description)
	if d.Instructions != "" {
		xmlElement(w, "instructions", d.Instructions)
	}
	xmlElement(w, "tree", "\n"+d.Tree())
}

// xmlElement writes <name>text</name> and a newline, text escaped as
// element content (line breaks kept; characters XML cannot carry shown as
// U+FFFD).
func xmlElement(w *bufio.Writer, name, text string) {
	w.WriteString("<" + name + ">")
	text, _ = xmlSafe(text)
	strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").WriteString(w, text)
	w.WriteString("</" + name + ">\n")
}

// markdownPreamble writes the header in the markdown style.
func (d *Document) markdownPreamble(w *bufio.Writer) {
	if !d.header {
		return
	}
	w.WriteString("\n## Task\n\n")
	w.WriteString(strings.TrimSpace(d.Description))
	w.WriteString("\n")
	if d.Instructions != "" {
		w.WriteString("\n## Instructions\n\n")
		w.WriteString(strings.TrimSpace(d.Instructions))
		w.WriteString("\n")
	}
	t := d.Tree()
	fence := strings.Repeat("`", max(3, longestRun(t, '`')+1))
	w.WriteString("\n## Files\n\n" + fence + "\n" + t + fence + "\n")
}

// plainPreamble writes the header in the plain style. Its text is escaped
// as content is: no line of it can forge a "==> path <==" line.
func (d *Document) plainPreamble(w *bufio.Writer) {
	if !d.header {
		return
	}
	w.WriteString("Task:\n")
	writePlainContent(w, strings.TrimSpace(d.Description)+"\n")
	if d.Instructions != "" {
		w.WriteString("\nInstructions:\n")
		writePlainContent(w, strings.TrimSpace(d.Instructions)+"\n")
	}
	w.WriteString("\nFiles:\n")
	writePlainContent(w, d.Tree())
	w.WriteString("\n")
}
