package memory

import "testing"

// TestPhraseSubject: a code file is named after a run of a long text's
// prose that says three of its name's words or more, half of them at
// least, in any order, one other word between at most; a name, a path or a
// stack frame's package is no prose.
func TestPhraseSubject(t *testing.T) {
	q := "Labels cut off in the Export projects wizard\n\n" +
		"Generic bounds on union catch types are lost by the bytecode writer. On the " +
		"Compiler errors and warnings preference page the group is squished.\n" +
		"at org.acme.ui.wizards.exports.ProjectExportWizard.run(ProjectExportWizard.java:12)\n" +
		"See ui/wizards/exports/Helper.java and the HistoryWizardPage class."
	p := parsed{long: true, phrases: prosePhrases(q)}
	for rel, want := range map[string]string{
		"a/ProjectExportWizardFirstPage.java":             "project export wizard",
		"a/UnionCatchTypeReference.java":                  "union catch type",
		"a/CompilerErrorsWarningsConfigurationBlock.java": "compiler errors warnings",
		"a/CatchTypeReference.java":                       "", // two words said: chance in a long text
		"a/GenericPreferenceGroupHolder.java":             "", // three of four, not together
		"a/UiWizardsExports.java":                         "", // a frame's package is a name
		"a/HistoryWizardPage.java":                        "", // CamelCase in the text is a name (other rules)
		"a/ProjectExportWizardFirstPage.txt":              "", // no code
	} {
		if got := p.phraseSubject(rel); got != want {
			t.Errorf("%s: %q, want %q", rel, got, want)
		}
	}
}
