package wire

import (
	"context"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestAKindNamedLikeAWireShape: a system kind named like a wire shape
// (creature) gets its own schema name and leaves the shape whole.
func TestAKindNamedLikeAWireShape(t *testing.T) {
	body, err := PublicDocument(System{Name: "Test", Version: "1", Kinds: []Kind{
		{Name: "creature", Collection: "creatures", Title: "Creature", CollectionTitle: "Creatures", Filters: []string{"cr"}}}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	if c := doc.Components.Schemas["Creature"]; c == nil || c.Value.Properties["uid"] == nil {
		t.Error("the wire's Creature was replaced by the system's kind")
	}
	if doc.Components.Schemas["CreatureEntity"] == nil || doc.Components.Schemas["CreatureEntityRow"] == nil {
		t.Error("the kind creature has no schema of its own")
	}
	if doc.Paths.Find("/api/creatures") == nil || doc.Paths.Find("/api/creatures/{id}") == nil {
		t.Error("the kind's collection has no paths")
	}
}

// TestTheSystemFreeDocumentValidates: with no system loaded (what tsgen
// reads) the description is still a valid OpenAPI 3.1 document.
func TestTheSystemFreeDocumentValidates(t *testing.T) {
	body, err := PublicDocument(System{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("invalid: %v", err)
	}
}
