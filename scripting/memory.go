package scripting

import (
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"time"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The per-call memory bound.
//
// Go cannot say how much one goroutine allocated, and gopher-lua does not
// count what a state holds, so the bound is enforced in two steps:
//
//  1. A cheap trigger. While a call runs past sampleEvery, its deadline
//     timer also reads the process-wide allocation counter
//     (runtime/metrics /gc/heap/allocs:bytes, ~0.3 µs). When the process
//     has allocated MaxCallMemory bytes since the last look, the call is
//     suspected. Calls that finish within sampleEvery (every ordinary
//     view) never sample.
//  2. An attributable check. At its next instruction the Lua goroutine
//     itself measures what the call holds: the strings and tables
//     reachable from its stack frames (locals and temporaries), the
//     upvalues of the running functions, its scratch globals and the
//     modules it loaded. Shared frozen tables are not counted (they are
//     the system's, the same before and after). Only when that is at
//     least MaxCallMemory is the call stopped.
//
// The process-wide counter alone would make ordinary views fail under
// load (an import, another view, a page render allocating elsewhere in
// the same milliseconds); in this design it only decides when to look,
// at most once per MaxCallMemory bytes allocated by the process. What a
// call holds is its own, so a busy server cannot make a view fail.
//
// Not covered by the watchdog: garbage (a loop building and dropping big
// strings is bounded by the deadline and reclaimed by the collector) and
// allocations inside one Go function, which are capped where they happen
// (string.rep, string.format, string.gsub, string.upper and lower,
// table.concat: maxStringBuild; the conversion of the result:
// maxResultSize; the `..` operator joins at most maxConcatOperands values
// in one step, concat.go). The walks of the call chain (this footprint, the stack
// trace of an error) are bounded by the call stack: tail calls take a
// frame (program.go).

// DefaultMaxCallMemory is what one call may hold unless Options says
// otherwise: views hold kilobytes; a script that holds 32 MiB is runaway.
const DefaultMaxCallMemory = 32 << 20

const (
	allocsMetric = "/gc/heap/allocs:bytes"
	sampleEvery  = time.Millisecond
	// measureBudget bounds the values one check visits: a table of
	// millions of small entries is over the limit long before the walk
	// ends.
	measureBudget = 1 << 20
	// slotBytes is what a table entry costs beyond its string data.
	slotBytes = 32
)

// MemoryLimitError is the context error of a call stopped by the memory
// watchdog.
type MemoryLimitError struct {
	Limit int64
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("the script used more memory than the limit of %s for one call", mib(e.Limit))
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// sampleAllocs runs on the timer (w.mu held).
func (w *callDeadline) sampleAllocs() {
	metrics.Read(w.sample)
	if w.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	v := w.sample[0].Value.Uint64()
	if !w.haveBaseline {
		w.baseline, w.haveBaseline = v, true
		return
	}
	if v-w.baseline >= uint64(w.limit) {
		w.baseline = v
		w.suspect.Store(true)
	}
}

// memoryChecks counts the attributable checks made (for tests).
var memoryChecks atomic.Int64

// checkMemory runs on the Lua goroutine, between two instructions.
func (w *callDeadline) checkMemory() {
	w.suspect.Store(false)
	memoryChecks.Add(1)
	if w.measure == nil {
		return
	}
	if held := w.measure(); held >= w.limit {
		w.mu.Lock()
		if w.armed && !w.closed {
			w.stop(&MemoryLimitError{Limit: w.limit})
		}
		w.mu.Unlock()
	}
}

// footprint measures what the running call holds (see above). It runs on
// the Lua goroutine while the call is suspended between instructions.
func (st *state) footprint() int64 {
	m := &meter{frozen: st.frozen, tables: map[*lua.LTable]bool{}, fns: map[*lua.LFunction]bool{}, strs: map[*byte]bool{}, budget: measureBudget}
	L := st.L
	for level := 0; ; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		for n := 1; m.budget > 0; n++ {
			name, v := L.GetLocal(dbg, n)
			if name == "" {
				break
			}
			m.add(v)
		}
		if fn, err := L.GetInfo("f", dbg, lua.LNil); err == nil {
			m.add(fn)
		}
	}
	if st.frozen != nil {
		m.add(st.frozen.globals)
	}
	for _, v := range st.callLoaded {
		m.add(v)
	}
	return m.bytes
}

type meter struct {
	frozen *frozen
	tables map[*lua.LTable]bool
	fns    map[*lua.LFunction]bool
	strs   map[*byte]bool
	budget int
	bytes  int64
}

func (m *meter) add(v lua.LValue) {
	if m.budget <= 0 {
		return
	}
	m.budget--
	switch x := v.(type) {
	case lua.LString:
		if len(x) >= 1024 { // the same big string held twice is held once
			p := unsafe.StringData(string(x))
			if m.strs[p] {
				return
			}
			m.strs[p] = true
		}
		m.bytes += int64(len(x))
	case *lua.LTable:
		if m.tables[x] || m.shared(x) {
			return
		}
		m.tables[x] = true
		x.ForEach(func(k, v lua.LValue) {
			m.bytes += slotBytes
			m.add(k)
			m.add(v)
		})
	case *lua.LFunction:
		if x.IsG || m.fns[x] {
			return
		}
		m.fns[x] = true
		for _, uv := range x.Upvalues {
			if uv != nil {
				m.add(uv.Value())
			}
		}
	}
}

// shared reports a frozen table (a proxy or the table behind one): the
// system's, not the call's.
func (m *meter) shared(t *lua.LTable) bool {
	if m.frozen == nil {
		return false
	}
	if _, ok := m.frozen.target[t]; ok {
		return true
	}
	_, ok := m.frozen.proxy[t]
	return ok
}
