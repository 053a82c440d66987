package shellexec

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceFields bounds the words one brace expansion may produce.
const maxBraceFields = 4096

// maxParamExps bounds parameter expansions, which each may copy a value.
const maxParamExps = 512

// parseAndVet parses script as bash and walks the whole tree against an
// allowlist. Nothing has run when it returns.
func parseAndVet(script string, cfg *Config) (*syntax.File, error) {
	if len(script) > MaxScriptBytes {
		return nil, &DeniedError{Construct: "script", Msg: fmt.Sprintf("longer than %d bytes", MaxScriptBytes)}
	}
	if strings.IndexByte(script, 0) >= 0 {
		return nil, &DeniedError{Construct: "NUL byte", Msg: "scripts are text"}
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		if pe, ok := errors.AsType[syntax.ParseError](err); ok {
			return nil, deniedAt(pe.Pos, "unparsable script", "%s", pe.Text)
		}
		var pe *syntax.ParseError
		if errors.As(err, &pe) {
			return nil, deniedAt(pe.Pos, "unparsable script", "%s", pe.Text)
		}
		return nil, &DeniedError{Construct: "unparsable script", Msg: err.Error()}
	}
	v := &vetter{cfg: cfg}
	syntax.Walk(file, v.visit)
	if v.err != nil {
		return nil, v.err
	}
	return file, nil
}

type vetter struct {
	cfg      *Config
	err      *DeniedError
	commands int
	params   int
}

func (v *vetter) deny(pos syntax.Pos, construct, format string, args ...any) bool {
	if v.err == nil {
		v.err = deniedAt(pos, construct, format, args...)
	}
	return false
}

// visit vets one node of the tree: a construct the allowlist passes walks
// on into its children, any other is denied at its position. The first
// denial is the one reported, and it stops the walk.
func (v *vetter) visit(node syntax.Node) bool {
	if v.err != nil || node == nil {
		return false
	}
	switch n := node.(type) {
	case *syntax.File, *syntax.Comment, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted,
		*syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WordIter,
		*syntax.CaseClause, *syntax.CaseItem, *syntax.TestClause, *syntax.BinaryTest,
		*syntax.UnaryTest, *syntax.ParenTest:
		return true
	case *syntax.CmdSubst:
		catShortcut(n)
		return true
	case *syntax.ArithmExp:
		return v.arithNames(n.X)
	case *syntax.ParenArithm:
		return v.arithNames(n.X)
	case *syntax.Stmt:
		return v.stmt(n)
	case *syntax.Word:
		return v.word(n)
	case *syntax.CallExpr:
		return v.call(n)
	case *syntax.BinaryCmd:
		return v.binaryCmd(n)
	case *syntax.ForClause:
		return v.forClause(n)
	case *syntax.Redirect:
		return v.redirect(n)
	case *syntax.ParamExp:
		return v.paramExp(n)
	case *syntax.BinaryArithm:
		if n.Op == syntax.Assgn || n.Op >= syntax.AddAssgn && n.Op <= syntax.PowAssgn {
			return v.deny(n.OpPos, "arithmetic assignment", "")
		}
		return true
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			return v.deny(n.OpPos, "arithmetic assignment", "")
		}
		return true
	case *syntax.WhileClause:
		if n.Until {
			return v.deny(n.Pos(), "until loop", "loops may only iterate over a word list (for NAME in WORDS) or lines (while read ...)")
		}
		return v.whileRead(n)
	}
	construct, why := refusedConstruct(node)
	return v.deny(node.Pos(), construct, "%s", why)
}

// refusedConstruct names a construct the allowlist refuses outright, and
// why, for the denial. A node type it does not know is refused as not in
// the allowlist, so a construct a newer parser adds is denied by default.
func refusedConstruct(node syntax.Node) (construct, why string) {
	switch n := node.(type) {
	case *syntax.FuncDecl:
		return "function definition", ""
	case *syntax.ProcSubst:
		return "process substitution", ""
	case *syntax.DeclClause:
		return n.Variant.Value, "declarations and exports are not allowed"
	case *syntax.CoprocClause:
		return "coprocess", ""
	case *syntax.TimeClause:
		return "time", ""
	case *syntax.LetClause:
		return "let", ""
	case *syntax.ArithmCmd:
		return "arithmetic command ((...))", ""
	case *syntax.TestDecl:
		return "test declaration", ""
	case *syntax.ExtGlob:
		return "extended glob", ""
	case *syntax.ArrayExpr:
		return "array", ""
	case *syntax.Assign:
		return "assignment", "variables are read-only; use the task's inputs"
	}
	return fmt.Sprintf("%T", node), "construct not in the allowlist"
}

