package memory_test

import (
	"slices"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// TestReportNamesClassByItsWords: a report says the wizard's label, "the
// Export projects wizard", where the code has ProjectExportWizardFirstPage;
// another file has more of the report's words, scattered. The file named
// after the run of prose ranks first and says why.
func TestReportNamesClassByItsWords(t *testing.T) {
	files := withFiller(map[string]string{
		"ui/wizards/ProjectExportWizardFirstPage.java": "package ui.wizards;\npublic class ProjectExportWizardFirstPage {\n  void createControl() { label.setText(title); }\n}\n",
		"ui/operations/ArchiveOperation.java": "package ui.operations;\n// Writes the archive: labels are cut to the width of the dialog, the text\n" +
			"// of each project is wrapped when it is too long to read, resizing the dialog\npublic class ArchiveOperation {\n  void run() { wrap(text); cut(labels); resize(dialog); }\n}\n",
	})
	ix, _ := build(t, writeTree(t, files))
	report := `Labels cut off in the Export projects wizard

The text of the first page is wrapped and cut, see the screenshot. Resizing the dialog
does not help to read the whole text in any form, and the labels stay cut when the
dialog is made wider; it happens with every project in the workspace.`
	ms := ix.Search(report, memory.SearchOptions{Limit: 10})
	if len(ms) == 0 || ms[0].Rel != "ui/wizards/ProjectExportWizardFirstPage.java" {
		t.Fatalf("Search(report) = %q, want the wizard's page first", rels(ms))
	}
	if !slices.Contains(ms[0].Reason.Notes, "named after project export wizard first page (a phrase)") {
		t.Errorf("notes %v, want it named after the phrase", ms[0].Reason.Notes)
	}
}
