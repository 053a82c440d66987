// Package store is the shop's in-memory product and user database.
package store

// Store holds products and users.
type Store struct {
	prices    map[string]int
	passwords map[string]string
}

// New returns a store with demo data.
func New() *Store {
	return &Store{
		prices:    map[string]int{"tea": 450, "mug": 1200},
		passwords: map[string]string{},
	}
}

// Price returns a product's price in cents, or 0 if unknown.
func (s *Store) Price(sku string) int { return s.prices[sku] }

// PasswordHash returns the stored password hash of user.
func (s *Store) PasswordHash(user string) (string, bool) {
	h, ok := s.passwords[user]
	return h, ok
}
