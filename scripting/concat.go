package scripting

import (
	"reflect"

	"github.com/yuin/gopher-lua/ast"
)

// maxConcatOperands is the most values one concatenation instruction joins.
//
// gopher-lua compiles a chain a .. b .. c ... into one instruction that
// joins every value at once, in Go, where neither the deadline nor the
// memory watchdog can look: 180 copies of a 4 MiB string allocated 724 MiB
// in that one step against the 32 MiB a call may hold, and a function may
// have some 200 registers of strings each up to that limit. groupConcats
// rewrites a longer chain so that each instruction joins at most this many
// values, the first of them the result of the instruction before; between
// two instructions the watchdog sees what the call holds and stops it. A
// view's chains ("<b>" .. name .. "</b> (" .. cr .. ")") are shorter and
// compile as before.
const maxConcatOperands = 8

// groupConcats rewrites, in place, every concatenation chain of the
// statements that joins more than maxConcatOperands values:
// v1 .. v2 .. ... .. vN becomes ((v1 .. ... .. v8) .. v9 .. ... .. v15) ..
// ... The text is the same for strings and numbers (joining is
// associative); only a __concat metamethod of a table inside such a long
// chain may see its operands grouped differently.
func groupConcats(stmts []ast.Stmt) {
	rewrite(reflect.ValueOf(stmts))
}

var exprType = reflect.TypeFor[ast.Expr]()

// rewrite walks the syntax tree below v (pointers, structs, slices and
// the interfaces that hold them) and replaces long chains where it finds
// them.
func rewrite(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Type() == exprType && v.CanSet() {
			if chain, ok := v.Interface().(*ast.StringConcatOpExpr); ok {
				v.Set(reflect.ValueOf(groupChain(chain)))
				return
			}
		}
		rewrite(v.Elem())
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				rewrite(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			rewrite(v.Index(i))
		}
	}
}

// groupChain returns chain with its values rewritten and, when it joins
// more than maxConcatOperands of them, grouped.
func groupChain(chain *ast.StringConcatOpExpr) ast.Expr {
	// The compiler joins the values along the right-hand side in one
	// instruction; a left-hand side that is itself a chain (a
	// parenthesised one) is joined on its own first.
	var values []ast.Expr
	var e ast.Expr = chain
	for {
		c, ok := e.(*ast.StringConcatOpExpr)
		if !ok {
			values = append(values, e)
			break
		}
		values = append(values, c.Lhs)
		e = c.Rhs
	}
	for i := range values {
		rewrite(reflect.ValueOf(&values[i]).Elem())
	}
	n := min(len(values), maxConcatOperands)
	grouped := rightChain(chain, values[:n])
	for rest := values[n:]; len(rest) > 0; {
		n = min(len(rest), maxConcatOperands-1)
		grouped = join(chain, grouped, rightChain(chain, rest[:n]))
		rest = rest[n:]
	}
	return grouped
}

// rightChain joins values as the parser builds a chain: v1 .. (v2 .. ...).
func rightChain(at *ast.StringConcatOpExpr, values []ast.Expr) ast.Expr {
	e := values[len(values)-1]
	for i := len(values) - 2; i >= 0; i-- {
		e = join(at, values[i], e)
	}
	return e
}

// join is lhs .. rhs, placed on at's lines (errors name its line).
func join(at *ast.StringConcatOpExpr, lhs, rhs ast.Expr) ast.Expr {
	c := &ast.StringConcatOpExpr{Lhs: lhs, Rhs: rhs}
	c.SetLine(at.Line())
	c.SetLastLine(at.LastLine())
	return c
}
