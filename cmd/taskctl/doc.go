// Command taskctl validates XML task templates and assembles the context each
// task should see: files named literally or by glob, files a restricted
// read-only shell command prints, and files a description matches in the
// project's lexical index. Tasks chain into workflows run through an
// executor. See the README for a tour.
//
// This package is a front door on the engine (package engine), as the MCP
// server is the other: flags, the envelope and printing, one file per
// command, each parsing its flags into a request, calling one engine
// function and printing its typed result as text or as the envelope's
// data. It imports the engine and the diagnostics alone (layout_test.go).
// It guarantees:
//   - With --output json, every command prints exactly one envelope on stdout
//     ({ok, data, error, warnings, meta}) and nothing else; prose and progress
//     go to stderr.
//   - Every path it prints is absolute.
//   - Exit codes: 0 ok (warnings allowed), 1 general error, 2 usage error or
//     invalid template, 3 warnings under --strict, 5 template, task or run
//     not found, 10 timeout.
//   - It writes only inside <project>/.taskctl/ (the index, run records,
//     caches, the audit log, and what 'taskctl init' scaffolds).
//   - Main is the only place that prints errors and picks the exit code.
package main
