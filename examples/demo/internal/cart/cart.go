// Package cart holds a user's shopping cart and its HTTP handler.
package cart

import (
	"encoding/json"
	"net/http"

	"example.com/shop/internal/store"
)

// Item is one line of a cart.
type Item struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Total sums the prices of the items in cents.
func Total(db *store.Store, items []Item) int {
	total := 0
	for _, it := range items {
		total += db.Price(it.SKU) * it.Quantity
	}
	return total
}

// Handler returns the cart total for the posted items.
func Handler(db *store.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var items []Item
		if err := json.NewDecoder(r.Body).Decode(&items); err != nil {
			http.Error(w, "bad cart", http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(map[string]int{"total_cents": Total(db, items)})
	})
}
