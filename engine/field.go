package engine

// A Field is what a message of the engine asks its user to give or change:
// a field of a request ("var", "task", "limit"…) or a setting
// ("run.executor"). The engine never writes a front door's spelling of
// it: each door spells it as its users know it (Options.Spell), the CLI as
// its flag (--var), the MCP server as its argument (vars), and a door
// that has no such field leaves it out of the message.
type Field string

// The fields messages name.
const (
	FieldVar        Field = "var"         // an input's value, KEY=VALUE
	FieldTask       Field = "task"        // the task of a template file
	FieldRun        Field = "run"         // the recorded run an assembly binds its inputs from
	FieldResume     Field = "resume"      // the run a run resumes
	FieldLimit      Field = "limit"       // how many matches
	FieldMinScore   Field = "min_score"   // the lowest score a match keeps
	FieldStrict     Field = "strict"      // any warning fails
	FieldHere       Field = "here"        // index a dir no marker names
	FieldCwd        Field = "cwd"         // the working dir
	FieldProjectDir Field = "project_dir" // the project dir
	FieldConfig     Field = "config"      // a config file read last
	FieldSources    Field = "sources"     // a one-off context's paths, commands and descriptions
	FieldDescribe   Field = "describe"    // a one-off context's description source
	FieldExclude    Field = "exclude"     // what a one-off context leaves out
	FieldWatch      Field = "watch"       // the index watcher (taskctl's command that starts it)
	// Settings (their config keys), which the CLI also takes as flags.
	FieldTokenizer     Field = "assemble.tokenizer"
	FieldRedactSecrets Field = "assemble.redact_secrets"
	FieldExecutor      Field = "run.executor"
	FieldSandbox       Field = "run.sandbox"
	FieldAllowScripts  Field = "run.allow_scripts"
)

// spell is how the door names f: "" when it has no such field (the
// message then says what to do without it).
func (e *Engine) spell(f Field) string {
	if e.opts.Spell == nil {
		return string(f)
	}
	return e.opts.Spell(f)
}

// name is how the door names f, or f itself when the door has no such
// field (a setting, which the user's config sets).
func (e *Engine) name(f Field) string {
	if s := e.spell(f); s != "" {
		return s
	}
	return string(f)
}
