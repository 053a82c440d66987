package memory

import (
	"slices"
	"strings"
)

// Files that are not code, in a long text. A bug report is about the code
// its fix changes; a project's files in no programming language (its CI
// workflows, build files, configuration, XML and data) and its prose (a
// licence, a change log, the pages of its site) have a report's words as
// well, and took first place for reports about the code: rocketmq's CI
// workflows for reports about its broker, checkstyle's src/xdocs/config.xml
// (every check's name), jackson's release notes, askama's LICENSE-APACHE.
// demote weighs them down a little (× 0.8, × 0.4); a long text weighs them
// down again (demoteNotCodeReport) unless it names the file.

// demoteNotCodeReport is what a long text multiplies a file that is not
// code by, beside demote's weight: a file in no language then counts
// 0.2 of its match, documentation 0.1.
const demoteNotCodeReport = 0.25

// isNotCode reports whether a long text reads rel as no code: a file of
// documentation, or one in no programming language (defLangOf, codeExts,
// sourceExts). A test, a report template and example code are weighed by
// demote alone; so is a file in a language the text names ("the YAML"),
// and a script: a project's scripts are code its commits change
// (prometheus's scripts/bump_go_version.sh, named by a commit message).
func (p *parsed) isNotCode(rel string) bool {
	switch {
	case isTest(rel) || isReportTemplate(rel) || isExample(rel) || hasExt(rel, p.langs) || hasExt(rel, scriptExts):
		return false
	case roleOf(rel)&roleDoc != 0:
		return true
	}
	return defLangOf(rel) == nil && !hasExt(rel, codeExts) && !hasExt(rel, sourceExts)
}

// demoteNotCodeLong weighs c, the long text's candidate rel, down again
// when rel is not code (isNotCode) and the text names neither it
// (mentionsFile) nor its tool (saysTool): what a report asks for by name,
// its fix may change (a change log's entry, a workflow, a manifest's
// dependency, the Dockerfile of "the docker image").
func (p *parsed) demoteNotCodeLong(c cand, rel string) cand {
	if !p.long || !p.isNotCode(rel) || p.mentionsFile(rel) || p.saysTool(rel) {
		return c
	}
	c.score *= demoteNotCodeReport
	c.notes = append(c.notes, "not code in a report")
	return c
}

// mentionsFile reports whether a long text spells rel's path
// (".github/workflows/ci.yml", "crates/nu-json/Cargo.toml") or, for a file
// at the top of the project, its name as a file's ("CHANGELOG.md",
// "pom.xml", whatever its case). A word alone ("the changelog") does not:
// a report links another project's change log as often. Nor does a base
// name name a file deeper down: it is the reporter's own file as often
// ("cat config.xml" shows the configuration the reporter ran, not
// checkstyle's src/xdocs/config.xml).
func (p *parsed) mentionsFile(rel string) bool {
	top := !strings.Contains(rel, "/")
	for _, m := range p.mentions {
		if strings.Contains(m, "/") && pathMentioned(rel, m) || top && strings.EqualFold(m, rel) {
			return true
		}
	}
	return false
}

// scriptExts are the extensions of scripts, which codeExts leaves out (a
// short request means the project's code more often than its tooling).
var scriptExts = []string{".sh", ".bash", ".zsh", ".ps1", ".bat", ".cmd", ".pl", ".pm"}

// sourceExts are the extensions of source in languages no table of the
// index reads (defLangOf) and codeExts does not name: a
// stylesheet, a GPU shader or kernel, Cython's declarations, C++'s inline
// definitions, Jsonnet. A report about a layout ("the counts are cut on
// small screens"), a kernel or a deployment is fixed there; they are the
// project's code, not its configuration or data, in a long text (a
// stylesheet of the documentation's site is documentation).
var sourceExts = []string{".css", ".scss", ".sass", ".less", ".styl",
	".glsl", ".vert", ".frag", ".comp", ".geom", ".tesc", ".tese", ".hlsl", ".metal", ".wgsl", ".cu", ".cuh",
	".pxd", ".pxi", ".inl", ".ipp", ".tcc", ".tpp", ".jsonnet", ".libsonnet"}

// saysTool reports whether a long text says a word of the tool that
// builds the product from the file rel (tools.go's entries of productTools:
// a Dockerfile's "docker", a CMake module's "cmake"): a report about "the
// docker image" or a build that "cmake" runs is about the tool's file. The
// project's other tooling is not spared: a CI's, a linter's, a test
// runner's or a dependency manifest's words say where a reporter ran the
// code ("on Travis CI, I get …") or what a commit touched in passing
// ("update dev dependencies"), and lifted .travis.yml, .eslintrc.yml and
// package.json above the code of JavaScript commits. A tool file's weak
// words count as its strong ones: a short request's caution with them
// would keep "Docker builds fail" from the Dockerfiles.
func (p *parsed) saysTool(rel string) bool {
	ws := toolWordsOf(rel)
	if ws == nil || !slices.ContainsFunc(productTools, func(w string) bool { return ws.strong[w] }) {
		return false
	}
	for i, w := range p.words {
		if ws.strong[w.lower] || ws.weak[w.lower] {
			return true
		}
		if i+1 < len(p.words) {
			if s, ok := toolPhrases[[2]string{w.lower, p.words[i+1].lower}]; ok && ws.strong[s] {
				return true
			}
		}
	}
	return false
}

// productTools are strong words of tools.go's entries for the tools that
// build a product: its container image and its native build.
var productTools = []string{"dockerfile", "cmake", "makefile"}
