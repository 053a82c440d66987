package memory_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
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

// What a long text leaves to the old demotions: a script, code in a
// language the index has no table for, a file at the top that the text
// names in another case, test data, a report template, example code, and a
// file in a language the text names; a file deeper down named by its base
// name alone is the reporter's own and is demoted again, as documentation
// the text does not name is.
func TestNotCodeExceptionsInAReport(t *testing.T) {
	words := "archive checksum release version bump\n"
	root := writeTree(t, withFiller(map[string]string{
		"scripts/bump_version.sh":               "#!/bin/sh\n# " + words + "echo archive checksum\n",
		"Sources/Archive/Archive.swift":         "// " + words + "struct Archive { var checksum: String }\n",
		"CHANGELOG.md":                          "# Changes\n\n- " + words,
		"src/xdocs/config.xml":                  "<config><!-- " + words + "--><archive checksum=\"on\"/></config>\n",
		"testdata/archive.json":                 "{\"note\": \"" + strings.TrimSpace(words) + "\"}\n",
		".github/ISSUE_TEMPLATE/bug_report.yml": "name: Bug\ndescription: " + words,
		"examples/archive/release.toml":         "# " + words + "checksum = true\n",
		"docs/archive.md":                       "# Archive\n\n" + words,
		"ci/archive.yml":                        "# " + words + "steps: [archive]\n",
		"src/archive.c":                         "/* " + words + "*/\nint archive_checksum(void) { return 0; }\n",
	}))
	text := "The archive checksum changes on a version bump\n\n" +
		"After the release, changelog.md says the archive checksum of the version changed, but the version bump " +
		"keeps the old archive checksum in the release. My config.xml sets the archive checksum on for the release " +
		"and the archive is built again after the bump, with the same checksum as the version before."
	demoted := map[string]bool{
		"scripts/bump_version.sh": false, "Sources/Archive/Archive.swift": false, "CHANGELOG.md": false,
		"src/xdocs/config.xml": true, "testdata/archive.json": false, ".github/ISSUE_TEMPLATE/bug_report.yml": false,
		"examples/archive/release.toml": false, "docs/archive.md": true, "ci/archive.yml": true, "src/archive.c": false,
	}
	check := func(ms []memory.Match, want map[string]bool) {
		t.Helper()
		for rel, want := range want {
			if got := slices.Contains(matchOf(t, ms, rel).Reason.Notes, "not code in a report"); got != want {
				t.Errorf("%s: not code in a report %v, want %v", rel, got, want)
			}
		}
	}
	check(searchLong(t, root, text), demoted)
	// the same text, naming YAML as the files' language
	yaml := strings.Replace(text, "My config.xml", "The YAML files and my config.xml", 1)
	check(searchLong(t, root, yaml), map[string]bool{"ci/archive.yml": false, "src/xdocs/config.xml": true})
}

// A report about a build names the tool: a Dockerfile is what "the docker
// image" is built from, a CMake module what "cmake" runs. Its files are
// spared the long text's second demotion when the text says the tool,
// and demoted again when it does not. A CI's file is not spared: "on
// Travis CI" says where the reporter ran the code.
func TestReportNamingATool(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"docker/Dockerfile": "# the shaders are compiled to a header by the build\nFROM ubuntu:20.04\nRUN apt-get install -y python3.8 libexif\n" +
			"ENV PYTHON_VERSION=3.8\nCMD [\"server\"]\n",
		"cmake/shaders.cmake": "# compile each shader to a header of its binary, whatever the image or python version\n" +
			"foreach(shader ${SHADERS})\n  add_custom_command(OUTPUT ${shader}.h COMMAND compiler -V ${shader})\nendforeach()\n",
		".travis.yml": "# build the image and run the server with each python version\nlanguage: c\nscript: make image\n",
		"src/server.c": "/* server_start opens the image library and serves the python version */\n" +
			"int server_start(const char *image) {\n    return open_image(image, PYTHON_VERSION);\n}\n",
	}))
	for _, c := range []struct {
		text    string
		demoted map[string]bool
	}{
		{"The docker image runs the wrong python version\n\n" +
			"The image tagged with python 3.8 runs python 3.7: docker run --rm server python --version prints 3.7. " +
			"The image should install the python version its tag names, and the server should start with it. " +
			"On Travis CI the image runs python 3.7 as well.",
			map[string]bool{"docker/Dockerfile": false, "cmake/shaders.cmake": true, ".travis.yml": true}},
		{"Building the shaders fails\n\n" +
			"After cmake -DWITH_SHADERS=ON .. the make step fails: the compiler is run on each shader and the header " +
			"of the shader is not written, so the server does not start with the image library.",
			map[string]bool{"docker/Dockerfile": true, "cmake/shaders.cmake": false}},
		{"The server image runs the wrong python version\n\n" +
			"The image tagged with python 3.8 runs python 3.7 when the server starts. " +
			"The image should install the python version its tag names, and the server should start with it.",
			map[string]bool{"docker/Dockerfile": true, "cmake/shaders.cmake": true}},
	} {
		ms := searchLong(t, root, c.text)
		for rel, want := range c.demoted {
			if got := slices.Contains(matchOf(t, ms, rel).Reason.Notes, "not code in a report"); got != want {
				t.Errorf("%q: %s not code in a report %v, want %v", c.text[:30], rel, got, want)
			}
		}
	}
}

// Source in a language no table reads (a stylesheet, a shader, CUDA,
// Jsonnet) is code a report's fix changes: a long text does not demote it
// again, as it does a configuration file in no language and the
// stylesheet of the documentation's site.
func TestSourceInNoTableIsCodeInAReport(t *testing.T) {
	words := "the sidebar counts are cut on small screens when the menu is taller than the window\n"
	files := map[string]string{
		"frontend/css/navigation.css": "/* " + words + "*/\n.sidebar .count { overflow: visible; }\n",
		"src/shaders/blur.comp":       "// " + words + "#version 450\nvoid main() { }\n",
		"src/kernels/blur.cu":         "// " + words + "__global__ void blur(float *x) { }\n",
		"lib/sidebar.libsonnet":       "// " + words + "{ sidebar: { counts: true } }\n",
		"config/sidebar.yml":          "# " + words + "sidebar:\n  counts: true\n",
		"docs/_static/sidebar.css":    "/* " + words + "*/\n.sidebar { margin: 0; }\n",
		"src/sidebar.js":              "// " + words + "export function sidebarCounts() { return 0 }\n",
	}
	root := writeTree(t, withFiller(maps.Clone(files)))
	ms := searchLong(t, root, "Sidebar counts are cut on small screens\n\n"+
		"When the window is less tall than the menu, the sidebar counts are cut on small screens and some "+
		"numbers are not readable at all, in the browser and on the phone, with the menu open or closed.")
	for rel := range files {
		want := rel == "config/sidebar.yml" || rel == "docs/_static/sidebar.css" // configuration, the docs' site
		if got := slices.Contains(matchOf(t, ms, rel).Reason.Notes, "not code in a report"); got != want {
			t.Errorf("%s: not code in a report %v, want %v", rel, got, want)
		}
	}
}
