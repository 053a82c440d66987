package memory

import "path"

// Lock files — the exact versions and checksums a package manager resolved
// — are indexed by their path and file name only, not by their content: it
// is generated, long, and made of package names, versions and hashes that
// would only crowd out of the results the files a description is about
// (the manifest a person edits, package.json or go.mod, is indexed as any
// file). Context packers leave lock files out altogether by default; here a
// search for "pnpm lock" still finds one. Not analysing them also spares
// a cold build their bulk, a large share of some repositories' text.
var lockNames = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true,
	"pnpm-lock.yaml": true, "bun.lock": true, "deno.lock": true,
	"Cargo.lock": true, "go.sum": true, "go.work.sum": true,
	"Gemfile.lock": true, "composer.lock": true, "Pipfile.lock": true,
	"poetry.lock": true, "uv.lock": true, "pdm.lock": true, "pylock.toml": true,
	"Podfile.lock": true, "pubspec.lock": true, "packages.lock.json": true,
	"gradle.lockfile": true, "flake.lock": true, "mix.lock": true,
	"Package.resolved": true, "conan.lock": true, "vcpkg-lock.json": true,
}

// isLockFile reports whether rel names a lock file.
func isLockFile(rel string) bool { return lockNames[path.Base(rel)] }

// noText is the text of a file indexed by its path and name only.
var noText = []byte{}
