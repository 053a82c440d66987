package diag

// The codes of errors: error.code of the CLI's envelope, and the exit
// status the CLI gives each (README, "exit").
const (
	// ArgInvalid: a flag, an argument or a --var is malformed or repeated (exit 2).
	ArgInvalid Code = "ARG_INVALID"
	// TemplateInvalid: a template fails the schema or the semantic checks, or cannot be read as one (exit 2).
	TemplateInvalid Code = "TEMPLATE_INVALID"
	// ConfigInvalid: a configuration file fails the schema or names a bad value (exit 2).
	ConfigInvalid Code = "CONFIG_INVALID"
	// TemplateNotFound: no template of that path or task name (exit 5).
	TemplateNotFound Code = "TEMPLATE_NOT_FOUND"
	// TaskNotFound: the template has no task of that name (exit 5).
	TaskNotFound Code = "TASK_NOT_FOUND"
	// RunNotFound: no recorded run of that id (exit 5).
	RunNotFound Code = "RUN_NOT_FOUND"
	// StrictWarnings: --strict and a warning was given (exit 3).
	StrictWarnings Code = "STRICT_WARNINGS"
	// Timeout: the command's time limit ran out (exit 10).
	Timeout Code = "TIMEOUT"
	// Interrupted: SIGINT or SIGTERM stopped the command; a run keeps its partial record (exit 130).
	Interrupted Code = "INTERRUPTED"
	// StepFailed: a step of a run failed or timed out (exit 1).
	StepFailed Code = "STEP_FAILED"
	// ExecFailed: the command of taskctl exec exited non-zero, other than grep's 1 for "no match" (exit 1); error.details holds its paths and exit_status.
	ExecFailed Code = "EXEC_FAILED"
	// NoProject: no project marker was found and no --project-dir given, so search would index the working dir unasked (exit 2).
	NoProject Code = "NO_PROJECT"
	// Error: any other failure (exit 1).
	Error Code = "ERROR"
	// WatchRunning: another index --watch of the project answers on its socket (exit 1).
	WatchRunning Code = "WATCH_RUNNING"
	// WatchUnsupported: index --watch needs Linux's inotify (exit 1).
	WatchUnsupported Code = "WATCH_UNSUPPORTED"
	// WatchBadRequest: a watcher refused a request that is not its protocol's.
	WatchBadRequest Code = "WATCH_BAD_REQUEST"
	// WatchDenied: a watcher refused a request from another user.
	WatchDenied Code = "WATCH_DENIED"
	// StateUnsafe: a symlink, special file or hard-linked file stands where taskctl keeps its state under .taskctl/ (exit 1).
	StateUnsafe Code = "STATE_UNSAFE"
	// SandboxUnavailable: a sandbox mode the kernel cannot enforce was asked for (exit 1); as a warning, run's default sandbox could not be applied and executors run unconfined.
	SandboxUnavailable Code = "SANDBOX_UNAVAILABLE"
	// PathNotWritable: a write outside the workspace and the write roots, or inside .git/ or .taskctl/ (exit 1).
	PathNotWritable Code = "PATH_NOT_WRITABLE"
	// FileExists: the destination of a write, copy or move exists and overwrite was not asked (exit 1).
	FileExists Code = "FILE_EXISTS"
	// WriteUnsafe: a symlink, a hard-linked file or a directory stands where a write would go; nothing was written (exit 1).
	WriteUnsafe Code = "WRITE_UNSAFE"
	// ConfirmRequired: a delete was not confirmed (rm --yes, delete_file confirm: true) (exit 2).
	ConfirmRequired Code = "CONFIRM_REQUIRED"
	// EditNoMatch: an edit's old text is not in the file; nothing was written (exit 1).
	EditNoMatch Code = "EDIT_NO_MATCH"
	// EditAmbiguous: an edit's old text is in the file more than once; nothing was written (exit 1).
	EditAmbiguous Code = "EDIT_AMBIGUOUS"
	// LoopNotConverged: a director_evaluator_loop ran max_iterations iterations and no verdict said success (exit 1).
	LoopNotConverged Code = "LOOP_NOT_CONVERGED"
	// LoopTimeBudget: a director_evaluator_loop's time_budget ran out (exit 10).
	LoopTimeBudget Code = "LOOP_TIME_BUDGET"
	// VerdictInvalid: an evaluator's output is not a verdict, a JSON object with a boolean "success" (exit 1).
	VerdictInvalid Code = "VERDICT_INVALID"
	// ScriptNotAllowed: a template's script step would run a process the user did not allow (--allow-scripts, run.allow_scripts) (exit 2).
	ScriptNotAllowed Code = "SCRIPT_NOT_ALLOWED"
	// ResumeMismatch: the run to resume is of another task or template, or is still running (exit 2).
	ResumeMismatch Code = "RESUME_MISMATCH"
	// FileChanged: a write or edit named the sha256 of the content it expected, and the file holds other content; nothing was written (exit 1).
	FileChanged Code = "FILE_CHANGED"
)

