// Package mcpserver is taskctl's second front door: a Model Context
// Protocol server (the official Go SDK) that serves one project's engine
// to an agent over a transport, stdio for 'taskctl mcp'.
//
// It turns JSON-RPC into calls of the engine and the engine's typed results
// into MCP tool results: human-readable text content, and structured
// content holding the same data shapes as the CLI's --output json "data"
// (absolute paths). Warnings go in the result's _meta under
// "taskctl/warnings" and after the text; a failure is a tool error whose
// text starts with its stable code ("PATH_NOT_WRITABLE: ...").
//
// Tools: assemble, search, list_tasks, validate, read_file,
// list_directory, file_info, write_file, create_directory, copy_file,
// move_file, delete_file, edit_file. Each task of the project's task
// library (.taskctl/tasks/*.xml) is also a prompt whose arguments are the
// task's inputs.
//
// # Guarantees
//
//   - The server holds one engine for the session and runs one operation
//     at a time on it; the index it opens stays open, refreshed when the
//     engine's watch of the tree saw a change.
//   - Every path rule is the engine's: the server adds no file access of
//     its own. Writes go only to the workspace and the configured write
//     roots (see engine and project.FS).
//   - A malformed or oversized message is answered with a JSON-RPC error
//     or ends the session; it never crashes the process.
package mcpserver
