package mcpserver

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema is the JSON schema of a tool's input type T, as the SDK
// would infer it, with each nullable type (["null", "array"], which the
// SDK gives slices and pointers) made the plain type: an argument one
// does not give is left out, never null, and a single type is what
// clients mapping schemas onto a one-type dialect (Gemini's function
// declarations) accept. A type with no schema is a programming error,
// reported by New.
func inputSchema[T any](errs *[]error) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("input schema of %T: %w", *new(T), err))
		return &jsonschema.Schema{Type: "object"}
	}
	singleTypes(s)
	return s
}

// singleTypes replaces ["null", T] by T in s and the schemas below it.
func singleTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		t := s.Types[0]
		if t == "null" {
			t = s.Types[1]
		}
		s.Type, s.Types = t, nil
	}
	for _, p := range s.Properties {
		singleTypes(p)
	}
	singleTypes(s.Items)
	singleTypes(s.AdditionalProperties)
}
