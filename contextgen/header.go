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

// headerTree is the tree the header shows: the one total keeps while it
// counts, or a new one.
func (d *Document) headerTree() string {
	if d.tree != "" {
		return d.tree
	}
	return d.Tree()
}

// tree returns the tree of rels, which it sorts in place (Tree passes a
// list of its own).
func tree(rels []string) string {
	sorted := rels
	slices.SortFunc(sorted, treeOrder)
	size := 0
	for _, rel := range sorted {
		size += len(rel) + 1
	}
	var b strings.Builder
	b.Grow(size + size/2)   // the directories' own lines and the indentation
	var open, dirs []string // the directories of the previous path and of this one
	for _, rel := range sorted {
		dirs = appendDirs(dirs[:0], rel)
		same := 0
		for same < len(open) && same < len(dirs) && open[same] == dirs[same] {
			same++
		}
		for i := same; i < len(dirs); i++ {
			indent(&b, i)
			b.WriteString(dirs[i])
			b.WriteString("/\n")
		}
		indent(&b, len(dirs))
		b.WriteString(rel[strings.LastIndexByte(rel, '/')+1:])
		b.WriteByte('\n')
		open = append(open[:0], dirs...)
	}
	return b.String()
}

// appendDirs appends the directories of the slash-separated path rel, its
// components but the last, to dirs.
func appendDirs(dirs []string, rel string) []string {
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return dirs
		}
		dirs = append(dirs, rel[:i])
		rel = rel[i+1:]
	}
}

const spaces = "                                "

// indent writes the indentation of a line at depth (two spaces a level).
func indent(b *strings.Builder, depth int) {
	for n := 2 * depth; n > 0; n -= len(spaces) {
		b.WriteString(spaces[:min(n, len(spaces))])
	}
}

// treeOrder sorts slash-separated paths so that a directory's files come
// together, its subdirectories before its own files (as tree(1) with
// --dirsfirst). It compares the paths a component at a time, in place: the
// sort calls it n log n times, and splitting the paths would allocate on
// every call.
func treeOrder(a, b string) int {
	for {
		ia, ib := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		ca, cb := a, b
		if ia >= 0 {
			ca = a[:ia]
		}
		if ib >= 0 {
			cb = b[:ib]
		}
		aDir, bDir := ia >= 0, ib >= 0
		switch {
		case ca != cb && aDir != bDir:
			if aDir {
				return -1
			}
			return 1
		case ca != cb:
			return strings.Compare(ca, cb)
		case !aDir || !bDir: // the same component, and one path (or both) ends here
			if aDir == bDir {
				return 0
			}
			if bDir {
				return -1
			}
			return 1
		}
		a, b = a[ia+1:], b[ib+1:]
	}
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
	w.WriteString("<tree>\n")
	xmlText(w, d.headerTree())
	w.WriteString("</tree>\n")
}

// xmlElement writes <name>text</name> and a newline, text escaped as
// element content (line breaks kept; characters XML cannot carry shown as
// U+FFFD).
func xmlElement(w *bufio.Writer, name, text string) {
	w.WriteString("<" + name + ">")
	xmlText(w, text)
	w.WriteString("</" + name + ">\n")
}

// xmlText writes text escaped as element content.
func xmlText(w *bufio.Writer, text string) {
	text, _ = xmlSafe(text)
	xmlEscaper.WriteString(w, text)
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

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
	t := d.headerTree()
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
	writePlainContent(w, d.headerTree())
	w.WriteString("\n")
}
