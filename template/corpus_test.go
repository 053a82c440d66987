package template_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// corpus is the top-level testdata directory, shared with schema's tests,
// which check that the schema accepts every template under valid/ and
// schema-only/ and refuses every one under invalid/.
const corpus = "../testdata"

// TestParseCorpus checks the decoder's half of the shared corpus: every
// template under valid/ parses, with at least one task; every one under
// schema-only/ (the schema accepts it; what is wrong is beyond a schema:
// a step's input from a later step, XML 1.1) is refused with positioned
// problems, so that validate, which runs both, refuses it too.
func TestParseCorpus(t *testing.T) {
	valid := corpusFiles(t, "valid")
	for _, p := range valid {
		t.Run("valid/"+filepath.Base(p), func(t *testing.T) {
			f, err := template.Parse(p, readFile(t, p))
			if err != nil {
				t.Fatalf("the schema accepts it, Parse refuses it: %v", err)
			}
			if len(f.Tasks) == 0 {
				t.Fatal("no task decoded")
			}
		})
	}
	for _, p := range corpusFiles(t, "schema-only") {
		t.Run("schema-only/"+filepath.Base(p), func(t *testing.T) {
			_, err := template.Parse(p, readFile(t, p))
			var perr *template.Error
			if !errors.As(err, &perr) || len(perr.Problems) == 0 {
				t.Fatalf("Parse gave %v, want positioned problems", err)
			}
			for _, pr := range perr.Problems {
				if pr.Line < 1 || pr.Col < 1 {
					t.Errorf("problem without a position: %+v", pr)
				}
			}
		})
	}
}

func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpus, "templates", dir, "*.xml"))
	if len(files) < 2 {
		t.Fatalf("found only %d templates under %s", len(files), filepath.Join(corpus, "templates", dir))
	}
	return files
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
