//go:build !unix

package memory

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// lockFile takes an exclusive lock by creating name with O_EXCL, retrying
// for up to a minute; a lock older than ten minutes is taken as stale.
func lockFile(name string) (unlock func(), err error) {
	name += ".excl"
	deadline := time.Now().Add(time.Minute)
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(name); serr == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.Remove(name)
			continue
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
