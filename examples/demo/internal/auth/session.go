// Package auth handles login and session authentication.
package auth

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
	"time"
)

// SessionStore keeps the sessions of logged-in users.
type SessionStore struct {
	mu       sync.Mutex
	sessions map[string]session
}

type session struct {
	user    string
	expires time.Time
}

// NewSessionStore returns an empty store.
func NewSessionStore() *SessionStore {
	return &SessionStore{sessions: map[string]session{}}
}

// Create starts a session for user and returns its token.
func (s *SessionStore) Create(user string) string {
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[token] = session{user: user, expires: time.Now().Add(12 * time.Hour)}
	return token
}

// User returns the user of a valid session token.
func (s *SessionStore) User(token string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[token]
	if !ok || time.Now().After(sess.expires) {
		return "", false
	}
	return sess.user, true
}

// RequireSession rejects requests without a valid session cookie.
func RequireSession(s *SessionStore, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("session")
		if err != nil {
			http.Error(w, "login required", http.StatusUnauthorized)
			return
		}
		if _, ok := s.User(c.Value); !ok {
			http.Error(w, "session expired", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
