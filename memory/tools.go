package memory

import (
	"strings"
	"sync"
)

// Tool files. A project's configuration of its tools (a linter's, a CI
// service's, a container build's) is named after the tool, not after what
// it configures: ".golangci.yml" says nothing of linting to a matcher of
// words, and a request for "the lint configuration" or "the CI workflow
// that runs the tests" would find the source files that mention linting
// and workflows first. A short request that names what such a file is for
// makes the file named after it (boostSubject), as "exceptions" does
// exceptions.py.
//
// A tool file has two kinds of words. Its strong words name the tool or
// its file ("golangci", "flake8", "ci", "dependabot"): a request that says
// them means the file. Its weak words name the job ("lint", "workflow",
// "docker", "coverage"): a commit message "fix lint errors in the parser"
// or "docker: add image labels" is about code, so they count only when
// the request also asks for configuration ("lint configuration", "docker
// settings"). Words as common as "build", "target" or "update" are
// neither: they would lift a Makefile above the code prometheus's commit
// messages are about ("targets"); "release" is only goreleaser's weak word.

// toolFiles maps the base names of tool files (lower-case; a trailing "*"
// matches any rest, a leading one any start) to their strong and weak words: "names: strong | weak",
// the names of an entry possibly over several lines.
const toolFiles = `.golangci.yml .golangci.yaml .golangci.toml .golangci.json .golangci-lint.yml .eslintrc* eslint.config.*
.flake8 .pylintrc pylintrc ruff.toml .ruff.toml .rubocop.yml .stylelintrc* .markdownlint* tslint.json .yamllint*
.hadolint.yaml clippy.toml .swiftlint.yml revive.toml staticcheck.conf .jshintrc:
	golangci golangci-lint eslint flake8 pylintrc ruff rubocop stylelint markdownlint tslint yamllint hadolint clippy
	swiftlint revive staticcheck jshint linter linters | lint linting
.pre-commit-config.yaml: pre-commit precommit | lint linting hooks
.gitlab-ci.yml .travis.yml jenkinsfile azure-pipelines.yml appveyor.yml .appveyor.yml .drone.yml cloudbuild.yaml
bitbucket-pipelines.yml .cirrus.yml: ci cicd travis jenkins jenkinsfile appveyor gitlab-ci | workflow workflows pipeline pipelines
dockerfile dockerfile.* *.dockerfile containerfile docker-compose.yml docker-compose.yaml compose.yml compose.yaml
.dockerignore: dockerfile containerfile docker-compose | docker container
.prettierrc* .clang-format rustfmt.toml .rustfmt.toml: prettier clang-format rustfmt | formatter formatting
codecov.yml .codecov.yml .coveragerc: codecov coveragerc | coverage
dependabot.yml renovate.json .renovaterc*: dependabot renovate | dependency dependencies updates
.goreleaser.yml .goreleaser.yaml: goreleaser | release releases packaging
go.mod package.json cargo.toml pom.xml build.gradle build.gradle.kts pyproject.toml gemfile composer.json:
	npm maven gradle | dependency dependencies manifest
makefile gnumakefile: makefile |
rakefile *.rake: rakefile rake |
tsconfig.json jsconfig.json: tsconfig jsconfig | compiler
.editorconfig: editorconfig | indentation whitespace
.codespellrc .cspell.json cspell.json: codespell cspell | spelling typos
codeowners: codeowners | owners reviewers
tox.ini noxfile.py: tox nox | environments sessions
jest.config.* vitest.config.* vitest.workspace.* karma.conf.* .mocharc* pytest.ini phpunit.xml* .rspec ava.config.*
playwright.config.* cypress.config.* .nycrc*: jest vitest karma mocha pytest phpunit rspec playwright cypress nyc |
	test tests testing runner runners
buf.yaml buf.gen.yaml buf.work.yaml: buf | generation generated codegen
*.wxs *.wxi *.nsi *.iss: wix msi nsis installer installers |
*.service *.socket *.timer: systemd | daemon
snapcraft.yaml pkgbuild *.flatpak.yml: snapcraft flatpak pkgbuild | packaging
cmakelists.txt *.cmake meson.build meson_options.txt build.bazel workspace.bazel .bazelrc sconstruct: cmake meson bazel scons |
webpack.config.* rollup.config.* vite.config.* babel.config.* .babelrc* tsup.config.* .swcrc esbuild.config.*:
	webpack rollup vite babel tsup swc esbuild | bundler bundlers bundling bundle transpile
setup.py setup.cfg manifest.in requirements.txt requirements-*.txt pipfile: setuptools pip | packaging dependencies
*.gemspec: gemspec rubygems | packaging dependencies
mypy.ini .mypy.ini pyrightconfig.json: mypy pyright | typing types
.nvmrc .node-version .npmrc .yarnrc* pnpm-workspace.yaml lerna.json turbo.json nx.json: nvm npmrc yarn pnpm lerna turborepo monorepo | workspace workspaces
rust-toolchain rust-toolchain.toml deny.toml: rustup cargo-deny | toolchain
chart.yaml helmfile.yaml skaffold.yaml kustomization.yaml: helm kustomize skaffold | kubernetes deployment
mkdocs.yml .readthedocs.yml .readthedocs.yaml docusaurus.config.* typedoc.json doxyfile: mkdocs readthedocs docusaurus typedoc doxygen |
.releaserc* release-please-config.json cliff.toml: semantic-release release-please | release releases changelog
netlify.toml vercel.json fly.toml procfile app.yaml: netlify vercel heroku procfile | deploy deployment hosting
.devcontainer.json devcontainer.json .gitpod.yml vagrantfile: devcontainer codespaces gitpod vagrant | environment
biome.json .isort.cfg .shellcheckrc: biome isort shellcheck | lint linting formatter imports`

