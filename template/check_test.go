package template_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// problems parses doc as t.xml and returns its problems as
// "file:line:col: message", or nil if it parsed.
func problems(t *testing.T, doc string) []string {
	t.Helper()
	f, err := template.Parse("t.xml", []byte(doc))
	if err == nil {
		if f == nil {
			t.Fatal("Parse returned neither a file nor an error")
		}
		return nil
	}
	if f != nil {
		t.Errorf("Parse returned a file and an error")
	}
	var te *template.Error
	if !errors.As(err, &te) {
		t.Fatalf("Parse: %v is not a *template.Error", err)
	}
	if len(te.Problems) == 0 {
		t.Fatal("Parse: an *Error without problems")
	}
	var out []string
	for _, p := range te.Problems {
		out = append(out, p.String())
		if err := wellPlaced([]byte(doc), p); err != nil {
			t.Error(err)
		}
	}
	if err.Error() != strings.Join(out, "\n") {
		t.Errorf("Error() = %q, want the problems one a line", err.Error())
	}
	return out
}

// seq wraps steps in a sequential task named s.
func seq(steps string) string {
	return `<task name="s" type="sequential"><description>s</description><steps>` + steps + `</steps></task>`
}

const (
	fresh = `fresh_context=enabled needs inherit_context=none (it is %s): a task either inherits its parent's context or looks for fresh context`
	later = `input "x": from=%q names step %q, which does not finish before this task starts`
)

