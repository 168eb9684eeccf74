package legacyxml

// Limits bound what one XML document may cost to read. A zero field takes
// its default (DefaultLimits); a negative one is refused by withDefaults
// as if zero, since an unbounded reader is never wanted.
type Limits struct {
	// MaxBytes caps the document's size, as read (after any archive is
	// unpacked).
	MaxBytes int64
	// MaxElements caps the number of elements in the document.
	MaxElements int
	// MaxDepth caps the nesting of elements (the root is depth 1).
	MaxDepth int
	// MaxText caps one text node, one CDATA section or one attribute
	// value, in bytes.
	MaxText int
	// MaxAttrs caps the attributes of one element.
	MaxAttrs int
	// MaxWholeBytes and MaxWholeElements cap a document read whole into
	// one tree (module.xml, campaign.xml, pack.xml, a canvas), which
	// costs about 170 bytes of memory an element besides its texts: a
	// compendium is read entry by entry and held to MaxBytes and
	// MaxElements alone.
	MaxWholeBytes    int64
	MaxWholeElements int
}

// DefaultLimits hold a whole published compendium (the largest Fight Club
// 5e collections are tens of megabytes, about a million elements nested
// five deep, with texts of a few kilobytes) with room to spare, and keep a
// hostile document far from gigabytes.
var DefaultLimits = Limits{
	MaxBytes:         256 << 20,
	MaxElements:      4_000_000,
	MaxDepth:         64,
	MaxText:          4 << 20,
	MaxAttrs:         256,
	MaxWholeBytes:    64 << 20,
	MaxWholeElements: 500_000,
}

// WithDefaults returns l with every zero or negative field set to its
// default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.MaxBytes > 0 {
		d.MaxBytes = l.MaxBytes
	}
	if l.MaxElements > 0 {
		d.MaxElements = l.MaxElements
	}
	if l.MaxDepth > 0 {
		d.MaxDepth = l.MaxDepth
	}
	if l.MaxText > 0 {
		d.MaxText = l.MaxText
	}
	if l.MaxAttrs > 0 {
		d.MaxAttrs = l.MaxAttrs
	}
	if l.MaxWholeBytes > 0 {
		d.MaxWholeBytes = l.MaxWholeBytes
	}
	if l.MaxWholeElements > 0 {
		d.MaxWholeElements = l.MaxWholeElements
	}
	return d
}

// whole is l for a document read whole: its size and elements capped by
// MaxWholeBytes and MaxWholeElements too.
func (l Limits) whole() Limits {
	l = l.WithDefaults()
	l.MaxBytes = min(l.MaxBytes, l.MaxWholeBytes)
	l.MaxElements = min(l.MaxElements, l.MaxWholeElements)
	return l
}
