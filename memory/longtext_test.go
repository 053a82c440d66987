package memory_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// searchLong ranks root's files for a long text, reading them as the
// command line does (units, and what a file is beside code).
func searchLong(t *testing.T, root, text string) []memory.Match {
	t.Helper()
	ix, _ := build(t, root)
	return ix.Search(text, memory.SearchOptions{Source: memory.DirSource(root)})
}

// A V8 stack trace (Node.js's) lists its frames innermost first, as a
// JVM's does; the innermost frame in the project is where the error
// surfaced, not the event loop's frames that called it, and Node's own
// modules (events.js) are no files of the project.
func TestV8StackTraceInnermostFrame(t *testing.T) {
	rule := "module.exports = { create(context) { return { ObjectPattern(node) { checkDestructured(node); } }; } };\n" +
		"function checkDestructured(node) { return node.properties.map(p => p.key.name); }\n"
	emitter := "class EventGenerator { enterNode(node) { this.emitter.emit(node.type, node); } }\nmodule.exports = EventGenerator;\n"
	root := writeTree(t, withFiller(map[string]string{
		"lib/rules/no-useless-rename.js":      rule,
		"lib/util/node-event-generator.js":    emitter,
		"lib/util/comment-event-generator.js": strings.ReplaceAll(emitter, "EventGenerator", "CommentEventGenerator"),
		"lib/code-path/code-path-analyzer.js": strings.ReplaceAll(emitter, "EventGenerator", "CodePathAnalyzer"),
		"lib/events.js":                       "module.exports = function emitOne(handler, self) { handler.call(self); };\n",
	}))
	report := "Crash on a destructured parameter\n\nLinting a function whose parameter is destructured with a default " +
		"crashes with the trace below:\n\n```\nTypeError: Cannot read property 'name' of undefined\n" +
		"    at EventEmitter.checkDestructured (/Users/me/ux/node_modules/eslint/lib/rules/no-useless-rename.js:96:26)\n" +
		"    at emitOne (events.js:95:20)\n" +
		"    at EventEmitter.emit (events.js:182:7)\n" +
		"    at NodeEventGenerator.enterNode (/Users/me/ux/node_modules/eslint/lib/util/node-event-generator.js:40:22)\n" +
		"    at CodePathAnalyzer.enterNode (C:\\ux\\node_modules\\eslint\\lib\\code-path\\code-path-analyzer.js:607:23)\n" +
		"    at CommentEventGenerator.enterNode (/Users/me/ux/node_modules/eslint/lib/util/comment-event-generator.js:97:23)\n```\n"
	ms := searchLong(t, root, report)
	checkOnlyNoted(t, ms, "innermost traceback frame in the project", "lib/rules/no-useless-rename.js")
	if got := rels(ms); got[0] != "lib/rules/no-useless-rename.js" {
		t.Errorf("ranked %v, want lib/rules/no-useless-rename.js first", got)
	}
}
