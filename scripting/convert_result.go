package scripting

import (
	"bytes"
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// The converters of what a Lua call returns, one per Runtime method: Call
// takes any JSON value, CallTable a table of named values, CallJSON that
// table written straight to JSON. Each runs while the state is still held
// and names the function (file and line) when the result will not do.

// resultFunc converts what a call returned, while the state is still
// held; fn is the function called (for error positions).
type resultFunc func(ret lua.LValue, fn *lua.LFunction) (any, error)

// anyResult converts any JSON-compatible result.
func (c *converter) anyResult(field, kind string) resultFunc {
	return func(ret lua.LValue, fn *lua.LFunction) (any, error) {
		value, err := c.fromLua(ret)
		if err != nil {
			return nil, c.notJSON(fn, field, kind, err)
		}
		return value, nil
	}
}

// checkTable refuses a result that is not a table of named values.
func (c *converter) checkTable(ret lua.LValue, fn *lua.LFunction, field, kind string) error {
	file, line := funcPos(fn)
	if _, ok := ret.(*lua.LTable); !ok {
		return &ScriptError{Problem: Problem{File: file, Line: line,
			Message: fmt.Sprintf("the %s function of %q returned a %s; it must return a table", field, kind, ret.Type().String())}}
	}
	return nil
}

func listError(fn *lua.LFunction, field, kind string) error {
	file, line := funcPos(fn)
	return &ScriptError{Problem: Problem{File: file, Line: line,
		Message: fmt.Sprintf("the %s function of %q returned a list; it must return a table of named values", field, kind)}}
}

// tableResult converts a table of named values to a map.
func (c *converter) tableResult(field, kind string) resultFunc {
	return func(ret lua.LValue, fn *lua.LFunction) (any, error) {
		if err := c.checkTable(ret, fn, field, kind); err != nil {
			return nil, err
		}
		value, err := c.fromLua(ret)
		if err != nil {
			return nil, c.notJSON(fn, field, kind, err)
		}
		switch v := value.(type) {
		case map[string]any:
			return v, nil
		case []any:
			if len(v) == 0 {
				return map[string]any{}, nil // an unmarked empty table
			}
		}
		return nil, listError(fn, field, kind)
	}
}

func (c *converter) notJSON(fn *lua.LFunction, field, kind string, err error) error {
	file, line := funcPos(fn)
	return &ScriptError{Problem: Problem{File: file, Line: line,
		Message: fmt.Sprintf("the %s function of %q returned a value that is not JSON: %v", field, kind, err)}}
}

// jsonResult is what CallJSON returns.
type jsonResult struct {
	data  []byte
	value map[string]any
}

// Default is a key CallJSON adds to the table a function returns when the
// table does not set it (keys are distinct).
type Default struct {
	Key   string
	Value any
}

func (c *converter) jsonResult(field, kind string, defaults []Default, wantValue bool) resultFunc {
	return func(ret lua.LValue, fn *lua.LFunction) (any, error) {
		if err := c.checkTable(ret, fn, field, kind); err != nil {
			return nil, err
		}
		t := c.frozen.unwrap(ret.(*lua.LTable))
		if shape, n, _ := c.shape(t); shape == shapeArray && n > 0 {
			if _, err := c.fromLua(ret); err != nil {
				return nil, c.notJSON(fn, field, kind, err)
			}
			return nil, listError(fn, field, kind)
		}
		c.lossy = false
		c.left = maxResultSize
		// The JSON is written in the state's scratch buffer and copied out
		// at its exact size: the copy is what is kept (cached), and
		// sizing a fresh buffer for each view would leave headroom or
		// regrow it, more garbage either way.
		data, value, ok := c.appendTable(c.jsonBuf[:0], t, defaults, 0, wantValue)
		defer func() {
			if cap(data) <= maxJSONScratch {
				c.jsonBuf = data[:0]
			}
		}()
		if ok && !wantValue && c.lossy {
			// The JSON will not read back as the value: build it now.
			c.left = maxResultSize
			data, value, ok = c.appendTable(data[:0], t, defaults, 0, true)
		}
		if !ok {
			// fromLua says what is wrong, with the path of keys.
			_, err := c.fromLua(ret)
			if err == nil {
				err = convErr("a value cannot be written as JSON")
			}
			return nil, c.notJSON(fn, field, kind, err)
		}
		r := jsonResult{data: bytes.Clone(data)}
		if value != nil {
			r.value = value.(map[string]any)
		}
		return r, nil
	}
}
