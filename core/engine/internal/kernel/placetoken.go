package kernel

import (
	"github.com/vttapp/companion/core"
)

func TokenFromTemplate(e *core.Entity, tpl *core.TokenTemplate, p core.PlaceToken) *core.Token {
	t := &core.Token{
		ID: core.NewID(), Name: e.Name, Label: tpl.Label, Role: tpl.Role, X: p.X, Y: p.Y,
		Width: tpl.Width, Height: tpl.Height, Hidden: p.Hidden, Vision: tpl.Vision,
		Reference: "/" + e.Kind + "/" + e.Slug,
	}
	id := e.ID
	t.EntityID = &id
	image := tpl.Image
	if image == "" {
		image = e.Token
	}
	if image == "" {
		image = e.Image
	}
	if image != "" {
		t.Image = &image
	}
	if t.Vision != nil && t.Vision.ID == "" {
		t.Vision.ID = core.NewID()
	}
	return t
}

func MapByID(tx core.Tx, id string) (*core.Map, error) {
	m, err := tx.Map(id)
	if core.IsNotFound(err) {
		return nil, core.NotFoundf("no map with id '%s'", core.Clip(id))
	}
	return m, err
}
