package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// value is the text r gives to a binding.
func (s *StepResult) value(r ref) (string, error) {
	switch r.field {
	case "output":
		return strings.TrimRight(s.Output, "\r\n"), nil
	case "files":
		return strings.Join(s.Files, "\n"), nil
	}
	raw := s.Parsed
	if r.field == "notes" {
		raw = s.Notes
	}
	if raw == nil {
		if s.Parsed == nil {
			return "", fmt.Errorf("%s: step %s printed no JSON (declare <output_format type=\"json\"/>)", r, s.label())
		}
		return "", fmt.Errorf("%s: the JSON step %s printed has no \"notes\" key", r, s.label())
	}
	v, err := decode(raw)
	if err != nil {
		return "", fmt.Errorf("%s: %v", r, err)
	}
	walked := r.step + "." + r.field
	for _, seg := range r.path {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[seg]
			if !ok {
				return "", fmt.Errorf("%s: %s has no key %q", r, walked, seg)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return "", fmt.Errorf("%s: %s is an array of %d; %q is not an index", r, walked, len(x), seg)
			}
			v = x[i]
		default:
			return "", fmt.Errorf("%s: %s is %s, not an object or array", r, walked, kind(v))
		}
		walked += "." + seg
	}
	return text(v), nil
}

func decode(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// text renders a JSON value for a prompt or a binding: a string as it is,
// numbers and booleans as written, null as "", an array of scalars one
// element per line, anything else as indented JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case []any:
		lines := make([]string, 0, len(x))
		for _, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				return indent(v)
			}
			lines = append(lines, text(e))
		}
		return strings.Join(lines, "\n")
	}
	return indent(v)
}

// indent renders v as indented JSON for a prompt or a binding, with <, >
// and & as they are: json.Marshal's HTML escaping would hand the model
// "a \u003c b" for "a < b".
func indent(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// parseOutput finds the JSON in an executor's output: the whole output, or
// else the last fenced code block (```json ... ```) that holds valid JSON.
func parseOutput(out string) (json.RawMessage, error) {
	s := strings.TrimSpace(out)
	if s == "" {
		return nil, errors.New("the output is empty")
	}
	if json.Valid([]byte(s)) {
		return compact(s), nil
	}
	if block, ok := lastFence(s); ok && json.Valid([]byte(block)) {
		return compact(block), nil
	}
	var v any
	err := json.Unmarshal([]byte(s), &v)
	return nil, fmt.Errorf("the output is not JSON: %v", err)
}

func compact(s string) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return json.RawMessage(s)
	}
	return b.Bytes()
}

// lastFence returns the content of the last ``` fenced block.
func lastFence(s string) (string, bool) {
	end := strings.LastIndex(s, "```")
	if end < 0 {
		return "", false
	}
	start := strings.LastIndex(s[:end], "```")
	if start < 0 {
		return "", false
	}
	body := s[start+3 : end]
	// Drop the info string (```json) up to the end of the fence line.
	if nl := strings.IndexByte(body, '\n'); nl >= 0 {
		body = body[nl+1:]
	} else {
		return "", false
	}
	return strings.TrimSpace(body), true
}

// checkSchema checks the JSON's top-level type against output_format's
// schema, a basic type name: object, array (also "[]" and "string[]"),
// string, number or boolean. Other schema values are not checked.
func checkSchema(raw json.RawMessage, schema string) error {
	v, err := decode(raw)
	if err != nil {
		return err
	}
	ok := true
	switch schema {
	case "object":
		_, ok = v.(map[string]any)
	case "array", "[]":
		_, ok = v.([]any)
	case "string[]":
		arr, isArr := v.([]any)
		ok = isArr
		for _, e := range arr {
			if _, s := e.(string); !s {
				ok = false
			}
		}
	case "string":
		_, ok = v.(string)
	case "number":
		_, ok = v.(json.Number)
	case "boolean":
		_, ok = v.(bool)
	}
	if !ok {
		return fmt.Errorf("output_format schema %q: the output is %s", schema, kind(v))
	}
	return nil
}

// notesOf returns the "notes" key of a JSON object, or nil.
func notesOf(raw json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	n, ok := obj["notes"]
	if !ok {
		return nil
	}
	return n
}
