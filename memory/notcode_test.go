package memory_test

import (
	"slices"
	"strings"
	"testing"
)

// A project's licence has the words of many reports ("software", "use",
// "copies", "permission"): in a long text it ranks below the code file
// that has the report's words, however many of them it has.
func TestLicenceBelowTheCodeInAReport(t *testing.T) {
	licence := strings.Repeat("Permission is hereby granted to any person obtaining a copy of this software to use, copy, "+
		"modify, merge and publish copies of the software, and to permit persons to whom the software is furnished to do so, "+
		"provided the original notice of permission is kept in all copies of the software, on Linux or any other system. The software is provided as is, "+
		"without warranty; in no event shall the authors be liable for any claim arising from the use of the software "+
		"on any system, executable or script.\n", 2)
	root := writeTree(t, withFiller(map[string]string{
		"LICENSE-APACHE": licence,
		"src/copy.c": "/* copy_file keeps the mode bits */\n" +
			"int copy_file(const char *from, const char *to) {\n    int mode = file_mode(from);\n" +
			"    return write_copy(from, to, mode);\n}\n",
	}))
	ms := searchLong(t, root, "Copies lose their permission bits\n\n"+
		"When I copy a file with the copy command, the copy does not keep the permission bits of the original file: "+
		"a script that was executable is not executable after the copy. I use the software on Linux and expected "+
		"the copies to keep the permission of the file they copy.")
	if got := rels(ms); len(got) < 2 || got[0] != "src/copy.c" {
		t.Errorf("ranked %v, want src/copy.c first", got)
	}
	if m := matchOf(t, ms, "LICENSE-APACHE"); !slices.Contains(m.Reason.Notes, "not code in a report") {
		t.Errorf("LICENSE-APACHE notes %v, want not code in a report", m.Reason.Notes)
	}
}

// A report that names a file that is not code (the change log, a CI
// workflow by its path) asks for it: it is not demoted again, and ranks
// above the code that has the same words.
func TestReportNamingAFileThatIsNotCode(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"CHANGELOG.md": "# Changes\n\n## 2.3.0\n\n- The release archive is signed with the release key.\n" +
			"- Release notes list the archive checksums.\n",
		".github/workflows/release.yml": "name: release\non:\n  push:\n    tags: ['v*']\njobs:\n  archive:\n" +
			"    runs-on: ubuntu-latest\n    steps:\n      - run: make archive checksums sign\n",
		"src/archive.c": "/* archive_sign signs the release archive and writes its checksums */\n" +
			"int archive_sign(const char *archive, const char *key) {\n    return sign_checksums(archive, key);\n}\n",
	}))
	for _, c := range []struct{ want, text string }{
		{"CHANGELOG.md", "The 2.3.0 entry of CHANGELOG.md is wrong about the release archive\n\n" +
			"CHANGELOG.md says that the release archive is signed with the release key and that the release notes " +
			"list the archive checksums, but the 2.3.0 release archive has no signature and its checksums are missing."},
		{".github/workflows/release.yml", "The release archive of 2.3.0 has no checksums\n\n" +
			"The job in .github/workflows/release.yml that builds the release archive runs make archive checksums sign, " +
			"but the tagged release has an archive without checksums and without a signature from the release key."},
	} {
		ms := searchLong(t, root, c.text)
		if got := rels(ms); len(got) < 2 || got[0] != c.want {
			t.Errorf("ranked %v, want %s first", got, c.want)
		}
		if m := matchOf(t, ms, c.want); slices.Contains(m.Reason.Notes, "not code in a report") {
			t.Errorf("%s notes %v, want it not demoted again", c.want, m.Reason.Notes)
		}
	}
}
