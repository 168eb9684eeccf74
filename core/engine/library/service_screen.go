package library

import (
	"cmp"
	"context"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/pages"
)

// SetOverlay shows (or takes down) an overlay on the primary campaign's
// player screen. Clients get screenUpdated.
func (s *LibraryRoom) SetOverlay(ctx context.Context, o core.ScreenOverlay) (*core.Screen, error) {
	p := s.pin()
	if o.Text != nil && len(*o.Text) > pages.MaxHandoutText {
		return nil, core.TooLargef("a text handout has at most %d bytes", pages.MaxHandoutText)
	}
	if o.Image != nil && *o.Image != "" && !strings.HasPrefix(*o.Image, "/") && !strings.HasPrefix(*o.Image, "https://") && !strings.HasPrefix(*o.Image, "http://") {
		return nil, core.Invalidf("overlayImage must be a path on this server (/campaigns/...) or an http(s) URL")
	}
	var out *core.Screen
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		screen, err := tx.Screen(c.ID)
		if err != nil {
			return nil, err
		}
		if o.Image != nil {
			screen.OverlayImage = *o.Image
		}
		if o.Text != nil {
			screen.OverlayHandoutText = *o.Text
		}
		if o.Style != nil {
			screen.OverlayHandoutStyle = *o.Style
		}
		switch {
		case screen.OverlayImage != "":
			screen.OverlayType = core.OverlayImage
		case screen.OverlayHandoutText != "":
			screen.OverlayType = core.OverlayHandout
		default:
			screen.OverlayType = ""
		}
		if err := tx.PutScreen(c.ID, screen); err != nil {
			return nil, err
		}
		p.LiveScreen(screen)
		out = screen
		events := []core.Event{{Name: core.EventScreenUpdated, Data: screen}}
		// What this put on the screen goes into the journal (journal.go).
		var shown *core.JournalEntry
		switch {
		case o.Image != nil && *o.Image != "":
			shown = &core.JournalEntry{Kind: core.JournalImage, Title: pictureTitle(cmp.Or(o.Title, *o.Image)), URL: *o.Image}
		case o.Text != nil && strings.TrimSpace(*o.Text) != "":
			shown = &core.JournalEntry{Kind: core.JournalHandout, Title: handoutTitle(*o.Text), Text: *o.Text}
		}
		if shown != nil {
			ev, err := p.recordShown(tx, c.ID, shown)
			if err != nil {
				return nil, err
			}
			events = append([]core.Event{ev}, events...)
		}
		return events, nil
	})
	return out, err
}
