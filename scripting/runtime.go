package scripting

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// DefaultCallTimeout bounds every Lua call unless Options says otherwise.
const DefaultCallTimeout = 250 * time.Millisecond

// Options configure a Runtime.
type Options struct {
	// CallTimeout bounds each call (and the entry script's first run).
	CallTimeout time.Duration
	// PoolSize is the most states alive at once (default: GOMAXPROCS, at
	// least 2). Callers beyond it wait for a state.
	PoolSize int
	// Print receives what scripts print (default: dropped).
	Print func(string)
	// MaxCallMemory bounds what one call may hold, in bytes (default
	// DefaultMaxCallMemory; negative: no bound). See memory.go.
	MaxCallMemory int64
	// Null is what JSON null becomes in the value CallJSON returns (default
	// nil), and is read as null in the values passed to Lua. The systems
	// package passes the template null, so a page reads the view as it
	// comes, without another walk to mark its nulls. It must be a
	// comparable value no JSON value equals (a typed nil pointer).
	Null any

	// noIsolation leaves pooled states unfrozen: only for the benchmark
	// that measures what isolation costs.
	noIsolation bool
}

// Runtime is the pool of prepared Lua states of one system version. It is
// safe for concurrent use; each call borrows a state for its duration.
type Runtime struct {
	prog    *Program
	opts    Options
	decl    *Declarations
	idle    chan *state
	slots   chan struct{} // one token per live state
	closed  atomic.Bool
	mu      sync.Mutex
	created int // states created so far (for tests and metrics)
}

// Start prepares the first state: it runs the entry script, whose
// declarations become the runtime's. An error running it is a
// *ScriptError located where it happened.
func Start(prog *Program, opts Options) (*Runtime, error) {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.PoolSize <= 0 {
		opts.PoolSize = max(2, runtime.GOMAXPROCS(0))
	}
	if opts.MaxCallMemory == 0 {
		opts.MaxCallMemory = DefaultMaxCallMemory
	}
	rt := &Runtime{
		prog:  prog,
		opts:  opts,
		idle:  make(chan *state, opts.PoolSize),
		slots: make(chan struct{}, opts.PoolSize),
	}
	rt.slots <- struct{}{}
	st, err := rt.prepare(context.Background())
	if err != nil {
		<-rt.slots
		return nil, err
	}
	rt.decl = st.decl
	rt.idle <- st
	return rt, nil
}

// Declarations returns what the entry script declared.
func (rt *Runtime) Declarations() *Declarations { return rt.decl }

// HasFunc reports whether kind declared a function field.
func (rt *Runtime) HasFunc(kind, field string) bool {
	if kind == GridHooks {
		if rt.decl.Grid == nil {
			return false
		}
		_, ok := rt.decl.Grid.Funcs[field]
		return ok
	}
	for _, e := range rt.decl.Entities {
		if e.Kind == kind {
			_, ok := e.Funcs[field]
			return ok
		}
	}
	return false
}

// FuncPos is where kind's function field is defined.
func (rt *Runtime) FuncPos(kind, field string) (string, int) {
	if kind == GridHooks && rt.decl.Grid != nil {
		p := rt.decl.Grid.Funcs[field]
		return p.File, p.Line
	}
	for _, e := range rt.decl.Entities {
		if e.Kind == kind {
			p := e.Funcs[field]
			return p.File, p.Line
		}
	}
	return "", 0
}

// prepare makes a new state and runs the entry script in it, under the
// call timeout.
func (rt *Runtime) prepare(ctx context.Context) (*state, error) {
	st := newState(rt.prog, rt.opts.Print)
	st.conv.valueNull = rt.opts.Null
	if rt.opts.MaxCallMemory > 0 {
		st.deadline.limit = rt.opts.MaxCallMemory
		st.deadline.measure = st.footprint
	}
	st.deadline.arm(ctx, rt.opts.CallTimeout)
	st.L.SetContext(st.deadline)
	err := st.runEntry()
	st.L.RemoveContext()
	st.deadline.disarm()
	if err != nil {
		st.close()
		return nil, rt.scriptError(st.describeRaised(err), st.deadline)
	}
	if !rt.opts.noIsolation {
		st.freeze()
	}
	rt.mu.Lock()
	rt.created++
	rt.mu.Unlock()
	return st, nil
}

