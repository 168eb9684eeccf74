package datafolder

import (
	"context"
	"path"
	"path/filepath"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/sound"
)

// SoundFolder is the sub-folder of a campaign's folder its audio library
// lives in: /campaigns/<id>/audio/, carried by its exports and backups
// like its maps and handouts.
const SoundFolder = "audio"

// SoundLocator is the audio library's folder: that of the primary
// campaign in the data folder (cmd/companion gives it to sound.Library).
func SoundLocator(svc *engine.Service, dataDir string) func(context.Context) (sound.Folder, error) {
	return func(ctx context.Context) (sound.Folder, error) {
		if dataDir == "" {
			return sound.Folder{}, core.Conflictf("this server has no data folder to keep sound files in")
		}
		camp, err := svc.PrimaryCampaign(ctx)
		if err != nil {
			return sound.Folder{}, err
		}
		return sound.Folder{Dir: filepath.Join(dataDir, "campaigns", camp.ID, SoundFolder),
			URL: path.Join("/campaigns", camp.ID, SoundFolder)}, nil
	}
}
