// Package projtest holds the test helpers that build trees of files for
// the tests of the packages that read them (root, walk, project): a tree
// written from a tiny notation, a temporary directory by its real path,
// and the secret the hostile fixtures plant outside a project. It is
// imported by tests only and imports none of taskctl's packages, so any
// package's tests, internal ones included, may use it.
package projtest