// toolDirs are directories whose files are tool files, with their words.
var toolDirs = map[string]string{
	".github/workflows": "ci cicd actions | workflow workflows pipeline pipelines",
	".circleci":         "ci cicd circleci | workflow workflows pipeline pipelines",
	".buildkite":        "ci cicd buildkite | workflow workflows pipeline pipelines",
}

// toolPhrases are pairs of a request's words that say a strong word.
var toolPhrases = map[[2]string]string{
	{"continuous", "integration"}: "ci", {"github", "actions"}: "ci", {"github", "workflow"}: "ci",
	{"github", "workflows"}: "ci", {"pre", "commit"}: "precommit",
}

// configWords ask for configuration, which lets a tool file's weak words
// count.
var configWords = map[string]bool{
	"config": true, "configs": true, "configuration": true, "configurations": true, "configured": true,
	"settings": true, "setup": true, "rules": true, "options": true, "enabled": true,
}

// toolWords are a tool file's strong and weak words, lower-case.
type toolWords struct {
	strong, weak map[string]bool
}

type toolTable struct {
	exact    map[string]*toolWords // base name → words
	prefixes []toolPrefix
	suffixes []toolPrefix          // a name's end: "*.wxs"
	dirs     map[string]*toolWords // directory → words
}

type toolPrefix struct {
	prefix string
	words  *toolWords
}

var tools = sync.OnceValue(func() *toolTable {
	t := &toolTable{exact: map[string]*toolWords{}, dirs: map[string]*toolWords{}}
	parse := func(words string) *toolWords {
		strong, weak, _ := strings.Cut(words, "|")
		return &toolWords{wordSet(strong), wordSet(weak)}
	}
	var names []string
	for _, line := range strings.Split(toolFiles, "\n") {
		if strings.HasPrefix(line, "\t") { // the words of the entry above, continued
			continue
		}
		left, right, ok := strings.Cut(line, ":")
		names = append(names, strings.Fields(left)...)
		if !ok {
			continue
		}
		ws := parse(right + " " + continuation(toolFiles, line))
		for _, n := range names {
			if p, ok := strings.CutSuffix(n, "*"); ok {
				t.prefixes = append(t.prefixes, toolPrefix{p, ws})
			} else if s, ok := strings.CutPrefix(n, "*"); ok {
				t.suffixes = append(t.suffixes, toolPrefix{s, ws})
			} else {
				t.exact[n] = ws
			}
		}
		names = nil
	}
	for d, words := range toolDirs {
		t.dirs[d] = parse(words)
	}
	return t
})

// continuation returns the tab-indented lines that follow line in s.
func continuation(s, line string) string {
	_, after, _ := strings.Cut(s, line+"\n")
	var b strings.Builder
	for _, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "\t") {
			break
		}
		b.WriteString(l)
		b.WriteByte(' ')
	}
	return b.String()
}

// toolWordsOf returns the words of the tool file at rel, or nil if it is
// none.
func toolWordsOf(rel string) *toolWords {
	t := tools()
	base := strings.ToLower(baseName(rel))
	if ws, ok := t.exact[base]; ok {
		return ws
	}
	for _, p := range t.prefixes {
		if strings.HasPrefix(base, p.prefix) {
			return p.words
		}
	}
	for _, s := range t.suffixes {
		if strings.HasSuffix(base, s.prefix) {
			return s.words
		}
	}
	dir := strings.ToLower(rel[:max(0, len(rel)-len(base)-1)])
	for d, ws := range t.dirs {
		if dir == d || strings.HasSuffix(dir, "/"+d) {
			return ws
		}
	}
	return nil
}

// toolSubject returns the words of a short request that name what the
// tool file at rel is for ("lint" and "configuration" for .golangci.yml in
// "lint configuration"), or nil.
func (p *parsed) toolSubject(rel string) []string {
	if p.long {
		return nil
	}
	ws := toolWordsOf(rel)
	if ws == nil {
		return nil
	}
	asksConfig := p.asksConfig()
	var said []string
	// a role word is the job's word too: "test" in "test runner
	// configuration" names what jest.config.js is for
	words := append(p.lowerWords(), p.roleWords...)
	for i, w := range words {
		if ws.strong[w] || asksConfig && ws.weak[w] {
			said = append(said, w)
		}
		if i+1 < len(words) {
			if s, ok := toolPhrases[[2]string{w, words[i+1]}]; ok && ws.strong[s] {
				said = append(said, w, words[i+1])
			}
		}
	}
	return said
}
