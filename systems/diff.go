package systems

import (
	"fmt"
	"strings"
)

// unifiedDiff returns a unified-style line diff of want and got with three
// lines of context, or "" when they are equal.
func unifiedDiff(wantName, gotName, want, got string) string {
	if want == got {
		return ""
	}
	a, b := splitLines(want), splitLines(got)
	ops := diffLines(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", wantName, gotName)
	const context = 3
	// Group the edit script into hunks.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-context)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*context || run == len(ops) {
				end = min(len(ops), end+context)
				break
			}
			end = run
		}
		aStart, bStart := ops[start].aLine, ops[start].bLine
		aCount, bCount := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aCount++
			}
			if op.kind != '-' {
				bCount++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart+1, aCount, bStart+1, bCount)
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

type diffOp struct {
	kind         byte // ' ', '-', '+'
	text         string
	aLine, bLine int // 0-based positions before this op
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// diffLines computes an edit script by longest common subsequence. Golden
// outputs are small (hundreds of lines), so the quadratic table is fine;
// beyond maxCells lines are compared one to one.
func diffLines(a, b []string) []diffOp {
	const maxCells = 4_000_000
	if len(a)*len(b) > maxCells {
		var ops []diffOp
		for _, l := range a {
			ops = append(ops, diffOp{kind: '-', text: l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{kind: '+', text: l})
		}
		return numberOps(ops)
	}
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{kind: ' ', text: a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{kind: '-', text: a[i]})
			i++
		default:
			ops = append(ops, diffOp{kind: '+', text: b[j]})
			j++
		}
	}
	return numberOps(ops)
}

func numberOps(ops []diffOp) []diffOp {
	aLine, bLine := 0, 0
	for k := range ops {
		ops[k].aLine, ops[k].bLine = aLine, bLine
		if ops[k].kind != '+' {
			aLine++
		}
		if ops[k].kind != '-' {
			bLine++
		}
	}
	return ops
}
