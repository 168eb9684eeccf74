package wire

// System is what the public description needs of the loaded game system:
// its name and version for the title, and its entity kinds, each of which
// becomes a collection path and a schema. routes fills it from the
// running system; a zero System describes the system-independent part.
type System struct {
	Name, Version string
	Kinds         []Kind
}

// Kind is one entity kind of a system as the description shows it.
type Kind struct {
	Name            string   // "magic_item"
	Collection      string   // the path segment: "magic-items"
	Title           string   // one of them: "Magic item"
	CollectionTitle string   // all of them: "Magic items"
	Filters         []string // the keys schema=list rows carry
}

// The values of the schema query parameter of the entity collections.
const (
	SchemaList  = "list"  // rows with the filter keys (the default)
	SchemaBasic = "basic" // rows without them
	SchemaModel = "model" // stored entities
	SchemaView  = "view"  // values as displayed
)

// The ways the join key travels, named once for the handlers and the
// description.
const (
	JoinKeyHeader = "X-Companion-Key"
	JoinKeyQuery  = "key"
	PassCookie    = "companion_pass"
	SeatHeader    = "X-Companion-Seat"
)