// stmt denies a statement run in the background or as a coprocess.
func (v *vetter) stmt(n *syntax.Stmt) bool {
	if n.Background {
		return v.deny(n.Pos(), "background job (&)", "commands must finish before the script does")
	}
	if n.Coprocess {
		return v.deny(n.Pos(), "coprocess", "")
	}
	return true
}

// binaryCmd allows && and || and pipelines of at most MaxPipeline
// commands joined by |; |& and any other operator are denied.
func (v *vetter) binaryCmd(n *syntax.BinaryCmd) bool {
	switch n.Op {
	case syntax.AndStmt, syntax.OrStmt:
		return true
	case syntax.Pipe, syntax.PipeAll:
		if n.Op == syntax.PipeAll {
			return v.deny(n.OpPos, "|&", "write 2>&1 | instead")
		}
		if stages := pipelineLen(n); stages > v.cfg.MaxPipeline {
			return v.deny(n.OpPos, "pipeline", "%d commands, at most %d", stages, v.cfg.MaxPipeline)
		}
		return true
	}
	return v.deny(n.OpPos, "operator "+n.Op.String(), "")
}

// forClause allows only for NAME in WORDS.
func (v *vetter) forClause(n *syntax.ForClause) bool {
	if _, ok := n.Loop.(*syntax.WordIter); !ok {
		return v.deny(n.Pos(), "C-style for loop", "only for NAME in WORDS")
	}
	if n.Select {
		return v.deny(n.Pos(), "select", "")
	}
	return true
}

// paramExp counts parameter expansions against maxParamExps and denies the
// forms that substitute, assign, expand indirectly or name a process id.
func (v *vetter) paramExp(n *syntax.ParamExp) bool {
	v.params++
	if v.params > maxParamExps {
		return v.deny(n.Pos(), "parameter expansion", "more than %d in one script", maxParamExps)
	}
	if n.Repl != nil {
		return v.deny(n.Pos(), "pattern substitution ${x/a/b}", "")
	}
	if n.Excl {
		return v.deny(n.Pos(), "indirect expansion ${!x}", "")
	}
	if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
		return v.deny(n.Pos(), "assignment ${x:=y}", "")
	}
	if n.Param != nil && processIDs[n.Param.Value] {
		return v.denyID(n.Pos(), n.Param.Value)
	}
	if n.Slice != nil && !(v.arithNames(n.Slice.Offset) && v.arithNames(n.Slice.Length)) {
		return false
	}
	return v.arithNames(n.Index)
}

// catShortcut makes $(<file) the $(cat <file) it means. The interpreter
// copies the file of $(<file) into the substitution itself, past every
// command, so its bytes escaped the output budget that bounds each $(...)
// (echo "$(<5MB)" | wc -c printed 5000001, twenty of them on a 50 MB file
// took gigabytes); through cat they are counted like any command's.
func catShortcut(cs *syntax.CmdSubst) {
	if len(cs.Stmts) != 1 {
		return
	}
	st := cs.Stmts[0]
	if st.Cmd != nil || st.Negated || st.Background || st.Coprocess || len(st.Redirs) != 1 || st.Redirs[0].Op != syntax.RdrIn {
		return
	}
	cat := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: st.Pos(), ValueEnd: st.Pos(), Value: "cat"}}}
	st.Cmd = &syntax.CallExpr{Args: []*syntax.Word{cat}}
}

// processIDs are the variables that would tell a script about the process
// running it: commands see no process or user ids (#21).
var processIDs = map[string]bool{"$": true, "PPID": true, "BASHPID": true, "UID": true, "EUID": true, "GID": true}

