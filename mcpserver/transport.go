package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Transport is MCP's stdio transport (newline-delimited JSON-RPC) made
// robust: a frame that is not a JSON-RPC message is answered with a
// JSON-RPC error and the session goes on, where the SDK's own transport
// ends it.
//
//   - Frames are lines. A line that is not JSON is a parse error (-32700);
//     JSON that is not one request object (a batch array, a missing
//     "jsonrpc": "2.0", an id that is an object, an array or null, a
//     method that is not a string) is an invalid request (-32600). The
//     reply carries the request's id when one can be read, else null.
//   - A line over MaxFrame bytes is skipped to its newline and answered
//     with -32600, with its id when it can be read from the line's start.
//   - Ids go back exactly as they came: an id the SDK would not keep
//     (123456789012345678901234567890, 1.5, 1e3) is replaced by a string
//     on the way in and restored in the response.
//   - An error reply without a JSON-RPC code (the SDK's plain errors: a
//     call before initialize, a second initialize) is given one.
type Transport struct {
	Reader   io.Reader
	Writer   io.Writer
	MaxFrame int // the largest line read, in bytes (<= 0: 16 MiB)
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxFrame
	if limit <= 0 {
		limit = 16 << 20
	}
	c := &conn{w: t.Writer, incoming: make(chan readResult), closed: make(chan struct{}), ids: map[string]json.RawMessage{}}
	go c.readLoop(bufio.NewReaderSize(t.Reader, 64<<10), limit)
	return c, nil
}

// readResult is a message read, or why reading stopped.
type readResult struct {
	msg jsonrpc.Message
	err error
}

// conn is one session's connection.
type conn struct {
	wmu sync.Mutex // one frame written at a time
	w   io.Writer

	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once

	idmu   sync.Mutex
	ids    map[string]json.RawMessage // a stand-in id -> the id as the client wrote it
	nextID int
}

// idPrefix starts the stand-in ids of conn.ids: a client could use the
// same string, but then its id and the stand-in are told apart by the
// table (an id of the client's own that starts so is replaced too).
const idPrefix = "taskctl-id:"

func (c *conn) SessionID() string { return "" }

