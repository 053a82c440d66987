//go:build !linux

package main

// testRole: no test of this system needs this binary in another role.
func testRole(string) (func() int, bool) { return nil, false }
