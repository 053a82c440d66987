// Package engine is what taskctl does, below its front doors: the command
// line (cmd/taskctl) and the MCP server turn flags or JSON-RPC into calls of
// the engine, and its typed results into text, JSON envelopes or MCP
// content. Nothing a user can do lives only in a front door.
//
// [Open] resolves the working dir and the project dir; the merged settings
// (config.go: one table row per setting) and the project are opened on
// first use, so that a command that needs neither (validate FILE) is not
// failed by a configuration it never reads. Every path the engine returns
// is absolute. Errors that a user should see carry a diag.Code and an exit
// [Class] ([*Error]). Each operation's warnings (diag.Warning, with
// absolute paths) come back with its result ([Report]) or, when it returns
// none, with its error ([WarningsOf]): nothing gathers them on the
// [Engine], so operations running side by side never see each other's.
// What reading the config files said is the engine's ([Engine.ConfigWarnings]).
//
// The file operations of seed 001 (fs.go, fswrite.go: ReadFile,
// ListDirectory, FileInfo, WriteFile, CreateDirectory, CopyFile, MoveFile,
// DeleteFile, EditFile) read as every typed path resolves and write only
// in the workspace and the configured write roots, through project.FS;
// every write is appended to .taskctl/audit.jsonl. An Engine serves one
// CLI command, or, after StartSession, the operations of a whole MCP
// session one at a time, with the index kept open (session.go).
//
// The engine imports every package below it (DESIGN §1) and none of them
// imports it.
package engine