// Read returns the next valid message.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Close ends the session. The reading goroutine ends at the next line
// (standard input cannot be interrupted portably).
func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// readLoop reads frames until the input ends, answering the bad ones and
// handing the good ones to Read.
func (c *conn) readLoop(r *bufio.Reader, limit int) {
	for {
		frame, over, err := readFrame(r, limit)
		if over {
			c.reply(frameID(frame), jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes: not read (the server's frame cap)", limit))
		} else if len(bytes.TrimSpace(frame)) > 0 {
			msg, id, code, why := c.decode(frame)
			if msg != nil {
				select {
				case c.incoming <- readResult{msg: msg}:
				case <-c.closed:
					return
				}
			} else {
				c.reply(id, code, why)
			}
		}
		if err != nil {
			select {
			case c.incoming <- readResult{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readFrame reads one line (without its newline). A line over limit bytes
// is read to its end and dropped: over is true and frame holds its first
// bytes, enough to find its id.
func readFrame(r *bufio.Reader, limit int) (frame []byte, over bool, err error) {
	const keep = 4 << 10
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !over {
			if len(buf)+len(chunk) > limit+1 {
				over = true
				buf = append(buf, chunk[:min(len(chunk), max(0, keep-len(buf)))]...)
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return buf, over, err
		}
		return bytes.TrimRight(buf, "\r\n"), over, nil
	}
}

// decode checks a frame and decodes the message in it; or says why it is
// not one: the id to answer (nil: null), the code and the reason.
func (c *conn) decode(frame []byte) (msg jsonrpc.Message, id json.RawMessage, code int64, why string) {
	if !json.Valid(frame) {
		return nil, nil, jsonrpc.CodeParseError, "parse error: the message is not JSON"
	}
	frame = bytes.TrimSpace(frame)
	if frame[0] == '[' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported; send one message a line"
	}
	var fields map[string]json.RawMessage
	if frame[0] != '{' || json.Unmarshal(frame, &fields) != nil {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object"
	}
	rawID, hasID := fields["id"]
	if hasID && !validID(rawID) {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: an id is a string or a number"
	}
	if hasID {
		id = rawID
	}
	if v := fields["jsonrpc"]; string(v) != `"2.0"` {
		return nil, id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	}
	if m, ok := fields["method"]; ok && (len(m) == 0 || m[0] != '"') {
		return nil, id, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a string`
	}
	if _, ok := fields["method"]; !ok {
		_, isResult := fields["result"]
		_, isError := fields["error"]
		if !hasID || (!isResult && !isError) {
			return nil, id, jsonrpc.CodeInvalidRequest, `invalid request: no "method"`
		}
	}
	if hasID && !keptID(rawID) {
		fields["id"] = c.standIn(rawID)
		frame, _ = json.Marshal(fields)
	}
	msg, err := jsonrpc.DecodeMessage(frame)
	if err != nil {
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return msg, nil, 0, ""
}

// validID: a JSON-RPC id is a string or a number (null is refused: MCP
// forbids it, and a reply could not be told from one to an unreadable id).
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case '"':
		return true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// keptID says whether the SDK keeps raw as it is: a string that is not
// one of our stand-ins, or an integer written as Go writes it that a
// float64 holds exactly (the SDK decodes numbers as float64).
func keptID(raw json.RawMessage) bool {
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil && !strings.HasPrefix(s, idPrefix)
	}
	const exact = 1 << 53
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && strconv.FormatInt(n, 10) == string(raw) && n <= exact && n >= -exact
}

// standIn returns a new string id standing for raw.
func (c *conn) standIn(raw json.RawMessage) json.RawMessage {
	c.idmu.Lock()
	defer c.idmu.Unlock()
	c.nextID++
	s := idPrefix + strconv.Itoa(c.nextID)
	c.ids[s] = append(json.RawMessage(nil), raw...)
	b, _ := json.Marshal(s)
	return b
}

// frameID reads the id from the start of a frame too large to read whole
// (nil when it does not come before the large part).
func frameID(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" && validID(v) {
			return v
		}
	}
	return nil
}

// reply writes a JSON-RPC error response to the id (nil: null).
func (c *conn) reply(id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	c.writeFrame(b) // a client gone is seen by the next read
}

// Write sends a message, with the client's own id restored and a
// JSON-RPC code on an error that has none.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error != nil {
		var we *jsonrpc.Error
		if !errors.As(resp.Error, &we) || we.Code == 0 {
			resp.Error = &jsonrpc.Error{Code: codeOf(resp.Error), Message: resp.Error.Error()}
		}
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if s, ok := resp.ID.Raw().(string); ok && strings.HasPrefix(s, idPrefix) {
			b, err = c.restoreID(b, s)
			if err != nil {
				return err
			}
		}
	}
	return c.writeFrame(b)
}

// restoreID puts back the client's id for the stand-in s in the encoded
// response b.
func (c *conn) restoreID(b []byte, s string) ([]byte, error) {
	c.idmu.Lock()
	raw, ok := c.ids[s]
	delete(c.ids, s)
	c.idmu.Unlock()
	if !ok {
		return b, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	fields["id"] = raw
	return json.Marshal(fields)
}

// codeOf gives a JSON-RPC code to an error the SDK sent without one.
func codeOf(err error) int64 {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "invalid during session initialization"),
		strings.Contains(msg, `duplicate "initialize"`),
		strings.Contains(msg, `duplicate "notifications/initialized"`):
		return jsonrpc.CodeInvalidRequest
	case strings.Contains(msg, "unmarshaling"), strings.Contains(msg, "missing required"):
		return jsonrpc.CodeInvalidParams
	}
	return jsonrpc.CodeInternalError
}

func (c *conn) writeFrame(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(b, '\n'))
	return err
}
