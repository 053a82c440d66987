// Package memory is taskctl's lexical index of a project's text files and
// the matcher behind <file_paths source="description">: it ranks files
// against a natural-language description, from a short request ("Python
// files related to authentication") to a whole bug report with stack
// traces.
//
// # Index
//
// Files come from a Source: ProjectSource, an adapter over the project
// package's walker and reader, so the index holds exactly the files the
// project's policy admits (DirSource opens a project at a directory first,
// for tests and benchmarks). Each file is analysed into four fields: its
// directory path, its file name, the identifiers it contains (compound
// identifiers kept whole, and the names it defines after keywords such as
// func, class or def) and its content. Words are split on camelCase,
// snake_case, kebab-case and letter/digit boundaries, lower-cased, stripped
// of English and code stop words and stemmed (Snowball English). A file of
// a known language (Go, Python, JS/TS, Java and its kin, Rust, C/C++, Ruby,
// PHP) also records the names it defines, qualified by their class,
// receiver or impl ("QuerySet.bulk_create"): see defs.go. Binary
// files (with a NUL byte) are listed but not indexed, and so are files over
// MaxFileSize that a Source yields (ProjectSource yields none: the
// project's walk leaves out files over the policy's cap).
//
// # Ranking
//
// Search scores with BM25F (Robertson and Zaragoza's field-weighted BM25):
// per term, the field frequencies are length-normalised per field, weighted
// and summed before one k1 saturation, so a term seen in the name and the
// content is not counted twice as two independent matches. The score is the
// share of the query's IDF mass a file matches, in [0,1], times boosts.
// Query terms also match common abbreviations (auth, config, db, ctx …) at
// half weight inside the same saturation. Long queries are de-duplicated,
// stop words dropped, the words of their first line (a report's title)
// counted twice, and capped at their maxQueryTerms heaviest terms; a
// leading conventional-commit label ("test:", "docs(api):") is dropped.
// A query's words keep their case until their terms are read, so that
// ObjectUtils gives the terms the index has for it (object, util,
// objectutils). A query's exact evidence (traceback frames, Python's,
// the JVM's and V8's; imports; dotted names, and C++ and Rust paths but
// those into the standard library; CamelCase and snake_case identifiers:
// evidence.go) is looked up among
// the definitions, and a file scores for what it defines beside its
// words' share; the modules its dotted names spell and the innermost
// traceback frame of the project are mentions of their files. Short
// queries treat file-type words and path scopes as filters; long ones (more than 15 content words) only as boosts, so a
// passing "the tests fail" never hides the source file a report is about.
// A filter that leaves nothing is dropped and the search run again, with a
// note in every reason. In a short query, adjacent words also match their
// compound ("reverse proxy": reverseproxy; "HTTP/2": http2), and a file
// named after one of its words, or after several of them by its name's
// parts (line_range.rs), ranks higher; one named after a partner of a word
// (an abbreviation, a concept: retry and backoff.go) a little less. Test
// files are demoted unless the query asks for tests, documentation (change
// logs and their entries, man pages among it) and example code unless it
// asks for them or names the prose file by what it is ("the changelog"),
// and in a short request code vendored under a top-level vendor/, deps/
// or third_party/, catalogues of translated strings, and files in no
// programming language unless it asks for configuration or the file is a
// tool's (a CI workflow, a Dockerfile); a data format after "to", "into"
// or "from" in a short request is a conversion, no filter; files named in the
// query ("tsdb/head.go", "head.go:123") are boosted. A long text's issue
// and pull-request templates (.github/ISSUE_TEMPLATE/) are its form, not
// its subject, and are demoted hard; the ticked lines of a task list ("-
// [x] I have searched the issues") are a template's too, and dropped.
// A long text also demotes, as documentation, a code file of comments only
// and one a tool generated (an amalgamation, "DO NOT EDIT" in the comments
// that head it), read from the files its units read; a rare name of the
// text spelled with hyphens names the code file named so whole, and a
// CamelCase one that no path has the file whose name adds one part to it
// (UnusedImports: UnusedImportsCheck.java): longtext.go.
//
// # History
//
// A project's commit messages say in its people's words what the files
// they touched do. When the Source is a HistorySource (ProjectSource of a
// project with a .git directory of its own), the index keeps the terms of
// the messages of the newest commits (500 that are not merges and change
// at most 20 files) beside the paths each changed, in history.bin in the
// index directory with the head they were read at (history.go). A query
// term found in the messages of a file's commits counts as one more field
// of that file, at half its content, inside the term's own saturation,
// and only for a file that has one of the query's terms itself: the
// history lifts a file the query points at and never brings one in.
// --explain lists it under "history" with the number of commits ("spread
// (3 commits)"). The commits are read with go-git through the project
// root's view of .git (root.GitDir, GitLog): nothing outside .git is
// opened, no symbolic link in it is followed, and nothing is written
// there. A refresh that finds HEAD moved reads the commits since the head
// it holds when HEAD descends from it, and else lists them all again,
// reusing the commits it holds; a shallow clone has the history it holds;
// with no .git (or one that is a file, as in a worktree) there is no
// history and nothing else changes. Reading the
// history is no part of what a refresh promises: when it fails, the
// history held is kept.
//
// # Persistence and guarantees
//
// The index is one file, index.bin, in the index directory (the caller
// passes <project>/.taskctl/index; a .gitignore holding "*" is written
// there). Its format is versioned and checksummed (CRC-32C); postings are
// delta and varint encoded. Refresh is incremental: a file whose size and
// modification time are unchanged is not read; a file whose content hash is
// unchanged is not analysed; a file found under a new path with the content
// of a vanished one is moved, not re-analysed. Documents keep their IDs:
// a changed or deleted file leaves a tombstone whose stale postings Search
// skips (document frequencies are counted over live documents while
// scoring, so an incremental index ranks exactly as a fresh one), and the
// posting lists of untouched terms are copied as bytes; tombstones are
// compacted away once they pass a quarter of the documents. A file whose
// modification time moved while its content did not (touched, checked out
// again) does not make Refresh write a new index unless more than 64 such
// files accumulate; until then each Refresh hashes them again. A file whose
// recorded time is within two seconds of the index file's own is hashed
// again whatever its size and time say (file systems stamp times from a
// coarse clock, so it may have changed after it was read without a change
// of time), until an index written later settles it. On Unix the
// index file is memory-mapped read-only.
//
// A refresh that reads more than fits in memory (a first build of a large
// tree) analyses the files in batches and flushes each batch's postings to
// a segment, a scratch file of the index directory; the old index and the
// segments are then merged term by term, each read front to back, into the
// new index file (segment.go). What a refresh keeps in memory for its whole
// length is a record of some hundreds of bytes a file, not its postings.
//
// A Source that is a FilteringSource (the command line's redacts secrets)
// has its files indexed as its Filter makes them. Refresh hashes a file as
// read, so a file touched but not changed is not filtered again, and the
// index records the filter's ID: an index built through another filter is
// analysed again in full.
//
// A Source that is a CachingSource (ProjectSource is: project.WalkCached)
// keeps what its walk learnt in walk.bin next to the index, so that the
// next walk need not list directories whose inode and times are unchanged
// (it still stats every file). The cache is the source's own and is
// checked, never trusted: a damaged one, or one another source wrote, is
// ignored, and it is written without fsync.
//
//   - Writers exclude each other with a lock file (flock on Unix); the lock
//     dies with its process.
//   - A new index is written to a temporary file and renamed over the old
//     one, so a reader sees either the old index or the new one, and a
//     writer killed at any point leaves the old one usable. It is not
//     fsynced: the index is a cache of the project's files, so what a power
//     failure can do to it (a file renamed but not all written) is caught
//     by the checksum and rebuilt, like any damaged index, and a build
//     does not wait for the disk. Its blocks are reserved before it
//     is written (fallocate, on Linux), or ext4 would flush it to the disk
//     on the rename anyway.
//   - A corrupt or truncated index is detected (magic, version, length,
//     checksum and bounds checks), reported as a diag.Warning and rebuilt
//     by the next Refresh; it is never trusted. Decoding never panics. An
//     index of another layout (its header's version: an older or newer
//     taskctl wrote it) is rebuilt too, without a warning; one that an
//     older analysis made (analysisID, source.go: a newer taskctl reads
//     more) is analysed again by the next Refresh, every file, without a
//     warning.
//   - An Index is safe for concurrent use.
//   - The index directory is a state.Dir, named by its real path:
//     reached without following a symbolic link, and its files (the index,
//     the lock, the walk cache, .gitignore, the temporary files) created,
//     replaced, locked and read relative to it without following one. A
//     symbolic link, a special file or a hard-linked file where one of them
//     goes (a cloned repository can commit .taskctl/index/lock as a link
//     anywhere) is refused with a state.UnsafeError, STATE_UNSAFE.
//
// The package never writes outside the index directory.
package memory
