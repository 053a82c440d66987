//go:build !unix

package main

import (
	"io"
	"os"
)

// readFile reads the file name to its end through buf and returns its size.
func readFile(name string, buf []byte) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var total int64
	for {
		n, err := f.Read(buf)
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
