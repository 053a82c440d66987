// Package tokens counts the BPE tokens of text offline, with the OpenAI
// encodings compiled into the binary (their vocabularies taken from
// github.com/tiktoken-go/tokenizer), and keeps a persistent cache of counts
// by content hash.
//
// [New] names an encoding: o200k_base (the default, used by GPT-4o and
// later) or cl100k_base (GPT-4, GPT-3.5), by its name, a short alias or a
// model name. New is cheap, and so is the first count: each encoding's rank
// table is built when the vocabulary is generated and embedded in the
// binary, which reads it in place, a page at a time as it is used
// (ranktable.go). A run that does not count tokens, or is served from the
// cache, never touches it.
//
// Counts are those of tiktoken's encode_ordinary: special-token text such as
// "<|endoftext|>" is counted as ordinary text, and bytes that are not valid
// UTF-8 count as U+FFFD (tiktoken's errors="replace"). They are exact for
// OpenAI models and an estimate for any other model.
//
// The library is used only for its vocabulary, and only when it is
// generated: go generate writes each encoding's tokens in rank order to a
// compact file the binary embeds (vocab.go, gen_vocab.go; a test checks it
// against the library). The rank of every token is in a hash table of our
// own, with a Bloom filter in front for the lookups of strings that are not
// tokens, built from that file (vocab.go) and embedded too; text
// is split into pieces by a hand-written equivalent of the encoding's split
// expression, with an ASCII fast path, and each piece is byte-pair encoded,
// with caches of the counts of recent and repeated pieces (split.go,
// count.go). That is some ten times faster than the library's backtracking
// expression and merge. Invalid UTF-8 is replaced first, each maximal
// ill-formed subpart by one U+FFFD, as tiktoken and the library do.
//
// The counts are checked against OpenAI's tiktoken itself (testdata/*.jsonl,
// recorded with the npm package) and against the library (diff_test.go:
// tricky strings, the Go source tree and a fuzz target). They agree with
// tiktoken on every recorded file and string, and with the library
// everywhere except where the library's generated split code departs from
// its own expression: a run of whitespace that starts with a newline and
// holds another, such as "\n\t\n" (one piece for tiktoken and for us, two
// for the library), and DEL (U+007F), which the library drops uncounted.
//
// A [Cache] maps a content's [Sum] (a GMAC under a random key of the
// cache's own, which its file keeps) and the encoding name to a count. It
// lives in one file in a directory the caller chooses; a missing,
// unreadable or corrupt file is an empty cache, never an error.
// [Cache.Save] writes atomically and never through a symlink. The cache holds at most
// [MaxCacheEntries] counts, dropping the least recently used beyond that.
//
// Counters and Caches are safe for concurrent use by several goroutines.
package tokens
