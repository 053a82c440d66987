// Package budget decides what of a context document fits a token budget:
// which files a document keeps (Keep: by rank, then score, then order,
// each whole file kept while it fits) and how long a prefix of a list
// fits the room left (Prefix). It counts nothing and knows no file or
// style: contextgen gives it the costs and turns its answers into
// BUDGET_EXCEEDED warnings and the rendered list of files left out. It
// imports no package of taskctl.
package budget
