package memory

import (
	"slices"
	"strings"
	"testing"
)

// TestMoreDefinitions checks the definitions the shapes of moreDefLangs
// find in each language: nested and qualified names, and comments,
// strings and local variables that look like definitions and are none.
func TestMoreDefinitions(t *testing.T) {
	for _, tt := range moreDefSamples {
		var got []string
		if lang := defLangOf(tt.rel); lang != nil {
			definitions(lang, []byte(tt.text), func(qual, name string) {
				got = append(got, qualified(qual, name))
			})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("definitions(%s) =\n%q\nwant\n%q", tt.rel, got, tt.want)
		}
	}
}

// moreDefSamples are a source file in each language of moreDefLangs and
// the definitions it holds; goldenTree indexes them too.
var moreDefSamples = []struct {
	rel, text string
	want      []string // "name" or "Scope.name"
}{
	{"app/src/main/kotlin/Cache.kt", `package app

// class NotAClass in a comment
@Suppress("unused")
enum class Policy { READ, WRITE }

data class Entry(val key: String)

const val MAX_ENTRIES = 64

internal class DiskCache(private val dir: File) : Cache {
    private val lock = Any()

    override fun get(key: String): Entry? {
        val path = dir.resolve(key)
        return read(path)
    }

    @Composable fun Preview() {}

    companion object Factory {
        fun create(): DiskCache = DiskCache(File("x"))
    }
}

fun <T> List<T>.second(): T = this[1]

typealias Loader = (String) -> Entry
`, []string{"Policy", "Entry", "MAX_ENTRIES", "DiskCache", "DiskCache.lock", "DiskCache.get", "DiskCache.Preview",
		"DiskCache.Factory", "DiskCache.Factory.create", "List.second", "Loader"}},
	{"src/main/scala/Router.scala", `package web

sealed trait Route
final case class Static(path: String) extends Route
case object NotFound extends Route

object Router {
  private[web] val table = Map.empty[String, Route]
  @tailrec def resolve(path: String): Route = {
    val parts = path.split("/")
    NotFound
  }
  type Handler = Route => Unit
}
`, []string{"Route", "Static", "NotFound", "Router", "Router.table", "Router.resolve", "Router.Handler"}},
	{"src/Core/Sink.cs", `using System;

namespace Logging.Core
{
    public delegate void Emitted<T>(T evt);

    [Serializable]
    public sealed class BatchSink : ISink
    {
        public event EventHandler Flushed;

        public BatchSink(int size) { }

        public void Emit(LogEvent evt)
        {
            if (evt == null) throw new ArgumentNullException(nameof(evt));
            Queue(evt);
        }

        public T Pick<T>(int i) where T : class { return default; }

        public int Count() => _count;
    }

    public record struct Position(int Line, int Column);
}
`, []string{"Emitted", "BatchSink", "BatchSink.Flushed", "BatchSink.BatchSink", "BatchSink.Emit", "BatchSink.Pick",
		"BatchSink.Count", "Position"}},
	{"lib/src/client.dart", `import 'dart:async';

/// A client, as in:
/// class Example {}
typedef ProgressCallback = void Function(int count, int total);

abstract class HttpClient {
  Future<Response<T>> fetch<T>(String path, {Options? options});
  final void Function(int sent)? onProgress;

  Future<void> close({bool force = false}) async {
    await _adapter.close();
  }

  int get retries => 3;
  String describe() => 'client';
}

mixin class Retrying {
  @override
  void retry() {
    final s = '''
void notADefinition() {
''';
  }
}

extension StatusText on int {
  bool isOk() => this == 200;
}

enum Method { get, post }

Future<void> main(List<String> args) async {
  print(args);
}
`, []string{"ProgressCallback", "HttpClient", "HttpClient.fetch", "HttpClient.close", "HttpClient.retries", "HttpClient.describe", "Retrying",
		"Retrying.retry", "StatusText", "StatusText.isOk", "Method", "main"}},
	{"Sources/Net/Channel.swift", `import Foundation

/// A channel.
/// ` + "```" + `
/// func example() {}
/// ` + "```" + `
public protocol ChannelHandler: AnyObject {
    func channelRead(context: Context, data: Data)
}

public final class Pipeline {
    private var handlers: [ChannelHandler] = []

    @discardableResult
    public func add(_ handler: ChannelHandler) -> Pipeline {
        let count = handlers.count
        return self
    }

    @inlinable public class func empty() -> Pipeline { Pipeline() }

    struct Position {
        let index: Int
    }
}

extension Pipeline: CustomStringConvertible {
    public var description: String {
        """
        func notAFunction()
        """
    }
}

typealias Handlers = [ChannelHandler]
`, []string{"ChannelHandler", "ChannelHandler.channelRead", "Pipeline", "Pipeline.handlers", "Pipeline.add",
		"Pipeline.empty", "Pipeline.Position", "Pipeline.Position.index", "Pipeline.description", "Handlers"}},
	{"src/tools/fetch.lua", `local fetch = {}

local util = require("tools.util")

--[[
function fetch.not_a_function()
end
]]

-- function commented_out()
local function checksum(path)
   local function inner() end
   return util.md5(path)
end

function fetch.url(url, filename)
   local s = "function fake()"
   return checksum(filename)
end

function fetch.cache:lookup(key)
end

fetch.fallback = function(url)
end

return fetch
`, []string{"checksum", "inner", "fetch.url", "cache.lookup", "fetch.fallback"}},
	{"src/types.tl", `local record Rockspec
   name: string
end

local enum Arch
   "all"
   "src"
end

local function parse(s: string): Rockspec
end

global function show(r: Rockspec): string
end
`, []string{"Rockspec", "Arch", "parse", "show"}},
	{"src/Api/Query.hs", `{-# LANGUAGE OverloadedStrings #-}
module Api.Query (readQuery, Filter(..)) where

import Data.Text (Text)

{-
readFake :: Int
-}

-- | A filter.
-- notAFunction :: Text
data Filter = Filter
  { fieldName :: Text
  , operator  :: Text
  } deriving (Eq, Show)

newtype Limit = Limit Int

type family Elem c

class (Eq a) => Renderable a where
  render :: a -> Text
  renderAll, renderNone :: [a] -> Text

-- | Reads a query.
readQuery :: Text -> Either Text Filter
readQuery t
  | t == "" = Left "empty"
  | otherwise = Right (Filter t "eq")
  where
    helper :: Int
    helper = 1

foldl' :: (b -> a -> b) -> b -> [a] -> b
foldl' = undefined
`, []string{"Filter", "Limit", "Elem", "Renderable", "Renderable.render", "Renderable.renderAll", "readQuery", "foldl"}},
	{"lib/app/endpoint.ex", `defmodule App.Web.Endpoint do
  @moduledoc """
  Use it as:

      defmodule MyApp.Endpoint do
        def init(opts), do: opts
      end
  """

  # def commented(x)
  def call(%{halted: true} = conn, _opts), do: conn
  def call(conn, opts) do
    dispatch(conn, opts)
  end

  defp dispatch(conn, _opts), do: conn

  defmacro __using__(opts) do
    quote do
      def injected, do: :ok
    end
  end

  defmodule Config do
    def valid?(config), do: true
  end
end
`, []string{"Endpoint", "Endpoint.call", "Endpoint.dispatch", "Endpoint.__using__", "Endpoint.injected",
		"Endpoint.Config", "Endpoint.Config.valid"}},
	{"src/pool.erl", `-module(pool).
-export([start/1, checkout/2]).
-record(state, {workers = [] :: list()}).
-type worker() :: pid().
-define(TIMEOUT, 5000).

%% checkout(Fake) -> commented.
-spec start(integer()) -> {ok, pid()}.
start(Size) ->
    gen_server:start(?MODULE, Size, []).

checkout(Pool, Timeout) when Timeout > 0 ->
    gen_server:call(Pool, checkout, Timeout);
checkout(Pool, _) ->
    checkout(Pool, ?TIMEOUT).
`, []string{"state", "worker", "TIMEOUT", "start", "checkout"}},
	{"src/Solver.jl", `module Solver

"""
    function not_a_function(x)
"""
abstract type AbstractSolver end

mutable struct Newton <: AbstractSolver
    tol::Float64
end

const DEFAULT_TOL = 1e-8

function solve(s::Newton, f)
    g(x) = f(x) * 2
    return g
end

function Base.show(io::IO, s::Newton)
end

residual(s, x) = abs(x) > s.tol
Base.length(s::Newton) = 1
is_small(x) == 0

macro checked(ex)
end

end
`, []string{"Solver", "AbstractSolver", "Newton", "DEFAULT_TOL", "solve", "Base.show", "residual", "Base.length",
		"checked"}},
	{"lib/parser.ml", `(* let not_a_value = 1 *)
type token = Ident of string | Int of int

let rec parse tokens =
  let helper x = x in
  match tokens with
  | [] -> []
  | t :: rest -> helper t :: parse rest

and parse_one t = t

module Lexer = struct
  let next s = s
end

module type PRINTER = sig
  val print : token -> string
end

exception Parse_error of string
`, []string{"token", "parse", "parse_one", "Lexer", "Lexer.next", "PRINTER", "Parse_error"}},
	{"src/pool.zig", `const std = @import("std");

// const Fake = struct {};
pub const Pool = struct {
    items: []u8,

    pub fn init(allocator: std.mem.Allocator) Pool {
        const local = 3;
        return .{ .items = &.{} };
    }

    const Slot = packed struct { used: bool };
};

pub const Error = error{ Exhausted };

const Kind = enum(u8) { small, large };

fn helper() void {}

test "pool grows" {}
`, []string{"Pool", "Pool.init", "Pool.Slot", "Error", "Kind", "helper"}},
	{"R/summary.R", `#' Summarise
#' fake <- function(x) x
summarise_runs <- function(runs, by = NULL) {
  inner <- function(x) x
  lapply(runs, inner)
}

print.run_summary = function(x, ...) {
  cat("run")
}

threshold <- 0.5
`, []string{"summarise_runs", "print.run_summary"}},
	{"Sources/Fetcher.m", `#import "Fetcher.h"

#define FETCH_TIMEOUT 30

@interface Fetcher ()
@property (nonatomic) NSURLSession *session;
@end

@implementation Fetcher

- (instancetype)initWithSession:(NSURLSession *)session {
    self = [super init];
    return self;
}

+ (Fetcher *)sharedFetcher;

- (void)fetch:(NSURL *)url completion:(void (^)(NSData *))done {
    [self.session dataTaskWithURL:url];
}

@end

static void log_failure(NSError *error) {
}
`, []string{"FETCH_TIMEOUT", "Fetcher", "Fetcher", "initWithSession", "sharedFetcher", "fetch", "log_failure"}},
}

