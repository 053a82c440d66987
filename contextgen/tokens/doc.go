// Package tokens counts the BPE tokens of text offline, with the OpenAI
// encodings compiled into the binary (github.com/tiktoken-go/tokenizer), and
// keeps a persistent cache of counts by content hash.
//
// [New] names an encoding: o200k_base (the default, used by GPT-4o and
// later) or cl100k_base (GPT-4, GPT-3.5), by its name, a short alias or a
// model name. New is cheap: the vocabulary of an encoding is loaded the first
// time a Counter of that encoding counts something, once per process, so a
// run that does not count tokens (or is served from the cache) never pays for
// it.
//
// Counts are those of tiktoken's encode_ordinary: special-token text such as
// "<|endoftext|>" is counted as ordinary text, and bytes that are not valid
// UTF-8 count as U+FFFD (tiktoken's errors="replace"). They are exact for
// OpenAI models and an estimate for any other model.
//
// For valid UTF-8 the library is used only for its vocabulary: text is split
// into pieces by a hand-written equivalent of each encoding's split
// expression and every distinct piece is byte-pair encoded once per process
// (split.go), which is several times faster than the library's backtracking
// expression. The counts are checked against OpenAI's tiktoken itself
// (testdata/*.jsonl, recorded with the npm package): they agree on every
// recorded file and string, including inputs where the library's own split
// does not (a run of whitespace ending in a newline, such as "\n\t\n").
// Text that is not valid UTF-8 is counted by the library.
//
// A [Cache] maps sha256(content) and the encoding name to a count. It lives
// in one file in a directory the caller chooses; a missing, unreadable or
// corrupt file is an empty cache, never an error. [Cache.Save] writes
// atomically and never through a symlink. The cache holds at most
// [MaxCacheEntries] counts, dropping the least recently used beyond that.
//
// Counters and Caches are safe for concurrent use by several goroutines.
package tokens
