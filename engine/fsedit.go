package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
)

// Applying an edit_file request. The rule is sequential: each old text
// must occur exactly once in the text the edits before it left. Done
// literally, that is one scan of the whole text per edit (1000 edits on a
// 9 MB file: seconds). applyEdits finds every old text in one scan
// (Aho-Corasick) and, when the result is provably what the sequential
// rule gives, builds it in one pass; otherwise (an old text found no
// time or twice, edits overlapping or nearer each other than the longest
// old text, a new text that makes a later old text appear) it applies
// the edits one by one, which also gives the exact error.

// applyEdits applies edits to text under the sequential rule; the
// warning is the first edit that failed.
func applyEdits(path, text string, edits []Edit) (string, *diag.Warning) {
	for i, ed := range edits {
		if ed.OldText == "" {
			return "", &diag.Warning{Code: diag.EditNoMatch, Path: path, Message: fmt.Sprintf("edit %d: old_text is empty", i+1)}
		}
	}
	if out, ok := applyEditsOnePass(text, edits); ok {
		return out, nil
	}
	var w *diag.Warning
	for i, ed := range edits {
		if text, w = applyEdit(path, text, i, ed); w != nil {
			return "", w
		}
	}
	return text, nil
}

// applyEdit replaces the one occurrence of ed.OldText in text.
func applyEdit(path, text string, i int, ed Edit) (string, *diag.Warning) {
	switch n := strings.Count(text, ed.OldText); n {
	case 0:
		return "", &diag.Warning{Code: diag.EditNoMatch, Path: path, Message: fmt.Sprintf("edit %d: old_text not found", i+1)}
	case 1:
		return strings.Replace(text, ed.OldText, ed.NewText, 1), nil
	default:
		return "", &diag.Warning{Code: diag.EditAmbiguous, Path: path,
			Message: fmt.Sprintf("edit %d: old_text occurs %d times; give more context to make it unique", i+1, n)}
	}
}

// applyEditsOnePass applies edits in one pass when that is sure to give
// what applying them in order gives: every old text occurs exactly once
// in text, the occurrences are at least the longest old text apart (so
// the text around each replacement is the original's whatever was
// applied before), and no new text, with the original text around it,
// holds a later edit's old text. ok is false when it cannot tell.
func applyEditsOnePass(text string, edits []Edit) (string, bool) {
	if len(edits) < 2 {
		return "", false // one scan either way
	}
	pats := make([]string, len(edits))
	longest := 0
	for i, ed := range edits {
		pats[i] = ed.OldText
		longest = max(longest, len(ed.OldText))
	}
	ac := newMatcher(pats)
	count := make([]int, len(edits))
	at := make([]int, len(edits))
	ac.scan(text, func(p, end int) {
		count[p]++
		at[p] = end - len(pats[p])
	})
	order := make([]int, len(edits))
	for i := range order {
		if count[i] != 1 {
			return "", false
		}
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return at[order[a]] < at[order[b]] })
	for k := 1; k < len(order); k++ {
		prev, cur := order[k-1], order[k]
		if at[cur]-(at[prev]+len(pats[prev])) < longest {
			return "", false
		}
	}
	for i, ed := range edits {
		if createsLater(ac, text, at[i], ed, i, longest) {
			return "", false
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, i := range order {
		b.WriteString(text[last:at[i]])
		b.WriteString(edits[i].NewText)
		last = at[i] + len(edits[i].OldText)
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// createsLater says whether replacing edit i (its old text at pos) makes
// an old text of a later edit appear: one overlapping the new text, or
// spanning the join where it was empty, with the original text around.
func createsLater(ac *matcher, text string, pos int, ed Edit, i, longest int) bool {
	from := max(0, pos-(longest-1))
	to := min(len(text), pos+len(ed.OldText)+longest-1)
	left := text[from:pos]
	window := left + ed.NewText + text[pos+len(ed.OldText):to]
	a, z := len(left), len(left)+len(ed.NewText) // the new text in window
	found := false
	ac.scan(window, func(p, end int) {
		start := end - len(ac.pats[p])
		// Overlapping [a, z), or, when the new text is empty, holding the
		// join a: start < a < end.
		if p > i && start < z && end > a {
			found = true
		}
	})
	return found
}

// A matcher finds every occurrence of a set of patterns in one scan
// (Aho-Corasick over bytes). The root's transitions are a table, the
// other nodes' sorted edge lists; a miss follows the failure links.
type matcher struct {
	pats  []string
	root  [256]int32
	nodes []acNode
}

type acNode struct {
	edges []acEdge // sorted by byte
	fail  int32    // the longest proper suffix that is a node
	dict  int32    // the nearest node along fail that ends a pattern (0: none)
	ends  []int32  // the patterns ending here
}

type acEdge struct {
	b  byte
	to int32
}

func (n *acNode) child(b byte) (int32, bool) {
	i := sort.Search(len(n.edges), func(i int) bool { return n.edges[i].b >= b })
	if i < len(n.edges) && n.edges[i].b == b {
		return n.edges[i].to, true
	}
	return 0, false
}

// newMatcher builds the automaton of pats (none empty).
func newMatcher(pats []string) *matcher {
	m := &matcher{pats: pats, nodes: []acNode{{}}}
	for p, s := range pats {
		cur := int32(0)
		for j := 0; j < len(s); j++ {
			next, ok := m.nodes[cur].child(s[j])
			if !ok {
				next = int32(len(m.nodes))
				m.nodes = append(m.nodes, acNode{})
				n := &m.nodes[cur]
				k := sort.Search(len(n.edges), func(k int) bool { return n.edges[k].b >= s[j] })
				n.edges = append(n.edges, acEdge{})
				copy(n.edges[k+1:], n.edges[k:])
				n.edges[k] = acEdge{b: s[j], to: next}
			}
			cur = next
		}
		m.nodes[cur].ends = append(m.nodes[cur].ends, int32(p))
	}
	for _, e := range m.nodes[0].edges {
		m.root[e.b] = e.to
	}
	// Failure links, breadth first: a node's is its parent's failure
	// followed by the node's byte.
	queue := make([]int32, 0, len(m.nodes))
	for _, e := range m.nodes[0].edges {
		queue = append(queue, e.to)
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range m.nodes[u].edges {
			v := e.to
			f := int32(0)
			if u != 0 {
				f = m.step(m.nodes[u].fail, e.b)
			}
			m.nodes[v].fail = f
			if len(m.nodes[f].ends) > 0 {
				m.nodes[v].dict = f
			} else {
				m.nodes[v].dict = m.nodes[f].dict
			}
			queue = append(queue, v)
		}
	}
	return m
}

// step is the state after reading b in state s.
func (m *matcher) step(s int32, b byte) int32 {
	for s != 0 {
		if next, ok := m.nodes[s].child(b); ok {
			return next
		}
		s = m.nodes[s].fail
	}
	return m.root[b]
}

// scan calls found for every occurrence in text: the pattern and the
// offset just past its end.
func (m *matcher) scan(text string, found func(p, end int)) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = m.step(s, text[i])
		for n := s; n != 0; n = m.nodes[n].dict {
			for _, p := range m.nodes[n].ends {
				found(int(p), i+1)
			}
		}
	}
}
