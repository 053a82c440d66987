package memory

import "testing"

// A report's template is named after issues or bug reports, as a word of
// its name; documentation about certificate issuers is not one, nor an
// entry of a change log named after the issue it closes (restic's
// changelog/0.16.0/issue-4199), which says what changed in the code's
// words. A long text demotes a template hard (demoteTemplateLong).
func TestReportTemplateNames(t *testing.T) {
	for rel, want := range map[string]bool{
		".github/ISSUE_TEMPLATE/bug.yml":         true,
		"templates/issue-create.md.ejs":          true,
		"src/xdocs/report_issue.xml":             true,
		"docs/bug-report.md":                     true,
		"modules/structs/issue_template.go":      false,
		"docs/acme-issuer.md":                    false,
		"docs/issuers/zerossl.md":                false,
		"changelog/0.16.0_2023-07-31/issue-4199": false,
		"changelog/unreleased/issue-4521":        false,
	} {
		if got := isReportTemplate(rel); got != want {
			t.Errorf("isReportTemplate(%q) = %v, want %v", rel, got, want)
		}
	}
}
