package schema_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/schema"
)

// TestLibxml2Missing runs a validation in a process whose libxml2 cannot
// be loaded (TASKCTL_LIBXML2 names a library that does not exist): it is
// an error that names the library and says how to get it, not a crash.
func TestLibxml2Missing(t *testing.T) {
	if os.Getenv("TASKCTL_TEST_LIBXML2_CHILD") != "" {
		err := schema.Template().Validate("t.xml", []byte("<task/>"))
		if err == nil {
			os.Stdout.WriteString("validated without libxml2\n")
			os.Exit(3)
		}
		os.Stdout.WriteString(err.Error() + "\n")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLibxml2Missing$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TASKCTL_TEST_LIBXML2_CHILD=1", "TASKCTL_LIBXML2=/nonexistent/libxml2-missing.so")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, want := range []string{"libxml2 cannot be loaded", "/nonexistent/libxml2-missing.so", "TASKCTL_LIBXML2"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child said %q; want it to mention %q", out, want)
		}
	}
}
