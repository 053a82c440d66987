package project_test

import (
	"io/fs"
	"testing/fstest"
)

func fstestMap(gitignore string) fs.FS {
	return fstest.MapFS{".gitignore": &fstest.MapFile{Data: []byte(gitignore)}, "sub/.gitignore": &fstest.MapFile{Data: []byte(gitignore)}}
}
