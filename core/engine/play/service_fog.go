package play

import (
	"context"
	"encoding/base64"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// FogTarget returns a map and the primary campaign whose folder keeps its
// fog mask.
func (s *PlayRoom) FogTarget(ctx context.Context, mapID string) (*core.Map, *core.Campaign, error) {
	p := s.pin()
	var m *core.Map
	var c *core.Campaign
	err := p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		if m, err = kernel.MapByID(tx, mapID); err != nil {
			return err
		}
		c, err = p.PrimaryCampaign(tx)
		return err
	})
	return m, c, err
}

// SetFog records a map's new fog mask (fog, the URL path of the file the
// caller wrote) and, when fogOn is given, turns fog of war on or off.
// Clients get fogUpdated with the mask (when png is given) and, when fog
// was turned on or off, mapUpdated. It returns the map's previous fog
// path, for the caller to remove the old file.
func (s *PlayRoom) SetFog(ctx context.Context, mapID, fog string, png []byte, fogOn *bool) (previous string, err error) {
	p := s.pin()
	err = p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		m, err := kernel.MapByID(tx, mapID)
		if err != nil {
			return nil, err
		}
		previous = m.Fog
		if fog != "" {
			m.Fog = fog
		}
		toggled := fogOn != nil && *fogOn != m.FogOfWar
		if fogOn != nil {
			m.FogOfWar = *fogOn
		}
		tokens := m.Tokens
		m.Tokens = nil // the map document only; tokens keep their rows
		if err := tx.PutMap(m); err != nil {
			return nil, err
		}
		m.Tokens = tokens
		// Players see a map once it is on the player screen: a map the GM
		// prepares off screen reaches the host console alone.
		onScreen, err := p.PlayersSee(tx, m.ID)
		if err != nil {
			return nil, err
		}
		var events []core.Event
		if toggled {
			host, err := p.HostMapIn(tx, m)
			if err != nil {
				return nil, err
			}
			views := redact.HostOnly(host)
			if onScreen {
				if views.Players, err = p.PlayerMapIn(tx, m); err != nil {
					return nil, err
				}
			}
			events = append(events, core.Event{Name: core.EventMapUpdated, Data: views})
		}
		if png != nil {
			image := &core.FogImage{ID: m.ID, Image: base64.StdEncoding.EncodeToString(png)}
			if onScreen {
				events = append(events, core.Event{Name: core.EventFogUpdated, Data: image})
			} else {
				events = append(events, core.Event{Name: core.EventFogUpdated, Data: redact.HostOnly(image)})
			}
		}
		return events, nil
	})
	return previous, err
}
