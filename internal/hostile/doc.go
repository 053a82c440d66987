// Package hostile builds, for tests, the repositories an attacker hands
// out: a real git clone whose committed tree holds symbolic links where
// taskctl keeps its state, and it snapshots the directories outside the
// clone, so that a test can show that nothing there changed.
//
// It is used by tests only and imports none of taskctl's packages.
package hostile
