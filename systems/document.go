package systems

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// buildDocument builds the GET /api/system body once per loaded system:
// id, name, version, systemVersion, description, author, config, settings,
// definitions.entities (keyed by kind) and definitions.types. The ETag is a
// hash of the body, so an identical reload keeps it.
func buildDocument(s *System, config, settings any, types map[string]any) ([]byte, string) {
	entities := make(map[string]*Kind, len(s.kinds))
	for _, k := range s.kinds {
		entities[k.Name] = k
	}
	doc := struct {
		ID            string `json:"id"`
		Name          string `json:"name"`
		Version       string `json:"version"`
		SystemVersion string `json:"systemVersion,omitempty"`
		Description   string `json:"description,omitempty"`
		Author        string `json:"author,omitempty"`
		Config        any    `json:"config"`
		Settings      any    `json:"settings"`
		Definitions   struct {
			Entities map[string]*Kind `json:"entities"`
			Types    map[string]any   `json:"types"`
		} `json:"definitions"`
	}{
		ID: s.manifest.ID, Name: s.manifest.Name, Version: s.manifest.Version,
		SystemVersion: s.manifest.SystemVersion, Description: s.manifest.Description, Author: s.manifest.Author,
		Config: config, Settings: settings,
	}
	doc.Definitions.Entities = entities
	doc.Definitions.Types = types
	body, err := json.Marshal(doc)
	if err != nil {
		// Every value came out of the Lua converter as plain JSON.
		panic("systems: document cannot be marshalled: " + err.Error())
	}
	sum := sha256.Sum256(body)
	return body, `"` + hex.EncodeToString(sum[:12]) + `"`
}
