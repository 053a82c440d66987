package auth

import "testing"

func TestSessionRoundTrip(t *testing.T) {
	s := NewSessionStore()
	tok := s.Create("ada")
	if u, ok := s.User(tok); !ok || u != "ada" {
		t.Fatalf("User(%q) = %q, %v", tok, u, ok)
	}
}
