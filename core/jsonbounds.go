package core

// Bounds on a JSON document a client sends (an HTTP body, a WebSocket
// request's data), checked on its bytes before anything is decoded.
//
// Decoding JSON into Go values costs far more than the bytes: each number
// of an array becomes an interface and a boxed float, each {} a map, and
// encoding/json builds the whole value before the server can look at it
// (an 8 MiB array of zeros cost 265 MB, of empty objects 358 MB). So the
// document is first read as bytes, without building anything, counting
// its values, its nesting and the members of each object; past a bound it
// is refused whole (too large), and a document within them decodes into a
// few times its size. Every bound is far above what a real request holds:
// an SRD monster is a few hundred values, a map's walls a few thousand.
const (
	// MaxJSONValues bounds the values of one document: every number,
	// string, true, false, null, object and array counts one.
	MaxJSONValues = 100_000
	// MaxJSONDepth bounds its nesting (the entity data it may carry is
	// bounded to MaxDataDepth once decoded).
	MaxJSONDepth = 100
	// MaxJSONMembers bounds the members of one object.
	MaxJSONMembers = 10_000
	// JSONContainersBase and JSONContainerBytes bound the objects and
	// arrays of one document by its size: JSONContainersBase, plus one for
	// each JSONContainerBytes bytes of it. Each costs a map or a slice
	// once decoded (an empty object about 128 bytes, forty times its
	// three bytes of "{},"); a real document holds one every few hundred
	// bytes.
	JSONContainersBase = 1000
	JSONContainerBytes = 64
)

// CheckJSON reads a JSON document's bytes and refuses it when it holds
// more values, more objects and arrays for its size or larger objects
// than the bounds above allow (KindTooLarge), or nests deeper (KindInvalid,
// as the entity data it may carry is). It builds nothing and allocates a stack of at most
// MaxJSONDepth entries. It does not validate the document: a malformed one
// is left to the decoder, which says where it is wrong.
func CheckJSON(data []byte) error {
	var stack [MaxJSONDepth + 1]int32 // members of each open object; -1 for an array
	depth, values, containers := 0, 0, 0
	maxContainers := JSONContainersBase + len(data)/JSONContainerBytes
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case ' ', '\t', '\r', '\n', ',', ':':
		case '{', '[':
			values++
			if containers++; containers > maxContainers {
				return TooLargef("the JSON holds more than %d objects and arrays (%d, and one for each %d bytes of it)", maxContainers, JSONContainersBase, JSONContainerBytes)
			}
			if depth >= MaxJSONDepth {
				return Invalidf("the JSON is nested deeper than %d levels", MaxJSONDepth)
			}
			stack[depth] = -1
			if c == '{' {
				stack[depth] = 0
			}
			depth++
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case '"':
			end := stringEnd(data, i+1)
			if depth > 0 && stack[depth-1] >= 0 && isKey(data, end+1) {
				stack[depth-1]++
				if stack[depth-1] > MaxJSONMembers {
					return TooLargef("a JSON object has more than %d members", MaxJSONMembers)
				}
			} else {
				values++
			}
			i = end
		default:
			values++
			for i+1 < len(data) && !isJSONDelimiter(data[i+1]) {
				i++ // the rest of a number, true, false or null
			}
		}
		if values > MaxJSONValues {
			return TooLargef("the JSON holds more than %d values", MaxJSONValues)
		}
	}
	return nil
}

// stringEnd is the index of the quote that ends the string starting at i
// (after its opening quote), or the last index when it never ends.
func stringEnd(data []byte, i int) int {
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(data) - 1
}

// isKey reports whether the string that ended before i is an object's key:
// a colon follows it.
func isKey(data []byte, i int) bool {
	for ; i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}

func isJSONDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}
