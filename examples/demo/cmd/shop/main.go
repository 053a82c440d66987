// Command shop serves the web shop.
package main

import (
	"log"
	"net/http"
	"os"

	"example.com/shop/internal/auth"
	"example.com/shop/internal/cart"
	"example.com/shop/internal/store"
)

func main() {
	addr := os.Getenv("SHOP_ADDR")
	if addr == "" {
		addr = ":8080"
	}
	db := store.New()
	sessions := auth.NewSessionStore()
	mux := http.NewServeMux()
	mux.Handle("/login", auth.LoginHandler(db, sessions))
	mux.Handle("/cart", auth.RequireSession(sessions, cart.Handler(db)))
	log.Printf("listening on %s", addr)
	log.Fatal(http.ListenAndServe(addr, mux))
}
