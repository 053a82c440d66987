package ignore_test

import (
	"testing"

	"github.com/taskctl/taskctl/ignore"
)

// FuzzParseRules: any ignore file parses without panicking and its rules
// match without panicking.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{"*.log\n!important.log\n", "/build\ndist/\n", "a/**/b\n[\n", `\#x` + "\n" + `\!y`, "abc/**\n{a,b}\n", "x\\ \n\xef\xbb\xbf#c\r\n"} {
		f.Add(s, "a/b.log")
	}
	f.Fuzz(func(t *testing.T, data, rel string) {
		rules, _ := ignore.ParseRules(".gitignore", "", []byte(data))
		for _, r := range rules {
			_ = r.String()
		}
		m := ignore.New(files(map[string]string{".gitignore": data, "sub/.gitignore": data}))
		m.Match(rel, false)
		m.Match(rel, true)
	})
}

// files is a ReadFunc of the ignore files in the map; a name not in it
// does not exist.
func files(m map[string]string) ignore.ReadFunc {
	return func(name string) ([]byte, error) {
		s, ok := m[name]
		if !ok {
			return nil, nil
		}
		return []byte(s), nil
	}
}
