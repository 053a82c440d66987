// Command readall is the floor the benchmarks compare taskctl with: it reads
// every file of a list once, and does nothing with what it reads.
//
//	git ls-files -z | readall
//
// The list comes on standard input, NUL-separated (as git ls-files -z and
// find -print0 write it); relative names are taken from the working
// directory. Each file is opened, read to its end into one buffer that every
// file reuses, and closed, one after the other on one thread: the work any
// tool that packs or indexes a tree cannot avoid. On Unix it does so on a
// raw descriptor (open, read, close and nothing else: no *os.File, whose
// open asks the poller about each file), as taskctl reads files on Linux.
//
// It replaces `xargs -0 cat` as the floor because GNU cat is not that floor:
// it maps and unmaps a fresh buffer for every file it copies (strace -c shows
// one munmap per file), and it writes what it reads, so on a tree of many
// small files most of its time is spent on work a reader does not do.
//
// A file that cannot be read (a directory, a dangling symbolic link, a file
// removed since the list was made) is named on standard error and skipped,
// as cat does; the exit status is then 1. With -v it prints how many files
// and bytes it read.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	verbose := flag.Bool("v", false, "print the number of files and bytes read on standard error")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: readall [-v] < NUL-separated list of files")
		os.Exit(2)
	}
	files, size, failed := readList(os.Stdin, os.Stderr)
	if *verbose {
		fmt.Fprintf(os.Stderr, "readall: %d files, %d bytes\n", files, size)
	}
	if failed {
		os.Exit(1)
	}
}

// readList reads every file named in list, reporting on stderr each one it
// cannot read. It returns how many it read, their total size, and whether
// any failed.
func readList(list io.Reader, stderr io.Writer) (files int, total int64, failed bool) {
	buf := make([]byte, 256<<10)
	names := bufio.NewScanner(list)
	names.Buffer(make([]byte, 64<<10), 1<<20)
	names.Split(splitNUL)
	for names.Scan() {
		name := names.Text()
		if name == "" {
			continue
		}
		n, err := readFile(name, buf)
		if err != nil {
			fmt.Fprintf(stderr, "readall: %v\n", err)
			failed = true
			continue
		}
		files++
		total += n
	}
	if err := names.Err(); err != nil {
		fmt.Fprintf(stderr, "readall: reading the list: %v\n", err)
		failed = true
	}
	return files, total, failed
}

// splitNUL is a bufio.SplitFunc for NUL-terminated names; the last name
// may lack its NUL.
func splitNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
