package dice

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"sync"
)

// Source produces die faces. Roll returns a uniformly chosen integer in
// 1..sides. A fate die asks for Roll(3) and reads 1, 2, 3 as -1, 0, +1.
// A Source need not be safe for concurrent use: the Roller serialises it.
type Source interface {
	Roll(sides int) int
}

// Roller rolls expressions and the dice in chat text. It is safe for
// concurrent use; its zero value is not usable (call NewRoller).
type Roller struct {
	mu  sync.Mutex
	src Source
}

// NewRoller returns a Roller drawing from ChaCha8 seeded from crypto/rand:
// the one to use in production.
func NewRoller() *Roller {
	var seed [32]byte
	crand.Read(seed[:]) // never fails on supported platforms (Go 1.24+ panics instead)
	return &Roller{src: chachaSource{rand.New(rand.NewChaCha8(seed))}}
}

// NewSeededRoller returns a Roller whose rolls are a pure function of seed:
// the same seed and the same calls give the same results (for the command
// line's --seed, documentation examples and tests).
func NewSeededRoller(seed uint64) *Roller {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	return &Roller{src: chachaSource{rand.New(rand.NewChaCha8(s))}}
}

// NewRollerWithSource returns a Roller drawing from src, such as a
// Sequence in tests.
func NewRollerWithSource(src Source) *Roller {
	return &Roller{src: src}
}

type chachaSource struct{ r *rand.Rand }

func (c chachaSource) Roll(sides int) int { return c.r.IntN(sides) + 1 }

// face draws one face of a die of the given sides.
func (r *Roller) face(sides int) int {
	r.mu.Lock()
	v := r.src.Roll(sides)
	r.mu.Unlock()
	return v
}

// Sequence is a Source that returns fixed values in order, starting over
// at the end: NewSequence(6, 4, 3, 2) rolls 6, 4, 3, 2, 6, ... A value
// outside 1..sides is wrapped into range, so any sequence is a valid source.
type Sequence struct {
	vals []int
	next int
}

// NewSequence returns a Sequence of vals (a single 1 when vals is empty).
func NewSequence(vals ...int) *Sequence {
	if len(vals) == 0 {
		vals = []int{1}
	}
	return &Sequence{vals: vals}
}

// Roll returns the next value of the sequence, wrapped into 1..sides.
func (s *Sequence) Roll(sides int) int {
	v := s.vals[s.next]
	s.next = (s.next + 1) % len(s.vals)
	v = (v-1)%sides + 1
	if v < 1 {
		v += sides
	}
	return v
}
