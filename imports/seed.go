package imports

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/vttapp/companion/core/engine"
)

// Seed fills a fresh data folder with a system's sample content:
// sample/compendium installed as a module and sample/campaign as the
// system's primary campaign, through the same installer as archives (files
// copied under dataDir/modules/<id>/ and dataDir/campaigns/<id>/). A data
// folder that already holds a module or a campaign is left alone, and a
// missing sample folder (or a nil sample) seeds nothing.
func Seed(ctx context.Context, svc *engine.Service, dataDir string, sample fs.FS, cols Collections) error {
	if sample == nil {
		return nil
	}
	modules, err := svc.Modules(ctx)
	if err != nil {
		return err
	}
	campaigns, err := svc.Campaigns(ctx)
	if err != nil {
		return err
	}
	if len(modules) > 0 || len(campaigns) > 0 {
		return nil // not a fresh data folder
	}
	in := NewInstaller(svc, dataDir, cols)
	for _, part := range []struct {
		folder string
		opt    InstallOptions
	}{
		{"compendium", InstallOptions{Expect: KindModule}},
		{"campaign", InstallOptions{Expect: KindCampaign, Primary: true}},
	} {
		if _, err := fs.Stat(sample, part.folder); err != nil {
			continue
		}
		sub, err := fs.Sub(sample, part.folder)
		if err != nil {
			return err
		}
		if _, err := in.InstallFS(ctx, sub, part.opt); err != nil {
			return fmt.Errorf("seeding sample/%s: %w", part.folder, err)
		}
	}
	return nil
}