// acquire borrows an idle state, prepares a new one when the pool has room,
// or waits.
func (rt *Runtime) acquire(ctx context.Context) (*state, error) {
	select {
	case st := <-rt.idle:
		return st, nil
	default:
	}
	select {
	case st := <-rt.idle:
		return st, nil
	case rt.slots <- struct{}{}:
		st, err := rt.prepare(ctx)
		if err != nil {
			<-rt.slots
			return nil, err
		}
		return st, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release returns a healthy state to the pool.
func (rt *Runtime) release(st *state) {
	if rt.closed.Load() {
		rt.discard(st)
		return
	}
	rt.idle <- st
	// Close may have drained the pool just before st went in.
	if rt.closed.Load() {
		rt.drain()
	}
}

// discard closes a state that failed (or outlived the runtime) and frees
// its slot.
func (rt *Runtime) discard(st *state) {
	st.close()
	<-rt.slots
}

// Close releases the idle states; states in use are closed when returned.
func (rt *Runtime) Close() {
	rt.closed.Store(true)
	rt.drain()
}

// drain closes the idle states.
func (rt *Runtime) drain() {
	for {
		select {
		case st := <-rt.idle:
			rt.discard(st)
		default:
			return
		}
	}
}

// Created is how many states the runtime has prepared so far.
func (rt *Runtime) Created() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.created
}

// Call runs kind's function field with arg (a JSON value) and returns its
// result as a JSON value. A Lua error, a timeout, a stack overflow or a
// result that cannot be converted is a *ScriptError naming file and line;
// the state it happened in is discarded.
func (rt *Runtime) Call(ctx context.Context, kind, field string, arg any) (any, error) {
	st, err := rt.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return rt.callOn(ctx, st, kind, field, arg, rt.release, st.conv.anyResult(field, kind))
}

// CallTable is Call for functions that must return a table of named values
// (a view): any other result is an error located at the function.
func (rt *Runtime) CallTable(ctx context.Context, kind, field string, arg any) (map[string]any, error) {
	st, err := rt.acquire(ctx)
	if err != nil {
		return nil, err
	}
	v, err := rt.callOn(ctx, st, kind, field, arg, rt.release, st.conv.tableResult(field, kind))
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// CallJSON is CallTable returning the table written as JSON: the bytes
// encoding/json (without HTML escaping) would write for the map CallTable
// returns, with each key of defaults the table does not set added. It
// writes them straight from the Lua table. With wantValue it also returns
// that map (defaults included). Without, the map is built only when the
// JSON does not read back as it (DecodeJSON would not give the same map:
// a -0, a string that is not UTF-8); otherwise it is nil. JSON null is
// Options.Null in that map.
func (rt *Runtime) CallJSON(ctx context.Context, kind, field string, arg any, defaults []Default, wantValue bool) ([]byte, map[string]any, error) {
	st, err := rt.acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	if defaults == nil {
		defaults = []Default{} // not nil: marks the top-level table
	}
	v, err := rt.callOn(ctx, st, kind, field, arg, rt.release, st.conv.jsonResult(field, kind, defaults, wantValue))
	if err != nil {
		return nil, nil, err
	}
	r := v.(jsonResult)
	return r.data, r.value, nil
}

// CallFresh is Call in a state prepared for this call alone and closed
// after it: no pooled state is touched. It is the baseline the pool is
// measured against, and a way to rule out state left behind by earlier
// calls when debugging a script.
func (rt *Runtime) CallFresh(ctx context.Context, kind, field string, arg any) (any, error) {
	rt.slots <- struct{}{}
	st, err := rt.prepare(ctx)
	if err != nil {
		<-rt.slots
		return nil, err
	}
	return rt.callOn(ctx, st, kind, field, arg, rt.discard, st.conv.anyResult(field, kind))
}

// callOn runs the call on st and converts its result with convert; release
// gives back a healthy state, failed states are discarded.
func (rt *Runtime) callOn(ctx context.Context, st *state, kind, field string, arg any, release func(*state), convert resultFunc) (any, error) {
	var err error
	fn := st.funcs[kind][field]
	if fn == nil {
		release(st)
		return nil, fmt.Errorf("kind %q declares no %s function", kind, field)
	}
	L := st.L
	larg, err := st.conv.toLua(L, arg)
	if err != nil {
		release(st)
		return nil, fmt.Errorf("cannot pass the %s to Lua: %v", kind, err)
	}
	st.deadline.arm(ctx, rt.opts.CallTimeout)
	L.SetContext(st.deadline)
	L.Push(fn)
	L.Push(larg)
	err = L.PCall(1, 1, nil)
	L.RemoveContext()
	st.deadline.disarm()
	if err != nil {
		err = rt.scriptError(st.describeRaised(err), st.deadline)
		L.SetTop(0)
		rt.discard(st)
		return nil, err
	}
	ret := L.Get(-1)
	L.Pop(1)
	value, err := convert(ret, fn)
	st.afterCall()
	release(st)
	return value, err
}

// scriptError turns a gopher-lua error into a located *ScriptError.
func (rt *Runtime) scriptError(err error, ctx context.Context) error {
	var apiErr *lua.ApiError
	msg := err.Error()
	if errors.As(err, &apiErr) && apiErr.Object != nil {
		msg = apiErr.Object.String()
	}
	p := problemFromLua(msg)
	se := &ScriptError{Problem: p}
	var memErr *MemoryLimitError
	switch {
	case errors.As(ctx.Err(), &memErr) && strings.Contains(p.Message, memErr.Error()):
		se.Message = memErr.Error() + " (a string or table growing in a loop?)"
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && strings.Contains(p.Message, context.DeadlineExceeded.Error()):
		se.Timeout = true
		se.Message = fmt.Sprintf("the script ran longer than %v and was stopped (an endless loop?)", rt.opts.CallTimeout)
		// A library function stopped by the deadline says which.
		if fn, _, ok := strings.Cut(p.Message, ": "); ok && strings.HasPrefix(fn, "string.") {
			se.Message = fmt.Sprintf("the script ran longer than %v and was stopped in %s (a pattern that backtracks too much?)", rt.opts.CallTimeout, fn)
		}
	case strings.Contains(p.Message, context.Canceled.Error()):
		se.Message = "the call was cancelled"
	case p.Message == "stack overflow" || strings.Contains(p.Message, "registry overflow") || strings.Contains(p.Message, "callstack overflow"):
		se.Message = p.Message + " (runaway recursion?)"
	}
	return se
}
