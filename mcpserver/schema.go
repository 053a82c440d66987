package mcpserver

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// outputSchema is the JSON schema of a tool's output type T, as the SDK
// would infer it, with each nullable type (["null", T], which the SDK
// gives slices, maps and pointers: a nil one is sent as null) written as
// anyOf [{"type": "null"}, {"type": T, ...}]: the same contract, in the
// spelling that clients mapping schemas onto a one-type dialect accept
// (the Inspector's --strict check).
func outputSchema[T any](errs *[]error) *jsonschema.Schema {
	t := reflect.TypeFor[T]()
	if t.Kind() == reflect.Pointer {
		t = t.Elem() // a result is an object; a nil one is sent as {}
	}
	s, err := jsonschema.ForType(t, nil)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("output schema of %v: %w", t, err))
		return nil
	}
	nullableAnyOf(s)
	return s
}

// addTool adds a tool with the input and output schemas of its types (see
// inputSchema, outputSchema; an output of type any has none: its shape
// varies).
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	t.InputSchema = inputSchema[In](&s.errs)
	if reflect.TypeFor[Out]() != reflect.TypeFor[any]() {
		t.OutputSchema = outputSchema[Out](&s.errs)
	}
	mcp.AddTool(s.srv, t, h)
}

// nullableAnyOf rewrites ["null", T] as anyOf in s and the schemas below
// it.
func nullableAnyOf(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for _, p := range s.Properties {
		nullableAnyOf(p)
	}
	nullableAnyOf(s.Items)
	nullableAnyOf(s.AdditionalProperties)
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		t := s.Types[0]
		if t == "null" {
			t = s.Types[1]
		}
		branch := *s
		branch.Types, branch.Type, branch.Description = nil, t, ""
		*s = jsonschema.Schema{Description: s.Description, AnyOf: []*jsonschema.Schema{{Type: "null"}, &branch}}
	}
}