func (v *vetter) denyID(pos syntax.Pos, name string) bool {
	return v.deny(pos, "parameter $"+name, "commands see no process or user ids")
}

// arithNames denies the process ids named bare in arithmetic ($((PPID)),
// ${x:UID}), where a word is a variable's name.
func (v *vetter) arithNames(x syntax.ArithmExpr) bool {
	if x == nil {
		return true
	}
	ok := true
	syntax.Walk(x, func(node syntax.Node) bool {
		if w, is := node.(*syntax.Word); is && ok && processIDs[w.Lit()] {
			ok = v.denyID(w.Pos(), w.Lit())
		}
		return ok
	})
	return ok
}

func pipelineLen(n *syntax.BinaryCmd) int {
	count := 0
	var walk func(s *syntax.Stmt)
	walk = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Negated {
			walk(b.X)
			walk(b.Y)
			return
		}
		count++
	}
	walk(n.X)
	walk(n.Y)
	return count
}

func (v *vetter) call(n *syntax.CallExpr) bool {
	if len(n.Assigns) > 0 {
		return v.assigns(n)
	}
	if len(n.Args) == 0 {
		return true
	}
	if name, ok := literalWord(n.Args[0]); ok && name == "read" {
		return v.deny(n.Pos(), "read", "only as a while loop's condition (while read -r NAME; do ...; done)")
	}
	v.commands++
	if v.commands > v.cfg.MaxCommands {
		return v.deny(n.Pos(), "script", "more than %d commands", v.cfg.MaxCommands)
	}
	if name, ok := literalWord(n.Args[0]); ok {
		args := literalArgs(n.Args[1:])
		d := checkName(name, args)
		if d == nil {
			d = staticRefusal(name, args)
		}
		if d != nil {
			d.Line, d.Col = int(n.Args[0].Pos().Line()), int(n.Args[0].Pos().Col())
			v.err = d
			return false
		}
	}
	return true
}

// literalWord returns a word's value if it needs no expansion.
func literalWord(w *syntax.Word) (string, bool) {
	var sb strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[{~\\") {
				return "", false
			}
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\") {
					return "", false
				}
				sb.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// literalArgs returns the literal args up to the first non-literal one.
func literalArgs(ws []*syntax.Word) []string {
	var out []string
	for _, w := range ws {
		s, ok := literalWord(w)
		if !ok {
			break
		}
		out = append(out, s)
	}
	return out
}

func (v *vetter) redirect(r *syntax.Redirect) bool {
	fd := -1
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		if err != nil || n > 2 {
			return v.deny(r.Pos(), "redirection of fd "+r.N.Value, "only 0, 1 and 2 exist")
		}
		fd = n
	}
	switch r.Op {
	case syntax.RdrIn:
		if fd > 0 {
			return v.deny(r.Pos(), "input redirection to fd "+r.N.Value, "")
		}
		return true
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		if fd > 0 {
			return v.deny(r.Pos(), "here-document to fd "+r.N.Value, "")
		}
		return true
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
		if fd == 0 {
			return v.deny(r.Pos(), "output redirection of fd 0", "")
		}
		if s, ok := literalWord(r.Word); ok && s == "/dev/null" {
			return true
		}
		return v.deny(r.Pos(), "output redirection ("+r.Op.String()+")", "output may only go to /dev/null")
	case syntax.DplOut:
		s, ok := literalWord(r.Word)
		if ok && (s == "1" || s == "2") && fd != 0 {
			return true
		}
		return v.deny(r.Pos(), "redirection "+r.Op.String(), "only 2>&1 and 1>&2 are allowed")
	}
	return v.deny(r.Pos(), "redirection "+r.Op.String(), "only < FILE, here-documents, >/dev/null and 2>&1 are allowed")
}

// word bounds brace expansion, which runs before any handler sees the result.
func (v *vetter) word(w *syntax.Word) bool {
	if !slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		l, ok := p.(*syntax.Lit)
		return ok && strings.Contains(l.Value, "{")
	}) {
		return true
	}
	cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(cp) {
		return true
	}
	if n := braceFields(cp); n > maxBraceFields {
		return v.deny(w.Pos(), "brace expansion", "expands to more than %d words", maxBraceFields)
	}
	return true
}

