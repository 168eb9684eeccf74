package core

import (
	"context"
	"path"
	"strings"
)

// MapFileShown reports whether players may read a file of a campaign's
// maps/ folder (urlPath such as /campaigns/<id>/maps/<name>): the folder
// where the console keeps the pictures of the maps it makes, and their fog
// masks. A file that is the image, video or fog of a map is shown only
// while one such map is on the player screen: a map being prepared off
// screen does not reach players, not even its picture. Any other file is
// for the caller's usual rules (true).
func (s *Service) MapFileShown(ctx context.Context, urlPath string) (bool, error) {
	parts := strings.Split(strings.TrimPrefix(path.Clean(urlPath), "/"), "/")
	if len(parts) != 4 || parts[0] != "campaigns" || parts[2] != "maps" {
		return true, nil
	}
	p := s.pin()
	shown := true
	err := p.store.View(ctx, func(tx Tx) error {
		maps, err := tx.Maps(parts[1])
		if err != nil {
			return err
		}
		screen, err := p.playerScreenMap(tx)
		if err != nil {
			return err
		}
		name := "/" + strings.Join(parts, "/")
		for _, m := range maps {
			if m.Image != name && m.Video != name && m.Fog != name {
				continue
			}
			if m.ID == screen && screen != "" {
				shown = true
				return nil
			}
			shown = false
		}
		return nil
	})
	return shown, err
}