// FuzzDefinitions reads any text as each language's source: no panic, and
// every name is a non-empty part of the text, on a line of it, the lines in
// order.
func FuzzDefinitions(f *testing.F) {
	for _, s := range moreDefSamples {
		f.Add(s.text)
	}
	f.Add("fun <T\nclass\nextension\n-record(\n@\n@x(\nfunction a.:\nx :: \n{-\nconst x = packed\n- (")
	exts := []string{".kt", ".scala", ".cs", ".dart", ".swift", ".lua", ".hs", ".ex", ".erl", ".jl", ".ml", ".zig", ".r", ".m",
		".py", ".go", ".ts", ".java", ".rs", ".c", ".rb", ".php"}
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		for _, ext := range exts {
			last := -1
			definitionLines(defLangOf("x"+ext), []byte(text), func(line int, qual, name string) {
				if name == "" || !strings.Contains(text, name) || line < last || line >= lines {
					t.Fatalf("%s: name %q (in %q) on line %d after %d of %d", ext, name, qual, line, last, lines)
				}
				last = line
			})
		}
	})
}

// TestInitializersAreNotDefinitions checks that a Dart constructor's
// initializers on a line of their own ("}) : assert(…)", ") :
// super(…);") define nothing: the constructor above them does.
func TestInitializersAreNotDefinitions(t *testing.T) {
	text := `class Options {
  Options({
    this.timeout,
  })  : assert(timeout == null || !timeout.isNegative);

  final Duration? timeout;
}

class NotSupported implements Exception {
  NotSupported(
    String message,
  ) : super('not supported');
}
`
	var got []string
	definitions(defLangOf("lib/options.dart"), []byte(text), func(qual, name string) { got = append(got, qualified(qual, name)) })
	if want := []string{"Options", "Options.Options", "NotSupported", "NotSupported.NotSupported"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q, want %q: an initializer is no definition", got, want)
	}
	got = nil
	cpp := "} while (0)\n::std::vector<std::string> GetArgvs() {\n  return {};\n}\n"
	definitions(defLangOf("src/flags.cc"), []byte(cpp), func(qual, name string) { got = append(got, qualified(qual, name)) })
	if want := []string{"GetArgvs"}; !slices.Equal(got, want) {
		t.Errorf("definitions(C++) = %q, want %q: a block's end is none, a name after :: is one", got, want)
	}
}

// TestLuaLocalFunctionValue checks that a function assigned to a local
// (or Teal's global) at the top level is defined by its name, not by
// the keyword "local".
func TestLuaLocalFunctionValue(t *testing.T) {
	text := "local handler = function(req)\n  return req\nend\n\nglobal on_exit = function()\nend\n"
	var got []string
	definitions(defLangOf("src/server.lua"), []byte(text), func(qual, name string) { got = append(got, qualified(qual, name)) })
	if want := []string{"handler", "on_exit"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q, want %q", got, want)
	}
}

// TestTupleReturnTypes checks that a C# method returning a tuple is
// defined by its name, not by the modifier before the tuple.
func TestTupleReturnTypes(t *testing.T) {
	text := `public class Binder
{
    public (MessageTemplate, int) BindZero()
    {
        return (null, 0);
    }

    public static (int Count, string Name) Parse(string text) => (0, text);

    public Binder(int size)
    {
    }
}
`
	var got []string
	definitions(defLangOf("src/Binder.cs"), []byte(text), func(qual, name string) { got = append(got, qualified(qual, name)) })
	if want := []string{"Binder", "Binder.BindZero", "Binder.Parse", "Binder.Binder"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q, want %q", got, want)
	}
}