func braceFields(w *syntax.Word) int {
	total := 1
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n := 0
		if b.Sequence {
			n = seqLen(b)
		} else {
			for _, e := range b.Elems {
				n += braceFields(e)
			}
		}
		if n > maxBraceFields {
			n = maxBraceFields + 1
		}
		total *= max(n, 1)
		if total > maxBraceFields {
			return total
		}
	}
	return total
}

func seqLen(b *syntax.BraceExp) int {
	if len(b.Elems) < 2 {
		return 1
	}
	from, e1 := strconv.Atoi(b.Elems[0].Lit())
	to, e2 := strconv.Atoi(b.Elems[1].Lit())
	if e1 != nil || e2 != nil {
		return 64 // letters: a..z at most
	}
	d := to - from
	if d < 0 {
		d = -d
	}
	if d > maxBraceFields || d < 0 {
		return maxBraceFields + 1
	}
	return d + 1
}

// protectedNames are variables a script may not set: the fixed
// environment the commands see.
var protectedNames = map[string]bool{"IFS": true, "PATH": true, "HOME": true, "PWD": true, "OLDPWD": true}

// settable reports whether a script may set the variable name: not one of
// the fixed environment, not a task input (inputs are read-only).
func (v *vetter) settable(name string) bool {
	if protectedNames[name] {
		return false
	}
	_, input := v.cfg.Vars[name]
	return !input
}

// assigns allows NAME=$(command) (and NAME="...$(command)..."): a
// variable that captures what a command printed, as in f=$(ls src | head
// -1). Any other assignment, and an assignment in a command's environment
// (NAME=x cmd), is refused: task inputs stay the only other values.
func (v *vetter) assigns(n *syntax.CallExpr) bool {
	if len(n.Args) > 0 {
		return v.deny(n.Assigns[0].Pos(), "assignment", "a command's environment is fixed; use the task's inputs")
	}
	for _, a := range n.Assigns {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Value == nil || !hasCmdSubst(a.Value) {
			return v.deny(a.Pos(), "assignment", "variables are read-only except NAME=$(command); use the task's inputs")
		}
		if !v.settable(a.Name.Value) {
			return v.deny(a.Pos(), "assignment to "+a.Name.Value, "task inputs and the fixed environment are read-only")
		}
		syntax.Walk(a.Value, v.visit)
	}
	return false
}

// hasCmdSubst reports whether w holds a command substitution.
func hasCmdSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.CmdSubst); ok {
			found = true
		}
		return !found
	})
	return found
}

// whileRead allows a while loop whose condition is one read of lines
// (while read -r NAME...; do ...; done): it ends when its input does.
// Any other while loop could run until the time limit.
func (v *vetter) whileRead(n *syntax.WhileClause) bool {
	const why = "only while read [-r] NAME...; do ...; done, which ends with its input; or for NAME in WORDS"
	if len(n.Cond) != 1 || n.Cond[0].Negated || n.Cond[0].Background || len(n.Cond[0].Redirs) > 0 {
		return v.deny(n.Pos(), "while loop", why)
	}
	c, ok := n.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || len(c.Args) < 2 {
		return v.deny(n.Pos(), "while loop", why)
	}
	args := literalArgs(c.Args)
	if len(args) != len(c.Args) || args[0] != "read" {
		return v.deny(n.Pos(), "while loop", why)
	}
	names := 0
	for _, a := range args[1:] {
		switch {
		case a == "-r":
		case isName(a) && v.settable(a):
			names++
		default:
			return v.deny(c.Pos(), "read "+a, "only read [-r] NAME..., of variables that are not task inputs")
		}
	}
	if names == 0 {
		return v.deny(c.Pos(), "read", "name the variable: read -r NAME")
	}
	v.commands++
	for _, st := range n.Do {
		syntax.Walk(st, v.visit)
	}
	return false
}

// isName reports whether s is a shell variable name.
func isName(s string) bool {
	for i, r := range s {
		if r != '_' && !('a' <= r && r <= 'z') && !('A' <= r && r <= 'Z') && (i == 0 || !('0' <= r && r <= '9')) {
			return false
		}
	}
	return s != ""
}
