package project

import (
	"path"
	"strings"
)

// lockFiles are the lock files of package managers, by exact name: written
// by a tool, read by none of the people or models a context is for, and
// often the largest text file of a repository (flask's uv.lock is a third
// of its tokens). The list is repomix's default ignore list's lock files.
var lockFiles = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"bun.lock": true, "bun.lockb": true, "deno.lock": true,
	"uv.lock": true, "poetry.lock": true, "Pipfile.lock": true, "pdm.lock": true, "pixi.lock": true,
	"Cargo.lock": true, "go.sum": true, "go.work.sum": true, "Gemfile.lock": true, "composer.lock": true,
	"mix.lock": true, "pubspec.lock": true, "Podfile.lock": true, "Package.resolved": true,
	"packages.lock.json": true, "paket.lock": true, "flake.lock": true, "gradle.lockfile": true,
	"conan.lock": true, "cabal.project.freeze": true, "stack.yaml.lock": true, "shard.lock": true,
	"MODULE.bazel.lock": true,
}

// generatedSuffixes are the endings of generated files by name: minified
// bundles and stylesheets and source maps.
var generatedSuffixes = []string{".min.js", ".min.mjs", ".min.cjs", ".min.css", ".js.map", ".css.map", ".mjs.map", ".cjs.map"}

// Generated reports whether the file of slash-separated path rel is one
// that a tool writes and nobody reads: a lock file, a minified bundle or
// a source map. A glob, a command or a description that selects one
// leaves it out (PATH_GENERATED); named literally, it is packed.
func Generated(rel string) bool {
	name := path.Base(rel)
	if lockFiles[name] {
		return true
	}
	for _, s := range generatedSuffixes {
		if len(name) > len(s) && strings.EqualFold(name[len(name)-len(s):], s) {
			return true
		}
	}
	return false
}