var checkTests = []struct {
	name, doc string
	want      []string // exact problems; nil means the template is valid
}{
	{"valid", `<task name="a"><description>x</description></task>`, nil},

	// Unique names.
	{"duplicate names",
		"<tasks>\n<task name=\"a\"><description>x</description></task>\n  <task name=\"a\"><description>y</description></task>\n</tasks>",
		[]string{`t.xml:3:9: task name "a" is already used by the task at line 2, column 1`}},
	{"duplicate of a step",
		seq("\n <task name=\"s\"><description>y</description></task>"),
		[]string{`t.xml:2:8: task name "s" is already used by the task at line 1, column 1`}},
	{"duplicate between steps of different tasks",
		"<tasks>" + seq(`<task name="x"><description>a</description></task>`) + "\n" +
			`<task name="t" type="sequential"><description>t</description><steps><task name="x"><description>b</description></task></steps></task></tasks>`,
		[]string{`t.xml:2:75: task name "x" is already used by the task at line 1, column 76`}},
	{"unnamed tasks are not duplicates",
		`<tasks><task><description>x</description></task><task><description>y</description></task></tasks>`, nil},

	// The source attribute matches the child.
	{"command source holding a path",
		"<task><description>x</description>\n  <file_paths source=\"command\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:3: file_paths source="command" must hold <command>, not <path>`}},
	{"command source holding a description",
		"<task><description>x</description>\n<file_paths source=\"command\"><description>d</description></file_paths></task>",
		[]string{`t.xml:2:1: file_paths source="command" must hold <command>, not <description>`}},
	{"literal source holding a description",
		"<task><description>x</description>\n<file_paths source=\"literal\"><description>d</description></file_paths></task>",
		[]string{`t.xml:2:1: file_paths source="literal" must hold <path>, not <description>`}},
	{"default source is literal",
		"<task><description>x</description>\n<file_paths><command>ls</command></file_paths></task>",
		[]string{`t.xml:2:1: file_paths source="literal" must hold <path>, not <command>`}},
	{"description source holding a path",
		"<task><description>x</description>\n<file_paths source=\"description\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:1: file_paths source="description" must hold <description>, not <path>`}},
	{"description source holding a command",
		"<task><description>x</description>\n<file_paths source=\"description\"><command>ls</command></file_paths></task>",
		[]string{`t.xml:2:1: file_paths source="description" must hold <description>, not <command>`}},
	{"unknown source",
		"<task><description>x</description>\n<file_paths source=\"glob\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:13: file_paths source="glob": want literal, command or description`}},
	{"each source right",
		`<task><description>x</description><file_paths source="literal"><path>p</path></file_paths><file_paths source="command"><command>ls</command></file_paths><file_paths source="description"><description>d</description></file_paths></task>`,
		nil},

	// fresh_context=enabled only with inherit_context=none, on the merged settings.
	{"fresh with the atomic default inherit full",
		"<task><description>x</description>\n <context_management><fresh_context>enabled</fresh_context></context_management></task>",
		[]string{"t.xml:2:22: " + fmt.Sprintf(fresh, "full")}},
	{"fresh with inherit full",
		"<task><description>x</description>\n<context_management><inherit_context>full</inherit_context><fresh_context>enabled</fresh_context></context_management></task>",
		[]string{"t.xml:2:60: " + fmt.Sprintf(fresh, "full")}},
	{"fresh with inherit subset",
		"<task><description>x</description>\n<context_management><inherit_context>subset</inherit_context><fresh_context>enabled</fresh_context></context_management></task>",
		[]string{"t.xml:2:62: " + fmt.Sprintf(fresh, "subset")}},
	{"fresh on a sequential task with its default inherit full",
		"<task name=\"s\" type=\"sequential\"><description>s</description>\n<context_management><fresh_context>enabled</fresh_context></context_management><steps><task><description>a</description></task></steps></task>",
		[]string{"t.xml:2:21: " + fmt.Sprintf(fresh, "full")}},
	{"fresh with inherit none",
		`<task><description>x</description><context_management><inherit_context>none</inherit_context><fresh_context>enabled</fresh_context></context_management></task>`,
		nil},
	{"inherit subset without fresh",
		`<task><description>x</description><context_management><inherit_context>subset</inherit_context></context_management></task>`,
		nil},

	// Every {{var}} is declared.
	{"undeclared var in description",
		"<task>\n  <description>review {{area}}</description></task>",
		[]string{`t.xml:2:23: description uses {{area}}, which is not a declared input`}},
	{"undeclared var in instructions, with spaces",
		"<task><description>x</description>\n<instructions>{{ who }}</instructions></task>",
		[]string{`t.xml:2:15: instructions uses {{who}}, which is not a declared input`}},
	{"undeclared var in a path",
		"<task><description>x</description><file_paths>\n\t<path>{{dir}}/a</path></file_paths></task>",
		[]string{`t.xml:2:8: path uses {{dir}}, which is not a declared input`}},
	{"undeclared var in a description source",
		"<task><description>x</description>\n<file_paths source=\"description\"><description>{{q}}</description></file_paths></task>",
		[]string{`t.xml:2:47: description source uses {{q}}, which is not a declared input`}},
	{"undeclared var in an input default",
		"<task><description>x</description><inputs>\n<input name=\"a\" default=\"{{b}}\"/></inputs></task>",
		[]string{`t.xml:2:26: default of input "a" uses {{b}}, which is not a declared input`}},
	{"bad variable name",
		"<task><description>x</description>\n<instructions>{{1x}} {{}}</instructions></task>",
		[]string{`t.xml:2:15: instructions: {{1x}} is not a valid variable name`, `t.xml:2:22: instructions: {{}} is not a valid variable name`}},
	{"declared vars",
		`<task><description>{{a}}</description><instructions>{{ b }}</instructions><inputs><input name="a"/><input name="b" default="{{a}}"/></inputs><file_paths><path>{{a}}/{{b}}</path></file_paths><file_paths source="description"><description>{{a}}</description></file_paths></task>`,
		nil},
	{"a step uses an input of the sequential task around it",
		`<task name="s" type="sequential"><description>x</description><inputs><input name="area" default="."/></inputs><steps><task name="n" type="sequential"><description>n</description><steps><task name="a"><description>{{area}}</description></task></steps></task></steps></task>`,
		nil},
	{"a task does not see the inputs of its steps",
		"<task name=\"s\" type=\"sequential\">\n<description>{{inner}}</description><steps><task name=\"a\"><description>a</description><inputs><input name=\"inner\" default=\"i\"/></inputs></task></steps></task>",
		[]string{`t.xml:2:14: description uses {{inner}}, which is not a declared input`}},
	{"a step does not see the inputs of its siblings",
		seq(`<task name="a"><description>a</description><inputs><input name="v" default="i"/></inputs></task>` + "\n" + `<task name="b"><description>{{v}}</description></task>`),
		[]string{`t.xml:2:29: description uses {{v}}, which is not a declared input`}},

	// Defaults that lead back to their own input.
	{"default refers to itself",
		"<task><description>x</description><inputs>\n<input name=\"a\" default=\"x{{a}}\"/></inputs></task>",
		[]string{`t.xml:2:27: default of input "a" leads back to input "a" through {{a}}: the value would never be known`}},
	{"defaults refer to each other",
		"<task><description>x</description><inputs>\n<input name=\"p\" default=\"{{q}}\"/>\n<input name=\"q\" default=\"{{r}}\"/><input name=\"r\" default=\"{{ p }}\"/></inputs></task>",
		[]string{`t.xml:3:59: default of input "r" leads back to input "p" through {{p}}: the value would never be known`}},
	{"a default refines the value of the task around",
		`<task name="s" type="sequential"><description>s</description><inputs><input name="area" default="src"/></inputs><steps>` +
			`<task name="a"><description>{{area}}</description><inputs><input name="area" default="{{area}}/sub"/></inputs></task></steps></task>`,
		nil},
	{"defaults in a chain",
		`<task><description>{{a}}</description><inputs><input name="a" default="{{b}}{{b}}"/><input name="b" default="{{c}}"/><input name="c" default="x"/></inputs></task>`,
		nil},

	// No {{...}} inside <command>.
	{"braces in a command",
		"<task><inputs/><description>x</description>\n<file_paths source=\"command\"><command>grep -rl {{x}} .</command></file_paths></task>",
		[]string{`t.xml:2:48: {{x}} is not substituted inside <command>: read the input as the shell variable "$x"`}},
	{"braces in a command even for a declared input",
		"<task><description>x</description><inputs><input name=\"x\" default=\"1\"/></inputs>\n<file_paths source=\"command\"><command>echo {{x}}</command></file_paths></task>",
		[]string{`t.xml:2:44: {{x}} is not substituted inside <command>: read the input as the shell variable "$x"`}},

	// Steps only on sequential tasks, and not too deep.
	{"steps on an atomic task",
		"<task name=\"a\"><description>x</description>\n<steps><task><description>y</description></task></steps></task>",
		[]string{`t.xml:2:1: steps are only allowed on type="sequential" tasks (task "a" is atomic)`}},
	{"steps on a task of the default type",
		"<task><description>x</description>\n  <steps><task><description>y</description></task></steps></task>",
		[]string{`t.xml:2:3: steps are only allowed on type="sequential" tasks (task "" is atomic)`}},
	{"sequential without steps",
		"<tasks>\n<task name=\"s\" type=\"sequential\"><description>x</description></task></tasks>",
		[]string{`t.xml:2:1: sequential task "s" has no <steps>`}},
	{"unknown type",
		"<task type=\"parallel\"><description>x</description></task>",
		[]string{`t.xml:1:7: task type "parallel": want atomic, sequential, director_evaluator_loop or reduce`}},

	// Inputs.
	{"duplicate input",
		"<task><description>x</description><inputs><input name=\"a\"/>\n <input name=\"a\" default=\"b\"/></inputs></task>",
		[]string{`t.xml:2:9: input "a" is declared twice`}},
	{"bad input name",
		"<task><description>x</description><inputs>\n<input name=\"1a\"/><input name=\"a b\"/><input name=\"\"/></inputs></task>",
		[]string{
			`t.xml:2:8: input name "1a": want a letter or _ then letters, digits, _ or -`,
			`t.xml:2:26: input name "a b": want a letter or _ then letters, digits, _ or -`,
			`t.xml:2:45: input name "": want a letter or _ then letters, digits, _ or -`,
		}},
	{"good input names",
		`<task><description>x</description><inputs><input name="_a-1"/><input name="Z9"/></inputs></task>`, nil},

	// Bindings to earlier steps.
	{"from an unknown step",
		seq("<task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"zz.output\"/></inputs></task>"),
		[]string{`t.xml:2:17: input "x": from="zz.output" names no step "zz"`}},
	{"from a later step",
		seq("<task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"b.output\"/></inputs></task><task name=\"b\"><description>b</description></task>"),
		[]string{"t.xml:2:17: " + fmt.Sprintf(later, "b.output", "b")}},
	{"from itself",
		seq("<task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"a.output\"/></inputs></task>"),
		[]string{`t.xml:2:17: input "x": from="a.output" names the task itself`}},
	{"from a step inside a later sibling",
		seq("<task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"c.files\"/></inputs></task>" +
			`<task name="b" type="sequential"><description>b</description><steps><task name="c"><description>c</description></task></steps></task>`),
		[]string{"t.xml:2:17: " + fmt.Sprintf(later, "c.files", "c")}},
	{"from the sequential task around it",
		seq("<task name=\"n\" type=\"sequential\"><description>n</description><steps><task name=\"c\"><description>c</description><inputs>\n<input name=\"x\" from=\"n.output\"/></inputs></task></steps></task>"),
		[]string{"t.xml:2:17: " + fmt.Sprintf(later, "n.output", "n")}},
	{"from a step of another task of the library",
		"<tasks>" + seq(`<task name="a"><description>a</description></task>`) +
			`<task name="t" type="sequential"><description>t</description><steps><task name="b"><description>b</description><inputs>` +
			"\n<input name=\"x\" from=\"a.output\"/></inputs></task></steps></task></tasks>",
		[]string{`t.xml:2:17: input "x": from="a.output" names no step "a"`}},
	{"from on a top-level task",
		"<tasks><task name=\"a\"><description>a</description></task><task name=\"b\"><description>b</description><inputs>\n<input name=\"x\" from=\"a.output\"/></inputs></task></tasks>",
		[]string{`t.xml:2:17: input "x": from="a.output" names no step "a"`}},
	{"from an earlier sibling's nested step",
		seq(`<task name="n" type="sequential"><description>n</description><steps><task name="deep"><description>d</description></task></steps></task><task name="b"><description>b</description><inputs><input name="x" from="deep.notes.k"/></inputs></task>`),
		nil},
	{"from an enclosing task's earlier sibling",
		seq(`<task name="a"><description>a</description></task><task name="n" type="sequential"><description>n</description><steps><task name="c"><description>c</description><inputs><input name="x" from="a.files"/></inputs></task></steps></task>`),
		nil},
	{"from every result form",
		seq(`<task name="a"><description>a</description></task><task name="b"><description>{{o}}</description><inputs><input name="o" from="a.output"/><input name="f" from="a.files"/><input name="n" from="a.notes.key"/><input name="p" from="a.parsed.x.y"/></inputs></task>`),
		nil},
	{"bad from syntax",
		seq("<task name=\"a\"><description>a</description></task><task name=\"b\"><description>b</description><inputs>\n<input name=\"x\" from=\"a.stdout\"/><input name=\"y\" from=\"a\"/><input name=\"z\" from=\"a.notes..k\"/></inputs></task>"),
		[]string{
			`t.xml:2:17: input "x": from="a.stdout": want STEP.output, STEP.files, STEP.notes.KEY or STEP.parsed.a.b`,
			`t.xml:2:50: input "y": from="a": want STEP.output, STEP.files, STEP.notes.KEY or STEP.parsed.a.b`,
			`t.xml:2:76: input "z": from="a.notes..k": want STEP.output, STEP.files, STEP.notes.KEY or STEP.parsed.a.b`,
		}},
	{"from with default",
		seq("<task name=\"a\"><description>a</description></task><task name=\"b\"><description>b</description><inputs>\n<input name=\"x\" from=\"a.output\" default=\"d\"/></inputs></task>"),
		[]string{`t.xml:2:33: input "x" has both from and default: a bound input takes its value from the step`}},

	// Attributes that do not fit the source.
	{"limit on a literal source",
		"<task><description>x</description>\n<file_paths limit=\"3\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:13: limit applies only to source="description"`}},
	{"min_score on a literal source",
		"<task><description>x</description>\n<file_paths min_score=\"0.5\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:13: min_score applies only to source="description"`}},
	{"limit and min_score on a command source",
		"<task><description>x</description>\n<file_paths source=\"command\" limit=\"1\" min_score=\"1\"><command>ls</command></file_paths></task>",
		[]string{`t.xml:2:30: limit applies only to source="description"`, `t.xml:2:40: min_score applies only to source="description"`}},
	{"include on a literal source",
		"<task><description>x</description>\n<file_paths include=\"a/**\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:13: include applies only to command and description sources`}},
	{"include and exclude globs that can never match",
		"<task><description>x</description>\n<file_paths source=\"description\" include=\"src/** [ ./a/**\" exclude=\"/abs/** {a,b ../x b\\\"><description>d</description></file_paths></task>",
		[]string{
			`t.xml:2:34: include glob "[" is not a valid glob`,
			`t.xml:2:34: include glob "./a/**": globs here match paths relative to the project (e.g. "src/**"), not absolute or ./ ../ paths`,
			`t.xml:2:60: exclude glob "/abs/**": globs here match paths relative to the project (e.g. "src/**"), not absolute or ./ ../ paths`,
			`t.xml:2:60: exclude glob "{a,b" is not a valid glob`,
			`t.xml:2:60: exclude glob "../x": globs here match paths relative to the project (e.g. "src/**"), not absolute or ./ ../ paths`,
			`t.xml:2:60: exclude glob "b\\" is not a valid glob`,
		}},
	{"exclude on a literal source",
		"<task><description>x</description>\n<file_paths source=\"literal\" exclude=\"a/**\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:30: exclude applies only to command and description sources`}},

	// Numbers.
	{"bad integers",
		"<task><description>x</description><file_paths max_files=\"0\">\n<path max_lines=\"many\" skip_lines=\"-1\" max_bytes=\"0\">p</path></file_paths>\n<file_paths source=\"command\"><command timeout=\"1.5\">ls</command></file_paths>\n<file_paths source=\"description\" limit=\"99999999999999999999\"><description>d</description></file_paths></task>",
		[]string{
			`t.xml:1:47: attribute max_files="0": want an integer >= 1`,
			`t.xml:2:7: attribute max_lines="many": want an integer >= 0`,
			`t.xml:2:24: attribute skip_lines="-1": want an integer >= 0`,
			`t.xml:2:40: attribute max_bytes="0": want an integer >= 1`,
			`t.xml:3:39: attribute timeout="1.5": want an integer >= 1`,
			`t.xml:4:34: attribute limit="99999999999999999999": want an integer >= 1`,
		}},
	{"bad min_score",
		"<task><description>x</description>\n<file_paths source=\"description\" min_score=\"1.5\"><description>d</description></file_paths>\n<file_paths source=\"description\" min_score=\"NaN\"><description>d</description></file_paths></task>",
		[]string{`t.xml:2:34: min_score="1.5": want a number between 0 and 1`, `t.xml:3:34: min_score="NaN": want a number between 0 and 1`}},
	{"bad max_tokens",
		"<task><description>x</description>\n<context_management><max_tokens>0</max_tokens></context_management></task>",
		[]string{`t.xml:2:21: max_tokens "0": want a positive integer`}},

	// Emptiness and other values.
	{"empty description",
		"<task name=\"e\"><description>  </description></task>",
		[]string{`t.xml:1:1: task "e" has an empty <description>`}},
	{"no description",
		"<tasks>\n <task name=\"e\"/></tasks>",
		[]string{`t.xml:2:2: task "e" has an empty <description>`}},
	{"empty path",
		"<task><description>x</description><file_paths>\n<path> </path></file_paths></task>",
		[]string{`t.xml:2:1: empty <path>`}},
	{"empty command",
		"<task><description>x</description>\n<file_paths source=\"command\"><command/></file_paths></task>",
		[]string{`t.xml:2:1: empty <command>`}},
	{"empty description source",
		"<task><description>x</description>\n<file_paths source=\"description\"><description></description></file_paths></task>",
		[]string{`t.xml:2:1: empty <description> in file_paths`}},
	{"bad output type",
		"<task><description>x</description>\n<output_format type=\"xml\"/></task>",
		[]string{`t.xml:2:16: output_format type="xml": want json or text`}},

	// The document itself.
	{"wrong root", "<?xml version=\"1.0\"?>\n<config/>", []string{`t.xml:2:1: root element <config>: want <task> or <tasks>`}},
	{"empty library", "<tasks>\n</tasks>", []string{`t.xml:1:1: <tasks> holds no <task>`}},
	{"no root", "<!-- nothing -->", []string{`t.xml:1:1: no root element`}},
	{"two roots", "<task><description>x</description></task>\n<task/>", []string{`t.xml:2:1: more than one root element`}},
	{"mismatched end tag", "<task><description>x</task>", []string{`t.xml:1:21: unexpected end element </task>`}},
	{"unquoted attribute", "<task>\n<file_paths a=b/></task>", []string{`t.xml:2:16: XML syntax error on line 2: unquoted or missing attribute value in element`}},
	{"undefined entity", "<task><description>é &nbsp;</description></task>", []string{`t.xml:1:28: XML syntax error on line 1: invalid character entity &nbsp;`}},
	{"unclosed element", "<task><description>x</description>", []string{`t.xml:1:35: unclosed element <task>`}},
	{"doctype",
		"<!DOCTYPE task>\n<task><description>x</description></task>",
		[]string{`t.xml:1:1: DOCTYPE and other directives are not allowed`}},
	{"doctype with an entity after the declaration",
		"<?xml version=\"1.0\"?>\n  <!DOCTYPE task [<!ENTITY e \"boom\">]><task><description>&e;</description></task>",
		[]string{`t.xml:2:3: DOCTYPE and other directives are not allowed`}},
	{"the declared encoding is not heeded",
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<task><description>x</description></task>", nil},
	{"bytes that are not UTF-8",
		"<?xml version=\"1.0\" encoding=\"latin1\"?>\n<task><description>caf\xe9</description></task>",
		[]string{`t.xml:2:24: XML syntax error on line 2: invalid UTF-8`}},
	{"byte-order mark is not a column",
		"\xef\xbb\xbf<config/>", []string{`t.xml:1:1: root element <config>: want <task> or <tasks>`}},

	// Columns count runes.
	{"unicode before the error on the same line",
		"<task><description>日本語 ☃</description><file_paths source=\"command\"><path>p</path></file_paths></task>",
		[]string{`t.xml:1:39: file_paths source="command" must hold <command>, not <path>`}},
	{"tab is one column",
		"<task><description>x</description>\n\t\t<file_paths source=\"command\"><path>p</path></file_paths></task>",
		[]string{`t.xml:2:3: file_paths source="command" must hold <command>, not <path>`}},
	{"CRLF line ends",
		"<task>\r\n<description>x</description>\r\n  <file_paths source=\"command\"><path>p</path></file_paths></task>",
		[]string{`t.xml:3:3: file_paths source="command" must hold <command>, not <path>`}},

	// A {{var}} is pointed at where it is written, through references,
	// CDATA, comments and line ends.
	{"var after an entity reference",
		"<task><description>x</description>\n<instructions>&lt;&#x65E5;&amp; {{a}}</instructions></task>",
		[]string{`t.xml:2:33: instructions uses {{a}}, which is not a declared input`}},
	{"var after CDATA and a comment (a comment is no text)",
		"<task><description>x</description>\n<instructions><![CDATA[a<{{b]]><!-- {{c}} --> {{d}}</instructions></task>",
		[]string{`t.xml:2:47: instructions uses {{d}}, which is not a declared input`}},
	{"var inside CDATA",
		"<task><description>x</description>\n<instructions><![CDATA[a<b {{e}}]]></instructions></task>",
		[]string{`t.xml:2:28: instructions uses {{e}}, which is not a declared input`}},
	{"var written with character references",
		"<task><description>x</description>\n<instructions> &#123;&#x7B;h}}</instructions></task>",
		[]string{`t.xml:2:16: instructions uses {{h}}, which is not a declared input`}},
	{"var after a comment at the start",
		"<task><description>x</description>\n<instructions><!-- c --><?pi x?>{{i}} and <![CDATA[]]>{{j}}</instructions></task>",
		[]string{
			`t.xml:2:33: instructions uses {{i}}, which is not a declared input`,
			`t.xml:2:55: instructions uses {{j}}, which is not a declared input`,
		}},
	{"var on a later line of indented text, CRLF",
		"<task>\r\n  <description>\r\n    first\r\n    then {{f}}\r\n  </description></task>",
		[]string{`t.xml:4:10: description uses {{f}}, which is not a declared input`}},
	{"var in a default after a quote reference",
		"<task><description>x</description><inputs>\n<input name=\"a\" default='&quot;{{g}}'/></inputs></task>",
		[]string{`t.xml:2:32: default of input "a" uses {{g}}, which is not a declared input`}},
	{"every var of a command, each where it is",
		"<task><description>x</description><inputs><input name=\"x\" default=\"1\"/></inputs>\n<file_paths source=\"command\"><command>\n  grep {{x}} &amp;&amp; {{ 1y }}</command></file_paths></task>",
		[]string{
			`t.xml:3:8: {{x}} is not substituted inside <command>: read the input as the shell variable "$x"`,
			`t.xml:3:25: {{ 1y }} is not substituted inside <command>: read inputs as shell variables, e.g. "$name"`,
		}},
	{"max_lines=0",
		"<task><description>x</description><file_paths>\n<path skip_lines=\"0\" max_lines=\"0\">p</path></file_paths></task>",
		[]string{`t.xml:2:22: max_lines="0" would keep no line of the file: leave max_lines out to keep them all`}},

	// Several problems, reported together in file order.
	{"several, sorted",
		"<task>\n<description>{{a}}</description>\n<file_paths max_files=\"x\"><path>p</path></file_paths>\n<file_paths source=\"command\"><path>p</path></file_paths>\n<file_paths limit=\"2\"><path>p</path></file_paths>\n<inputs/></task>",
		[]string{
			`t.xml:2:14: description uses {{a}}, which is not a declared input`,
			`t.xml:3:13: attribute max_files="x": want an integer >= 1`,
			`t.xml:4:1: file_paths source="command" must hold <command>, not <path>`,
			`t.xml:5:13: limit applies only to source="description"`,
		}},
	{"several across tasks, sorted by line then column",
		"<tasks><task name=\"a\"><description>{{x}}</description></task>\n<task name=\"a\"><description>{{y}}</description></task><task name=\"a\" type=\"sequential\"><description>z</description></task></tasks>",
		[]string{
			`t.xml:1:36: description uses {{x}}, which is not a declared input`,
			`t.xml:2:7: task name "a" is already used by the task at line 1, column 8`,
			`t.xml:2:29: description uses {{y}}, which is not a declared input`,
			`t.xml:2:55: sequential task "a" has no <steps>`,
			`t.xml:2:61: task name "a" is already used by the task at line 1, column 8`,
		}},
}

func TestChecks(t *testing.T) {
	for _, c := range checkTests {
		t.Run(c.name, func(t *testing.T) {
			got := problems(t, c.doc)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("Parse(%q) problems:\n%s\nwant:\n%s", c.doc, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// nested builds a chain of sequential tasks depth deep, one a line, the
// innermost atomic.
func nested(depth int) string {
	var b strings.Builder
	for i := 1; i < depth; i++ {
		fmt.Fprintf(&b, "<task name=\"s%d\" type=\"sequential\"><description>d</description><steps>\n", i)
	}
	b.WriteString("<task name=\"leaf\"><description>d</description></task>\n")
	for i := 1; i < depth; i++ {
		b.WriteString("</steps></task>")
	}
	return b.String()
}

func TestNestingDepth(t *testing.T) {
	if got := problems(t, nested(template.MaxDepth)); got != nil {
		t.Errorf("depth %d: %q", template.MaxDepth, got)
	}
	want := fmt.Sprintf("t.xml:9:1: task nested 9 deep: the limit is %d", template.MaxDepth)
	if got := problems(t, nested(template.MaxDepth+1)); len(got) != 1 || got[0] != want {
		t.Errorf("depth 9: %q, want [%q]", got, want)
	}
	// Deeper still: one problem, at the first task beyond the limit.
	if got := problems(t, nested(40)); len(got) != 1 || got[0] != want {
		t.Errorf("depth 40: %q, want [%q]", got, want)
	}
}

func TestWarnings(t *testing.T) {
	f, err := template.Parse("t.xml", []byte("<tasks>\n"+
		"<task name=\"a\"><description>a</description><context_management><inherit_context>none</inherit_context></context_management></task>\n"+
		"<task name=\"b\"><description>b</description>\n<context_management><accumulation_format>full_output</accumulation_format></context_management></task>\n"+
		"<task name=\"c\"><description>c</description><context_management><inherit_context>none</inherit_context></context_management><file_paths><path>p</path></file_paths></task>\n"+
		"</tasks>"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range f.Warnings {
		got = append(got, string(w.Code)+" "+w.String())
	}
	want := []string{
		`EMPTY_CONTEXT t.xml:2:44: task "a" inherits nothing, accumulates nothing, has fresh context disabled and no file_paths: its context will be empty`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A step of a sequential task that accumulates (the default) gets the
// results of the steps before it in its prompt, so inheriting nothing is not
// an empty context there; the first step, a step of a task that does not
// accumulate, and a top-level task have nothing else and are warned about.
func TestEmptyContextInWorkflow(t *testing.T) {
	none := `<context_management><inherit_context>none</inherit_context></context_management>`
	step := func(name string) string {
		return `<task name="` + name + `"><description>d</description>` + none + `</task>`
	}
	f, err := template.Parse("t.xml", []byte(`<tasks>
<task name="acc" type="sequential"><description>d</description><steps>`+step("first")+step("second")+
		`<task name="inner" type="sequential"><description>d</description><steps>`+step("inner_first")+`</steps></task>`+
		`</steps></task>
<task name="noacc" type="sequential"><description>d</description><context_management><accumulate_data>false</accumulate_data></context_management><steps>`+
		`<task name="x"><description>d</description><file_paths><path>p</path></file_paths></task>`+step("after_x")+`</steps></task>
`+step("top")+`
</tasks>`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range f.Warnings {
		if w.Code == "EMPTY_CONTEXT" {
			got = append(got, strings.Split(w.Message, `"`)[1])
		}
	}
	if want := "first,after_x,top"; strings.Join(got, ",") != want {
		t.Errorf("EMPTY_CONTEXT for %v, want %s", got, want)
	}
}
