//lint:file-ignore SA1019 MCP roots are deprecated from protocol 2026-07-28 (SEP-2577) and honoured for clients on earlier ones.

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// MCP roots: a client may declare the directories it wants the server to
// work in (roots/list). The server never goes beyond its own directories
// (the project, the allowed roots, the workspace, the write roots); with
// roots declared, a file tool is also refused a path outside every root,
// so what applies is the intersection, which list_allowed_directories
// reports. A client that declares no roots capability, or lists none (the
// Go SDK's client declares the capability with an empty list), narrows
// nothing. Roots are asked for once a session and again after
// notifications/roots/list_changed; a client that fails to answer narrows
// nothing either: roots are the client's wish, the server's own
// confinement is the boundary. Protocol 2026-07-28 deprecates roots
// (SEP-2577) and the SDK sends no roots/list on it: a client that
// negotiates it is not narrowed.

// options are the SDK server's options: the instructions, and the roots
// forgotten when the client says they changed.
func (s *Server) options() *mcp.ServerOptions {
	return &mcp.ServerOptions{Instructions: instructions, RootsListChangedHandler: s.roots.forget}
}

// rootsGone is the protocol version from which roots/list is not sent.
const rootsGone = "2026-07-28"

// rootsCache holds each session's roots (real paths), nil for none.
type rootsCache struct {
	mu    sync.Mutex
	roots map[*mcp.ServerSession][]string
}

// forget drops what a session's roots were: they changed.
func (c *rootsCache) forget(_ context.Context, req *mcp.RootsListChangedRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.roots, req.Session)
}

// get returns the roots of ss, asking the client when not known.
func (c *rootsCache) get(ctx context.Context, ss *mcp.ServerSession) []string {
	if ss == nil {
		return nil
	}
	c.mu.Lock()
	r, ok := c.roots[ss]
	c.mu.Unlock()
	if ok {
		return r
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.RootsV2 == nil || ip.ProtocolVersion >= rootsGone {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return nil
	}
	for _, root := range res.Roots {
		u, err := url.Parse(root.URI)
		if err != nil || u.Scheme != "file" || !filepath.IsAbs(u.Path) {
			continue // not a local directory: it names nothing here
		}
		r = append(r, realPath(filepath.Clean(u.Path)))
	}
	c.mu.Lock()
	if c.roots == nil {
		c.roots = map[*mcp.ServerSession][]string{}
	}
	c.roots[ss] = r
	c.mu.Unlock()
	return r
}

// realPath is p with its symbolic links resolved, as far as it exists.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == p || dir == "" {
		return p
	}
	return filepath.Join(realPath(filepath.Clean(dir)), base)
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// inRoots says whether p (real) lies in one of roots.
func inRoots(p string, roots []string) bool {
	for _, r := range roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// pathArgs are the arguments of the file tools that name a path.
var pathArgs = map[string]bool{"path": true, "source": true, "destination": true}

// fileTools are the tools whose paths the client's roots narrow; a path
// left out ("": grep, directory_tree, list_directory) is the project dir.
var fileTools = map[string]bool{"read_file": true, "read_multiple_files": true, "read_media_file": true,
	"grep": true, "directory_tree": true, "list_directory": true, "file_info": true, "write_file": true,
	"create_directory": true, "copy_file": true, "move_file": true, "delete_file": true, "edit_file": true,
	"list_backups": true, "restore_backup": true}

// rootsGuard refuses a file tool's call naming a path outside the
// client's roots (PATH_OUTSIDE_PROJECT, saying so).
func (s *Server) rootsGuard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		cr, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || cr.Params == nil || !fileTools[cr.Params.Name] {
			return next(ctx, method, req)
		}
		roots := s.roots.get(ctx, cr.Session)
		if len(roots) == 0 {
			return next(ctx, method, req)
		}
		for _, p := range s.namedPaths(cr.Params.Arguments) {
			abs := p
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(s.projDir, p)
			}
			if real := realPath(filepath.Clean(abs)); !inRoots(real, roots) {
				msg := fmt.Sprintf("%s: %s: outside the client's roots (%s)", diag.PathOutsideProject, abs, strings.Join(roots, ", "))
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
			}
		}
		return next(ctx, method, req)
	}
}

// namedPaths are the paths a file tool's arguments name ("" for none:
// the project dir); arguments that do not decode are left to the tool.
func (s *Server) namedPaths(raw json.RawMessage) []string {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return nil
	}
	var out []string
	if _, ok := args["path"]; !ok {
		if _, many := args["paths"]; !many {
			if _, src := args["source"]; !src {
				out = append(out, "")
			}
		}
	}
	for k, v := range args {
		var one string
		var many []string
		switch {
		case pathArgs[k] && json.Unmarshal(v, &one) == nil:
			out = append(out, one)
		case k == "paths" && json.Unmarshal(v, &many) == nil:
			out = append(out, many...)
		}
	}
	return out
}

// intersect is what of dirs the roots leave: each dir inside a root, and
// each root inside a dir.
func intersect(dirs, roots []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, d := range dirs {
		d = realPath(d)
		for _, r := range roots {
			switch {
			case within(d, r):
				add(d)
			case within(r, d):
				add(r)
			}
		}
	}
	return out
}

// narrowAllowed adds the client's roots and the intersection to res.
func (s *Server) narrowAllowed(ctx context.Context, ss *mcp.ServerSession, res *engine.AllowedDirs) {
	roots := s.roots.get(ctx, ss)
	if len(roots) == 0 {
		return
	}
	dirs := append([]string{res.Project, res.Workspace}, res.ReadRoots...)
	dirs = append(dirs, res.WriteRoots...)
	res.ClientRoots = roots
	res.Applies = intersect(dirs, roots)
	if res.Applies == nil {
		res.Applies = []string{}
	}
}
