package mcpserver_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// recvRaw reads one response line and splits its members, to compare an
// id as written.
func (s *rawSession) recvRaw() map[string]json.RawMessage {
	s.t.Helper()
	ch := make(chan []byte, 1)
	go func() {
		b, _ := s.out.ReadBytes('\n')
		ch <- b
	}()
	select {
	case b := <-ch:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			s.t.Fatalf("response %q: %v (stderr: %s)", b, err, s.stderr)
		}
		return m
	case <-time.After(30 * time.Second):
		s.t.Fatalf("no response: the server hangs (stderr: %s)", s.stderr)
	}
	return nil
}

// errorCode is the code of a response's error, or 0 when it has none.
func errorCode(t *testing.T, m map[string]json.RawMessage) int {
	t.Helper()
	var e struct{ Code int }
	if m["error"] == nil {
		return 0
	}
	if err := json.Unmarshal(m["error"], &e); err != nil {
		t.Fatal(err)
	}
	return e.Code
}

// TestProtocolErrors drives the built binary over a pipe with each
// malformed form a client can send: every one gets a JSON-RPC error reply
// (id null where none can be read), the session goes on, and a valid call
// at the end gets its result.
func TestProtocolErrors(t *testing.T) {
	f := newFixture(t)
	s := startRaw(t, f)
	for _, c := range []struct {
		name, line string
		code       int
		id         string
	}{
		{"not JSON", `hello`, -32700, "null"},
		{"cut JSON", `{"jsonrpc":"2.0","id":1,`, -32700, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, "null"},
		{"an empty batch", `[]`, -32600, "null"},
		{"no jsonrpc", `{"id":4,"method":"ping"}`, -32600, "4"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"v","method":"ping"}`, -32600, `"v"`},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"an array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{"a number method", `{"jsonrpc":"2.0","id":5,"method":5}`, -32600, "5"},
		{"no method", `{"jsonrpc":"2.0","id":6}`, -32600, "6"},
		{"a string", `"ping"`, -32600, "null"},
		{"a NUL byte", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"\x00}", -32700, "null"},
		{"a NUL byte in a string", "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"pi\x00ng\"}", -32700, "null"},
		{"a second initialize", `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, -32600, "9"},
		{"a prompt without its argument", `{"jsonrpc":"2.0","id":10,"method":"prompts/get","params":{"name":"review"}}`, -32602, "10"},
		{"an unknown method", `{"jsonrpc":"2.0","id":11,"method":"no/such"}`, -32601, "11"},
	} {
		s.send(c.line)
		m := s.recvRaw()
		if got := errorCode(t, m); got != c.code || string(m["id"]) != c.id {
			t.Errorf("%s: id %s, error %s; want id %s, code %d", c.name, m["id"], m["error"], c.id, c.code)
		}
	}

	// A frame over the cap (the server's is 21 MiB: twice the file cap
	// and one) is skipped to its newline; its id is read from its start.
	big := strings.Repeat("x", 30<<20)
	go io.WriteString(s.in, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"write_file","arguments":{"path":".taskctl/workspace/big.txt","content":"`+big+`"}}}`+"\n")
	if m := s.recvRaw(); errorCode(t, m) != -32600 || string(m["id"]) != "12" {
		t.Errorf("a 30 MiB frame: %s %s", m["id"], m["error"])
	}

	// Ids come back as they were written.
	for _, id := range []string{"123456789012345678901234567890", "1.5", "-0", "1e3", `"taskctl-id:1"`, `"é"`, "9223372036854775807", "-7"} {
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if m := s.recvRaw(); string(m["id"]) != id || m["result"] == nil {
			t.Errorf("ping with id %s: id %s, result %s, error %s", id, m["id"], m["result"], m["error"])
		}
	}
	s.send(`{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"file_info","arguments":{"path":"src/main.go"}}}`)
	if m := s.recvRaw(); string(m["id"]) != "1.5" || m["result"] == nil {
		t.Errorf("a call with id 1.5: %s", m)
	}

	// An argument of the wrong type is a tool error with a code, in the
	// tool's words, not the command line's.
	for _, args := range []string{`{"query":"x","limit":null}`, `{"query":"x","limit":"ten"}`, `{"query":"x","limit":-1}`} {
		s.send(`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"search","arguments":` + args + `}}`)
		resp := s.recv()
		res, _ := resp["result"].(map[string]any)
		txt := ""
		if content, _ := res["content"].([]any); len(content) > 0 {
			txt, _ = content[0].(map[string]any)["text"].(string)
		}
		if res["isError"] != true || !strings.HasPrefix(txt, "ARG_INVALID: ") || strings.Contains(txt, "reflect") || strings.Contains(txt, "--") {
			t.Errorf("search %s: %v", args, resp)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"delete_file","arguments":{"path":".taskctl/workspace/x"}}}`)
	if resp := s.recv(); strings.Contains(resp["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string), "--yes") {
		t.Errorf("delete_file without confirm speaks of the command line: %v", resp)
	}

	s.send(`{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"file_info","arguments":{"path":"src/main.go"}}}`)
	if resp := s.recv(); resp["id"] != float64(99) || resp["result"].(map[string]any)["isError"] == true {
		t.Errorf("the valid call at the end: %v", resp)
	}
	s.in.Close()
	s.exits()
}

// TestBeforeInitialize: a call before initialize is an invalid request
// (-32600), not a session's end; initialize then works.
func TestBeforeInitialize(t *testing.T) {
	f := newFixture(t)
	s := startRawUninitialized(t, f)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if m := s.recvRaw(); errorCode(t, m) != -32600 || string(m["id"]) != "1" {
		t.Errorf("tools/list before initialize: %s %s", m["id"], m["error"])
	}
	s.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := s.recvRaw(); m["result"] == nil {
		t.Errorf("initialize after the refused call: %s", m["error"])
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if m := s.recvRaw(); m["result"] == nil {
		t.Errorf("tools/list: %s", m["error"])
	}
	s.in.Close()
	s.exits()
}
