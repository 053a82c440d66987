package auth

import (
	"crypto/subtle"
	"net/http"

	"example.com/shop/internal/store"
)

// LoginHandler checks a user's password and sets the session cookie.
func LoginHandler(db *store.Store, s *SessionStore) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass := r.FormValue("user"), r.FormValue("password")
		want, ok := db.PasswordHash(user)
		// TODO: hash the password before comparing.
		if !ok || subtle.ConstantTimeCompare([]byte(want), []byte(pass)) != 1 {
			http.Error(w, "bad credentials", http.StatusUnauthorized)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "session", Value: s.Create(user), HttpOnly: true})
		w.WriteHeader(http.StatusNoContent)
	})
}