// The codes of warnings: what was left out or changed, and why.
const (
	// PathOutsideProject: the real path lies outside every allowed root; nothing there is stat'ed or read.
	PathOutsideProject Code = "PATH_OUTSIDE_PROJECT"
	// PathSensitive: a sensitive name (.env*, *.pem, id_rsa*, ...) the policy does not allow.
	PathSensitive Code = "PATH_SENSITIVE"
	// PathIgnored: always excluded (.git/, .taskctl/), ignored by the .gitignore family, or excluded by the policy.
	PathIgnored Code = "PATH_IGNORED"
	// PathExcluded: left out by a source's exclude globs.
	PathExcluded Code = "PATH_EXCLUDED"
	// PathSpecialFile: a FIFO, device or socket, never opened.
	PathSpecialFile Code = "PATH_SPECIAL_FILE"
	// PathInvalid: empty, NUL, control character, backslash, drive or UNC form, too long, or a symlink loop.
	PathInvalid Code = "PATH_INVALID"
	// PathNotFound: no such file, or a component is not a directory.
	PathNotFound Code = "PATH_NOT_FOUND"
	// PathIsDir: a directory where a file was needed.
	PathIsDir Code = "PATH_IS_DIR"
	// PathUnreadable: permission denied or an I/O error.
	PathUnreadable Code = "PATH_UNREADABLE"
	// FileTooLarge: over the size cap, left out.
	FileTooLarge Code = "FILE_TOO_LARGE"
	// FileBinary: a binary file (NUL bytes), listed with its size, content omitted.
	FileBinary Code = "FILE_BINARY"
	// SecretDetected: content holding a secret, left out (or redacted).
	SecretDetected Code = "SECRET_DETECTED"
	// BudgetExceeded: left out for the token budget, or the document is over it.
	BudgetExceeded Code = "BUDGET_EXCEEDED"
	// InvalidUTF8: content that is not UTF-8, read byte by byte as windows-1252.
	InvalidUTF8 Code = "INVALID_UTF8"
	// EncodingConverted: content decoded from another encoding (a BOM, UTF-16, windows-1252).
	EncodingConverted Code = "ENCODING_CONVERTED"
	// ContentReplaced: characters XML 1.0 cannot carry, shown as U+FFFD in the XML style.
	ContentReplaced Code = "CONTENT_REPLACED"
	// TooManyFiles: a source matched more files than the cap; the first ones are kept.
	TooManyFiles Code = "TOO_MANY_FILES"
	// GlobNoMatch: a glob, or a named directory, yielded no file.
	GlobNoMatch Code = "GLOB_NO_MATCH"
	// WalkStopped: the walk was stopped; the files found so far are kept.
	WalkStopped Code = "WALK_STOPPED"
	// CommandDenied: a source="command" construct or command the policy does not allow.
	CommandDenied Code = "COMMAND_DENIED"
	// CommandFailed: a command exited non-zero, or one of its pipeline wrote to stderr.
	CommandFailed Code = "COMMAND_FAILED"
	// CommandNoMatch: a command source selected no file, and no other warning said why.
	CommandNoMatch Code = "COMMAND_NO_MATCH"
	// CommandTimeout: a command ran out of time; its output so far is kept.
	CommandTimeout Code = "COMMAND_TIMEOUT"
	// CommandOutputTruncated: a command's output hit a cap and the command was stopped.
	CommandOutputTruncated Code = "COMMAND_OUTPUT_TRUNCATED"
	// CommandMemoryExceeded: a command's run would pass its memory budget and was stopped.
	CommandMemoryExceeded Code = "COMMAND_MEMORY_EXCEEDED"
	// DescriptionNoMatch: a description source matched no file.
	DescriptionNoMatch Code = "DESCRIPTION_NO_MATCH"
	// IndexUnavailable: the index could not be opened or built, so a description source selected nothing.
	IndexUnavailable Code = "INDEX_UNAVAILABLE"
	// EmptyContext: a task inherits nothing, accumulates nothing, has fresh context disabled and no file sources; as an error, a one-off context selected no file (exit 1).
	EmptyContext Code = "EMPTY_CONTEXT"
	// InputPending: a dry run left out what waits for an earlier step's output.
	InputPending Code = "INPUT_PENDING"
	// UnknownVar: a --var names no input the task declares.
	UnknownVar Code = "UNKNOWN_VAR"
	// SubsetEmpty: inherit_context="subset" kept none of the parent's files.
	SubsetEmpty Code = "SUBSET_EMPTY"
	// InheritNotRelevant: a parent's file that inherit_context="subset" left out as not relevant.
	InheritNotRelevant Code = "INHERIT_NOT_RELEVANT"
	// ContextUnusedSetting: a template sets something that has no effect (accumulation_format without accumulate_data).
	ContextUnusedSetting Code = "CONTEXT_UNUSED_SETTING"
	// ReduceResultSummarised: an item's result did not fit a reduction task's token budget; its notes stand for it in the prompt.
	ReduceResultSummarised Code = "REDUCE_RESULT_SUMMARISED"
	// ReduceResultDropped: an item's result did not fit a reduction task's token budget; the prompt names the item without its output.
	ReduceResultDropped Code = "REDUCE_RESULT_DROPPED"
	// IndexCorrupt: the index file could not be decoded and is rebuilt.
	IndexCorrupt Code = "INDEX_CORRUPT"
	// IndexUnreadable: the index file could not be read and is rebuilt.
	IndexUnreadable Code = "INDEX_UNREADABLE"
	// WatchLimit: index --watch could not watch every directory (fs.inotify.max_user_watches).
	WatchLimit Code = "WATCH_LIMIT"
	// WatchMismatch: a watcher runs with another configuration or taskctl build; the command refreshed the index itself.
	WatchMismatch Code = "WATCH_MISMATCH"
	// ConfigUntrusted: a setting of the project's own config was ignored: the file is not trusted (taskctl trust) and the setting would widen the policy or name an executor.
	ConfigUntrusted Code = "CONFIG_UNTRUSTED"
	// IndexNotSaved: .taskctl/ cannot be written, so the index was built in memory for the one command.
	IndexNotSaved Code = "INDEX_NOT_SAVED"
	// WorkspaceUnavailable: .taskctl/ could not be written; the token cache is off.
	WorkspaceUnavailable Code = "WORKSPACE_UNAVAILABLE"
	// CacheNotSaved: the token cache could not be saved.
	CacheNotSaved Code = "CACHE_NOT_SAVED"
	// AuditUnavailable: the audit log could not be written.
	AuditUnavailable Code = "AUDIT_UNAVAILABLE"
	// ConfigIgnored: a setting of the project's own .taskctl/config.xml that it may not make was ignored (<sandbox>off</sandbox>).
	ConfigIgnored Code = "CONFIG_IGNORED"
	// PathGenerated: a lock file, minified bundle or source map a glob, command or description selected, left out (named literally, it is packed).
	PathGenerated Code = "PATH_GENERATED"
	// ContextDocument: a taskctl context document (the file --out writes, or one with taskctl's header), left out so that a pack never nests the last.
	ContextDocument Code = "CONTEXT_DOCUMENT"
	// PathFromRoot: a path read from stdin or a command's output named nothing from the working dir and was taken from the project root, as git prints it.
	PathFromRoot Code = "PATH_FROM_ROOT"
)

