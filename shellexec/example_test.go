package shellexec_test

import (
	"context"
	"fmt"
	"github.com/taskctl/taskctl/root"
	"os"
	"path/filepath"

	"github.com/taskctl/taskctl/shellexec"
)

func ExampleRun() {
	dir, _ := os.MkdirTemp("", "shellexec-example")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	os.MkdirAll(filepath.Join(dir, "src", "__pycache__"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "app.py"), []byte("print(1)\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "__pycache__", "app.py"), nil, 0o644)

	rt, _ := root.Open([]string{dir}, root.Policy{})
	defer rt.Close()
	cfg := shellexec.Config{Root: rt, Dir: dir, Vars: map[string]string{"area": "src"}}

	res, err := shellexec.Run(context.Background(), `find ./"$area" -name "*.py" | grep -v __pycache__`, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		rel, _ := filepath.Rel(dir, filepath.Join(r.Dir, r.Text))
		fmt.Println(rel)
	}
	fmt.Println(len(res.Warnings()), "warnings")

	_, err = shellexec.Run(context.Background(), `find . -name "*.py" -delete`, cfg)
	fmt.Println(shellexec.WarningFor(err).Code, err)
	// Output:
	// src/app.py
	// 0 warnings
	// COMMAND_DENIED 1:1: find -delete is not allowed: find may only read; options that write or execute are refused
}