// An Info describes one code.
type Info struct {
	Code        Code
	Description string
}

// registry is every code with its description, in declaration order. A
// test checks that each description is its constant's doc comment.
var registry = []Info{
	{ArgInvalid, "a flag, an argument or a --var is malformed or repeated (exit 2)."},
	{TemplateInvalid, "a template fails the schema or the semantic checks, or cannot be read as one (exit 2)."},
	{ConfigInvalid, "a configuration file fails the schema or names a bad value (exit 2)."},
	{TemplateNotFound, "no template of that path or task name (exit 5)."},
	{TaskNotFound, "the template has no task of that name (exit 5)."},
	{RunNotFound, "no recorded run of that id (exit 5)."},
	{StrictWarnings, "--strict and a warning was given (exit 3)."},
	{Timeout, "the command's time limit ran out (exit 10)."},
	{Interrupted, "SIGINT or SIGTERM stopped the command; a run keeps its partial record (exit 130)."},
	{StepFailed, "a step of a run failed or timed out (exit 1)."},
	{ExecFailed, "the command of taskctl exec exited non-zero, other than grep's 1 for \"no match\" (exit 1); error.details holds its paths and exit_status."},
	{NoProject, "no project marker was found and no --project-dir given, so search would index the working dir unasked (exit 2)."},
	{Error, "any other failure (exit 1)."},
	{WatchRunning, "another index --watch of the project answers on its socket (exit 1)."},
	{WatchUnsupported, "index --watch needs Linux's inotify (exit 1)."},
	{WatchBadRequest, "a watcher refused a request that is not its protocol's."},
	{WatchDenied, "a watcher refused a request from another user."},
	{StateUnsafe, "a symlink, special file or hard-linked file stands where taskctl keeps its state under .taskctl/ (exit 1)."},
	{SandboxUnavailable, "a sandbox mode the kernel cannot enforce was asked for (exit 1); as a warning, run's default sandbox could not be applied and executors run unconfined."},
	{PathNotWritable, "a write outside the workspace and the write roots, or inside .git/ or .taskctl/ (exit 1)."},
	{FileExists, "the destination of a write, copy or move exists and overwrite was not asked (exit 1)."},
	{WriteUnsafe, "a symlink, a hard-linked file or a directory stands where a write would go; nothing was written (exit 1)."},
	{ConfirmRequired, "a delete was not confirmed (rm --yes, delete_file confirm: true) (exit 2)."},
	{EditNoMatch, "an edit's old text is not in the file; nothing was written (exit 1)."},
	{EditAmbiguous, "an edit's old text is in the file more than once; nothing was written (exit 1)."},
	{LoopNotConverged, "a director_evaluator_loop ran max_iterations iterations and no verdict said success (exit 1)."},
	{LoopTimeBudget, "a director_evaluator_loop's time_budget ran out (exit 10)."},
	{VerdictInvalid, "an evaluator's output is not a verdict, a JSON object with a boolean \"success\" (exit 1)."},
	{ScriptNotAllowed, "a template's script step would run a process the user did not allow (--allow-scripts, run.allow_scripts) (exit 2)."},
	{ResumeMismatch, "the run to resume is of another task or template, or is still running (exit 2)."},
	{FileChanged, "a write or edit named the sha256 of the content it expected, and the file holds other content; nothing was written (exit 1)."},

	{PathOutsideProject, "the real path lies outside every allowed root; nothing there is stat'ed or read."},
	{PathSensitive, "a sensitive name (.env*, *.pem, id_rsa*, ...) the policy does not allow."},
	{PathIgnored, "always excluded (.git/, .taskctl/), ignored by the .gitignore family, or excluded by the policy."},
	{PathExcluded, "left out by a source's exclude globs."},
	{PathSpecialFile, "a FIFO, device or socket, never opened."},
	{PathInvalid, "empty, NUL, control character, backslash, drive or UNC form, too long, or a symlink loop."},
	{PathNotFound, "no such file, or a component is not a directory."},
	{PathIsDir, "a directory where a file was needed."},
	{PathUnreadable, "permission denied or an I/O error."},
	{FileTooLarge, "over the size cap, left out."},
	{FileBinary, "a binary file (NUL bytes), listed with its size, content omitted."},
	{SecretDetected, "content holding a secret, left out (or redacted)."},
	{BudgetExceeded, "left out for the token budget, or the document is over it."},
	{InvalidUTF8, "content that is not UTF-8, read byte by byte as windows-1252."},
	{EncodingConverted, "content decoded from another encoding (a BOM, UTF-16, windows-1252)."},
	{ContentReplaced, "characters XML 1.0 cannot carry, shown as U+FFFD in the XML style."},
	{TooManyFiles, "a source matched more files than the cap; the first ones are kept."},
	{GlobNoMatch, "a glob, or a named directory, yielded no file."},
	{WalkStopped, "the walk was stopped; the files found so far are kept."},
	{CommandDenied, "a source=\"command\" construct or command the policy does not allow."},
	{CommandFailed, "a command exited non-zero, or one of its pipeline wrote to stderr."},
	{CommandNoMatch, "a command source selected no file, and no other warning said why."},
	{CommandTimeout, "a command ran out of time; its output so far is kept."},
	{CommandOutputTruncated, "a command's output hit a cap and the command was stopped."},
	{CommandMemoryExceeded, "a command's run would pass its memory budget and was stopped."},
	{DescriptionNoMatch, "a description source matched no file."},
	{IndexUnavailable, "the index could not be opened or built, so a description source selected nothing."},
	{EmptyContext, "a task inherits nothing, accumulates nothing, has fresh context disabled and no file sources; as an error, a one-off context selected no file (exit 1)."},
	{InputPending, "a dry run left out what waits for an earlier step's output."},
	{UnknownVar, "a --var names no input the task declares."},
	{SubsetEmpty, "inherit_context=\"subset\" kept none of the parent's files."},
	{InheritNotRelevant, "a parent's file that inherit_context=\"subset\" left out as not relevant."},
	{ContextUnusedSetting, "a template sets something that has no effect (accumulation_format without accumulate_data)."},
	{ReduceResultSummarised, "an item's result did not fit a reduction task's token budget; its notes stand for it in the prompt."},
	{ReduceResultDropped, "an item's result did not fit a reduction task's token budget; the prompt names the item without its output."},
	{IndexCorrupt, "the index file could not be decoded and is rebuilt."},
	{IndexUnreadable, "the index file could not be read and is rebuilt."},
	{WatchLimit, "index --watch could not watch every directory (fs.inotify.max_user_watches)."},
	{WatchMismatch, "a watcher runs with another configuration or taskctl build; the command refreshed the index itself."},
	{ConfigUntrusted, "a setting of the project's own config was ignored: the file is not trusted (taskctl trust) and the setting would widen the policy or name an executor."},
	{IndexNotSaved, ".taskctl/ cannot be written, so the index was built in memory for the one command."},
	{WorkspaceUnavailable, ".taskctl/ could not be written; the token cache is off."},
	{CacheNotSaved, "the token cache could not be saved."},
	{AuditUnavailable, "the audit log could not be written."},
	{ConfigIgnored, "a setting of the project's own .taskctl/config.xml that it may not make was ignored (<sandbox>off</sandbox>)."},
	{PathGenerated, "a lock file, minified bundle or source map a glob, command or description selected, left out (named literally, it is packed)."},
	{ContextDocument, "a taskctl context document (the file --out writes, or one with taskctl's header), left out so that a pack never nests the last."},
	{PathFromRoot, "a path read from stdin or a command's output named nothing from the working dir and was taken from the project root, as git prints it."},
}

// Codes returns every code with its description, errors first, in the
// order they are declared. The slice is the caller's.
func Codes() []Info { return append([]Info(nil), registry...) }

// Description returns the code's one-line description, or "" for a code
// that is not in [Codes].
func (c Code) Description() string {
	for _, in := range registry {
		if in.Code == c {
			return in.Description
		}
	}
	return ""
}
